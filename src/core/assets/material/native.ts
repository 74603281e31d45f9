/**
 * What material classes serialize after their property stream (UObject's bHasGuid and FGuid
 * first): UMaterialInterface, from FUE5ReleaseStreamObjectVersion MaterialInterfaceSavedCachedData
 * (every UE5 cook), writes a 32-bit bool and, when set, an FMaterialCachedExpressionData struct
 * (tagged, or unversioned by its schema). A base material's cook keeps its parameters' names and
 * default values there. Older cooks keep the struct as the CachedExpressionData property instead.
 */
import type { NativeDataReader } from '../../properties/context.js';
import type { PropertyEntry, PropertyValue } from '../../properties/types.js';
import { CustomVersionKey, type PropertyVersions } from '../../properties/versions.js';

/** FUE5ReleaseStreamObjectVersion::MaterialInterfaceSavedCachedData. */
const MATERIAL_INTERFACE_SAVED_CACHED_DATA = 14;

export interface NativeMaterial {
  /** FMaterialCachedExpressionData's properties; undefined when the cook saved none. */
  cachedExpressionData?: PropertyEntry[];
}

function savesCachedData(v: PropertyVersions): boolean {
  if (v.custom === null) return v.ue5 > 0;
  const c = v.custom.find((x) => x.guid === CustomVersionKey.UE5ReleaseStream)?.version ?? -1;
  return c >= MATERIAL_INTERFACE_SAVED_CACHED_DATA;
}

/** Reads the cached expression data of the exports whose class `isMaterial` says; others are left alone. */
export function materialNativeReader(isMaterial: (cls: string) => boolean): NativeDataReader {
  return (pr, r, exp) => {
    if (!isMaterial(exp.class)) return undefined;
    if (!savesCachedData(pr.ctx.versions) || r.remaining < 4) return {} satisfies NativeMaterial;
    if (r.bool32()) r.skip(16);
    if (r.remaining < 4 || !r.bool32()) return {} satisfies NativeMaterial;
    const v: PropertyValue = pr.struct(r, 'MaterialCachedExpressionData');
    return { cachedExpressionData: Array.isArray(v) ? (v as PropertyEntry[]) : [] } satisfies NativeMaterial;
  };
}

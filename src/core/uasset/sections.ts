/**
 * The header sections after the import and export maps, each read from the offset the summary
 * gives. The caller has positioned the reader (seekTable) and names the structure.
 */
import type { BinaryReader } from '../io/binary-reader.js';
import type { PackageLayout } from './layout.js';
import { type NameEntry, readFName } from './names.js';
import { UE4Version } from './versions.js';

/** FSoftObjectPath in the header's list (UE5.1 on): package name, asset name, sub-path. */
export interface SoftObjectPath { packageName: string; assetName: string; subPath: string; path: string }

/**
 * The soft object path list. `utf8SubPaths`: the sub-path is an FUtf8String (i32 byte count, no
 * NUL), as from FFortniteMainBranchObjectVersion SoftObjectPathUtf8SubPaths (UE5.6); an FString before.
 */
export function readSoftObjectPaths(r: BinaryReader, count: number, names: readonly NameEntry[], utf8SubPaths: boolean): SoftObjectPath[] {
  const out: SoftObjectPath[] = [];
  for (let i = 0; i < count; i++) {
    const packageName = readFName(r, names);
    const assetName = readFName(r, names);
    const subPath = utf8SubPaths ? readUtf8String(r) : r.fstring();
    let path = packageName === 'None' ? '' : assetName === 'None' ? packageName : `${packageName}.${assetName}`;
    if (subPath) path += `:${subPath}`;
    out.push({ packageName, assetName, subPath, path });
  }
  return out;
}

/** FUtf8String: i32 byte count, then UTF-8 bytes without a terminator. */
export function readUtf8String(r: BinaryReader): string {
  const at = r.pos;
  const n = r.i32();
  if (n < 0 || n > 1 << 20) throw r.error(`UTF-8 string length ${n} is implausible`, at);
  return r.utf8(n);
}

/** FLocMetadataValue kinds (ELocMetadataType). */
const LocMetadataType = { None: 0, Null: 1, String: 2, Boolean: 3, Array: 4, Object: 5 } as const;
const MAX_METADATA_DEPTH = 8;

function readLocMetadataValue(r: BinaryReader, depth: number): unknown {
  if (depth > MAX_METADATA_DEPTH) throw r.error(`localization metadata nests deeper than ${MAX_METADATA_DEPTH}`);
  const at = r.pos;
  const type = r.i32();
  switch (type) {
    case LocMetadataType.None:
    case LocMetadataType.Null: return null;
    case LocMetadataType.String: return r.fstring();
    case LocMetadataType.Boolean: return r.bool32();
    case LocMetadataType.Array: {
      const n = r.count(4, 'metadata array count');
      return Array.from({ length: n }, () => readLocMetadataValue(r, depth + 1));
    }
    case LocMetadataType.Object: return readLocMetadataObject(r, depth + 1);
    default: throw r.error(`localization metadata type ${type} is unknown`, at);
  }
}

function readLocMetadataObject(r: BinaryReader, depth = 0): Record<string, unknown> {
  const n = r.count(8, 'metadata value count');
  const out: Record<string, unknown> = {};
  for (let i = 0; i < n; i++) {
    const key = r.fstring();
    out[key] = readLocMetadataValue(r, depth);
  }
  return out;
}

/** FGatherableTextData: localizable text the package contains, with where it is used. */
export interface GatherableText {
  namespace: string;
  sourceString: string;
  sourceStringMetaData: Record<string, unknown>;
  sites: { key: string; siteDescription: string; isEditorOnly: boolean; isOptional: boolean; infoMetaData: Record<string, unknown>; keyMetaData: Record<string, unknown> }[];
}

export function readGatherableText(r: BinaryReader, count: number): GatherableText[] {
  const out: GatherableText[] = [];
  for (let i = 0; i < count; i++) {
    const namespace = r.fstring();
    const sourceString = r.fstring();
    const sourceStringMetaData = readLocMetadataObject(r);
    const n = r.count(24, 'text site count');
    const sites: GatherableText['sites'] = [];
    for (let j = 0; j < n; j++) {
      sites.push({
        key: r.fstring(), siteDescription: r.fstring(), isEditorOnly: r.bool32(), isOptional: r.bool32(),
        infoMetaData: readLocMetadataObject(r), keyMetaData: readLocMetadataObject(r),
      });
    }
    out.push({ namespace, sourceString, sourceStringMetaData, sites });
  }
  return out;
}

/** The depends map: for each export, the FPackageIndexes it depends on. */
export function readDependsMap(r: BinaryReader, exportCount: number): number[][] {
  const out: number[][] = [];
  for (let i = 0; i < exportCount; i++) {
    const n = r.count(4, `export ${i} dependency count`);
    const deps = new Array<number>(n);
    for (let j = 0; j < n; j++) deps[j] = r.i32();
    out.push(deps);
  }
  return out;
}

/** Soft package references: FNames from ADDED_SOFT_OBJECT_PATH, FStrings before. */
export function readSoftPackageReferences(r: BinaryReader, count: number, names: readonly NameEntry[], layout: PackageLayout): string[] {
  const out: string[] = [];
  for (let i = 0; i < count; i++) out.push(layout.ue4 >= UE4Version.ADDED_SOFT_OBJECT_PATH ? readFName(r, names) : r.fstring());
  return out;
}

/** Searchable names: TMap<FPackageIndex, TArray<FName>>. */
export function readSearchableNames(r: BinaryReader, names: readonly NameEntry[]): { index: number; names: string[] }[] {
  const n = r.count(8, 'searchable names count');
  const out: { index: number; names: string[] }[] = [];
  for (let i = 0; i < n; i++) {
    const index = r.i32();
    const m = r.count(8, 'searchable name count');
    out.push({ index, names: Array.from({ length: m }, () => readFName(r, names)) });
  }
  return out;
}

export function readPackageIndexes(r: BinaryReader, count: number): number[] {
  const out = new Array<number>(count);
  for (let i = 0; i < count; i++) out[i] = r.i32();
  return out;
}

/** FObjectDataResource (UE5 DATA_RESOURCES): where an export's bulk data lives. */
export interface DataResource {
  flags: number;
  cookedIndex: number | null;
  serialOffset: number;
  duplicateSerialOffset: number;
  serialSize: number;
  rawSize: number;
  outerIndex: number;
  legacyBulkDataFlags: number;
}

/** EObjectDataResourceVersion */
const DataResourceVersion = { Initial: 1, AddedCookedIndex: 2 } as const;

export function readDataResources(r: BinaryReader): { version: number; resources: DataResource[] } {
  const at = r.pos;
  const version = r.u32();
  if (version < DataResourceVersion.Initial || version > DataResourceVersion.AddedCookedIndex) {
    throw r.error(`data resource version ${version} is unknown`, at);
  }
  const entrySize = version >= DataResourceVersion.AddedCookedIndex ? 45 : 44;
  const n = r.count(entrySize, 'data resource count');
  const resources: DataResource[] = [];
  for (let i = 0; i < n; i++) {
    const flags = r.u32();
    const cookedIndex = version >= DataResourceVersion.AddedCookedIndex ? r.u8() : null;
    resources.push({
      flags, cookedIndex, serialOffset: r.i64n('SerialOffset'), duplicateSerialOffset: r.i64n('DuplicateSerialOffset'),
      serialSize: r.i64n('SerialSize'), rawSize: r.i64n('RawSize'), outerIndex: r.i32(), legacyBulkDataFlags: r.u32(),
    });
  }
  return { version, resources };
}

/** The package's asset registry data: the assets it holds and their tags. */
export interface AssetRegistryData {
  /** Where the dependency data is (absent in cooked packages and before ASSETREGISTRY_DEPENDENCYFLAGS). */
  dependencyDataOffset: number | null;
  objects: { objectPath: string; objectClassName: string; tags: Record<string, string> }[];
}

export function readAssetRegistryData(r: BinaryReader, layout: PackageLayout, filterEditorOnly: boolean): AssetRegistryData {
  const withDependencies = !filterEditorOnly && layout.ue4 >= UE4Version.ASSETREGISTRY_DEPENDENCYFLAGS;
  const dependencyDataOffset = withDependencies ? r.i64n('DependencyDataOffset') : null;
  const n = r.count(12, 'asset registry object count');
  const objects: AssetRegistryData['objects'] = [];
  for (let i = 0; i < n; i++) {
    const objectPath = r.fstring();
    const objectClassName = r.fstring();
    const tagCount = r.count(8, 'asset registry tag count');
    const tags: Record<string, string> = {};
    for (let j = 0; j < tagCount; j++) {
      const key = r.fstring();
      tags[key] = r.fstring(1 << 24);
    }
    objects.push({ objectPath, objectClassName, tags });
  }
  return { dependencyDataOffset, objects };
}

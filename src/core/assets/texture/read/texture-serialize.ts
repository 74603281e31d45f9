/**
 * The native data of a cooked UTexture export, after its property stream:
 *
 *   UObject: bHasGuid (bool32) and the object's FGuid when set
 *   UTexture: FStripDataFlags (global, class: u8 each); editor data (source art) when not stripped
 *   UTexture2D, UTextureCube, UTexture2DArray, UTextureCubeArray, UVolumeTexture:
 *     FStripDataFlags; bCooked (bool32); UTexture2D 5.3+: bSerializeMipData (bool32)
 *   the cooked platform data, one per pixel format cooked for the platform:
 *     FName pixel format, until None; a skip offset (i32 before 4.20, absolute i64 in the package
 *     stream 4.20-4.27, i64 relative to itself in UE5) to the next; the first format's
 *     FTexturePlatformData (platform-data.ts), the others skipped.
 *
 * Render targets and UTexture2DDynamic serialize only UTexture's part: they have no pixels.
 */
import { FormatError } from '../../../errors.js';
import { BinaryReader } from '../../../io/binary-reader.js';
import { readFNameOf } from '../../../uasset/names.js';
import { scriptImportIndex } from '../../../zen/object-index.js';
import type { BulkHeaderContext } from './bulk-data.js';
import { type CookedTextureLayout, candidateLayouts } from './layout.js';
import type { SourceExport, TextureSource } from './package-source.js';
import { type PlatformData, readPlatformData } from './platform-data.js';

/** UTexture2D and the classes that serialize as it does (bSerializeMipData from 5.3). */
const TEXTURE_2D_FAMILY = [
  'Texture2D', 'LightMapTexture2D', 'ShadowMapTexture2D', 'TextureLightProfile', 'CurveLinearColorAtlas',
  'VirtualTexture2D', 'LightMapVirtualTexture2D', 'TerrainWeightMapTexture',
] as const;
/** Classes with cooked platform data and no bSerializeMipData. */
const OTHER_COOKED = ['TextureCube', 'Texture2DArray', 'TextureCubeArray', 'VolumeTexture'] as const;
/** UTexture's part only: drawn at run time, no stored pixels. */
const WITHOUT_PIXELS = [
  'TextureRenderTarget2D', 'TextureRenderTargetCube', 'TextureRenderTarget2DArray', 'TextureRenderTargetVolume', 'Texture2DDynamic',
] as const;

export const TEXTURE_CLASSES: readonly string[] = [...TEXTURE_2D_FAMILY, ...OTHER_COOKED, ...WITHOUT_PIXELS];

export type TextureClassKind = '2d' | 'cooked' | 'no-pixels';

/** Script import hash -> class, for Zen packages read without the global container ("/Script/?0x5b93bca796d1fa6f"). */
let classByHash: Map<string, string> | undefined;

/** The texture class an export's class names, also by its script import hash. */
export function textureClassName(cls: string): string {
  const m = /\?0x([0-9a-f]{16})$/.exec(cls);
  if (!m) return cls;
  classByHash ??= new Map(TEXTURE_CLASSES.map((c) => [scriptImportIndex(`/Script/Engine.${c}`), c]));
  return classByHash.get(m[1]!) ?? cls;
}

export function textureClassKind(cls: string): TextureClassKind | undefined {
  if ((TEXTURE_2D_FAMILY as readonly string[]).includes(cls)) return '2d';
  if ((OTHER_COOKED as readonly string[]).includes(cls)) return 'cooked';
  if ((WITHOUT_PIXELS as readonly string[]).includes(cls)) return 'no-pixels';
  return undefined;
}

export interface CookedTextureData {
  layout: CookedTextureLayout;
  /** Undefined for classes without pixels. */
  platform?: PlatformData;
  /** Further pixel formats cooked for the platform (skipped). */
  otherFormats: string[];
  /** Where the native data starts, for messages. */
  nativeStart: number;
}

/** StripDataFlags' global bit: editor data stripped. */
const STRIP_EDITOR = 1;


function readWithLayout(exp: SourceExport, source: TextureSource, layout: CookedTextureLayout, kind: TextureClassKind, nativeStart: number): CookedTextureData {
  const r = new BinaryReader(exp.bytes, exp.file, exp.base).struct(`${exp.class} "${exp.name}" native data`);
  r.seek(nativeStart);
  if (r.bool32()) r.skip(16);
  const stripAt = r.pos;
  const globalStrip = r.u8();
  r.u8();
  if ((globalStrip & STRIP_EDITOR) === 0) {
    throw r.error('editor data is not stripped: an uncooked texture, whose pixels are its source art (FTextureSource), not cooked mips', stripAt);
  }
  if (kind === 'no-pixels') return { layout, otherFormats: [], nativeStart };
  r.skip(2);
  const cookedAt = r.pos;
  if (!r.bool32()) throw r.error('the texture says it is not cooked', cookedAt);
  const serializeMipData = kind === '2d' && layout.serializeMipDataFlag ? r.bool32() : true;
  const bulk: BulkHeaderContext = source.bulk;
  let platform: PlatformData | undefined;
  const otherFormats: string[] = [];
  for (let name = readFNameOf(r, source.names); name !== 'None'; name = readFNameOf(r, source.names)) {
    const nameAt = r.pos - 8;
    if (!name.startsWith('PF_')) throw r.error(`"${name}" where a pixel format name should be`, nameAt);
    const skipAt = r.pos;
    let end: number | undefined;
    if (layout.ue5) end = skipAt + r.i64n('skip offset');
    else {
      const absolute = layout.ue420 ? r.i64n('skip offset') : r.i32();
      // Zen packages of UE4 give no stream position to compare the absolute offset with.
      if (exp.streamOffset !== undefined) end = absolute - exp.streamOffset;
    }
    if (end !== undefined && (end < r.pos || end > r.length)) throw r.error(`the ${name} data would end at ${end}, outside the export's ${r.length} bytes`, skipAt);
    if (!platform) {
      platform = readPlatformData(r.struct(`${name} platform data`), layout, bulk, serializeMipData);
      if (platform.pixelFormat !== name) throw r.error(`the platform data is ${platform.pixelFormat}, its name says ${name}`, nameAt);
      if (end !== undefined && r.pos !== end) throw r.error(`the ${name} platform data ends at ${r.pos}, its skip offset says ${end}`, skipAt);
      r.struct(`${exp.class} "${exp.name}" native data`);
    } else {
      otherFormats.push(name);
      if (end === undefined) break;
      r.seek(end);
    }
  }
  if (!platform) throw r.error('no cooked platform data (the pixel format list is empty)');
  return { layout, platform, otherFormats, nativeStart };
}

/** Whether the property stream was read to its end (so the native data starts right after it). */
export function propertiesRead(exp: SourceExport): boolean {
  const p = exp.properties;
  if (p.error) return false;
  return !(p.encoding === 'unversioned' && p.properties.length === 0 && (p.notes ?? []).some((n) => n.includes('mappings')));
}

/** Reads the export's native data with the first layout of its versions that fits. */
export function readCookedTexture(exp: SourceExport, source: TextureSource, kind: TextureClassKind): CookedTextureData {
  const props = exp.properties;
  const nativeStart = props.propertyStart + props.propertyBytes;
  if (!propertiesRead(exp)) {
    const found = findCookedTexture(exp, source, kind);
    if (found) return found;
    if (props.errorData) throw FormatError.within(null, props.errorData, 'the property stream stops there, so the texture data cannot be found');
    throw new FormatError(exp.file, `${exp.class} "${exp.name}" properties`, exp.base, 'unversioned properties: the texture data was not found without the game\'s mappings (.usmap); pass them');
  }
  const layouts = candidateLayouts(source.ue4, source.ue5, source.engine);
  let first: unknown;
  for (const layout of layouts) {
    try {
      return readWithLayout(exp, source, layout, kind, nativeStart);
    } catch (e) {
      if (!(e instanceof FormatError)) throw e;
      first ??= e;
    }
  }
  throw first;
}

/** Bytes from the start of the native data to the first pixel format name: bHasGuid, two strip flags, bCooked, and maybe the object's FGuid and bSerializeMipData. */
const NAME_DISTANCES = [12, 16, 28, 32];
/** Bytes of an export searched for its texture data when its properties cannot be read. */
const SCAN_LIMIT = 1 << 20;

/**
 * The native data of an export whose property stream cannot be read (unversioned properties
 * without mappings): found by its first pixel format name, a PF_ name of the name map followed
 * by a skip offset that the platform data read from there must end at exactly. Only layouts with
 * a skip offset to check against are accepted, so a stray match in a property value is not.
 */
export function findCookedTexture(exp: SourceExport, source: TextureSource, kind: TextureClassKind): CookedTextureData | undefined {
  if (kind === 'no-pixels') return undefined;
  const formatNames = new Set<number>();
  source.names.forEach((n, i) => { if (n.startsWith('PF_')) formatNames.add(i); });
  if (formatNames.size === 0) return undefined;
  const layouts = candidateLayouts(source.ue4, source.ue5, source.engine).filter((l) => l.ue5 || exp.streamOffset !== undefined);
  const view = new DataView(exp.bytes.buffer, exp.bytes.byteOffset, exp.bytes.byteLength);
  // The texture data follows the properties, before any pixels: a property stream is far shorter than this.
  const end = Math.min(exp.bytes.length, SCAN_LIMIT);
  for (let p = 0; p + 8 <= end; p++) {
    if (!formatNames.has(view.getUint32(p, true)) || view.getUint32(p + 4, true) !== 0) continue;
    for (const d of NAME_DISTANCES) {
      // bHasGuid (0 or 1), then the global strip flags with editor data stripped.
      if (p - d < 0 || view.getUint32(p - d, true) > 1 || (view.getUint8(p - d + (view.getUint32(p - d, true) ? 20 : 4)) & STRIP_EDITOR) === 0) continue;
      for (const layout of layouts) {
        try {
          return readWithLayout(exp, source, layout, kind, p - d);
        } catch (e) {
          if (!(e instanceof FormatError)) throw e;
        }
      }
    }
  }
  return undefined;
}

/**
 * The cooked texture reader's entry points: a texture export of a package (of an install, or a
 * file on disk) as a Texture, its facts read at once and each mip's bytes read when asked for.
 */
import { FormatError } from '../../../errors.js';
import type { InstallPackages } from '../../../package/open-package.js';
import type { PropertyEntry, PropertyValue } from '../../../properties/types.js';
import type { Texture, TextureMip } from '../types.js';
import { type BulkDataRef, type BulkFiles, MissingPayloadError, readBulkPayload } from './bulk-data.js';
import { pixelFormatInfo, sliceBytes } from '../decode/index.js';
import { type SourceExport, type TextureReadOptions, type TextureSource, fileTextureSource, installTextureSource } from './package-source.js';
import { memoryPayload } from './payload.js';
import { type CookedTextureData, TEXTURE_CLASSES, propertiesRead, readCookedTexture, textureClassKind, textureClassName } from './texture-serialize.js';
import { assembleVirtualLevel, levelSize } from './virtual-texture.js';
import { decodeLandscapeMip, findLandscapeStorage, type LandscapeStorage } from './landscape-storage.js';

export type { TextureReadOptions };
export { TEXTURE_CLASSES };

/** A texture export of a package of an install (`ref`: package name, path as `ls` prints it, or id). */
export async function readInstallTexture(packages: InstallPackages, ref: string, opts: TextureReadOptions = {}): Promise<Texture> {
  return textureOf(await installTextureSource(packages, ref, opts), opts);
}

/** A texture export of a package file on disk (.uasset with its .uexp/.ubulk/.uptnl beside it). */
export async function readTextureFile(path: string, opts: TextureReadOptions = {}): Promise<Texture> {
  return textureOf(await fileTextureSource(path, opts), opts);
}

function pickExport(source: TextureSource, opts: TextureReadOptions): SourceExport {
  for (const e of source.exports) e.class = textureClassName(e.class);
  if (opts.exportIndex !== undefined) {
    const e = source.exports[opts.exportIndex];
    if (!e) throw new FormatError(source.path, 'export map', 0, `no export ${opts.exportIndex} (the package has ${source.exports.length})`);
    if (!textureClassKind(e.class)) throw new FormatError(source.path, `export ${e.index} "${e.name}"`, e.base, `a ${e.class}, not a texture class PakScope reads (${TEXTURE_CLASSES.join(', ')})`);
    return e;
  }
  const e = source.exports.find((x) => textureClassKind(x.class) !== undefined);
  if (!e) {
    throw new FormatError(source.path, 'export map', 0, `no texture export (its exports are ${source.exports.map((x) => `${x.name}: ${x.class}`).join(', ') || 'none'})`);
  }
  return e;
}

/** The value of a top-level property, enums without their "Type::" prefix. */
function propertyValue(entries: readonly PropertyEntry[], name: string): PropertyValue | undefined {
  const v = entries.find((p) => p.name === name)?.value;
  return typeof v === 'string' && v.includes('::') ? v.slice(v.lastIndexOf('::') + 2) : v;
}

/** The texture export of an opened package (the entry points above; tests build sources directly). */
export function textureOf(source: TextureSource, opts: TextureReadOptions): Texture {
  const exp = pickExport(source, opts);
  const kind = textureClassKind(exp.class)!;
  const cooked = readCookedTexture(exp, source, kind);
  const props = exp.properties.properties;
  const srgb = propertyValue(props, 'SRGB');
  const compression = propertyValue(props, 'CompressionSettings');
  const lodGroup = propertyValue(props, 'LODGroup');
  const notes = [...source.warnings];
  if (!propertiesRead(exp)) notes.push('the properties were not read (unversioned, without mappings): sRGB, compression settings and LOD group are the engine defaults, not the texture\'s own');
  if (cooked.otherFormats.length > 0) notes.push(`also cooked as ${cooked.otherFormats.join(', ')} (not read)`);
  const files: BulkFiles = { ...source.files, inline: memoryPayload(exp.file, exp.bytes) };
  const base = {
    class: exp.class, name: exp.name,
    srgb: typeof srgb === 'boolean' ? srgb : true,
    compressionSettings: typeof compression === 'string' ? compression : 'TC_Default',
    lodGroup: typeof lodGroup === 'string' ? lodGroup : 'TEXTUREGROUP_World',
  };
  const platform = cooked.platform;
  if (!platform) {
    const format = propertyValue(props, 'OverrideFormat');
    const rtFormat = propertyValue(props, 'RenderTargetFormat');
    notes.push(`a ${exp.class} has no stored pixels: it is drawn at run time${typeof rtFormat === 'string' ? ` (render target format ${rtFormat})` : ''}`);
    return {
      ...base, pixelFormat: typeof format === 'string' && format.startsWith('PF_') ? format : 'PF_Unknown',
      width: numberOr(propertyValue(props, 'SizeX'), 0), height: numberOr(propertyValue(props, 'SizeY'), 0), depth: 1, slices: 1,
      cube: /Cube/.test(exp.class), virtual: false, mips: [], notes,
      readMip: async () => { throw new FormatError(source.path, `${exp.class} "${exp.name}"`, exp.base, 'a render target or dynamic texture stores no mips'); },
    };
  }
  if (!platform.virtual && platform.mips.length > 0 && platform.mips.every((m) => !m.bulk)) {
    // A landscape heightmap (UE5.2+): its mips are in the storage factory its AssetUserData names.
    const found = findLandscapeStorage(source, source.exports.indexOf(exp));
    if (found.storage) return landscapeStoredTexture(source, exp, platform.pixelFormat, found.storage, base, notes);
    if (found.error) {
      const why = `the landscape storage of its mips does not read: ${found.error}`;
      notes.push(why);
      const t = plainTexture(source, exp, cooked, files, base, notes);
      return { ...t, readMip: async () => { throw new FormatError(source.path, `${exp.class} "${exp.name}"`, exp.base, why); } };
    }
  }
  return platform.virtual ? virtualTexture(source, exp, cooked, files, base, notes) : plainTexture(source, exp, cooked, files, base, notes);
}

/** A heightmap whose mips a LandscapeTextureStorageProviderFactory stores (landscape-storage.ts). */
function landscapeStoredTexture(source: TextureSource, exp: SourceExport, pixelFormat: string, storage: LandscapeStorage, base: Base, notes: string[]): Texture {
  const files: BulkFiles = { ...source.files, inline: memoryPayload(storage.export.file, storage.export.bytes) };
  const mips: TextureMip[] = storage.mips.map((m) => {
    const missing = missingReason(m.bulk, files);
    return { width: m.width, height: m.height, depth: 1, bytes: missing ? 0 : m.width * m.height * 4, location: m.bulk.location, ...(missing ? { missing } : {}) };
  });
  notes.push(`mips stored by ${storage.export.name} (landscape heightmap storage${storage.mips.some((m) => m.compressed) ? ', delta-compressed' : ''}), decoded to ${pixelFormat}: height in R (high byte) and G, normal X and Y in B and A`);
  const first = storage.mips[0];
  return {
    ...base, pixelFormat, width: first?.width ?? 0, height: first?.height ?? 0, depth: 1, slices: 1, cube: false, virtual: false, mips, notes,
    readMip: async (index, signal) => {
      const m = storage.mips[index];
      if (!m) throw new FormatError(source.path, `${exp.class} "${exp.name}"`, exp.base, `no mip ${index} (the landscape storage has ${storage.mips.length})`);
      const what = `${storage.export.name} mip ${index}`;
      const missing = mips[index]!.missing;
      if (missing) throw new MissingPayloadError(storage.export.file, what, m.bulk.headerAt, missing);
      const bytes = await readBulkPayload(m.bulk, files, what, signal);
      return decodeLandscapeMip(storage, m, index, bytes, storage.export.file, what, m.bulk.headerAt);
    },
  };
}

/** Bytes of one width x height image of the format; undefined for a format the pixel format table does not know. */
const imageBytes = (format: string, width: number, height: number): number | undefined =>
  (pixelFormatInfo(format) ? sliceBytes(format, width, height) : undefined);

const numberOr = (v: PropertyValue | undefined, d: number): number => (typeof v === 'number' ? v : d);

/** Whether a bulk payload's file is there, and a reason when not. */
function missingReason(ref: BulkDataRef | undefined, files: BulkFiles): string | undefined {
  if (!ref) return 'the texture was cooked without mip data';
  if (ref.location === 'none') return 'not stored (the cook left this mip out)';
  if (ref.location === '.ubulk' || ref.location === '.m.ubulk' || ref.location === '.uptnl') {
    if (files.separate(ref.location, ref.cookedIndex)) return undefined;
    return ref.location === '.uptnl'
      ? 'the optional .uptnl that holds the bytes is not in the install (the game ships its largest mips separately)'
      : `the package's ${ref.location} that holds the bytes is not in the install`;
  }
  if (ref.location === 'end of file' && !files.endOfFile) return 'the end of the package that holds the bytes is not there';
  return undefined;
}

type Base = Pick<Texture, 'class' | 'name' | 'srgb' | 'compressionSettings' | 'lodGroup'>;

function plainTexture(source: TextureSource, exp: SourceExport, cooked: CookedTextureData, files: BulkFiles, base: Base, notes: string[]): Texture {
  const p = cooked.platform!;
  const volume = exp.class === 'VolumeTexture';
  const cube = p.cube || exp.class === 'TextureCube' || exp.class === 'TextureCubeArray';
  const slices = volume ? Math.max(1, p.mips[0]?.depth ?? 1) : cube ? Math.max(6, p.packedSlices) : p.packedSlices;
  const sliceCount = (m: { depth: number }): number => (volume ? Math.max(1, m.depth) : slices);
  const expected = p.mips.map((m) => {
    const one = imageBytes(p.pixelFormat, m.width, m.height);
    return one === undefined ? undefined : one * sliceCount(m);
  });
  if (imageBytes(p.pixelFormat, 1, 1) === undefined) notes.push(`${p.pixelFormat} is a pixel format PakScope does not know: mip sizes are not checked`);
  const mips: TextureMip[] = p.mips.map((m, i) => {
    const missing = missingReason(m.bulk, files);
    return {
      width: m.width, height: m.height, depth: volume ? m.depth : 1,
      bytes: missing ? 0 : m.bulk?.elementCount ?? 0,
      location: m.bulk?.location ?? 'none',
      ...(missing ? { missing } : {}),
    };
  });
  const missingMips = mips.flatMap((m, i) => (m.missing ? [i] : []));
  if (missingMips.length > 0 && missingMips.length < mips.length) {
    notes.push(`mip${missingMips.length > 1 ? 's' : ''} ${rangeText(missingMips)} cannot be read (${mips[missingMips[0]!]!.missing}); the others can`);
  } else if (missingMips.length > 0) {
    notes.push(`no mip can be read: ${mips[0]!.missing}`);
  }
  for (let i = 0; i < mips.length; i++) {
    const want = expected[i];
    if (want !== undefined && !mips[i]!.missing && mips[i]!.bytes !== want) {
      notes.push(`mip ${i} holds ${mips[i]!.bytes} bytes; ${p.pixelFormat} at ${mips[i]!.width}x${mips[i]!.height}${sliceCount(p.mips[i]!) > 1 ? ` x ${sliceCount(p.mips[i]!)}` : ''} needs ${want}`);
    }
  }
  return {
    ...base, pixelFormat: p.pixelFormat, width: p.width, height: p.height,
    depth: volume ? Math.max(1, p.mips[0]?.depth ?? 1) : 1, slices, cube, virtual: false, mips, notes,
    readMip: async (index, signal) => {
      const m = p.mips[index];
      if (!m) throw new FormatError(source.path, `${exp.class} "${exp.name}"`, exp.base, `no mip ${index} (the texture has ${p.mips.length})`);
      const what = `${exp.class} "${exp.name}" mip ${index}`;
      if (!m.bulk) throw new FormatError(exp.file, what, exp.base + cooked.nativeStart, 'the texture was cooked without mip data');
      const missing = mips[index]!.missing;
      if (missing) throw new MissingPayloadError(exp.file, what, m.bulk.headerAt, missing);
      const bytes = await readBulkPayload(m.bulk, files, what, signal);
      const want = expected[index];
      if (want !== undefined && bytes.length < want) {
        throw new FormatError(exp.file, what, m.bulk.headerAt, `${bytes.length} bytes where ${p.pixelFormat} at ${m.width}x${m.height}${sliceCount(m) > 1 ? ` x ${sliceCount(m)} slices` : ''} needs ${want}`);
      }
      return want !== undefined && bytes.length > want ? bytes.subarray(0, want) : bytes;
    },
  };
}

function virtualTexture(source: TextureSource, exp: SourceExport, cooked: CookedTextureData, files: BulkFiles, base: Base, notes: string[]): Texture {
  const vt = cooked.platform!.virtual!;
  const format = vt.layerTypes[0]!;
  if (vt.numLayers > 1) notes.push(`a virtual texture of ${vt.numLayers} layers (${vt.layerTypes.join(', ')}): layer 0 is read`);
  if (vt.widthInBlocks * vt.heightInBlocks > 1) notes.push(`a UDIM set of ${vt.widthInBlocks}x${vt.heightInBlocks} blocks, laid out as the editor does (1001 top left, rows of ten counted downward)`);
  notes.push(`virtual texture tiles of ${vt.tileSize} pixels (${vt.tileBorderSize}-pixel borders cut away), reassembled into whole images`);
  const chunkMissing = vt.chunks.map((c) => missingReason(c.bulk, files)).find((x) => x !== undefined);
  const location = vt.chunks[0]?.bulk.location ?? 'none';
  const mips: TextureMip[] = [];
  for (let level = 0; level < vt.numMips; level++) {
    const { width, height } = levelSize(vt, level);
    mips.push({
      width, height, depth: 1, bytes: chunkMissing ? 0 : imageBytes(format, width, height) ?? 0, location,
      ...(chunkMissing ? { missing: chunkMissing } : {}),
    });
  }
  if (chunkMissing) notes.push(`the tiles cannot be read: ${chunkMissing}`);
  return {
    ...base, pixelFormat: format, width: vt.width, height: vt.height, depth: 1, slices: 1, cube: false, virtual: true, mips, notes,
    readMip: async (index, signal) => {
      if (index < 0 || index >= vt.numMips || !Number.isInteger(index)) {
        throw new FormatError(source.path, `${exp.class} "${exp.name}"`, exp.base, `no mip ${index} (the virtual texture has ${vt.numMips})`);
      }
      return assembleVirtualLevel(vt, index, files, source.path, signal);
    },
  };
}

/** "0-2", "0, 3" */
function rangeText(list: number[]): string {
  const contiguous = list.every((v, i) => i === 0 || v === list[i - 1]! + 1);
  return contiguous && list.length > 1 ? `${list[0]}-${list[list.length - 1]}` : list.join(', ');
}

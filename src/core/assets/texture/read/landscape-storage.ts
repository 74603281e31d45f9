/**
 * Landscape heightmaps cooked by UE5.2+ keep no mips of their own: the texture's AssetUserData
 * names a ULandscapeTextureStorageProviderFactory (an export in the same map) that stores them
 * delta-compressed. Its native data, after its property stream (BoundaryOffset, BoundaryCountX,
 * BoundaryCountY):
 *
 *   UObject: bHasGuid (bool32) and the FGuid when set
 *   NumNonOptionalMips, NumNonStreamingMips: i32
 *   LandscapeGridScale: FVector (three doubles)
 *   Mips: i32 count, then per mip SizeX, SizeY (i32), bCompressed (bool32), FByteBulkData
 *   Texture: FPackageIndex of the heightmap it serves
 *
 * A compressed mip is, row after row, one big-endian u16 per pixel: the height's difference from
 * the previous pixel's (modulo 2^16, starting from 32768), rows and columns that repeat the one
 * before them (every BoundaryOffset >> mip, where BoundaryCountX/Y say there are any) left out;
 * then the edge pixels' normals (X, Y bytes, each a difference from the previous edge pixel's,
 * starting from 128), clockwise from the top left. An uncompressed mip is the texture's BGRA as is.
 * decodeLandscapeMip rebuilds the BGRA texture the engine would have had: height high byte in R,
 * low byte in G, the normal's X and Y in B and A.
 */
import { FormatError } from '../../../errors.js';
import { BinaryReader } from '../../../io/binary-reader.js';
import type { PropertyValue } from '../../../properties/types.js';
import { type BulkDataRef, readBulkData } from './bulk-data.js';
import type { SourceExport, TextureSource } from './package-source.js';

export const LANDSCAPE_STORAGE_CLASS = 'LandscapeTextureStorageProviderFactory';

/** A heightmap is at most this many pixels on a side (the engine's largest texture is 16384). */
const MAX_SIDE = 1 << 15;
const MAX_MIPS = 32;

export interface LandscapeStorageMip {
  width: number;
  height: number;
  compressed: boolean;
  bulk: BulkDataRef;
}

export interface LandscapeStorage {
  /** The factory export. */
  export: SourceExport;
  boundaryOffset: number;
  boundaryCountX: number;
  boundaryCountY: number;
  /** LandscapeGridScale: the landscape's scale (world units per quad X, Y; Z the height scale). */
  gridScale: [number, number, number];
  mips: LandscapeStorageMip[];
  /** Export index (0-based) of the texture it serves; -1 when it names none in this package. */
  textureIndex: number;
}

const intProp = (e: SourceExport, name: string): number => {
  const v: PropertyValue | undefined = e.properties.properties.find((p) => p.name === name)?.value;
  return typeof v === 'number' && Number.isInteger(v) ? v : 0;
};

/** The factory's native data (see the file comment). Throws FormatError. */
export function readLandscapeStorage(e: SourceExport, source: Pick<TextureSource, 'bulk'>): LandscapeStorage {
  const props = e.properties;
  if (props.errorData) throw FormatError.within(null, props.errorData, 'the property stream stops there, so the stored mips cannot be found');
  if (props.error) throw new FormatError(e.file, `${LANDSCAPE_STORAGE_CLASS} "${e.name}" properties`, e.base, `the property stream does not read, so the stored mips cannot be found (${props.error})`);
  const r = new BinaryReader(e.bytes, e.file, e.base).struct(`${LANDSCAPE_STORAGE_CLASS} "${e.name}" native data`);
  r.seek(props.propertyStart + props.propertyBytes);
  if (r.bool32()) r.skip(16);
  r.i32(); // NumNonOptionalMips
  r.i32(); // NumNonStreamingMips
  const gridScale: [number, number, number] = [r.f64(), r.f64(), r.f64()];
  const countAt = r.pos;
  const count = r.i32();
  if (count < 0 || count > MAX_MIPS) throw r.error(`${count} mips`, countAt);
  const mips: LandscapeStorageMip[] = [];
  for (let i = 0; i < count; i++) {
    const at = r.pos;
    const width = r.i32();
    const height = r.i32();
    if (width < 1 || height < 1 || width > MAX_SIDE || height > MAX_SIDE) throw r.error(`mip ${i} is ${width}x${height}`, at);
    const compressed = r.bool32();
    mips.push({ width, height, compressed, bulk: readBulkData(r.struct(`${LANDSCAPE_STORAGE_CLASS} "${e.name}" mip ${i}`), source.bulk) });
  }
  const texture = r.i32();
  return {
    export: e,
    boundaryOffset: intProp(e, 'BoundaryOffset'),
    boundaryCountX: intProp(e, 'BoundaryCountX'),
    boundaryCountY: intProp(e, 'BoundaryCountY'),
    gridScale,
    mips,
    textureIndex: texture > 0 ? texture - 1 : -1,
  };
}

/** The storage factory of the package that serves export `textureIndex`, if any (a factory that does not read is skipped). */
export function findLandscapeStorage(source: TextureSource, textureIndex: number): { storage?: LandscapeStorage; error?: string } {
  let error: string | undefined;
  for (const e of source.exports) {
    if (e.class !== LANDSCAPE_STORAGE_CLASS) continue;
    try {
      const s = readLandscapeStorage(e, source);
      if (s.textureIndex === textureIndex) return { storage: s };
    } catch (err) {
      if (!(err instanceof FormatError)) throw err;
      error ??= err.message;
    }
  }
  return error !== undefined ? { error } : {};
}

const isDuplicate = (xy: number, offset: number): boolean => xy !== 0 && (xy & (offset - 1)) === 0;

/**
 * Mip `index` of `storage` from its stored bytes `src` as the BGRA texture (width x height x 4).
 * Interior normals are rebuilt from the heights (central differences at the grid scale); the
 * edge normals are the stored ones. Throws FormatError when `src` does not hold what the mip needs.
 */
export function decodeLandscapeMip(storage: Pick<LandscapeStorage, 'boundaryOffset' | 'boundaryCountX' | 'boundaryCountY' | 'gridScale'>, mip: Pick<LandscapeStorageMip, 'width' | 'height' | 'compressed'>, index: number, src: Uint8Array, file: string, what: string, at: number): Uint8Array {
  const { width: w, height: h } = mip;
  // The sizes are the file's: nothing is allocated from them before the bytes behind them are checked.
  if (!mip.compressed) {
    if (src.length < w * h * 4) throw new FormatError(file, what, at, `${src.length} bytes where an uncompressed ${w}x${h} BGRA mip needs ${w * h * 4}`);
    return src.slice(0, w * h * 4);
  }
  const offset = storage.boundaryOffset >> index;
  const dup = (storage.boundaryCountX > 0 || storage.boundaryCountY > 0) && offset > 1;
  if (dup && (offset & (offset - 1)) !== 0) throw new FormatError(file, what, at, `boundary offset ${offset} is not a power of two`);
  const countX = dup ? storage.boundaryCountX : 0;
  const countY = dup ? storage.boundaryCountY : 0;
  // The rows and columns left out are every offset-th after the first: a count saying otherwise is not this layout.
  if (dup && (countX !== Math.floor((w - 1) / offset) || countY !== Math.floor((h - 1) / offset))) {
    throw new FormatError(file, what, at, `${countX} and ${countY} repeated columns and rows where a ${w}x${h} mip repeating one every ${offset} pixels has ${Math.floor((w - 1) / offset)} and ${Math.floor((h - 1) / offset)}`);
  }
  const sw = w - countX, sh = h - countY;
  const edges = w > 1 && h > 1 ? (w + h) * 2 - 4 : 0;
  const need = sw < 0 || sh < 0 ? -1 : (sw * sh + edges) * 2;
  if (need < 0 || src.length < need) {
    throw new FormatError(file, what, at, `${src.length} bytes where a compressed ${w}x${h} mip (${countX} and ${countY} repeated columns and rows) needs ${need}`);
  }
  const out = new Uint8Array(w * h * 4);
  const heights = new Uint16Array(w * h);
  let cc = 32768;
  let s = 0;
  for (let y = 0; y < h; y++) {
    if (dup && isDuplicate(y, offset)) continue;
    for (let x = 0; x < w; x++) {
      if (dup && isDuplicate(x, offset)) continue;
      if (s + 2 > need) throw new FormatError(file, what, at + s, `the heights run past the ${sw}x${sh} the mip stores`);
      cc = (cc + ((src[s]! << 8) | src[s + 1]!)) & 0xffff;
      heights[y * w + x] = cc;
      s += 2;
    }
  }
  if (dup) {
    for (let y = offset; y < h; y += offset) heights.copyWithin(y * w, (y - 1) * w, y * w);
    for (let x = offset; x < w; x += offset) for (let y = 0; y < h; y++) heights[y * w + x] = heights[y * w + x - 1]!;
  }
  // Interior normals from the heights: a slope of dh height units over one quad of this mip.
  const [gx, gy, gz] = storage.gridScale;
  const mipScale = 1 << index;
  const kx = gz / 128 / ((gx || 1) * mipScale), ky = gz / 128 / ((gy || 1) * mipScale);
  // No closure or Math.hypot per pixel: a 1024 x 1024 mip is a million of them.
  for (let y = 0; y < h; y++) {
    const row = y * w;
    const up = (y > 0 ? y - 1 : 0) * w, down = (y < h - 1 ? y + 1 : h - 1) * w;
    const dyScale = y > 0 && y < h - 1 ? 0.5 : 1;
    for (let x = 0; x < w; x++) {
      const left = x > 0 ? x - 1 : 0, right = x < w - 1 ? x + 1 : w - 1;
      const dx = (heights[row + right]! - heights[row + left]!) * (x > 0 && x < w - 1 ? 0.5 : 1);
      const dy = (heights[down + x]! - heights[up + x]!) * dyScale;
      const nx = -dx * kx, ny = -dy * ky;
      const inv = 127.5 / Math.sqrt(nx * nx + ny * ny + 1);
      const p = (row + x) * 4;
      const v = heights[row + x]!;
      out[p] = nx * inv + 127.5 + 0.5;
      out[p + 1] = v & 0xff;
      out[p + 2] = v >> 8;
      out[p + 3] = ny * inv + 127.5 + 0.5;
    }
  }
  if (edges > 0) {
    let nx = 128, ny = 128;
    const edge = (x: number, y: number): void => {
      nx = (nx + src[s]!) & 0xff;
      ny = (ny + src[s + 1]!) & 0xff;
      s += 2;
      const p = (y * w + x) * 4;
      out[p] = nx;
      out[p + 3] = ny;
    };
    for (let x = 0; x < w; x++) edge(x, 0);
    for (let y = 1; y < h; y++) edge(w - 1, y);
    for (let x = w - 2; x >= 0; x--) edge(x, h - 1);
    for (let y = h - 2; y >= 1; y--) edge(0, y);
  }
  return out;
}

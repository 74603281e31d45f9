/**
 * One 2D image of a texture, decoded: the mip and slice asked for, its stored bytes cut from the
 * mip and decoded in the worker pool when one is given (else on this thread). pngPixels turns the
 * decoded values into what a PNG of the texture holds (the issue's content rules, so that a saved
 * PNG can be checked against the source art).
 */
import { FormatError } from '../../errors.js';
import type { WorkerPool } from '../../workers/pool.js';
import { decodePixels, pixelFormatInfo, sliceBytes } from './decode/index.js';
import type { DecodedImage, Texture, TextureInfo } from './types.js';

export interface DecodeTextureOptions {
  /** Default 0, the largest. */
  mip?: number;
  /** 0-based cube face (+X -X +Y -Y +Z -Z), array layer or volume depth; default 0. */
  slice?: number;
  pool?: WorkerPool;
  signal?: AbortSignal;
}

/** 2D images in mip `mip`: a volume's mips shrink in depth too; every other kind keeps its slices. */
export function slicesOfMip(info: TextureInfo, mip: number): number {
  const m = info.mips[mip];
  return info.depth > 1 && m ? Math.max(1, m.depth) : info.slices;
}

/** Throws RangeError unless `mip` and `slice` name an image of the texture. */
export function checkImageIndex(info: TextureInfo, mip: number, slice: number): void {
  const count = info.mips.length;
  if (count === 0) throw new FormatError(info.name, 'texture', 0, `${info.class} ${info.name} has no mips stored`);
  if (!Number.isInteger(mip) || mip < 0 || mip >= count) {
    throw new RangeError(`${info.name} has ${count} mip${count === 1 ? '' : 's'} (0${count > 1 ? ` to ${count - 1}` : ''}): there is no mip ${mip}`);
  }
  const slices = slicesOfMip(info, mip);
  if (!Number.isInteger(slice) || slice < 0 || slice >= slices) {
    throw new RangeError(`${info.name} has ${slices} slice${slices === 1 ? '' : 's'} in mip ${mip} (0${slices > 1 ? ` to ${slices - 1}` : ''}): there is no slice ${slice}`);
  }
}

/**
 * The stored bytes of every slice of mip `mip`, checked against its size: the pixel format's
 * bytes for width x height, times the slices. Throws FormatError when the mip is missing or
 * runs short, UnsupportedPixelFormatError when the format's size is unknown.
 */
export async function readMipSlices(texture: Texture, mip: number, signal?: AbortSignal): Promise<{ data: Uint8Array; sliceSize: number; slices: number }> {
  const m = texture.mips[mip]!;
  if (m.missing) throw new FormatError(texture.name, `mip ${mip}`, 0, `its bytes are not in the install (${m.missing})`);
  const sliceSize = sliceBytes(texture.pixelFormat, m.width, m.height);
  const slices = slicesOfMip(texture, mip);
  const data = await texture.readMip(mip, signal);
  if (data.length < sliceSize * slices) {
    throw new FormatError(texture.name, `mip ${mip}`, data.length,
      `holds ${data.length} bytes, but ${slices} slice${slices === 1 ? '' : 's'} of ${m.width}x${m.height} ${texture.pixelFormat} need ${sliceSize * slices}`);
  }
  return { data, sliceSize, slices };
}

/** Decodes one slice of one mip (see DecodeTextureOptions). */
export async function decodeTextureImage(texture: Texture, opts: DecodeTextureOptions = {}): Promise<DecodedImage> {
  const mip = opts.mip ?? 0;
  const slice = opts.slice ?? 0;
  checkImageIndex(texture, mip, slice);
  const read = await readMipSlices(texture, mip, opts.signal);
  return decodeMipSlice(texture, mip, read, slice, opts);
}

/** Decodes slice `slice` of a mip readMipSlices read (several slices of one mip need one read); with a pool, on every thread of it at once. */
export async function decodeMipSlice(texture: TextureInfo, mip: number, read: { data: Uint8Array; sliceSize: number }, slice: number, opts: Pick<DecodeTextureOptions, 'pool' | 'signal'> = {}): Promise<DecodedImage> {
  const { width, height } = texture.mips[mip]!;
  const bytes = read.data.subarray(slice * read.sliceSize, (slice + 1) * read.sliceSize);
  opts.signal?.throwIfAborted();
  return opts.pool ? opts.pool.decodeImage(texture.pixelFormat, bytes, width, height, opts.signal) : decodePixels(texture.pixelFormat, bytes, width, height);
}

/**
 * The mip written by default: the largest, or, when the optional .uptnl holding the largest is
 * absent (the engine streams them in only where it is installed), the largest after those. Any
 * other missing mip (a .ubulk that is not there) is not skipped: reading it says what is missing.
 */
export function firstPresentMip(info: TextureInfo): number {
  let i = 0;
  while (i < info.mips.length - 1 && info.mips[i]!.missing && info.mips[i]!.location === '.uptnl') i++;
  return i;
}

/** Single-channel formats (their value in R): written as grayscale. */
const isGray = (pixelFormat: string): boolean => pixelFormatInfo(pixelFormat)?.channels === 'r';
/** Two-channel normal maps: red X, green Y, blue the rebuilt Z. */
const NORMAL_XY_FORMATS = new Set(['PF_BC5', 'PF_ETC2_RG11_EAC']);

/** ASTC normal maps are stored with X in RGB and Y in alpha (the engine's TC_Normalmap for ASTC). */
export function isAstcNormalMap(pixelFormat: string, info?: Pick<TextureInfo, 'compressionSettings'>): boolean {
  return pixelFormat.startsWith('PF_ASTC_') && info?.compressionSettings === 'TC_Normalmap';
}

/**
 * What a PNG of the image holds: 8-bit values as stored (no sRGB conversion, no tone mapping);
 * single-channel formats as grayscale; two-channel normal maps (BC5, EAC RG11, ASTC normal maps
 * with X in RGB and Y in alpha) as red X, green Y and blue Z = sqrt(max(0, 1 - X² - Y²)) with
 * X, Y = 2v/255 - 1, blue = 255(Z + 1)/2; HDR values clamped to [0, 1], times 255, truncated.
 * `info` tells an ASTC normal map (its compression settings). Returns the image, RGBA: new
 * bytes where a rule changed them, else the decoded bytes themselves (a view, not a copy).
 */
export function pngPixels(pixelFormat: string, image: DecodedImage, info?: Pick<TextureInfo, 'compressionSettings'>): DecodedImage {
  const { width, height } = image;
  const n = width * height;
  const src = image.rgba;
  const astcNormal = isAstcNormalMap(pixelFormat, info);
  if (!image.float && !isGray(pixelFormat) && !astcNormal && !NORMAL_XY_FORMATS.has(pixelFormat)) {
    // Nothing to change (a 4096x4096 copy costs a preview 20 ms): callers only read the bytes.
    return { width, height, rgba: src.subarray(0, n * 4) };
  }
  const out = new Uint8Array(n * 4);
  if (image.float) {
    const f = image.float;
    for (let i = 0; i < n * 4; i++) {
      const v = f[i]!;
      // NaN fails both tests and stays 0.
      out[i] = v >= 1 ? 255 : v > 0 ? Math.trunc(v * 255) : 0;
    }
    if (isGray(pixelFormat)) toGray(out, out, n);
    return { width, height, rgba: out };
  }
  if (isGray(pixelFormat)) {
    toGray(src, out, n);
    return { width, height, rgba: out };
  }
  // Two-channel normal maps.
  {
    const yAt = astcNormal ? 3 : 1;
    for (let i = 0; i < n; i++) {
      const p = i * 4;
      const xv = src[p]!, yv = src[p + yAt]!;
      const x = (2 * xv) / 255 - 1, y = (2 * yv) / 255 - 1;
      const z = Math.sqrt(Math.max(0, 1 - x * x - y * y));
      out[p] = xv;
      out[p + 1] = yv;
      out[p + 2] = Math.trunc((255 * (z + 1)) / 2);
      out[p + 3] = 255;
    }
    return { width, height, rgba: out };
  }
}

/** Red into R, G and B, alpha opaque. */
function toGray(src: Uint8Array, out: Uint8Array, n: number): void {
  for (let i = 0; i < n; i++) {
    const p = i * 4;
    const v = src[p]!;
    out[p] = v;
    out[p + 1] = v;
    out[p + 2] = v;
    out[p + 3] = 255;
  }
}

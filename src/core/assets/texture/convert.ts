/**
 * The texture kind's conversions: PNG (one image per slice, the PNG content rules of
 * image.ts's pngPixels), DDS (every stored mip as stored, also for formats PakScope cannot
 * decode) and Radiance .hdr (the floats of HDR formats).
 */
import type { ConvertedFile, ConvertOptions } from '../registry.js';
import { pixelFormatInfo } from './decode/index.js';
import { encodeDds } from './dds.js';
import { encodeHdr } from './hdr.js';
import { checkImageIndex, decodeMipSlice, firstPresentMip, pngPixels, readMipSlices, slicesOfMip } from './image.js';
import { encodePng } from './png.js';
import type { Texture, TextureInfo } from './types.js';

export const TEXTURE_CONVERSIONS = ['png', 'dds', 'hdr'] as const;

/** Whether PakScope can decode the texture's pixels (else only DDS can be written). */
export const canDecode = (info: Pick<TextureInfo, 'pixelFormat'>): boolean => pixelFormatInfo(info.pixelFormat)?.decode !== undefined;

/** HDR formats: the only ones a .hdr is written for. */
export const isHdr = (info: Pick<TextureInfo, 'pixelFormat'>): boolean => pixelFormatInfo(info.pixelFormat)?.hdr === true;

/**
 * Files of `texture` as `extension` (undefined: PNG, or DDS for a format PakScope cannot decode).
 * PNG and HDR: mip `opts.mip` (default the largest the install has), slice `opts.slice`, or every
 * slice as its own file ("_0", "_1", ...). DDS: every stored mip from `opts.mip` on, every slice.
 */
export async function convertTexture(texture: Texture, extension: string | undefined, opts: ConvertOptions = {}): Promise<ConvertedFile[]> {
  const ext = (extension ?? (canDecode(texture) ? 'png' : 'dds')).toLowerCase();
  const note = extension === undefined && ext === 'dds' ? `${texture.pixelFormat} cannot be decoded by PakScope: written as .dds` : undefined;
  const mip = opts.mip ?? firstPresentMip(texture);
  if (ext === 'dds') return [{ suffix: '', extension: 'dds', data: await ddsOf(texture, mip, opts.signal), ...(note ? { note } : {}) }];
  if (ext !== 'png' && ext !== 'hdr') throw new RangeError(`a texture converts to ${TEXTURE_CONVERSIONS.join(', ')}, not ${ext}`);
  if (ext === 'hdr' && !isHdr(texture)) throw new RangeError(`${texture.name} is ${texture.pixelFormat}, not an HDR format: save it as .png (or .dds)`);
  checkImageIndex(texture, mip, opts.slice ?? 0);
  const read = await readMipSlices(texture, mip, opts.signal);
  const slices = opts.slice !== undefined ? [opts.slice] : Array.from({ length: read.slices }, (_, s) => s);
  const files: ConvertedFile[] = [];
  for (const s of slices) {
    const image = await decodeMipSlice(texture, mip, read, s, opts);
    const data = ext === 'png' ? encodePng(pngPixels(texture.pixelFormat, image, texture)) : encodeHdr({ width: image.width, height: image.height, float: image.float! });
    files.push({ suffix: slices.length > 1 ? `_${s}` : '', extension: ext, data });
  }
  return files;
}

/** Every stored mip from `first` on (up to the first one missing) as one .dds. */
export async function ddsOf(texture: Texture, first: number, signal?: AbortSignal): Promise<Uint8Array> {
  checkImageIndex(texture, first, 0);
  const mips: Uint8Array[] = [];
  for (let m = first; m < texture.mips.length && !texture.mips[m]!.missing; m++) mips.push((await readMipSlices(texture, m, signal)).data);
  if (mips.length === 0) await readMipSlices(texture, first, signal); // throws why the mip is missing
  const top = texture.mips[first]!;
  const volume = texture.depth > 1;
  return encodeDds({
    pixelFormat: texture.pixelFormat, width: top.width, height: top.height, depth: volume ? top.depth : 1,
    layers: volume ? 1 : slicesOfMip(texture, first), cube: texture.cube, volume,
  }, mips);
}

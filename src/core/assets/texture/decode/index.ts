/**
 * Pixel decoding: one 2D image of a pixel format into RGBA bytes (and floats for HDR formats).
 * The formats and their decoders are in pixel-formats.ts; the block decoders in one module per
 * family (bc.ts, bc6h.ts, bc7.ts, astc.ts, etc.ts, uncompressed.ts).
 */
import { DecodeError, UnsupportedPixelFormatError } from '../../../errors.js';

export { UnsupportedPixelFormatError };
import type { DecodedImage } from '../types.js';
import { PIXEL_FORMATS, type ImageDecoder, type ImageTarget, type PixelFormatInfo } from './pixel-formats.js';

export type { PixelFormatInfo, Channels, ImageTarget } from './pixel-formats.js';
export { PIXEL_FORMATS } from './pixel-formats.js';

/** Largest image decoded at once: 2^28 pixels (16384 x 16384), 1 GiB of RGBA. */
const MAX_PIXELS = 2 ** 28;

export function pixelFormatInfo(pixelFormat: string): PixelFormatInfo | undefined {
  return PIXEL_FORMATS.get(pixelFormat);
}

function infoOf(pixelFormat: string): PixelFormatInfo {
  const info = PIXEL_FORMATS.get(pixelFormat);
  if (!info) throw new UnsupportedPixelFormatError(pixelFormat, false);
  return info;
}

/** Bytes of one width x height image of the format (whole blocks; a 1x1 mip of BC1 is 8 bytes). */
export function sliceBytes(pixelFormat: string, width: number, height: number): number {
  const info = infoOf(pixelFormat);
  return Math.ceil(width / info.blockWidth) * Math.ceil(height / info.blockHeight) * info.blockBytes;
}

/**
 * The format's entry when PakScope can decode a width x height image of it from `data` (a size
 * and length decodePixels takes); else throws as decodePixels does: UnsupportedPixelFormatError
 * for a format it cannot decode, DecodeError when the size is not a real one or the data is too
 * short for it.
 */
export function checkDecodable(pixelFormat: string, data: Uint8Array, width: number, height: number): PixelFormatInfo & { decode: ImageDecoder } {
  const info = infoOf(pixelFormat);
  if (!info.decode) throw new UnsupportedPixelFormatError(pixelFormat, true);
  if (!Number.isInteger(width) || !Number.isInteger(height) || width <= 0 || height <= 0) {
    throw new DecodeError(pixelFormat, `an image of ${width}x${height} pixels cannot be decoded`);
  }
  if (width * height > MAX_PIXELS) {
    throw new DecodeError(pixelFormat, `${width}x${height} is larger than the ${MAX_PIXELS} pixels decoded at once`);
  }
  const needed = sliceBytes(pixelFormat, width, height);
  if (data.length < needed) {
    throw new DecodeError(pixelFormat, `a ${width}x${height} image needs ${needed} bytes, the data has ${data.length}`);
  }
  return info as PixelFormatInfo & { decode: ImageDecoder };
}

/**
 * Decodes the first width x height image of `data` (later bytes, further slices of a mip, are
 * ignored), into new arrays or into `into`'s (rgba: width x height x 4 bytes at a 4-byte aligned
 * offset; float, for HDR formats: width x height x 4 floats), the pool's shared image. Throws as
 * checkDecodable says.
 */
export function decodePixels(pixelFormat: string, data: Uint8Array, width: number, height: number, into?: ImageTarget): DecodedImage {
  const info = checkDecodable(pixelFormat, data, width, height);
  if (!into) return info.decode(data, width, height);
  const n = width * height * 4;
  if (into.rgba.length < n || into.rgba.byteOffset % 4 !== 0 || (info.hdr && (into.float?.length ?? 0) < n)) {
    throw new RangeError(`the target of a ${width}x${height} ${pixelFormat} image is too small or not aligned`);
  }
  const image = info.decode(data, width, height, into);
  // Decoders without a target of their own made new arrays: their pixels go into the target.
  if (image.rgba !== into.rgba) into.rgba.set(image.rgba.subarray(0, n));
  if (image.float && into.float && image.float !== into.float) into.float.set(image.float.subarray(0, n));
  return { width, height, rgba: into.rgba, ...(into.float && image.float ? { float: into.float } : {}) };
}

/**
 * Pixel decoding: one 2D image of a pixel format into RGBA bytes (and floats for HDR formats).
 * The formats and their decoders are in pixel-formats.ts; the block decoders in one module per
 * family (bc.ts, bc6h.ts, bc7.ts, astc.ts, etc.ts, uncompressed.ts).
 */
import { DecodeError, UnsupportedPixelFormatError } from '../../../errors.js';

export { UnsupportedPixelFormatError };
import type { DecodedImage } from '../types.js';
import { PIXEL_FORMATS, type PixelFormatInfo } from './pixel-formats.js';

export type { PixelFormatInfo, Channels } from './pixel-formats.js';
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
 * Decodes the first width x height image of `data` (later bytes, further slices of a mip, are
 * ignored). Throws UnsupportedPixelFormatError for a format it cannot decode and DecodeError when
 * the size is not a real one or the data is too short for it.
 */
export function decodePixels(pixelFormat: string, data: Uint8Array, width: number, height: number): DecodedImage {
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
  return info.decode(data, width, height);
}

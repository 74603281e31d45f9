/**
 * PNG writer for decoded images: 8-bit grayscale, RGB or RGBA, the smallest that holds the
 * pixels exactly (gray when R = G = B everywhere, no alpha channel when every pixel is opaque).
 * Each row gets the filter (None, Sub, Up or Paeth) whose output sums smallest, as libpng's
 * heuristic does; the rows are deflated by node:zlib.
 */
import { deflateSync } from 'node:zlib';

export interface RgbaImage {
  width: number;
  height: number;
  /** width x height x 4 bytes. */
  rgba: Uint8Array;
}

const enum ColorType { Gray = 0, Rgb = 2, Rgba = 6 }

const SIGNATURE = Uint8Array.of(0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a);

/** The PNG file of `image`; `level` is zlib's (default 6). */
export function encodePng(image: RgbaImage, opts: { level?: number } = {}): Uint8Array {
  const { width, height, rgba } = image;
  if (!Number.isInteger(width) || !Number.isInteger(height) || width < 1 || height < 1 || width > 0x7fffffff || height > 0x7fffffff) {
    throw new RangeError(`a PNG is 1x1 to 2^31-1 on a side, not ${width}x${height}`);
  }
  if (rgba.length < width * height * 4) throw new RangeError(`${width}x${height} RGBA needs ${width * height * 4} bytes, not ${rgba.length}`);
  const type = colorTypeOf(rgba, width * height);
  const channels = type === ColorType.Gray ? 1 : type === ColorType.Rgb ? 3 : 4;
  const raw = filteredRows(packed(rgba, width * height, channels), width * channels, height, channels);
  const idat = deflateSync(raw, { level: opts.level ?? 6 });

  const ihdr = new Uint8Array(13);
  const v = new DataView(ihdr.buffer);
  v.setUint32(0, width);
  v.setUint32(4, height);
  ihdr[8] = 8;
  ihdr[9] = type;
  const parts = [SIGNATURE, chunk('IHDR', ihdr), chunk('IDAT', idat), chunk('IEND', new Uint8Array(0))];
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const p of parts) {
    out.set(p, at);
    at += p.length;
  }
  return out;
}

/**
 * A 16-bit grayscale PNG of width x height `values` (row after row): heightmaps, which 8 bits
 * would cut short. PNG stores the samples big-endian.
 */
export function encodeGray16Png(width: number, height: number, values: Uint16Array, opts: { level?: number } = {}): Uint8Array {
  if (!Number.isInteger(width) || !Number.isInteger(height) || width < 1 || height < 1 || width > 0x7fffffff || height > 0x7fffffff) {
    throw new RangeError(`a PNG is 1x1 to 2^31-1 on a side, not ${width}x${height}`);
  }
  if (values.length < width * height) throw new RangeError(`${width}x${height} needs ${width * height} values, not ${values.length}`);
  const px = new Uint8Array(width * height * 2);
  for (let i = 0; i < width * height; i++) {
    px[i * 2] = values[i]! >> 8;
    px[i * 2 + 1] = values[i]! & 0xff;
  }
  const idat = deflateSync(filteredRows(px, width * 2, height, 2), { level: opts.level ?? 6 });
  const ihdr = new Uint8Array(13);
  const v = new DataView(ihdr.buffer);
  v.setUint32(0, width);
  v.setUint32(4, height);
  ihdr[8] = 16;
  ihdr[9] = ColorType.Gray;
  const parts = [SIGNATURE, chunk('IHDR', ihdr), chunk('IDAT', idat), chunk('IEND', new Uint8Array(0))];
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const p of parts) {
    out.set(p, at);
    at += p.length;
  }
  return out;
}

function colorTypeOf(rgba: Uint8Array, pixels: number): ColorType {
  let gray = true;
  for (let p = 0; p < pixels * 4; p += 4) {
    if (rgba[p + 3] !== 255) return ColorType.Rgba;
    if (gray && (rgba[p] !== rgba[p + 1] || rgba[p] !== rgba[p + 2])) gray = false;
  }
  return gray ? ColorType.Gray : ColorType.Rgb;
}

function packed(rgba: Uint8Array, pixels: number, channels: number): Uint8Array {
  if (channels === 4) return rgba.length === pixels * 4 ? rgba : rgba.subarray(0, pixels * 4);
  const out = new Uint8Array(pixels * channels);
  if (channels === 1) {
    for (let i = 0; i < pixels; i++) out[i] = rgba[i * 4]!;
  } else {
    for (let i = 0, o = 0, p = 0; i < pixels; i++, p += 4, o += 3) {
      out[o] = rgba[p]!;
      out[o + 1] = rgba[p + 1]!;
      out[o + 2] = rgba[p + 2]!;
    }
  }
  return out;
}

/** Each row with its filter byte in front. */
function filteredRows(px: Uint8Array, stride: number, height: number, bpp: number): Uint8Array {
  const out = new Uint8Array((stride + 1) * height);
  const zero = new Uint8Array(stride);
  const trial = [new Uint8Array(stride), new Uint8Array(stride), new Uint8Array(stride), new Uint8Array(stride)];
  for (let y = 0; y < height; y++) {
    const row = px.subarray(y * stride, (y + 1) * stride);
    const up = y > 0 ? px.subarray((y - 1) * stride, y * stride) : zero;
    const [none, sub, upF, paeth] = trial as [Uint8Array, Uint8Array, Uint8Array, Uint8Array];
    let sNone = 0, sSub = 0, sUp = 0, sPaeth = 0;
    for (let i = 0; i < stride; i++) {
      const x = row[i]!;
      const a = i >= bpp ? row[i - bpp]! : 0;
      const b = up[i]!;
      const c = i >= bpp ? up[i - bpp]! : 0;
      const p = a + b - c;
      const pa = Math.abs(p - a), pb = Math.abs(p - b), pc = Math.abs(p - c);
      const pred = pa <= pb && pa <= pc ? a : pb <= pc ? b : c;
      const n0 = x, n1 = (x - a) & 255, n2 = (x - b) & 255, n4 = (x - pred) & 255;
      none[i] = n0;
      sub[i] = n1;
      upF[i] = n2;
      paeth[i] = n4;
      // Bytes as signed values: small either way of zero is cheap to deflate.
      sNone += n0 < 128 ? n0 : 256 - n0;
      sSub += n1 < 128 ? n1 : 256 - n1;
      sUp += n2 < 128 ? n2 : 256 - n2;
      sPaeth += n4 < 128 ? n4 : 256 - n4;
    }
    let best = 0, bestSum = sNone, bestRow = none;
    if (sSub < bestSum) [best, bestSum, bestRow] = [1, sSub, sub];
    if (sUp < bestSum) [best, bestSum, bestRow] = [2, sUp, upF];
    if (sPaeth < bestSum) [best, bestRow] = [4, paeth];
    const at = y * (stride + 1);
    out[at] = best;
    out.set(bestRow, at + 1);
  }
  return out;
}

function chunk(type: string, data: Uint8Array): Uint8Array {
  const out = new Uint8Array(12 + data.length);
  const v = new DataView(out.buffer);
  v.setUint32(0, data.length);
  for (let i = 0; i < 4; i++) out[4 + i] = type.charCodeAt(i);
  out.set(data, 8);
  v.setUint32(8 + data.length, crc32(out.subarray(4, 8 + data.length)));
  return out;
}

let crcTable: Uint32Array | undefined;

function crc32(bytes: Uint8Array): number {
  if (!crcTable) {
    crcTable = new Uint32Array(256);
    for (let n = 0; n < 256; n++) {
      let c = n;
      for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
      crcTable[n] = c >>> 0;
    }
  }
  let c = 0xffffffff;
  for (let i = 0; i < bytes.length; i++) c = crcTable[(c ^ bytes[i]!) & 255]! ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
}

/**
 * PNG reader for editor source art (FTextureSource stored PNG-compressed): non-interlaced images of
 * 8 or 16 bits per channel, gray, gray with alpha, RGB, RGBA or palette (8 bits), inflated by
 * node:zlib. Gives 8-bit RGBA (16-bit values: their high byte) or, for 16-bit images, also the
 * 16-bit values. Bad data is a FormatError naming the chunk.
 */
import { inflateSync } from 'node:zlib';
import { FormatError } from '../../errors.js';

export interface PngImage {
  width: number;
  height: number;
  bitDepth: number;
  /** 0 gray, 2 RGB, 3 palette, 4 gray + alpha, 6 RGBA. */
  colorType: number;
  rgba: Uint8Array;
  /** 16-bit images: RGBA, 16 bits each. */
  rgba16?: Uint16Array;
}

const SIGNATURE = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];
const CHANNELS: Record<number, number> = { 0: 1, 2: 3, 3: 1, 4: 2, 6: 4 };
const MAX_PIXELS = 2 ** 28;

export const isPng = (b: Uint8Array): boolean => b.length >= 8 && SIGNATURE.every((v, i) => b[i] === v);

export function decodePng(bytes: Uint8Array, file: string): PngImage {
  const fail = (at: number, detail: string): FormatError => new FormatError(file, 'PNG', at, detail);
  if (!isPng(bytes)) throw fail(0, 'no PNG signature');
  const v = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  let at = 8;
  let width = 0, height = 0, bitDepth = 0, colorType = -1;
  let palette: Uint8Array | undefined;
  let alphas: Uint8Array | undefined;
  const idat: Uint8Array[] = [];
  for (;;) {
    if (at + 12 > bytes.length) throw fail(at, 'the file ends before IEND');
    const length = v.getUint32(at);
    const type = String.fromCharCode(...bytes.subarray(at + 4, at + 8));
    if (at + 12 + length > bytes.length) throw fail(at, `chunk ${type} of ${length} bytes runs past the end`);
    const data = bytes.subarray(at + 8, at + 8 + length);
    if (type === 'IHDR') {
      if (length < 13) throw fail(at, 'IHDR is short');
      width = v.getUint32(at + 8);
      height = v.getUint32(at + 12);
      bitDepth = data[8]!;
      colorType = data[9]!;
      if (data[12] !== 0) throw fail(at, 'interlaced PNGs are not read');
      if (CHANNELS[colorType] === undefined || ![8, 16].includes(bitDepth) || (colorType === 3 && bitDepth !== 8)) {
        throw fail(at, `color type ${colorType} at ${bitDepth} bits is not read`);
      }
      if (width < 1 || height < 1 || width * height > MAX_PIXELS) throw fail(at, `${width}x${height} pixels`);
    } else if (type === 'PLTE') palette = data;
    else if (type === 'tRNS') alphas = data;
    else if (type === 'IDAT') idat.push(data);
    else if (type === 'IEND') break;
    at += 12 + length;
  }
  if (colorType < 0) throw fail(8, 'no IHDR');
  if (colorType === 3 && !palette) throw fail(8, 'a palette image without PLTE');
  const channels = CHANNELS[colorType]!;
  const bpp = (channels * bitDepth) / 8;
  const stride = width * bpp;
  let raw: Uint8Array;
  try {
    raw = inflateSync(Buffer.concat(idat));
  } catch (e) {
    throw fail(8, `the image data does not inflate (${(e as Error).message})`);
  }
  if (raw.length < (stride + 1) * height) throw fail(8, `${raw.length} bytes of image data, ${(stride + 1) * height} needed`);
  const px = new Uint8Array(stride * height);
  for (let y = 0; y < height; y++) {
    const filter = raw[y * (stride + 1)]!;
    const src = raw.subarray(y * (stride + 1) + 1, (y + 1) * (stride + 1));
    const row = px.subarray(y * stride, (y + 1) * stride);
    const up = y > 0 ? px.subarray((y - 1) * stride, y * stride) : undefined;
    for (let i = 0; i < stride; i++) {
      const a = i >= bpp ? row[i - bpp]! : 0;
      const b = up ? up[i]! : 0;
      const c = up && i >= bpp ? up[i - bpp]! : 0;
      let p: number;
      switch (filter) {
        case 0: p = 0; break;
        case 1: p = a; break;
        case 2: p = b; break;
        case 3: p = (a + b) >> 1; break;
        case 4: {
          const q = a + b - c, pa = Math.abs(q - a), pb = Math.abs(q - b), pc = Math.abs(q - c);
          p = pa <= pb && pa <= pc ? a : pb <= pc ? b : c;
          break;
        }
        default: throw fail(8, `row ${y} has filter ${filter}`);
      }
      row[i] = (src[i]! + p) & 255;
    }
  }
  const n = width * height;
  const rgba = new Uint8Array(n * 4);
  const wide = bitDepth === 16;
  const rgba16 = wide ? new Uint16Array(n * 4) : undefined;
  const sample = (i: number, c: number): number => (wide ? (px[(i * channels + c) * 2]! << 8) | px[(i * channels + c) * 2 + 1]! : px[i * channels + c]!);
  const max = wide ? 65535 : 255;
  for (let i = 0; i < n; i++) {
    let r: number, g: number, b: number, a = max;
    if (colorType === 3) {
      const k = px[i]!;
      r = palette![k * 3] ?? 0;
      g = palette![k * 3 + 1] ?? 0;
      b = palette![k * 3 + 2] ?? 0;
      a = alphas?.[k] ?? 255;
    } else if (channels <= 2) {
      r = g = b = sample(i, 0);
      if (channels === 2) a = sample(i, 1);
    } else {
      r = sample(i, 0);
      g = sample(i, 1);
      b = sample(i, 2);
      if (channels === 4) a = sample(i, 3);
    }
    if (rgba16) rgba16.set([r, g, b, a], i * 4);
    const s = wide ? 8 : 0;
    rgba.set([r >> s, g >> s, b >> s, a >> s], i * 4);
  }
  return { width, height, bitDepth, colorType, rgba, ...(rgba16 ? { rgba16 } : {}) };
}

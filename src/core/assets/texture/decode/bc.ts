/**
 * BC1 to BC5 (DXT1, DXT3, DXT5, BC4 = ATI1, BC5 = ATI2) block decoders: 8 or 16 bytes in, a 4x4
 * block of packed RGBA words out (see block-image.ts). Colours follow the S3TC text: 5:6:5 endpoints
 * widened by repeating their top bits, the two in-between colours at 1/3 and 2/3 (truncated), BC1's
 * "c0 <= c1" mode with a half-way colour and transparent black. Alpha and BC4/BC5 channels use the
 * 8-value ramp (6 in-between values in 7ths, or 4 in 5ths plus 0 and 255). BC4 puts its value in
 * R, BC5 its two in R and G; the channels a format lacks are 0 (blue) and 255 (alpha).
 */

import { decodeBlockImage, wordsOf } from './block-image.js';

const palette = new Int32Array(4);
const ramp = new Uint32Array(8);
const alphas = new Uint32Array(16);

/** The four colours of a BC1-style colour block; `opaque`: BC2/BC3, always the 4-colour mode. */
function colourPalette(src: Uint8Array, o: number, opaque: boolean): void {
  const c0 = src[o]! | (src[o + 1]! << 8);
  const c1 = src[o + 2]! | (src[o + 3]! << 8);
  let r0 = (c0 >> 8) & 0xf8; r0 |= r0 >> 5;
  let g0 = (c0 >> 3) & 0xfc; g0 |= g0 >> 6;
  let b0 = (c0 << 3) & 0xf8; b0 |= b0 >> 5;
  let r1 = (c1 >> 8) & 0xf8; r1 |= r1 >> 5;
  let g1 = (c1 >> 3) & 0xfc; g1 |= g1 >> 6;
  let b1 = (c1 << 3) & 0xf8; b1 |= b1 >> 5;
  palette[0] = r0 | (g0 << 8) | (b0 << 16) | 0xff000000;
  palette[1] = r1 | (g1 << 8) | (b1 << 16) | 0xff000000;
  if (c0 > c1 || opaque) {
    // x / 3 for x < 766 as a multiply and shift.
    palette[2] = (((2 * r0 + r1) * 43691) >>> 17) | ((((2 * g0 + g1) * 43691) >>> 17) << 8) |
      ((((2 * b0 + b1) * 43691) >>> 17) << 16) | 0xff000000;
    palette[3] = (((r0 + 2 * r1) * 43691) >>> 17) | ((((g0 + 2 * g1) * 43691) >>> 17) << 8) |
      ((((b0 + 2 * b1) * 43691) >>> 17) << 16) | 0xff000000;
  } else {
    palette[2] = ((r0 + r1) >> 1) | (((g0 + g1) >> 1) << 8) | (((b0 + b1) >> 1) << 16) | 0xff000000;
    palette[3] = 0;
  }
}

/** Writes the 16 pixels of a colour block's indices (src[o+4..o+7]); `withAlpha`: OR in alphas[] (BC2/BC3). */
function writeColours(src: Uint8Array, o: number, dst: Uint32Array, d: number, pitch: number, withAlpha: boolean): void {
  for (let row = 0; row < 4; row++) {
    const bits = src[o + 4 + row]!;
    if (withAlpha) {
      const a = row * 4;
      dst[d] = (palette[bits & 3]! & 0xffffff) | alphas[a]!;
      dst[d + 1] = (palette[(bits >> 2) & 3]! & 0xffffff) | alphas[a + 1]!;
      dst[d + 2] = (palette[(bits >> 4) & 3]! & 0xffffff) | alphas[a + 2]!;
      dst[d + 3] = (palette[bits >> 6]! & 0xffffff) | alphas[a + 3]!;
    } else {
      dst[d] = palette[bits & 3]!;
      dst[d + 1] = palette[(bits >> 2) & 3]!;
      dst[d + 2] = palette[(bits >> 4) & 3]!;
      dst[d + 3] = palette[bits >> 6]!;
    }
    d += pitch;
  }
}

export function decodeBC1Block(src: Uint8Array, o: number, dst: Uint32Array, d: number, pitch: number): void {
  colourPalette(src, o, false);
  writeColours(src, o, dst, d, pitch, false);
}

/** BC2 (DXT3): 4-bit explicit alpha, then a BC1 colour block. */
export function decodeBC2Block(src: Uint8Array, o: number, dst: Uint32Array, d: number, pitch: number): void {
  for (let i = 0; i < 8; i++) {
    const b = src[o + i]!;
    alphas[2 * i] = (b & 0x0f) * 17 << 24;
    alphas[2 * i + 1] = (b >> 4) * 17 << 24;
  }
  colourPalette(src, o + 8, true);
  writeColours(src, o + 8, dst, d, pitch, true);
}

/** The 8 values of a BC3 alpha / BC4 channel block at src[o], each shifted left by `shift`. */
function rampOf(src: Uint8Array, o: number, shift: number): void {
  const a0 = src[o]!, a1 = src[o + 1]!;
  ramp[0] = a0 << shift;
  ramp[1] = a1 << shift;
  if (a0 > a1) {
    for (let i = 1; i < 7; i++) ramp[i + 1] = (((7 - i) * a0 + i * a1) / 7 | 0) << shift;
  } else {
    for (let i = 1; i < 5; i++) ramp[i + 1] = (((5 - i) * a0 + i * a1) / 5 | 0) << shift;
    ramp[6] = 0;
    ramp[7] = 255 << shift;
  }
}

/** Fills alphas[] with the ramp values the 48 index bits at src[o+2..o+7] pick. */
function rampIndices(src: Uint8Array, o: number): void {
  let lo = src[o + 2]! | (src[o + 3]! << 8) | (src[o + 4]! << 16);
  let hi = src[o + 5]! | (src[o + 6]! << 8) | (src[o + 7]! << 16);
  for (let i = 0; i < 8; i++) { alphas[i] = ramp[lo & 7]!; lo >>= 3; }
  for (let i = 8; i < 16; i++) { alphas[i] = ramp[hi & 7]!; hi >>= 3; }
}

/** BC3 (DXT5): an alpha ramp block, then a BC1 colour block. */
export function decodeBC3Block(src: Uint8Array, o: number, dst: Uint32Array, d: number, pitch: number): void {
  rampOf(src, o, 24);
  rampIndices(src, o);
  colourPalette(src, o + 8, true);
  writeColours(src, o + 8, dst, d, pitch, true);
}

/** BC4 (ATI1), unsigned: the value in R; G = B = 0, A = 255. */
export function decodeBC4Block(src: Uint8Array, o: number, dst: Uint32Array, d: number, pitch: number): void {
  rampOf(src, o, 0);
  rampIndices(src, o);
  for (let y = 0; y < 4; y++) {
    for (let x = 0; x < 4; x++) dst[d + x] = alphas[y * 4 + x]! | 0xff000000;
    d += pitch;
  }
}

const red = new Uint32Array(16);

/** BC5 (ATI2), unsigned: X in R, Y in G; B = 0, A = 255 (the normal's Z is rebuilt by the PNG rules). */
export function decodeBC5Block(src: Uint8Array, o: number, dst: Uint32Array, d: number, pitch: number): void {
  rampOf(src, o, 0);
  rampIndices(src, o);
  red.set(alphas);
  rampOf(src, o + 8, 8);
  rampIndices(src, o + 8);
  for (let y = 0; y < 4; y++) {
    for (let x = 0; x < 4; x++) dst[d + x] = red[y * 4 + x]! | alphas[y * 4 + x]! | 0xff000000;
    d += pitch;
  }
}

/**
 * One BC1 block given as its two little-endian words: the endpoints (c0 in the low half) and the
 * 2-bit indices, pixel 0 lowest.
 */
function decodeBC1Words(c: number, idx: number, dst: Uint32Array, d: number, pitch: number): void {
  const c0 = c & 0xffff, c1 = c >>> 16;
  let r0 = (c0 >> 8) & 0xf8; r0 |= r0 >> 5;
  let g0 = (c0 >> 3) & 0xfc; g0 |= g0 >> 6;
  let b0 = (c0 << 3) & 0xf8; b0 |= b0 >> 5;
  let r1 = (c1 >> 8) & 0xf8; r1 |= r1 >> 5;
  let g1 = (c1 >> 3) & 0xfc; g1 |= g1 >> 6;
  let b1 = (c1 << 3) & 0xf8; b1 |= b1 >> 5;
  palette[0] = r0 | (g0 << 8) | (b0 << 16) | 0xff000000;
  palette[1] = r1 | (g1 << 8) | (b1 << 16) | 0xff000000;
  if (c0 > c1) {
    palette[2] = (((2 * r0 + r1) * 43691) >>> 17) | ((((2 * g0 + g1) * 43691) >>> 17) << 8) |
      ((((2 * b0 + b1) * 43691) >>> 17) << 16) | 0xff000000;
    palette[3] = (((r0 + 2 * r1) * 43691) >>> 17) | ((((g0 + 2 * g1) * 43691) >>> 17) << 8) |
      ((((b0 + 2 * b1) * 43691) >>> 17) << 16) | 0xff000000;
  } else {
    palette[2] = ((r0 + r1) >> 1) | (((g0 + g1) >> 1) << 8) | (((b0 + b1) >> 1) << 16) | 0xff000000;
    palette[3] = 0;
  }
  for (let y = 0; y < 4; y++) {
    dst[d] = palette[idx & 3]!;
    dst[d + 1] = palette[(idx >>> 2) & 3]!;
    dst[d + 2] = palette[(idx >>> 4) & 3]!;
    dst[d + 3] = palette[(idx >>> 6) & 3]!;
    idx >>>= 8;
    d += pitch;
  }
}

/** A whole BC1 image, with a loop of its own for whole-block sizes (see decodeBC7Image). */
export function decodeBC1Image(data: Uint8Array, width: number, height: number, into?: Uint8Array): Uint8Array {
  if (width % 4 || height % 4) return decodeBlockImage(data, width, height, 4, 4, 8, decodeBC1Block, into);
  const rgba = into ?? new Uint8Array(width * height * 4);
  const out = wordsOf(rgba, width * height);
  if (data.byteOffset % 4 === 0) {
    // The blocks' two words read whole (little-endian, block-image.ts).
    const src = new Int32Array(data.buffer, data.byteOffset, (width * height) >> 3);
    let o = 0;
    for (let y = 0; y < height; y += 4) {
      for (let x = 0; x < width; x += 4) { decodeBC1Words(src[o]!, src[o + 1]!, out, y * width + x, width); o += 2; }
    }
    return rgba;
  }
  let o = 0;
  for (let y = 0; y < height; y += 4) {
    for (let x = 0; x < width; x += 4) { decodeBC1Block(data, o, out, y * width + x, width); o += 8; }
  }
  return rgba;
}

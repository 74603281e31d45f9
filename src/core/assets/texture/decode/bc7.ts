/**
 * BC7 block decoder, all eight modes (the BPTC specification): 16 bytes in, a 4x4 block of packed
 * RGBA words out (see block-image.ts). A block with no mode bit set is reserved and decodes to
 * transparent black, as the D3D specification says.
 *
 * Speed: the block's bits are read from four 32-bit words; each subset's colours are interpolated
 * once into a palette and each pixel is one palette look-up; modes 4, 5 and 6 (most of what
 * encoders emit) read their fields at fixed places. Nothing is allocated per block.
 */
import { ANCHOR_MASKS, SUBSETS, WEIGHTS } from './bptc-tables.js';
import { decodeBlockImage, wordsOf } from './block-image.js';

// Per mode (the generic path: modes 0-3 and 7; modes 4, 5 and 6 have functions of their own):
// subsets, partition bits, colour bits, alpha bits, per-endpoint p-bit, per-subset p-bit, index bits.
const NS = [3, 2, 3, 2, 1, 1, 1, 2];
const PB = [4, 6, 6, 6, 0, 0, 0, 6];
const CB = [4, 6, 5, 7, 5, 7, 7, 5];
const AB = [0, 0, 0, 0, 6, 8, 7, 5];
const EPB = [1, 0, 0, 1, 0, 0, 1, 1];
const SPB = [0, 1, 0, 0, 0, 0, 0, 0];
const IB = [3, 3, 2, 2, 2, 2, 4, 2];

const words = new Int32Array(5);
/** Endpoints: ep[channel * 6 + endpoint], channels R, G, B, A. */
const ep = new Int32Array(24);
/** Colours of each subset: palette[subset * 16 + index]. */
const palette = new Int32Array(48);
/** Modes 4 and 5: the palettes of the two index streams (colour placed by rotation, alpha). */
const pal1 = new Int32Array(8);
const pal2 = new Int32Array(8);

/** The 32 bits from `pos` on (bits past the block read as 0). */
function window(pos: number): number {
  const i = pos >> 5, s = pos & 31;
  // (x << 1) << (31 - s) is x << (32 - s), and 0 when s is 0.
  return (words[i]! >>> s) | ((words[i + 1]! << 1) << (31 - s));
}

/** `n` (at most 8) bits at `pos`. */
function bits(pos: number, n: number): number {
  const i = pos >> 5, s = pos & 31;
  // (x << 1) << (31 - s) is x << (32 - s), and 0 when s is 0.
  return ((words[i]! >>> s) | ((words[i + 1]! << 1) << (31 - s))) & ((1 << n) - 1);
}

/** A quantized value of `n` bits widened to 8 by repeating its top bits. */
function widen(v: number, n: number): number {
  v <<= 8 - n;
  return (v | (v >> n)) & 255;
}

export function decodeBC7Block(src: Uint8Array, o: number, dst: Uint32Array, d: number, pitch: number): void {
  const first = src[o]!;
  if (first === 0) {
    for (let y = 0; y < 4; y++) { dst[d] = 0; dst[d + 1] = 0; dst[d + 2] = 0; dst[d + 3] = 0; d += pitch; }
    return;
  }
  const mode = 31 - Math.clz32(first & -first);
  words[0] = src[o]! | (src[o + 1]! << 8) | (src[o + 2]! << 16) | (src[o + 3]! << 24);
  words[1] = src[o + 4]! | (src[o + 5]! << 8) | (src[o + 6]! << 16) | (src[o + 7]! << 24);
  words[2] = src[o + 8]! | (src[o + 9]! << 8) | (src[o + 10]! << 16) | (src[o + 11]! << 24);
  words[3] = src[o + 12]! | (src[o + 13]! << 8) | (src[o + 14]! << 16) | (src[o + 15]! << 24);
  // The modes real textures use most, with their fields at fixed places.
  if (mode === 5) { decodeMode5(dst, d, pitch); return; }
  if (mode === 4) { decodeMode4(dst, d, pitch); return; }
  if (mode === 6) { decodeMode6(dst, d, pitch); return; }

  // Modes 0-3 and 7: 2 or 3 subsets, one index per pixel.
  const ns = NS[mode]!, cb = CB[mode]!, ab = AB[mode]!, ib = IB[mode]!;
  let pos = mode + 1;
  const partition = bits(pos, PB[mode]!); pos += PB[mode]!;
  const n = ns * 2;
  for (let c = 0; c < 3; c++) {
    for (let e = 0; e < n; e++) { ep[c * 6 + e] = bits(pos, cb); pos += cb; }
  }
  if (ab) {
    for (let e = 0; e < n; e++) { ep[18 + e] = bits(pos, ab); pos += ab; }
  } else {
    for (let e = 0; e < n; e++) ep[18 + e] = 255;
  }
  let cbits = cb, abits = ab;
  if (EPB[mode]) {
    cbits++; if (ab) abits++;
    for (let e = 0; e < n; e++) {
      const p = bits(pos++, 1);
      ep[e] = (ep[e]! << 1) | p; ep[6 + e] = (ep[6 + e]! << 1) | p; ep[12 + e] = (ep[12 + e]! << 1) | p;
      if (ab) ep[18 + e] = (ep[18 + e]! << 1) | p;
    }
  } else if (SPB[mode]) {
    cbits++;
    for (let e = 0; e < n; e += 2) {
      const p = bits(pos++, 1);
      for (let k = e; k < e + 2; k++) {
        ep[k] = (ep[k]! << 1) | p; ep[6 + k] = (ep[6 + k]! << 1) | p; ep[12 + k] = (ep[12 + k]! << 1) | p;
      }
    }
  }
  for (let e = 0; e < n; e++) {
    ep[e] = widen(ep[e]!, cbits); ep[6 + e] = widen(ep[6 + e]!, cbits); ep[12 + e] = widen(ep[12 + e]!, cbits);
    if (ab) ep[18 + e] = widen(ep[18 + e]!, abits);
  }

  const anchors = ANCHOR_MASKS[(ns - 1) * 64 + partition]!;
  {
    // One index per pixel into its subset's palette.
    const count = 1 << ib;
    for (let s = 0; s < ns; s++) {
      const e0 = 2 * s, e1 = 2 * s + 1;
      const r0 = ep[e0]!, r1 = ep[e1]!, g0 = ep[6 + e0]!, g1 = ep[6 + e1]!;
      const b0 = ep[12 + e0]!, b1 = ep[12 + e1]!, a0 = ep[18 + e0]!, a1 = ep[18 + e1]!;
      for (let i = 0; i < count; i++) {
        const w = WEIGHTS[ib * 16 + i]!, u = 64 - w;
        palette[s * 16 + i] = ((u * r0 + w * r1 + 32) >> 6) | (((u * g0 + w * g1 + 32) >> 6) << 8) |
          (((u * b0 + w * b1 + 32) >> 6) << 16) | (((u * a0 + w * a1 + 32) >> 6) << 24);
      }
    }
    const subsets = (ns - 1) * 1024 + partition * 16;
    // Index bits are read from a 32-bit window refilled when it runs short.
    let win = window(pos), avail = 32;
    for (let i = 0; i < 16; i++) {
      const nb = ib - ((anchors >> i) & 1);
      if (avail < nb) { win = window(pos); avail = 32; }
      const idx = win & ((1 << nb) - 1);
      win >>>= nb; avail -= nb; pos += nb;
      dst[d + (i >> 2) * pitch + (i & 3)] = palette[SUBSETS[subsets + i]! * 16 + idx]!;
    }
  }
}

/** Writes the 16 pixels of modes 4 and 5 from the two index windows (pixel 0: one bit less in each). */
function writeTwoIndex(dst: Uint32Array, d: number, pitch: number, win1: number, ib: number, win2: number, ib2: number, pos2: number): void {
  dst[d] = pal1[win1 & ((1 << (ib - 1)) - 1)]! | pal2[win2 & ((1 << (ib2 - 1)) - 1)]!;
  win1 >>>= ib - 1; win2 >>>= ib2 - 1; pos2 += ib2 - 1;
  let avail2 = 32 - (ib2 - 1);
  const mask1 = (1 << ib) - 1, mask2 = (1 << ib2) - 1;
  for (let i = 1; i < 16; i++) {
    if (avail2 < ib2) { win2 = window(pos2); avail2 = 32; }
    dst[d + (i >> 2) * pitch + (i & 3)] = pal1[win1 & mask1]! | pal2[win2 & mask2]!;
    win1 >>>= ib; win2 >>>= ib2; avail2 -= ib2; pos2 += ib2;
  }
}

/** Mode 5: one subset, rotation, 7-bit colour and 8-bit alpha endpoints, 2-bit colour and alpha indices. */
function decodeMode5(dst: Uint32Array, d: number, pitch: number): void {
  const rotation = bits(6, 2);
  const r0 = widen(bits(8, 7), 7), r1 = widen(bits(15, 7), 7);
  const g0 = widen(bits(22, 7), 7), g1 = widen(bits(29, 7), 7);
  const b0 = widen(bits(36, 7), 7), b1 = widen(bits(43, 7), 7);
  const a0 = bits(50, 8), a1 = bits(58, 8);
  const shR = rotation === 1 ? 24 : 0, shG = rotation === 2 ? 24 : 8, shB = rotation === 3 ? 24 : 16;
  const shA = rotation === 0 ? 24 : (rotation - 1) * 8;
  for (let i = 0; i < 4; i++) {
    const w = WEIGHTS[32 + i]!, u = 64 - w;
    pal1[i] = (((u * r0 + w * r1 + 32) >> 6) << shR) | (((u * g0 + w * g1 + 32) >> 6) << shG) | (((u * b0 + w * b1 + 32) >> 6) << shB);
    pal2[i] = ((u * a0 + w * a1 + 32) >> 6) << shA;
  }
  writeTwoIndex(dst, d, pitch, window(66), 2, window(97), 2, 97);
}

/** Mode 4: one subset, rotation, index selection, 5-bit colour and 6-bit alpha endpoints, 2- and 3-bit indices. */
function decodeMode4(dst: Uint32Array, d: number, pitch: number): void {
  const rotation = bits(5, 2), indexSel = bits(7, 1);
  const r0 = widen(bits(8, 5), 5), r1 = widen(bits(13, 5), 5);
  const g0 = widen(bits(18, 5), 5), g1 = widen(bits(23, 5), 5);
  const b0 = widen(bits(28, 5), 5), b1 = widen(bits(33, 5), 5);
  const a0 = widen(bits(38, 6), 6), a1 = widen(bits(44, 6), 6);
  const shR = rotation === 1 ? 24 : 0, shG = rotation === 2 ? 24 : 8, shB = rotation === 3 ? 24 : 16;
  const shA = rotation === 0 ? 24 : (rotation - 1) * 8;
  // pal1 goes with the 2-bit indices, pal2 with the 3-bit ones.
  const colourPal = indexSel ? pal2 : pal1, alphaPal = indexSel ? pal1 : pal2;
  const cBits = indexSel ? 3 : 2, aBits = indexSel ? 2 : 3;
  for (let i = 0; i < 1 << cBits; i++) {
    const w = WEIGHTS[cBits * 16 + i]!, u = 64 - w;
    colourPal[i] = (((u * r0 + w * r1 + 32) >> 6) << shR) | (((u * g0 + w * g1 + 32) >> 6) << shG) | (((u * b0 + w * b1 + 32) >> 6) << shB);
  }
  for (let i = 0; i < 1 << aBits; i++) {
    const w = WEIGHTS[aBits * 16 + i]!, u = 64 - w;
    alphaPal[i] = ((u * a0 + w * a1 + 32) >> 6) << shA;
  }
  writeTwoIndex(dst, d, pitch, window(50), 2, window(81), 3, 81);
}

/** Mode 6: one subset, 7-bit RGBA endpoints with a p-bit each, 4-bit indices. */
function decodeMode6(dst: Uint32Array, d: number, pitch: number): void {
  const p0 = bits(63, 1), p1 = bits(64, 1);
  const r0 = (bits(7, 7) << 1) | p0, r1 = (bits(14, 7) << 1) | p1;
  const g0 = (bits(21, 7) << 1) | p0, g1 = (bits(28, 7) << 1) | p1;
  const b0 = (bits(35, 7) << 1) | p0, b1 = (bits(42, 7) << 1) | p1;
  const a0 = (bits(49, 7) << 1) | p0, a1 = (bits(56, 7) << 1) | p1;
  for (let i = 0; i < 16; i++) {
    const w = WEIGHTS[64 + i]!, u = 64 - w;
    palette[i] = ((u * r0 + w * r1 + 32) >> 6) | (((u * g0 + w * g1 + 32) >> 6) << 8) |
      (((u * b0 + w * b1 + 32) >> 6) << 16) | (((u * a0 + w * a1 + 32) >> 6) << 24);
  }
  // 63 index bits: pixel 0 has 3, the others 4; two 32-bit windows.
  let win = window(65);
  dst[d] = palette[win & 7]!;
  win >>>= 3;
  for (let i = 1; i < 8; i++) { dst[d + (i >> 2) * pitch + (i & 3)] = palette[win & 15]!; win >>>= 4; }
  win = window(96);
  for (let i = 8; i < 16; i++) { dst[d + (i >> 2) * pitch + (i & 3)] = palette[win & 15]!; win >>>= 4; }
}

/**
 * A whole BC7 image. Whole-block sizes take a loop of their own so that the block decoder is
 * called from one call site only (V8 inlines it there; decodeBlockImage's call site serves every
 * format); other sizes go through decodeBlockImage.
 */
export function decodeBC7Image(data: Uint8Array, width: number, height: number, into?: Uint8Array): Uint8Array {
  if (width % 4 || height % 4) return decodeBlockImage(data, width, height, 4, 4, 16, decodeBC7Block, into);
  const rgba = into ?? new Uint8Array(width * height * 4);
  const out = wordsOf(rgba, width * height);
  let o = 0;
  for (let y = 0; y < height; y += 4) {
    for (let x = 0; x < width; x += 4) { decodeBC7Block(data, o, out, y * width + x, width); o += 16; }
  }
  return rgba;
}

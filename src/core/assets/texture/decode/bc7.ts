/**
 * BC7 block decoder, all eight modes (the BPTC specification): 16 bytes in, a 4x4 block of packed
 * RGBA words out (see block-image.ts). A block with no mode bit set is reserved and decodes to
 * transparent black, as the D3D specification says.
 *
 * Speed: the block's bits are read as four 32-bit words (whole from the data when it is aligned);
 * each subset's colours are interpolated once into a palette and each pixel is one palette
 * look-up; modes 4, 5 and 6 (most of what encoders emit) take the words as arguments and read
 * their fields by fixed shifts, their pixels' indices from one or two words without refills
 * (1.8x the speed of reading them through a bit window). Nothing is allocated per block.
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
  decodeBC7Words(
    src[o]! | (src[o + 1]! << 8) | (src[o + 2]! << 16) | (src[o + 3]! << 24),
    src[o + 4]! | (src[o + 5]! << 8) | (src[o + 6]! << 16) | (src[o + 7]! << 24),
    src[o + 8]! | (src[o + 9]! << 8) | (src[o + 10]! << 16) | (src[o + 11]! << 24),
    src[o + 12]! | (src[o + 13]! << 8) | (src[o + 14]! << 16) | (src[o + 15]! << 24),
    dst, d, pitch);
}

/** One block given as its four little-endian 32-bit words. */
function decodeBC7Words(w0: number, w1: number, w2: number, w3: number, dst: Uint32Array, d: number, pitch: number): void {
  // The modes real textures use most, with their fields at fixed places.
  if ((w0 & 0x70) !== 0 && (w0 & 0x0f) === 0) {
    // The mode is the lowest bit set.
    if (w0 & 0x10) { decodeMode4(w0, w1, w2, w3, dst, d, pitch); return; }
    if (w0 & 0x20) { decodeMode5(w0, w1, w2, w3, dst, d, pitch); return; }
    decodeMode6(w0, w1, w2, w3, dst, d, pitch); return;
  }
  if ((w0 & 0xff) === 0) {
    for (let y = 0; y < 4; y++) { dst[d] = 0; dst[d + 1] = 0; dst[d + 2] = 0; dst[d + 3] = 0; d += pitch; }
    return;
  }
  const mode = 31 - Math.clz32(w0 & -w0);
  words[0] = w0; words[1] = w1; words[2] = w2; words[3] = w3;

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

/** Mode 5: one subset, rotation, 7-bit colour and 8-bit alpha endpoints, 2-bit colour and alpha indices. */
function decodeMode5(w0: number, w1: number, w2: number, w3: number, dst: Uint32Array, d: number, pitch: number): void {
  const rotation = (w0 >>> 6) & 3;
  const r0 = widen((w0 >>> 8) & 0x7f, 7), r1 = widen((w0 >>> 15) & 0x7f, 7);
  const g0 = widen((w0 >>> 22) & 0x7f, 7), g1 = widen(((w0 >>> 29) | (w1 << 3)) & 0x7f, 7);
  const b0 = widen((w1 >>> 4) & 0x7f, 7), b1 = widen((w1 >>> 11) & 0x7f, 7);
  const a0 = (w1 >>> 18) & 0xff, a1 = ((w1 >>> 26) | (w2 << 6)) & 0xff;
  const shR = rotation === 1 ? 24 : 0, shG = rotation === 2 ? 24 : 8, shB = rotation === 3 ? 24 : 16;
  const shA = rotation === 0 ? 24 : (rotation - 1) * 8;
  for (let i = 0; i < 4; i++) {
    const w = WEIGHTS[32 + i]!, u = 64 - w;
    pal1[i] = (((u * r0 + w * r1 + 32) >> 6) << shR) | (((u * g0 + w * g1 + 32) >> 6) << shG) | (((u * b0 + w * b1 + 32) >> 6) << shB);
    pal2[i] = ((u * a0 + w * a1 + 32) >> 6) << shA;
  }
  // Colour indices: bits 66-96 (pixel 0 one bit, the others two); alpha indices: bits 97-127.
  let c = (w2 >>> 2) | ((w3 & 1) << 30), a = w3 >>> 1;
  dst[d] = pal1[c & 1]! | pal2[a & 1]!;
  c >>>= 1; a >>>= 1;
  dst[d + 1] = pal1[c & 3]! | pal2[a & 3]!; c >>>= 2; a >>>= 2;
  dst[d + 2] = pal1[c & 3]! | pal2[a & 3]!; c >>>= 2; a >>>= 2;
  dst[d + 3] = pal1[c & 3]! | pal2[a & 3]!; c >>>= 2; a >>>= 2;
  for (let y = 1; y < 4; y++) {
    d += pitch;
    dst[d] = pal1[c & 3]! | pal2[a & 3]!; c >>>= 2; a >>>= 2;
    dst[d + 1] = pal1[c & 3]! | pal2[a & 3]!; c >>>= 2; a >>>= 2;
    dst[d + 2] = pal1[c & 3]! | pal2[a & 3]!; c >>>= 2; a >>>= 2;
    dst[d + 3] = pal1[c & 3]! | pal2[a & 3]!; c >>>= 2; a >>>= 2;
  }
}

/** Mode 4: one subset, rotation, index selection, 5-bit colour and 6-bit alpha endpoints, 2- and 3-bit indices. */
function decodeMode4(w0: number, w1: number, w2: number, w3: number, dst: Uint32Array, d: number, pitch: number): void {
  const rotation = (w0 >>> 5) & 3, indexSel = (w0 >>> 7) & 1;
  const r0 = widen((w0 >>> 8) & 31, 5), r1 = widen((w0 >>> 13) & 31, 5);
  const g0 = widen((w0 >>> 18) & 31, 5), g1 = widen((w0 >>> 23) & 31, 5);
  const b0 = widen(((w0 >>> 28) | (w1 << 4)) & 31, 5), b1 = widen((w1 >>> 1) & 31, 5);
  const a0 = widen((w1 >>> 6) & 63, 6), a1 = widen((w1 >>> 12) & 63, 6);
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
  // 2-bit indices: bits 50-80 (pixel 0 one bit); 3-bit indices: bits 81-127 (pixel 0 two bits),
  // read as a low word (bits 81-112) and the 15 bits left.
  let two = (w1 >>> 18) | (w2 << 14);
  let lo = (w2 >>> 17) | (w3 << 15);
  const hi = w3 >>> 17;
  dst[d] = pal1[two & 1]! | pal2[lo & 3]!;
  two >>>= 1; lo >>>= 2;
  // Pixels 1-10 take the other 30 bits of `lo`, pixels 11-15 the 15 of `hi`.
  for (let i = 1; i < 11; i++) {
    dst[d + (i >> 2) * pitch + (i & 3)] = pal1[two & 3]! | pal2[lo & 7]!;
    two >>>= 2; lo >>>= 3;
  }
  let h = hi;
  for (let i = 11; i < 16; i++) {
    dst[d + (i >> 2) * pitch + (i & 3)] = pal1[two & 3]! | pal2[h & 7]!;
    two >>>= 2; h >>>= 3;
  }
}

/** Mode 6: one subset, 7-bit RGBA endpoints with a p-bit each, 4-bit indices. */
function decodeMode6(w0: number, w1: number, w2: number, w3: number, dst: Uint32Array, d: number, pitch: number): void {
  const p0 = w1 >>> 31, p1 = w2 & 1;
  const r0 = (((w0 >>> 7) & 0x7f) << 1) | p0, r1 = (((w0 >>> 14) & 0x7f) << 1) | p1;
  const g0 = (((w0 >>> 21) & 0x7f) << 1) | p0, g1 = ((((w0 >>> 28) | (w1 << 4)) & 0x7f) << 1) | p1;
  const b0 = (((w1 >>> 3) & 0x7f) << 1) | p0, b1 = (((w1 >>> 10) & 0x7f) << 1) | p1;
  const a0 = (((w1 >>> 17) & 0x7f) << 1) | p0, a1 = (((w1 >>> 24) & 0x7f) << 1) | p1;
  for (let i = 0; i < 16; i++) {
    const w = WEIGHTS[64 + i]!, u = 64 - w;
    palette[i] = ((u * r0 + w * r1 + 32) >> 6) | (((u * g0 + w * g1 + 32) >> 6) << 8) |
      (((u * b0 + w * b1 + 32) >> 6) << 16) | (((u * a0 + w * a1 + 32) >> 6) << 24);
  }
  // 63 index bits from bit 65: pixel 0 has 3, the others 4; pixels 0-7 in bits 65-95, 8-15 in the last word.
  let win = w2 >>> 1;
  dst[d] = palette[win & 7]!;
  win >>>= 3;
  dst[d + 1] = palette[win & 15]!; win >>>= 4;
  dst[d + 2] = palette[win & 15]!; win >>>= 4;
  dst[d + 3] = palette[win & 15]!; win >>>= 4;
  d += pitch;
  dst[d] = palette[win & 15]!; win >>>= 4;
  dst[d + 1] = palette[win & 15]!; win >>>= 4;
  dst[d + 2] = palette[win & 15]!; win >>>= 4;
  dst[d + 3] = palette[win & 15]!;
  win = w3;
  d += pitch;
  dst[d] = palette[win & 15]!; win >>>= 4;
  dst[d + 1] = palette[win & 15]!; win >>>= 4;
  dst[d + 2] = palette[win & 15]!; win >>>= 4;
  dst[d + 3] = palette[win & 15]!; win >>>= 4;
  d += pitch;
  dst[d] = palette[win & 15]!; win >>>= 4;
  dst[d + 1] = palette[win & 15]!; win >>>= 4;
  dst[d + 2] = palette[win & 15]!; win >>>= 4;
  dst[d + 3] = palette[win & 15]!;
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
  if (data.byteOffset % 4 === 0) {
    // The blocks' words read whole (every machine PakScope runs on is little-endian, block-image.ts).
    const src = new Int32Array(data.buffer, data.byteOffset, (width * height) >> 2);
    let o = 0;
    for (let y = 0; y < height; y += 4) {
      for (let x = 0; x < width; x += 4) { decodeBC7Words(src[o]!, src[o + 1]!, src[o + 2]!, src[o + 3]!, out, y * width + x, width); o += 4; }
    }
    return rgba;
  }
  let o = 0;
  for (let y = 0; y < height; y += 4) {
    for (let x = 0; x < width; x += 4) { decodeBC7Block(data, o, out, y * width + x, width); o += 16; }
  }
  return rgba;
}

/**
 * BC7 block decoder, all eight modes (the BPTC specification): 16 bytes in, a 4x4 block of packed
 * RGBA words out (see block-image.ts). A block with no mode bit set is reserved and decodes to
 * transparent black, as the D3D specification says.
 *
 * Speed: the block's bits are read from four 32-bit words; each subset's colours are interpolated
 * once into a palette and each pixel is one palette look-up. Nothing is allocated per block.
 */
import { ANCHOR_MASKS, SUBSETS, WEIGHTS } from './bptc-tables.js';
import { decodeBlockImage } from './block-image.js';

// Per mode: subsets, partition bits, rotation bits, index-selection bit, colour bits, alpha bits,
// per-endpoint p-bit, per-subset p-bit, index bits, second index bits.
const NS = [3, 2, 3, 2, 1, 1, 1, 2];
const PB = [4, 6, 6, 6, 0, 0, 0, 6];
const RB = [0, 0, 0, 0, 2, 2, 0, 0];
const ISB = [0, 0, 0, 0, 1, 0, 0, 0];
const CB = [4, 6, 5, 7, 5, 7, 7, 5];
const AB = [0, 0, 0, 0, 6, 8, 7, 5];
const EPB = [1, 0, 0, 1, 0, 0, 1, 1];
const SPB = [0, 1, 0, 0, 0, 0, 0, 0];
const IB = [3, 3, 2, 2, 2, 2, 4, 2];
const IB2 = [0, 0, 0, 0, 3, 2, 0, 0];

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

  const ns = NS[mode]!, cb = CB[mode]!, ab = AB[mode]!, ib = IB[mode]!, ib2 = IB2[mode]!;
  let pos = mode + 1;
  const partition = bits(pos, PB[mode]!); pos += PB[mode]!;
  const rotation = bits(pos, RB[mode]!); pos += RB[mode]!;
  const indexSel = bits(pos, ISB[mode]!); pos += ISB[mode]!;
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
  if (!ib2) {
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
    return;
  }

  // Modes 4 and 5: separate colour and alpha indices, then an optional channel rotation. The
  // first index stream (ib bits) picks from pal1, the second (ib2 bits) from pal2: colour and
  // alpha, or the other way round when the index-selection bit is set.
  // Where interpolated R, G, B and A end up after the rotation (swap of A with R, G or B).
  const shR = rotation === 1 ? 24 : 0, shG = rotation === 2 ? 24 : 8, shB = rotation === 3 ? 24 : 16;
  const shA = rotation === 0 ? 24 : (rotation - 1) * 8;
  const colourPal = indexSel ? pal2 : pal1, alphaPal = indexSel ? pal1 : pal2;
  const colourBits = indexSel ? ib2 : ib, alphaBits = indexSel ? ib : ib2;
  for (let i = 0; i < 1 << colourBits; i++) {
    const w = WEIGHTS[colourBits * 16 + i]!, u = 64 - w;
    colourPal[i] = (((u * ep[0]! + w * ep[1]! + 32) >> 6) << shR) | (((u * ep[6]! + w * ep[7]! + 32) >> 6) << shG) |
      (((u * ep[12]! + w * ep[13]! + 32) >> 6) << shB);
  }
  for (let i = 0; i < 1 << alphaBits; i++) {
    const w = WEIGHTS[alphaBits * 16 + i]!, u = 64 - w;
    alphaPal[i] = ((u * ep[18]! + w * ep[19]! + 32) >> 6) << shA;
  }
  // The first stream (31 bits) fits one 32-bit window; mode 4's 3-bit second stream (47 bits)
  // is refilled once it runs short. Pixel 0 is the anchor: one bit less in each stream.
  let pos2 = pos + 16 * ib - 1;
  let win1 = window(pos), win2 = window(pos2), avail2 = 32 - (ib2 - 1);
  dst[d] = pal1[win1 & ((1 << (ib - 1)) - 1)]! | pal2[win2 & ((1 << (ib2 - 1)) - 1)]!;
  win1 >>>= ib - 1; win2 >>>= ib2 - 1; pos2 += ib2 - 1;
  const mask1 = (1 << ib) - 1, mask2 = (1 << ib2) - 1;
  for (let i = 1; i < 16; i++) {
    if (avail2 < ib2) { win2 = window(pos2); avail2 = 32; }
    dst[d + (i >> 2) * pitch + (i & 3)] = pal1[win1 & mask1]! | pal2[win2 & mask2]!;
    win1 >>>= ib; win2 >>>= ib2; avail2 -= ib2; pos2 += ib2;
  }
}

/**
 * A whole BC7 image. Whole-block sizes take a loop of their own so that the block decoder is
 * called from one call site only (V8 inlines it there; decodeBlockImage's call site serves every
 * format); other sizes go through decodeBlockImage.
 */
export function decodeBC7Image(data: Uint8Array, width: number, height: number): Uint8Array {
  if (width % 4 || height % 4) return decodeBlockImage(data, width, height, 4, 4, 16, decodeBC7Block);
  const rgba = new Uint8Array(width * height * 4);
  const out = new Uint32Array(rgba.buffer);
  let o = 0;
  for (let y = 0; y < height; y += 4) {
    for (let x = 0; x < width; x += 4) { decodeBC7Block(data, o, out, y * width + x, width); o += 16; }
  }
  return rgba;
}

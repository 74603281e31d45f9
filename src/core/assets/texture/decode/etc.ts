/**
 * ETC1, ETC2 and EAC block decoders (the Khronos Data Format specification's ETC2 and EAC
 * chapters): 8 or 16 bytes in, a 4x4 block of packed RGBA words out (see block-image.ts).
 * - ETC2 RGB: ETC1's individual and differential modes plus the T, H and planar modes that use
 *   the differential mode's overflowing sums; an ETC1 block decodes the same (it never overflows).
 * - ETC2 RGBA: an 8-bit EAC alpha block, then an ETC2 RGB block.
 * - EAC R11 / RG11 (unsigned): 11-bit values, stored here as 8 bits (v * 255 / 2047, rounded), in
 *   R (and G); B = 0, A = 255.
 * Blocks are big-endian; a block's pixel indices run down the columns (pixel i is x = i >> 2, y = i & 3).
 */

/** ETC1 intensity modifiers per table (the two positive ones; indices 2 and 3 negate them). */
const MODIFIERS = [2, 8, 5, 17, 9, 29, 13, 42, 18, 60, 24, 80, 33, 106, 47, 183];
/** ETC2 T and H mode distances. */
const DISTANCES = [3, 6, 11, 16, 23, 32, 41, 64];
/** EAC modifiers, 8 per table. */
const EAC = Int8Array.from([
  -3, -6, -9, -15, 2, 5, 8, 14, -3, -7, -10, -13, 2, 6, 9, 12, -2, -5, -8, -13, 1, 4, 7, 12,
  -2, -4, -6, -13, 1, 3, 5, 12, -3, -6, -8, -12, 2, 5, 7, 11, -3, -7, -9, -11, 2, 6, 8, 10,
  -4, -7, -8, -11, 3, 6, 7, 10, -3, -5, -8, -11, 2, 4, 7, 10, -2, -6, -8, -10, 1, 5, 7, 9,
  -2, -5, -8, -10, 1, 4, 7, 9, -2, -4, -8, -10, 1, 3, 7, 9, -2, -5, -7, -10, 1, 4, 6, 9,
  -3, -4, -7, -10, 2, 3, 6, 9, -1, -2, -3, -10, 0, 1, 2, 9, -4, -6, -8, -9, 3, 5, 7, 8,
  -3, -5, -7, -9, 2, 4, 6, 8,
]);

/** 8-bit clamp table: CLAMP[v + 512] for v in [-512, 767]. */
const CLAMP = new Uint8Array(1280);
for (let i = 0; i < 1280; i++) CLAMP[i] = Math.min(255, Math.max(0, i - 512));
const c8 = (v: number): number => CLAMP[v + 512]!;

const paint = new Uint32Array(4);
/** Sub-block colours: sub[subblock * 4 + index]. */
const sub = new Uint32Array(8);
/** Per pixel (column-major order), extra bits OR-ed in: the alpha of an ETC2 RGBA block. */
const alpha = new Uint32Array(16);
const OPAQUE = new Uint32Array(16).fill(0xff000000);

const rgb = (r: number, g: number, b: number): number => c8(r) | (c8(g) << 8) | (c8(b) << 16);
const ext4 = (v: number): number => v * 17;
const ext5 = (v: number): number => (v << 3) | (v >> 2);
const e6 = (v: number): number => (v << 2) | (v >> 4);
const e7 = (v: number): number => (v << 1) | (v >> 6);

/** Writes the 16 pixels of a colour block (indices in bytes 4-7) from `colourOf(pixel, index)` tables. */
function writeIndexed(src: Uint8Array, o: number, dst: Uint32Array, d: number, pitch: number, a: Uint32Array, flip: number, table: Uint32Array, perSub: boolean): void {
  const msb = (src[o + 4]! << 8) | src[o + 5]!;
  const lsb = (src[o + 6]! << 8) | src[o + 7]!;
  for (let i = 0; i < 16; i++) {
    const x = i >> 2, y = i & 3;
    const index = (((msb >> i) & 1) << 1) | ((lsb >> i) & 1);
    const s = perSub ? ((flip ? y : x) >> 1) * 4 : 0;
    dst[d + y * pitch + x] = table[s + index]! | a[i]!;
  }
}

/** An ETC2 RGB block (ETC1 included) with the per-pixel alpha words `a`. */
function colourBlock(src: Uint8Array, o: number, dst: Uint32Array, d: number, pitch: number, a: Uint32Array): void {
  const b0 = src[o]!, b1 = src[o + 1]!, b2 = src[o + 2]!, b3 = src[o + 3]!;
  const flip = b3 & 1;
  let r1: number, g1: number, bl1: number, r2: number, g2: number, bl2: number;
  if ((b3 & 2) === 0) {
    r1 = ext4(b0 >> 4); r2 = ext4(b0 & 15);
    g1 = ext4(b1 >> 4); g2 = ext4(b1 & 15);
    bl1 = ext4(b2 >> 4); bl2 = ext4(b2 & 15);
  } else {
    const r = b0 >> 3, g = b1 >> 3, b = b2 >> 3;
    const rs = r + ((b0 << 29) >> 29), gs = g + ((b1 << 29) >> 29), bs = b + ((b2 << 29) >> 29);
    if (rs < 0 || rs > 31) { tMode(src, o, dst, d, pitch, a); return; }
    if (gs < 0 || gs > 31) { hMode(src, o, dst, d, pitch, a); return; }
    if (bs < 0 || bs > 31) { planarMode(src, o, dst, d, pitch, a); return; }
    r1 = ext5(r); g1 = ext5(g); bl1 = ext5(b);
    r2 = ext5(rs); g2 = ext5(gs); bl2 = ext5(bs);
  }
  const t1 = (b3 >> 5) * 2, t2 = ((b3 >> 2) & 7) * 2;
  const m1a = MODIFIERS[t1]!, m1b = MODIFIERS[t1 + 1]!, m2a = MODIFIERS[t2]!, m2b = MODIFIERS[t2 + 1]!;
  sub[0] = rgb(r1 + m1a, g1 + m1a, bl1 + m1a); sub[1] = rgb(r1 + m1b, g1 + m1b, bl1 + m1b);
  sub[2] = rgb(r1 - m1a, g1 - m1a, bl1 - m1a); sub[3] = rgb(r1 - m1b, g1 - m1b, bl1 - m1b);
  sub[4] = rgb(r2 + m2a, g2 + m2a, bl2 + m2a); sub[5] = rgb(r2 + m2b, g2 + m2b, bl2 + m2b);
  sub[6] = rgb(r2 - m2a, g2 - m2a, bl2 - m2a); sub[7] = rgb(r2 - m2b, g2 - m2b, bl2 - m2b);
  writeIndexed(src, o, dst, d, pitch, a, flip, sub, true);
}

function tMode(src: Uint8Array, o: number, dst: Uint32Array, d: number, pitch: number, a: Uint32Array): void {
  const b0 = src[o]!, b1 = src[o + 1]!, b2 = src[o + 2]!, b3 = src[o + 3]!;
  const r1 = ext4((((b0 >> 3) & 3) << 2) | (b0 & 3)), g1 = ext4(b1 >> 4), bl1 = ext4(b1 & 15);
  const r2 = ext4(b2 >> 4), g2 = ext4(b2 & 15), bl2 = ext4(b3 >> 4);
  const dist = DISTANCES[(((b3 >> 2) & 3) << 1) | (b3 & 1)]!;
  paint[0] = rgb(r1, g1, bl1);
  paint[1] = rgb(r2 + dist, g2 + dist, bl2 + dist);
  paint[2] = rgb(r2, g2, bl2);
  paint[3] = rgb(r2 - dist, g2 - dist, bl2 - dist);
  writeIndexed(src, o, dst, d, pitch, a, 0, paint, false);
}

function hMode(src: Uint8Array, o: number, dst: Uint32Array, d: number, pitch: number, a: Uint32Array): void {
  const b0 = src[o]!, b1 = src[o + 1]!, b2 = src[o + 2]!, b3 = src[o + 3]!;
  const r1 = (b0 >> 3) & 15, g1 = ((b0 & 7) << 1) | ((b1 >> 4) & 1), bl1 = (b1 & 8) | ((b1 & 3) << 1) | (b2 >> 7);
  const r2 = (b2 >> 3) & 15, g2 = ((b2 & 7) << 1) | (b3 >> 7), bl2 = (b3 >> 3) & 15;
  const c1 = (r1 << 8) | (g1 << 4) | bl1, c2 = (r2 << 8) | (g2 << 4) | bl2;
  const dist = DISTANCES[(b3 & 4) | ((b3 & 1) << 1) | (c1 >= c2 ? 1 : 0)]!;
  const R1 = ext4(r1), G1 = ext4(g1), B1 = ext4(bl1), R2 = ext4(r2), G2 = ext4(g2), B2 = ext4(bl2);
  paint[0] = rgb(R1 + dist, G1 + dist, B1 + dist);
  paint[1] = rgb(R1 - dist, G1 - dist, B1 - dist);
  paint[2] = rgb(R2 + dist, G2 + dist, B2 + dist);
  paint[3] = rgb(R2 - dist, G2 - dist, B2 - dist);
  writeIndexed(src, o, dst, d, pitch, a, 0, paint, false);
}

function planarMode(src: Uint8Array, o: number, dst: Uint32Array, d: number, pitch: number, a: Uint32Array): void {
  const b0 = src[o]!, b1 = src[o + 1]!, b2 = src[o + 2]!, b3 = src[o + 3]!;
  const b4 = src[o + 4]!, b5 = src[o + 5]!, b6 = src[o + 6]!, b7 = src[o + 7]!;
  const ro = e6((b0 >> 1) & 63), go = e7(((b0 & 1) << 6) | ((b1 >> 1) & 63));
  const bo = e6(((b1 & 1) << 5) | (((b2 >> 3) & 3) << 3) | ((b2 & 3) << 1) | (b3 >> 7));
  const rh = e6((((b3 >> 2) & 31) << 1) | (b3 & 1)), gh = e7(b4 >> 1), bh = e6(((b4 & 1) << 5) | (b5 >> 3));
  const rv = e6(((b5 & 7) << 3) | (b6 >> 5)), gv = e7(((b6 & 31) << 2) | (b7 >> 6)), bv = e6(b7 & 63);
  for (let y = 0; y < 4; y++) {
    for (let x = 0; x < 4; x++) {
      dst[d + y * pitch + x] = rgb(
        (x * (rh - ro) + y * (rv - ro) + 4 * ro + 2) >> 2,
        (x * (gh - go) + y * (gv - go) + 4 * go + 2) >> 2,
        (x * (bh - bo) + y * (bv - bo) + 4 * bo + 2) >> 2,
      ) | a[x * 4 + y]!;
    }
  }
}

export function decodeETC1Block(src: Uint8Array, o: number, dst: Uint32Array, d: number, pitch: number): void {
  colourBlock(src, o, dst, d, pitch, OPAQUE);
}

export const decodeETC2RGBBlock = decodeETC1Block;

/** ETC2 RGBA (EAC alpha, then ETC2 RGB). */
export function decodeETC2RGBABlock(src: Uint8Array, o: number, dst: Uint32Array, d: number, pitch: number): void {
  eacValues(src, o, false);
  for (let i = 0; i < 16; i++) alpha[i] = values[i]! << 24;
  colourBlock(src, o + 8, dst, d, pitch, alpha);
}

/** The 16 values of an EAC block (column-major): 8-bit alpha, or 11-bit R11 values. */
const values = new Int32Array(16);

function eacValues(src: Uint8Array, o: number, eleven: boolean): void {
  const base = src[o]!, mult = src[o + 1]! >> 4, table = (src[o + 1]! & 15) * 8;
  const hi = (src[o + 2]! << 16) | (src[o + 3]! << 8) | src[o + 4]!;
  const lo = (src[o + 5]! << 16) | (src[o + 6]! << 8) | src[o + 7]!;
  for (let i = 0; i < 16; i++) {
    const index = i < 8 ? (hi >> (21 - 3 * i)) & 7 : (lo >> (21 - 3 * (i - 8))) & 7;
    const m = EAC[table + index]!;
    if (eleven) {
      const v = base * 8 + 4 + (mult ? m * mult * 8 : m);
      values[i] = v < 0 ? 0 : v > 2047 ? 2047 : v;
    } else {
      const v = base + m * mult;
      values[i] = v < 0 ? 0 : v > 255 ? 255 : v;
    }
  }
}

/** 11-bit EAC value to 8 bits, rounded. */
const TO8 = new Uint8Array(2048);
for (let v = 0; v < 2048; v++) TO8[v] = Math.round((v * 255) / 2047);

/** EAC R11 unsigned: the value in R. */
export function decodeEACR11Block(src: Uint8Array, o: number, dst: Uint32Array, d: number, pitch: number): void {
  eacValues(src, o, true);
  for (let i = 0; i < 16; i++) dst[d + (i & 3) * pitch + (i >> 2)] = TO8[values[i]!]! | 0xff000000;
}

/** EAC RG11 unsigned: R then G. */
export function decodeEACRG11Block(src: Uint8Array, o: number, dst: Uint32Array, d: number, pitch: number): void {
  eacValues(src, o, true);
  for (let i = 0; i < 16; i++) alpha[i] = TO8[values[i]!]!;
  eacValues(src, o + 8, true);
  for (let i = 0; i < 16; i++) dst[d + (i & 3) * pitch + (i >> 2)] = alpha[i]! | (TO8[values[i]!]! << 8) | 0xff000000;
}

/**
 * BC6H block decoder, unsigned (UF16) and signed (SF16), all 14 modes (the BPTC specification):
 * 16 bytes in, a 4x4 block of RGBA floats out (A = 1), the half-float values the block encodes.
 * The 8-bit image is made from these floats by the HDR rule (block-image.ts floatToRgba8).
 * Reserved modes decode to zeros.
 */
import { ANCHOR_MASKS, SUBSETS, WEIGHTS } from './bptc-tables.js';
import { HALF_TO_FLOAT } from './half.js';

/**
 * Where each header bit goes, per mode, in the specification's notation: w/x are subset 0's
 * endpoints, y/z subset 1's; `rw[9:0]` is stored low bit first, `rw[10:15]` from bit 15 down to 10.
 * The mode bits (2 or 5) come first and are not listed; the partition bits d[4:0] follow.
 */
const LAYOUTS = [
  'gy[4] by[4] bz[4] rw[9:0] gw[9:0] bw[9:0] rx[4:0] gz[4] gy[3:0] gx[4:0] bz[0] gz[3:0] bx[4:0] bz[1] by[3:0] ry[4:0] bz[2] rz[4:0] bz[3]',
  'gy[5] gz[4] gz[5] rw[6:0] bz[0] bz[1] by[4] gw[6:0] by[5] bz[2] gy[4] bw[6:0] bz[3] bz[5] bz[4] rx[5:0] gy[3:0] gx[5:0] gz[3:0] bx[5:0] by[3:0] ry[5:0] rz[5:0]',
  'rw[9:0] gw[9:0] bw[9:0] rx[4:0] rw[10] gy[3:0] gx[3:0] gw[10] bz[0] gz[3:0] bx[3:0] bw[10] bz[1] by[3:0] ry[4:0] bz[2] rz[4:0] bz[3]',
  'rw[9:0] gw[9:0] bw[9:0] rx[3:0] rw[10] gz[4] gy[3:0] gx[4:0] gw[10] gz[3:0] bx[3:0] bw[10] bz[1] by[3:0] ry[3:0] bz[0] bz[2] rz[3:0] gy[4] bz[3]',
  'rw[9:0] gw[9:0] bw[9:0] rx[3:0] rw[10] by[4] gy[3:0] gx[3:0] gw[10] bz[0] gz[3:0] bx[4:0] bw[10] by[3:0] ry[3:0] bz[1] bz[2] rz[3:0] bz[4] bz[3]',
  'rw[8:0] by[4] gw[8:0] gy[4] bw[8:0] bz[4] rx[4:0] gz[4] gy[3:0] gx[4:0] bz[0] gz[3:0] bx[4:0] bz[1] by[3:0] ry[4:0] bz[2] rz[4:0] bz[3]',
  'rw[7:0] gz[4] by[4] gw[7:0] bz[2] gy[4] bw[7:0] bz[3] bz[4] rx[5:0] gy[3:0] gx[4:0] bz[0] gz[3:0] bx[4:0] bz[1] by[3:0] ry[5:0] rz[5:0]',
  'rw[7:0] bz[0] by[4] gw[7:0] gy[5] gy[4] bw[7:0] gz[5] bz[4] rx[4:0] gz[4] gy[3:0] gx[5:0] gz[3:0] bx[4:0] bz[1] by[3:0] ry[4:0] bz[2] rz[4:0] bz[3]',
  'rw[7:0] bz[1] by[4] gw[7:0] by[5] gy[4] bw[7:0] bz[5] bz[4] rx[4:0] gz[4] gy[3:0] gx[4:0] bz[0] gz[3:0] bx[5:0] by[3:0] ry[4:0] bz[2] rz[4:0] bz[3]',
  'rw[5:0] gz[4] bz[0] bz[1] by[4] gw[5:0] gy[5] by[5] bz[2] gy[4] bw[5:0] gz[5] bz[3] bz[5] bz[4] rx[5:0] gy[3:0] gx[5:0] gz[3:0] bx[5:0] by[3:0] ry[5:0] rz[5:0]',
  'rw[9:0] gw[9:0] bw[9:0] rx[9:0] gx[9:0] bx[9:0]',
  'rw[9:0] gw[9:0] bw[9:0] rx[8:0] rw[10] gx[8:0] gw[10] bx[8:0] bw[10]',
  'rw[9:0] gw[9:0] bw[9:0] rx[7:0] rw[10:11] gx[7:0] gw[10:11] bx[7:0] bw[10:11]',
  'rw[9:0] gw[9:0] bw[9:0] rx[3:0] rw[10:15] gx[3:0] gw[10:15] bx[3:0] bw[10:15]',
];
// Per mode: subsets, endpoints stored as deltas, endpoint bits, delta bits of R, G, B.
const SUBSET_COUNT = [2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 1, 1, 1, 1];
const TRANSFORMED = [1, 1, 1, 1, 1, 1, 1, 1, 1, 0, 0, 1, 1, 1];
const EP_BITS = [10, 7, 11, 11, 11, 9, 8, 8, 8, 6, 10, 11, 12, 16];
const DELTA_BITS = [
  5, 5, 5, 6, 6, 6, 5, 4, 4, 4, 5, 4, 4, 4, 5, 5, 5, 5, 6, 5, 5, 5, 6, 5, 5, 5, 6, 6, 6, 6,
  10, 10, 10, 9, 9, 9, 8, 8, 8, 4, 4, 4,
];
/** The mode (0-13) of each value of the low 5 bits; -1: reserved. Modes 0 and 1 have 2 mode bits. */
const MODE_OF = new Int8Array(32).fill(-1);
for (let m = 0; m < 32; m++) {
  if ((m & 3) < 2) MODE_OF[m] = m & 1;
  else if ((m & 3) === 2) MODE_OF[m] = 2 + (m >> 2);
  else if (m >> 2 < 4) MODE_OF[m] = 10 + (m >> 2);
}

/** Per mode, per header bit (after the mode bits): endpoint * 16 + bit. Endpoints: rw gw bw rx gx bx ry gy by rz gz bz. */
const BIT_MAP: Uint8Array[] = LAYOUTS.map((layout) => {
  const out: number[] = [];
  for (const field of layout.split(' ')) {
    const m = /^([rgb])([wxyz])\[(\d+)(?::(\d+))?\]$/.exec(field);
    if (!m) throw new Error(`BC6H layout: ${field}`);
    const endpoint = 'wxyz'.indexOf(m[2]!) * 3 + 'rgb'.indexOf(m[1]!);
    const a = Number(m[3]), b = m[4] === undefined ? a : Number(m[4]);
    // [hi:lo] is stored from lo up; [lo:hi] (reversed) from hi down.
    if (a >= b) for (let bit = b; bit <= a; bit++) out.push(endpoint * 16 + bit);
    else for (let bit = b; bit >= a; bit--) out.push(endpoint * 16 + bit);
  }
  return Uint8Array.from(out);
});

/**
 * The same, as runs: header bits [from, from + length) (counted after the mode bits) go to bits
 * [bit, bit + length) of one endpoint, in order. Runs copy several bits at once; a reversed field
 * (rw[10:15]) is runs of one bit.
 */
const RUNS: Int32Array[] = BIT_MAP.map((map) => {
  const runs: number[] = [];
  for (let i = 0; i < map.length;) {
    let n = 1;
    while (i + n < map.length && map[i + n]! === map[i]! + n && (map[i]! & 15) + n < 16) n++;
    runs.push(i, n, map[i]! >> 4, map[i]! & 15);
    i += n;
  }
  return Int32Array.from(runs);
});

const words = new Int32Array(5);
const ep = new Int32Array(12);
/** Each subset's interpolated colours: pal[(subset * 16 + index) * 3 + channel], as floats. */
const pal = new Float32Array(2 * 16 * 3);

/** The 32 bits of the block from `pos` on (bits past the block read as 0). */
function window(pos: number): number {
  const i = pos >> 5, s = pos & 31;
  // (x << 1) << (31 - s) is x << (32 - s), and 0 when s is 0.
  return (words[i]! >>> s) | ((words[i + 1]! << 1) << (31 - s));
}

function signExtend(v: number, n: number): number {
  return (v << (32 - n)) >> (32 - n);
}

function unquantize(v: number, n: number, signed: boolean): number {
  if (!signed) {
    if (n >= 15 || v === 0) return v;
    if (v === (1 << n) - 1) return 0xffff;
    return ((v << 15) + 0x4000) >> (n - 1);
  }
  if (n >= 16) return v;
  const neg = v < 0;
  let x = neg ? -v : v;
  if (x !== 0) x = x >= (1 << (n - 1)) - 1 ? 0x7fff : ((x << 15) + 0x4000) >> (n - 1);
  return neg ? -x : x;
}

/** The half float an interpolated value stands for. */
function finish(v: number, signed: boolean): number {
  if (!signed) return HALF_TO_FLOAT[(v * 31) >> 6]!;
  return v < 0 ? HALF_TO_FLOAT[0x8000 | ((-v * 31) >> 5)]! : HALF_TO_FLOAT[(v * 31) >> 5]!;
}

function decodeBlock(src: Uint8Array, o: number, dst: Float32Array, d: number, pitch: number, signed: boolean): void {
  for (let w = 0; w < 4; w++) {
    const k = o + 4 * w;
    words[w] = src[k]! | (src[k + 1]! << 8) | (src[k + 2]! << 16) | (src[k + 3]! << 24);
  }
  const mode = MODE_OF[src[o]! & 31]!;
  if (mode < 0) {
    for (let y = 0; y < 4; y++) { dst.fill(0, d + y * pitch, d + y * pitch + 16); }
    return;
  }
  const runs = RUNS[mode]!;
  let pos = mode < 2 ? 2 : 5;
  ep.fill(0);
  for (let r = 0; r < runs.length; r += 4) {
    const e = runs[r + 2]!;
    ep[e] = ep[e]! | ((window(pos + runs[r]!) & ((1 << runs[r + 1]!) - 1)) << runs[r + 3]!);
  }
  pos += BIT_MAP[mode]!.length;
  const ns = SUBSET_COUNT[mode]!;
  const partition = ns === 2 ? window(pos) & 31 : 0;
  if (ns === 2) pos += 5;
  const n = EP_BITS[mode]!, mask = (1 << n) - 1;
  const endpoints = ns * 6;
  if (signed) for (let c = 0; c < 3; c++) ep[c] = signExtend(ep[c]!, n);
  if (signed || TRANSFORMED[mode]) {
    for (let e = 3; e < endpoints; e++) ep[e] = signExtend(ep[e]!, DELTA_BITS[mode * 3 + (e % 3)]!);
  }
  if (TRANSFORMED[mode]) {
    for (let e = 3; e < endpoints; e++) {
      ep[e] = (ep[e]! + ep[e % 3]!) & mask;
      if (signed) ep[e] = signExtend(ep[e]!, n);
    }
  }
  for (let e = 0; e < endpoints; e++) ep[e] = unquantize(ep[e]!, n, signed);

  const ib = ns === 2 ? 3 : 4;
  for (let s = 0; s < ns; s++) {
    for (let i = 0; i < 1 << ib; i++) {
      const w = WEIGHTS[ib * 16 + i]!, u = 64 - w;
      for (let c = 0; c < 3; c++) {
        const v = (u * ep[s * 6 + c]! + w * ep[s * 6 + 3 + c]! + 32) >> 6;
        pal[(s * 16 + i) * 3 + c] = finish(v, signed);
      }
    }
  }
  const anchors = ANCHOR_MASKS[(ns - 1) * 64 + partition]!;
  const subsets = (ns - 1) * 1024 + partition * 16;
  // Index bits from a 32-bit window, refilled when it runs short.
  let win = window(pos), avail = 32;
  for (let i = 0; i < 16; i++) {
    const nb = ib - ((anchors >> i) & 1);
    if (avail < nb) { win = window(pos); avail = 32; }
    const p = (SUBSETS[subsets + i]! * 16 + (win & ((1 << nb) - 1))) * 3;
    win >>>= nb; avail -= nb; pos += nb;
    const at = d + (i >> 2) * pitch + (i & 3) * 4;
    dst[at] = pal[p]!; dst[at + 1] = pal[p + 1]!; dst[at + 2] = pal[p + 2]!; dst[at + 3] = 1;
  }
}

export function decodeBC6HBlock(src: Uint8Array, o: number, dst: Float32Array, d: number, pitch: number): void {
  decodeBlock(src, o, dst, d, pitch, false);
}

export function decodeBC6HSignedBlock(src: Uint8Array, o: number, dst: Float32Array, d: number, pitch: number): void {
  decodeBlock(src, o, dst, d, pitch, true);
}

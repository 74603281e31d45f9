/**
 * ASTC block decoder, every 2D block size (the Khronos Data Format specification's ASTC
 * chapter): 16 bytes in, a blockWidth x blockHeight block out. Covers void-extent blocks, 1 to 4
 * partitions, dual planes, every weight grid and every colour endpoint mode. One block parser
 * (parseBlock) and two output stages:
 * - the LDR profile (PF_ASTC_NxM): packed RGBA words (see block-image.ts); texels interpolated at
 *   16 bits (endpoints widened by repeating their byte) and rounded to 8 bits, as astcenc's 8-bit
 *   output is; invalid blocks and HDR endpoint modes give the error colour, magenta;
 * - the HDR profile (PF_ASTC_NxM_HDR): RGBA floats; HDR endpoint modes (2, 3, 7, 11, 14, 15) give
 *   logarithmic values turned into half floats, LDR modes UNORM16 values, bit for bit as astcenc -dh.
 */

// The 21 integer-sequence ranges: levels, and whether trits or quints carry part of each value.
const LEVELS = [2, 3, 4, 5, 6, 8, 10, 12, 16, 20, 24, 32, 40, 48, 64, 80, 96, 128, 160, 192, 256];
const TRITS = LEVELS.map((n) => (n % 3 === 0 ? 1 : 0));
const QUINTS = LEVELS.map((n) => (n % 5 === 0 ? 1 : 0));
const BITS = LEVELS.map((n, i) => Math.log2(n / (TRITS[i] ? 3 : QUINTS[i] ? 5 : 1)));

/** Bits an integer sequence of `count` values of range `r` takes. */
function sequenceBits(count: number, r: number): number {
  return count * BITS[r]! + (TRITS[r] ? Math.ceil((8 * count) / 5) : QUINTS[r] ? Math.ceil((7 * count) / 3) : 0);
}

// The five trits packed in 8 bits and the three quints packed in 7 bits, unpacked once.
const TRIT_TABLE = new Uint8Array(256 * 5);
for (let t = 0; t < 256; t++) {
  const bit = (i: number): number => (t >> i) & 1;
  let c: number, t3: number, t4: number;
  if (((t >> 2) & 7) === 7) {
    c = (((t >> 5) & 7) << 2) | (t & 3); t4 = 2; t3 = 2;
  } else {
    c = t & 31;
    if (((t >> 5) & 3) === 3) { t4 = 2; t3 = bit(7); } else { t4 = bit(7); t3 = (t >> 5) & 3; }
  }
  let t0: number, t1: number, t2: number;
  const cb = (i: number): number => (c >> i) & 1;
  if ((c & 3) === 3) { t2 = 2; t1 = cb(4); t0 = (cb(3) << 1) | (cb(2) & ~cb(3) & 1); }
  else if (((c >> 2) & 3) === 3) { t2 = 2; t1 = 2; t0 = c & 3; }
  else { t2 = cb(4); t1 = (c >> 2) & 3; t0 = (cb(1) << 1) | (cb(0) & ~cb(1) & 1); }
  TRIT_TABLE.set([t0, t1, t2, t3, t4], t * 5);
}
const QUINT_TABLE = new Uint8Array(128 * 3);
for (let q = 0; q < 128; q++) {
  const bit = (i: number): number => (q >> i) & 1;
  let q0: number, q1: number, q2: number;
  if (((q >> 1) & 3) === 3 && ((q >> 5) & 3) === 0) {
    q2 = (bit(0) << 2) | ((bit(4) & ~bit(0) & 1) << 1) | (bit(3) & ~bit(0) & 1); q1 = 4; q0 = 4;
  } else {
    let c: number;
    if (((q >> 1) & 3) === 3) { q2 = 4; c = (((q >> 3) & 3) << 3) | ((~(q >> 5) & 3) << 1) | bit(0); }
    else { q2 = (q >> 5) & 3; c = q & 31; }
    if ((c & 7) === 5) { q1 = 4; q0 = (c >> 3) & 3; } else { q1 = (c >> 3) & 3; q0 = c & 7; }
  }
  QUINT_TABLE.set([q0, q1, q2], q * 3);
}

/** Reads `n` bits at `pos` of a 16-byte block, bits at or past `end` read as 0. */
function readBits(block: Uint8Array, pos: number, n: number, end: number): number {
  let v = 0;
  for (let i = 0; i < n; i++) {
    const p = pos + i;
    if (p >= end) break;
    v |= ((block[p >> 3]! >> (p & 7)) & 1) << i;
  }
  return v;
}

const TRIT_BITS = [2, 2, 1, 2, 1];
const QUINT_BITS = [3, 2, 2];
const low = new Int32Array(5);

/** Decodes `count` values of range `r` from bits [start, end) of `block` into out[0..count). */
function decodeSequence(block: Uint8Array, start: number, end: number, count: number, r: number, out: Uint8Array): void {
  const b = BITS[r]!;
  let pos = start;
  if (TRITS[r]) {
    for (let i = 0; i < count; i += 5) {
      let t = 0;
      let shift = 0;
      for (let k = 0; k < 5; k++) {
        low[k] = readBits(block, pos, b, end); pos += b;
        t |= readBits(block, pos, TRIT_BITS[k]!, end) << shift; pos += TRIT_BITS[k]!; shift += TRIT_BITS[k]!;
      }
      for (let k = 0; k < 5 && i + k < count; k++) out[i + k] = (TRIT_TABLE[t * 5 + k]! << b) | low[k]!;
    }
  } else if (QUINTS[r]) {
    for (let i = 0; i < count; i += 3) {
      let q = 0;
      let shift = 0;
      for (let k = 0; k < 3; k++) {
        low[k] = readBits(block, pos, b, end); pos += b;
        q |= readBits(block, pos, QUINT_BITS[k]!, end) << shift; pos += QUINT_BITS[k]!; shift += QUINT_BITS[k]!;
      }
      for (let k = 0; k < 3 && i + k < count; k++) out[i + k] = (QUINT_TABLE[q * 3 + k]! << b) | low[k]!;
    }
  } else {
    for (let i = 0; i < count; i++) { out[i] = readBits(block, pos, b, end); pos += b; }
  }
}

/** Colour values of each range mapped to 0..255 (the specification's unquantization). */
const COLOUR_UNQUANT: Uint8Array[] = LEVELS.map((n, r) => {
  const table = new Uint8Array(n);
  const b = BITS[r]!;
  for (let v = 0; v < n; v++) {
    if (!TRITS[r] && !QUINTS[r]) {
      // Bit replication to 8 bits.
      let x = 0;
      for (let s = 8 - b; s > -b; s -= b) x |= s >= 0 ? v << s : v >> -s;
      table[v] = x & 255;
      continue;
    }
    if (b === 0) { table[v] = Math.round((v * 255) / (n - 1)); continue; } // ranges 3 and 5: never used for colours
    const d = v >> b, m = v & ((1 << b) - 1);
    const a = m & 1 ? 0x1ff : 0;
    const bit = (i: number): number => (m >> i) & 1;
    // B: the specification's bit pattern of the value's bits b (1), c (2), d (3), e (4), f (5).
    const pattern = TRITS[r]
      ? ['000000000', 'b000b0bb0', 'cb000cbcb', 'dcb000dcb', 'edcb000ed', 'fedcb0000'][b - 1]!
      : ['000000000', 'b0000bb00', 'cb0000cbc', 'dcb0000dc', 'edcb0000e'][b - 1]!;
    let B = 0;
    for (const ch of pattern) B = (B << 1) | (ch === '0' ? 0 : bit(ch.charCodeAt(0) - 97));
    const C = TRITS[r] ? [204, 93, 44, 22, 11, 5][b - 1]! : [113, 54, 26, 13, 6][b - 1]!;
    let t = d * C + B;
    t ^= a;
    table[v] = (a & 0x80) | (t >> 2);
  }
  return table;
});

/** Weight values of each range (up to 32 levels) mapped to 0..64. */
const WEIGHT_UNQUANT: Uint8Array[] = LEVELS.slice(0, 12).map((n, r) => {
  const table = new Uint8Array(n);
  const b = BITS[r]!;
  for (let v = 0; v < n; v++) {
    let w: number;
    if (!TRITS[r] && !QUINTS[r]) {
      w = 0;
      for (let s = 6 - b; s > -b; s -= b) w |= s >= 0 ? v << s : v >> -s;
      w &= 63;
    } else if (b === 0) {
      w = TRITS[r] ? [0, 32, 63][v]! : [0, 16, 32, 47, 63][v]!;
    } else {
      const d = v >> b, m = v & ((1 << b) - 1);
      const a = m & 1 ? 0x7f : 0;
      const bit = (i: number): number => (m >> i) & 1;
      const pattern = TRITS[r] ? ['0000000', 'b000b0b', 'cb000cb'][b - 1]! : ['0000000', 'b0000b0'][b - 1]!;
      let B = 0;
      for (const ch of pattern) B = (B << 1) | (ch === '0' ? 0 : bit(ch.charCodeAt(0) - 97));
      const C = TRITS[r] ? [50, 23, 11][b - 1]! : [28, 13][b - 1]!;
      let t = d * C + B;
      t ^= a;
      w = (a & 0x20) | (t >> 2);
    }
    table[v] = w > 32 ? w + 1 : w;
  }
  return table;
});

/** The partition (0-3) of texel (x, y, z) for a partition pattern `seed` of `count` partitions. */
function partitionOf(seed: number, x: number, y: number, z: number, count: number, small: boolean): number {
  if (small) { x <<= 1; y <<= 1; z <<= 1; }
  seed += (count - 1) * 1024;
  let p = seed >>> 0;
  p ^= p >>> 15; p = (p - (p << 17)) >>> 0; p = (p + (p << 7)) >>> 0; p = (p + (p << 4)) >>> 0;
  p ^= p >>> 5; p = (p + (p << 16)) >>> 0; p ^= p >>> 7; p ^= p >>> 3; p = (p ^ (p << 6)) >>> 0; p ^= p >>> 17;
  const rnum = p >>> 0;
  let s1 = rnum & 15, s2 = (rnum >>> 4) & 15, s3 = (rnum >>> 8) & 15, s4 = (rnum >>> 12) & 15;
  let s5 = (rnum >>> 16) & 15, s6 = (rnum >>> 20) & 15, s7 = (rnum >>> 24) & 15, s8 = (rnum >>> 28) & 15;
  let s9 = (rnum >>> 18) & 15, s10 = (rnum >>> 22) & 15, s11 = (rnum >>> 26) & 15, s12 = ((rnum >>> 30) | (rnum << 2)) & 15;
  s1 *= s1; s2 *= s2; s3 *= s3; s4 *= s4; s5 *= s5; s6 *= s6; s7 *= s7; s8 *= s8;
  s9 *= s9; s10 *= s10; s11 *= s11; s12 *= s12;
  let sh1: number, sh2: number;
  if (seed & 1) { sh1 = seed & 2 ? 4 : 5; sh2 = count === 3 ? 6 : 5; }
  else { sh1 = count === 3 ? 6 : 5; sh2 = seed & 2 ? 4 : 5; }
  const sh3 = seed & 0x10 ? sh1 : sh2;
  s1 >>= sh1; s2 >>= sh2; s3 >>= sh1; s4 >>= sh2; s5 >>= sh1; s6 >>= sh2; s7 >>= sh1; s8 >>= sh2;
  s9 >>= sh3; s10 >>= sh3; s11 >>= sh3; s12 >>= sh3;
  const a = (s1 * x + s2 * y + s11 * z + (rnum >>> 14)) & 63;
  const b = (s3 * x + s4 * y + s12 * z + (rnum >>> 10)) & 63;
  const c = count < 3 ? 0 : (s5 * x + s6 * y + s9 * z + (rnum >>> 6)) & 63;
  const d = count < 4 ? 0 : (s7 * x + s8 * y + s10 * z + (rnum >>> 2)) & 63;
  if (a >= b && a >= c && a >= d) return 0;
  if (b >= c && b >= d) return 1;
  if (c >= d) return 2;
  return 3;
}

/** Partition of each texel, per (block size, partition count, seed): built when first needed. */
const partitionCache = new Map<number, Uint8Array>();
function partitionsOf(bw: number, bh: number, count: number, seed: number): Uint8Array {
  const key = ((bw * 16 + bh) * 5 + count) * 1024 + seed;
  let table = partitionCache.get(key);
  if (!table) {
    table = new Uint8Array(bw * bh);
    const small = bw * bh < 31;
    for (let y = 0; y < bh; y++) for (let x = 0; x < bw; x++) table[y * bw + x] = partitionOf(seed, x, y, 0, count, small);
    partitionCache.set(key, table);
  }
  return table;
}

/**
 * Weight infill from a gw x gh grid to a bw x bh block (the specification's bilinear rule): per
 * texel four grid indices and four weights (in 16ths), built once per size pair.
 */
const infillCache = new Map<number, Int32Array>();
function infillOf(bw: number, bh: number, gw: number, gh: number): Int32Array {
  const key = ((bw * 16 + bh) * 16 + gw) * 16 + gh;
  let table = infillCache.get(key);
  if (!table) {
    table = new Int32Array(bw * bh * 8);
    const ds = Math.floor((1024 + (bw >> 1)) / (bw - 1));
    const dt = Math.floor((1024 + (bh >> 1)) / (bh - 1));
    for (let t = 0; t < bh; t++) {
      for (let s = 0; s < bw; s++) {
        const gs = (ds * s * (gw - 1) + 32) >> 6, gt = (dt * t * (gh - 1) + 32) >> 6;
        const js = gs >> 4, fs = gs & 15, jt = gt >> 4, ft = gt & 15;
        const v0 = js + jt * gw;
        const w11 = (fs * ft + 8) >> 4;
        const at = (t * bw + s) * 8;
        const last = gw * gh - 1;
        table[at] = v0; table[at + 1] = Math.min(v0 + 1, last);
        table[at + 2] = Math.min(v0 + gw, last); table[at + 3] = Math.min(v0 + gw + 1, last);
        table[at + 4] = 16 - fs - ft + w11; table[at + 5] = fs - w11; table[at + 6] = ft - w11; table[at + 7] = w11;
      }
    }
    infillCache.set(key, table);
  }
  return table;
}

const MAGENTA = 0xffff00ff;
/** A 16-bit UNORM value as 8 bits, rounded. */
const TO8 = new Uint8Array(65536);
for (let v = 0; v < 65536; v++) TO8[v] = Math.round(v / 257);
const block = new Uint8Array(16);
const reversed = new Uint8Array(16);
const values = new Uint8Array(64);
const colourValues = new Uint8Array(18);
const gridWeights = new Uint8Array(64);
/** Weights per texel, plane 0 then plane 1: texelWeights[plane * 144 + texel]. */
const texelWeights = new Uint8Array(288);
/** Endpoints: ends[partition * 8 + endpoint * 4 + channel]. */
const ends = new Int32Array(32);
const cems = new Int32Array(4);
const REVERSE_BYTE = new Uint8Array(256);
for (let i = 0; i < 256; i++) { let r = 0; for (let k = 0; k < 8; k++) r |= ((i >> k) & 1) << (7 - k); REVERSE_BYTE[i] = r; }

function fill(dst: Uint32Array, d: number, pitch: number, bw: number, bh: number, colour: number): void {
  for (let y = 0; y < bh; y++) dst.fill(colour, d + y * pitch, d + y * pitch + bw);
}

const clamp255 = (v: number): number => (v < 0 ? 0 : v > 255 ? 255 : v);

/** Moves bit 7 of `b` into the offset `a` (signed 6 bits) and halves b: the base+offset modes' bit transfer. */
function transfer(v: Uint8Array | Int32Array, ai: number, bi: number, out: Int32Array, oa: number, ob: number): void {
  let a = v[ai]!, b = v[bi]!;
  b = (b >> 1) | (a & 0x80);
  a = (a >> 1) & 0x3f;
  if (a & 0x20) a -= 0x40;
  out[oa] = a; out[ob] = b;
}

const tv = new Int32Array(8);

/** Endpoint `i` (0 or 1) of the partition whose endpoints start at ends[at], clamped to 0..255. */
function set(at: number, i: number, r: number, g: number, b: number, a: number): void {
  const k = at + i * 4;
  ends[k] = clamp255(r); ends[k + 1] = clamp255(g); ends[k + 2] = clamp255(b); ends[k + 3] = clamp255(a);
}

/** set() of a blue-contracted colour: red and green are averaged with blue. */
function contract(at: number, i: number, r: number, g: number, b: number, a: number): void {
  set(at, i, (r + b) >> 1, (g + b) >> 1, b, a);
}

/** Writes the two RGBA endpoints of LDR mode `cem` from values v[o..] to ends[at..at+8); false for an HDR mode. */
function endpoints(cem: number, v: Uint8Array, o: number, at: number): boolean {
  const v0 = v[o]!, v1 = v[o + 1]!, v2 = v[o + 2]!, v3 = v[o + 3]!;
  switch (cem) {
    case 0: set(at, 0, v0, v0, v0, 255); set(at, 1, v1, v1, v1, 255); return true;
    case 1: {
      const l0 = (v0 >> 2) | (v1 & 0xc0);
      const l1 = Math.min(l0 + (v1 & 0x3f), 255);
      set(at, 0, l0, l0, l0, 255); set(at, 1, l1, l1, l1, 255); return true;
    }
    case 4: set(at, 0, v0, v0, v0, v2); set(at, 1, v1, v1, v1, v3); return true;
    case 5: {
      transfer(v, o + 1, o, tv, 1, 0); transfer(v, o + 3, o + 2, tv, 3, 2);
      set(at, 0, tv[0]!, tv[0]!, tv[0]!, tv[2]!);
      set(at, 1, tv[0]! + tv[1]!, tv[0]! + tv[1]!, tv[0]! + tv[1]!, tv[2]! + tv[3]!);
      return true;
    }
    case 6: set(at, 0, (v0 * v3) >> 8, (v1 * v3) >> 8, (v2 * v3) >> 8, 255); set(at, 1, v0, v1, v2, 255); return true;
    case 10: set(at, 0, (v0 * v3) >> 8, (v1 * v3) >> 8, (v2 * v3) >> 8, v[o + 4]!); set(at, 1, v0, v1, v2, v[o + 5]!); return true;
    case 8: case 12: {
      const v4 = v[o + 4]!, v5 = v[o + 5]!;
      const a0 = cem === 12 ? v[o + 6]! : 255, a1 = cem === 12 ? v[o + 7]! : 255;
      if (v1 + v3 + v5 >= v0 + v2 + v4) { set(at, 0, v0, v2, v4, a0); set(at, 1, v1, v3, v5, a1); }
      else { contract(at, 0, v1, v3, v5, a1); contract(at, 1, v0, v2, v4, a0); }
      return true;
    }
    case 9: case 13: {
      transfer(v, o + 1, o, tv, 1, 0); transfer(v, o + 3, o + 2, tv, 3, 2); transfer(v, o + 5, o + 4, tv, 5, 4);
      if (cem === 13) transfer(v, o + 7, o + 6, tv, 7, 6); else { tv[6] = 255; tv[7] = 0; }
      const b0 = tv[0]!, d0 = tv[1]!, b1 = tv[2]!, d1 = tv[3]!, b2 = tv[4]!, d2 = tv[5]!, b3 = tv[6]!, d3 = tv[7]!;
      if (d0 + d1 + d2 >= 0) { set(at, 0, b0, b1, b2, b3); set(at, 1, b0 + d0, b1 + d1, b2 + d2, b3 + d3); }
      else { contract(at, 0, b0 + d0, b1 + d1, b2 + d2, b3 + d3); contract(at, 1, b0, b1, b2, b3); }
      return true;
    }
    default: return false;
  }
}

// --- HDR profile ---------------------------------------------------------------------------

/** Endpoints in the HDR profile: ends16[partition * 8 + endpoint * 4 + channel], 16-bit values. */
const ends16 = new Int32Array(32);
/** Per partition and channel: the value is logarithmic (an HDR endpoint mode's), not UNORM16. */
const lns = new Uint8Array(16);
/** Half-float bits -> value. */
const HALF = new Float32Array(65536);
for (let h = 0; h < 65536; h++) {
  const e = (h >> 10) & 31, m = h & 1023;
  const v = e === 0 ? m * 2 ** -24 : e === 31 ? (m ? NaN : Infinity) : (1 + m / 1024) * 2 ** (e - 15);
  HALF[h] = h & 0x8000 ? -v : v;
}

/**
 * A UNORM16 value as the half float the spec's HDR profile makes of it: p / 65536 with the
 * mantissa truncated to 10 bits (0xFFFF is exactly 1.0), so that LDR lanes match astcenc's -dh.
 */
const UNORM16 = new Float32Array(65536);
for (let v = 0; v < 65536; v++) {
  let bits: number;
  if (v === 0xffff) bits = 0x3c00;
  else if (v < 4) bits = v << 8; // subnormal halves
  else {
    const lz = Math.clz32(v) - 16;
    bits = ((14 - lz) << 10) | (((v << (lz + 1)) & 0xffff) >> 6);
  }
  UNORM16[v] = HALF[bits]!;
}

/** An interpolated LNS value (5-bit exponent, 11-bit mantissa) as half-float bits: the spec's piecewise-linear mantissa. */
function lnsToHalf(v: number): number {
  const e = v >> 11, m = v & 0x7ff;
  const mt = m < 512 ? 3 * m : m < 1536 ? 4 * m - 512 : 5 * m - 2048;
  return Math.min((e << 10) | (mt >> 3), 0x7bff);
}

const clamp12 = (v: number): number => (v < 0 ? 0 : v > 0xfff ? 0xfff : v);
const bitOf = (v: number, i: number): number => (v >> i) & 1;

/** Sets partition p's endpoint i to 12-bit LNS r, g, b (shifted to 16 bits) and alpha 1.0 (LNS 0x7800). */
function setHdr(p: number, i: number, r: number, g: number, b: number): void {
  const k = p * 8 + i * 4;
  ends16[k] = r << 4; ends16[k + 1] = g << 4; ends16[k + 2] = b << 4; ends16[k + 3] = 0x7800;
}

/** Mode 11 (HDR RGB, direct): two colours from a base, two offsets and the major component's place. */
function hdrRgb(v: Uint8Array, o: number, p: number): void {
  const v0 = v[o]!, v1 = v[o + 1]!, v2 = v[o + 2]!, v3 = v[o + 3]!, v4 = v[o + 4]!, v5 = v[o + 5]!;
  const major = bitOf(v4, 7) | (bitOf(v5, 7) << 1);
  if (major === 3) {
    // Each channel stored directly: 8, 8 and 7 bits.
    setHdr(p, 0, v0 << 4, v2 << 4, (v4 & 0x7f) << 5);
    setHdr(p, 1, v1 << 4, v3 << 4, (v5 & 0x7f) << 5);
    return;
  }
  const sub = bitOf(v1, 7) | (bitOf(v2, 7) << 1) | (bitOf(v3, 7) << 2);
  let a = v0 | (bitOf(v1, 6) << 8), c = v1 & 0x3f;
  let b0 = v2 & 0x3f, b1 = v3 & 0x3f, d0 = v4 & 0x1f, d1 = v5 & 0x1f;
  const x0 = bitOf(v2, 6), x1 = bitOf(v3, 6), x2 = bitOf(v4, 6), x3 = bitOf(v5, 6), x4 = bitOf(v4, 5), x5 = bitOf(v5, 5);
  // Where the six spare bits go depends on the submode (the spec's table, as bit masks over submodes 0-7).
  const on = (mask: number): boolean => ((mask >> sub) & 1) !== 0;
  if (on(0xa4)) a |= x0 << 9;
  if (on(0x08)) a |= x2 << 9;
  if (on(0x50)) a |= (x4 << 9) | (x5 << 10);
  if (on(0xa0)) a |= x1 << 10;
  if (on(0xc0)) a |= x2 << 11;
  if (on(0x04)) c |= x1 << 6;
  if (on(0xe8)) c |= x3 << 6;
  if (on(0x20)) c |= x2 << 7;
  if (on(0x5b)) { b0 |= x0 << 6; b1 |= x1 << 6; }
  if (on(0x12)) { b0 |= x2 << 7; b1 |= x3 << 7; }
  if (on(0xaf)) { d0 |= x4 << 5; d1 |= x5 << 5; }
  if (on(0x05)) { d0 |= x2 << 6; d1 |= x3 << 6; }
  const dBits = [7, 6, 7, 6, 5, 6, 5, 6][sub]!;
  const signed = (x: number): number => (x & (1 << (dBits - 1)) ? x - (1 << dBits) : x);
  d0 = signed(d0); d1 = signed(d1);
  const shift = (sub >> 1) ^ 3;
  a <<= shift; b0 <<= shift; b1 <<= shift; c <<= shift; d0 <<= shift; d1 <<= shift;
  const e1 = [a, a - b0, a - b1].map(clamp12);
  const e0 = [a - c, a - b0 - c - d0, a - b1 - c - d1].map(clamp12);
  for (const [i, e] of [[0, e0], [1, e1]] as const) {
    const [x, y, z] = major === 1 ? [e[1]!, e[0]!, e[2]!] : major === 2 ? [e[2]!, e[1]!, e[0]!] : [e[0]!, e[1]!, e[2]!];
    setHdr(p, i, x, y, z);
  }
}

/** Mode 7 (HDR RGB, base + scale): one colour and a scale subtracted from it for the other. */
function hdrRgbScale(v: Uint8Array, o: number, p: number): void {
  const v0 = v[o]!, v1 = v[o + 1]!, v2 = v[o + 2]!, v3 = v[o + 3]!;
  const modeBits = (v0 >> 6) | (bitOf(v1, 7) << 2) | (bitOf(v2, 7) << 3);
  const [major, sub] = (modeBits & 0xc) !== 0xc ? [modeBits >> 2, modeBits & 3] : modeBits !== 0xf ? [modeBits & 3, 4] : [0, 5];
  let r = v0 & 0x3f, g = v1 & 0x1f, b = v2 & 0x1f, s = v3 & 0x1f;
  const x0 = bitOf(v1, 6), x1 = bitOf(v1, 5), x2 = bitOf(v2, 6), x3 = bitOf(v2, 5), x4 = bitOf(v3, 7), x5 = bitOf(v3, 6), x6 = bitOf(v3, 5);
  const on = (mask: number): boolean => ((mask >> sub) & 1) !== 0;
  if (on(0x30)) { g |= x0 << 6; b |= x2 << 6; }
  if (on(0x3a)) { g |= x1 << 5; b |= x3 << 5; }
  if (on(0x3d)) s |= x6 << 5;
  if (on(0x2d)) s |= x5 << 6;
  if (on(0x04)) s |= x4 << 7;
  if (on(0x3b)) r |= x4 << 6;
  if (on(0x04)) r |= x3 << 6;
  if (on(0x10)) r |= x5 << 7;
  if (on(0x0f)) r |= x2 << 7;
  if (on(0x05)) r |= (x1 << 8) | (x0 << 9);
  if (on(0x0a)) r |= x0 << 8;
  if (on(0x02)) r |= (x6 << 9) | (x5 << 10);
  if (on(0x01)) r |= x3 << 10;
  const shift = [1, 1, 2, 3, 4, 5][sub]!;
  r <<= shift; g <<= shift; b <<= shift; s <<= shift;
  if (sub !== 5) { g = r - g; b = r - b; }
  if (major === 1) [r, g] = [g, r];
  else if (major === 2) [r, b] = [b, r];
  setHdr(p, 0, Math.max(r - s, 0), Math.max(g - s, 0), Math.max(b - s, 0));
  setHdr(p, 1, Math.max(r, 0), Math.max(g, 0), Math.max(b, 0));
}

/** Writes partition p's endpoints for mode `cem` in the HDR profile (ends16, lns); LDR modes as UNORM16. */
function hdrEndpoints(cem: number, v: Uint8Array, o: number, p: number): void {
  const k = p * 8;
  let rgbLns = 1, alphaLns = 1;
  switch (cem) {
    case 2: { // HDR luminance, large range
      const v0 = v[o]!, v1 = v[o + 1]!;
      const [y0, y1] = v1 >= v0 ? [v0 << 4, v1 << 4] : [(v1 << 4) + 8, (v0 << 4) - 8];
      setHdr(p, 0, y0, y0, y0); setHdr(p, 1, y1, y1, y1);
      break;
    }
    case 3: { // HDR luminance, small range
      const v0 = v[o]!, v1 = v[o + 1]!;
      const [y0, d] = v0 & 0x80 ? [((v1 & 0xe0) << 4) | ((v0 & 0x7f) << 2), (v1 & 0x1f) << 2] : [((v1 & 0xf0) << 4) | ((v0 & 0x7f) << 1), (v1 & 0x0f) << 1];
      const y1 = Math.min(y0 + d, 0xfff);
      setHdr(p, 0, y0, y0, y0); setHdr(p, 1, y1, y1, y1);
      break;
    }
    case 7: hdrRgbScale(v, o, p); break;
    case 11: hdrRgb(v, o, p); break;
    case 14: // HDR RGB, LDR alpha
      hdrRgb(v, o, p);
      ends16[k + 3] = v[o + 6]! * 257; ends16[k + 7] = v[o + 7]! * 257;
      alphaLns = 0;
      break;
    case 15: { // HDR RGB, HDR alpha
      hdrRgb(v, o, p);
      let a0 = v[o + 6]!, a1 = v[o + 7]!;
      const sel = bitOf(a0, 7) | (bitOf(a1, 7) << 1);
      a0 &= 0x7f; a1 &= 0x7f;
      if (sel === 3) { a0 <<= 5; a1 <<= 5; }
      else {
        a0 |= (a1 << (sel + 1)) & 0x780;
        a1 &= 0x3f >> sel;
        a1 = (a1 ^ (32 >> sel)) - (32 >> sel);
        a0 <<= 4 - sel; a1 = clamp12(a0 + (a1 << (4 - sel)));
      }
      ends16[k + 3] = a0 << 4; ends16[k + 7] = a1 << 4;
      break;
    }
    default:
      // An LDR mode: its 8-bit endpoints widened to UNORM16.
      endpoints(cem, v, o, k);
      for (let i = 0; i < 8; i++) ends16[k + i] = ends[k + i]! * 257;
      rgbLns = 0; alphaLns = 0;
  }
  lns[p * 4] = lns[p * 4 + 1] = lns[p * 4 + 2] = rgbLns;
  lns[p * 4 + 3] = alphaLns;
}

/** A decoder for blocks of bw x bh texels (the LDR profile: 8-bit RGBA out). */
export function astcBlockDecoder(bw: number, bh: number): (src: Uint8Array, o: number, dst: Uint32Array, d: number, pitch: number) => void {
  return (src, o, dst, d, pitch) => decodeBlock(src, o, dst, d, pitch, bw, bh);
}

/**
 * A decoder for blocks of bw x bh texels in the HDR profile (PF_ASTC_*_HDR): RGBA floats out.
 * HDR endpoint modes give logarithmic (LNS) values turned into half floats; LDR modes give UNORM16
 * values turned into half floats by truncation, as the spec and astcenc's -dh decompression do.
 */
export function astcFloatBlockDecoder(bw: number, bh: number): (src: Uint8Array, o: number, dst: Float32Array, d: number, pitch: number) => void {
  return (src, o, dst, d, pitch) => decodeHdrBlock(src, o, dst, d, pitch, bw, bh);
}

/** What parseBlock leaves for the output stage. */
const VOID_EXTENT = -1, ERROR = -2;
let partitionMap: Uint8Array | undefined;
let ccs = -1;

function decodeBlock(src: Uint8Array, o: number, dst: Uint32Array, d: number, pitch: number, bw: number, bh: number): void {
  const result = parseBlock(src, o, bw, bh, false);
  if (result === ERROR) { fill(dst, d, pitch, bw, bh, MAGENTA); return; }
  if (result === VOID_EXTENT) {
    const r = TO8[block[8]! | (block[9]! << 8)]!, g = TO8[block[10]! | (block[11]! << 8)]!;
    const b = TO8[block[12]! | (block[13]! << 8)]!, a = TO8[block[14]! | (block[15]! << 8)]!;
    fill(dst, d, pitch, bw, bh, (r | (g << 8) | (b << 16) | (a << 24)) >>> 0);
    return;
  }
  const part = partitionMap;
  for (let y = 0; y < bh; y++) {
    for (let x = 0; x < bw; x++) {
      const t = y * bw + x;
      const e = (part ? part[t]! : 0) * 8;
      let pixel = 0;
      for (let c = 0; c < 4; c++) {
        const w = c === ccs ? texelWeights[144 + t]! : texelWeights[t]!;
        const c0 = ends[e + c]! * 257, c1 = ends[e + 4 + c]! * 257;
        pixel |= TO8[(c0 * (64 - w) + c1 * w + 32) >> 6]! << (8 * c);
      }
      dst[d + y * pitch + x] = pixel;
    }
  }
}

function decodeHdrBlock(src: Uint8Array, o: number, dst: Float32Array, d: number, pitch: number, bw: number, bh: number): void {
  const result = parseBlock(src, o, bw, bh, true);
  if (result === ERROR) { fillFloat(dst, d, pitch, bw, bh, 1, 0, 1, 1); return; }
  if (result === VOID_EXTENT) {
    // Bit 9 says the constant colour is four half floats; else UNORM16 values.
    const hdr = (block[1]! & 2) !== 0;
    const ch = (i: number): number => {
      const v = block[8 + 2 * i]! | (block[9 + 2 * i]! << 8);
      return hdr ? HALF[v]! : UNORM16[v]!;
    };
    fillFloat(dst, d, pitch, bw, bh, ch(0), ch(1), ch(2), ch(3));
    return;
  }
  const part = partitionMap;
  for (let y = 0; y < bh; y++) {
    for (let x = 0; x < bw; x++) {
      const t = y * bw + x;
      const p = part ? part[t]! : 0;
      const e = p * 8;
      const at = d + y * pitch + x * 4;
      for (let c = 0; c < 4; c++) {
        const w = c === ccs ? texelWeights[144 + t]! : texelWeights[t]!;
        const v = (ends16[e + c]! * (64 - w) + ends16[e + 4 + c]! * w + 32) >> 6;
        dst[at + c] = lns[p * 4 + c] ? HALF[lnsToHalf(v)]! : UNORM16[v]!;
      }
    }
  }
}

function fillFloat(dst: Float32Array, d: number, pitch: number, bw: number, bh: number, r: number, g: number, b: number, a: number): void {
  for (let y = 0; y < bh; y++) {
    for (let x = 0; x < bw; x++) {
      const at = d + y * pitch + x * 4;
      dst[at] = r; dst[at + 1] = g; dst[at + 2] = b; dst[at + 3] = a;
    }
  }
}

/**
 * Reads block src[o..o+16): its weights into texelWeights, its endpoints into `ends` (LDR, 8-bit)
 * or, for the HDR profile, `ends16` and `lns`; the partition map and the dual plane's channel
 * into partitionMap and ccs. Returns 0, VOID_EXTENT (the colour is in block[8..16)) or ERROR.
 */
function parseBlock(src: Uint8Array, o: number, bw: number, bh: number, hdrProfile: boolean): number {
  for (let i = 0; i < 16; i++) block[i] = src[o + i]!;
  const mode = block[0]! | ((block[1]! & 7) << 8);

  if ((mode & 0x1ff) === 0x1fc) {
    // Void extent: one colour for the whole block (UNORM16 per channel; bit 9: half floats, HDR profile only).
    // Reserved bits 10-11 must be set; the extent (unless all ones) must not be empty.
    const lowS = readBits(block, 12, 13, 128), highS = readBits(block, 25, 13, 128);
    const lowT = readBits(block, 38, 13, 128), highT = readBits(block, 51, 13, 128);
    const allOnes = lowS === 0x1fff && highS === 0x1fff && lowT === 0x1fff && highT === 0x1fff;
    if (((mode & 0x200) && !hdrProfile) || readBits(block, 10, 2, 128) !== 3 || (!allOnes && (lowS >= highS || lowT >= highT))) return ERROR;
    return VOID_EXTENT;
  }
  // Weight grid, range, dual plane.
  let gw: number, gh: number;
  const rBits = (mode & 3) !== 0 ? ((mode >> 4) & 1) | ((mode & 3) << 1) : ((mode >> 4) & 1) | (((mode >> 2) & 3) << 1);
  let high = (mode >> 9) & 1, dual = (mode >> 10) & 1;
  const A = (mode >> 5) & 3;
  if ((mode & 3) !== 0) {
    const B = (mode >> 7) & 3;
    switch ((mode >> 2) & 3) {
      case 0: gw = B + 4; gh = A + 2; break;
      case 1: gw = B + 8; gh = A + 2; break;
      case 2: gw = A + 2; gh = B + 8; break;
      default:
        if ((mode >> 8) & 1) { gw = (B & 1) + 2; gh = A + 2; } else { gw = A + 2; gh = (B & 1) + 6; }
    }
  } else {
    if ((mode & 15) === 0) return ERROR;
    switch ((mode >> 7) & 3) {
      case 0: gw = 12; gh = A + 2; break;
      case 1: gw = A + 2; gh = 12; break;
      case 2: gw = A + 6; gh = ((mode >> 9) & 3) + 6; high = 0; dual = 0; break;
      default:
        if (A === 0) { gw = 6; gh = 10; } else if (A === 1) { gw = 10; gh = 6; }
        else return ERROR;
    }
  }
  if (rBits < 2) return ERROR;
  const weightRange = rBits - 2 + 6 * high;
  const weightCount = gw * gh * (dual + 1);
  const weightBits = sequenceBits(weightCount, weightRange);
  const partitions = ((block[1]! >> 3) & 3) + 1;
  if (weightCount > 64 || weightBits < 24 || weightBits > 96 || gw > bw || gh > bh || (partitions === 4 && dual)) {
    return ERROR;
  }

  // Colour endpoint modes.
  let configEnd: number, extraBits = 0, seed = 0;
  if (partitions === 1) {
    cems[0] = (block[1]! >> 5) | ((block[2]! & 1) << 3);
    configEnd = 17;
  } else {
    seed = readBits(block, 13, 10, 128);
    const field = readBits(block, 23, 6, 128);
    configEnd = 29;
    if ((field & 3) === 0) {
      for (let p = 0; p < partitions; p++) cems[p] = field >> 2;
    } else {
      extraBits = 3 * partitions - 4;
      const all = field | (readBits(block, 128 - weightBits - extraBits, extraBits, 128) << 6);
      const base = (all & 3) - 1;
      for (let p = 0; p < partitions; p++) {
        const cls = (all >> (2 + p)) & 1;
        const m = (all >> (2 + partitions + 2 * p)) & 3;
        cems[p] = ((base + cls) << 2) | m;
      }
    }
  }
  const ccsAt = 128 - weightBits - extraBits - 2;
  ccs = dual ? readBits(block, ccsAt, 2, 128) : -1;
  const colourEnd = 128 - weightBits - extraBits - (dual ? 2 : 0);
  let colourCount = 0;
  for (let p = 0; p < partitions; p++) colourCount += ((cems[p]! >> 2) + 1) * 2;
  if (colourCount > 18) return ERROR;
  const colourBits = colourEnd - configEnd;
  let colourRange = -1;
  for (let r = 20; r >= 4; r--) if (sequenceBits(colourCount, r) <= colourBits) { colourRange = r; break; }
  if (colourRange < 0) return ERROR;
  decodeSequence(block, configEnd, colourEnd, colourCount, colourRange, values);
  const unq = COLOUR_UNQUANT[colourRange]!;
  for (let i = 0; i < colourCount; i++) colourValues[i] = unq[values[i]!]!;
  let vo = 0;
  for (let p = 0; p < partitions; p++) {
    if (hdrProfile) hdrEndpoints(cems[p]!, colourValues, vo, p);
    else if (!endpoints(cems[p]!, colourValues, vo, p * 8)) return ERROR;
    vo += ((cems[p]! >> 2) + 1) * 2;
  }

  // Weights: stored from the block's last bit backwards.
  for (let i = 0; i < 16; i++) reversed[i] = REVERSE_BYTE[block[15 - i]!]!;
  decodeSequence(reversed, 0, weightBits, weightCount, weightRange, values);
  const wq = WEIGHT_UNQUANT[weightRange]!;
  for (let i = 0; i < weightCount; i++) gridWeights[i] = wq[values[i]!]!;
  const texels = bw * bh;
  const planes = dual + 1;
  if (gw === bw && gh === bh) {
    for (let t = 0; t < texels; t++) for (let pl = 0; pl < planes; pl++) texelWeights[pl * 144 + t] = gridWeights[t * planes + pl]!;
  } else {
    const inf = infillOf(bw, bh, gw, gh);
    for (let t = 0; t < texels; t++) {
      const k = t * 8;
      for (let pl = 0; pl < planes; pl++) {
        texelWeights[pl * 144 + t] = (gridWeights[inf[k]! * planes + pl]! * inf[k + 4]! + gridWeights[inf[k + 1]! * planes + pl]! * inf[k + 5]! +
          gridWeights[inf[k + 2]! * planes + pl]! * inf[k + 6]! + gridWeights[inf[k + 3]! * planes + pl]! * inf[k + 7]! + 8) >> 4;
      }
    }
  }

  partitionMap = partitions > 1 ? partitionsOf(bw, bh, partitions, seed) : undefined;
  return 0;
}

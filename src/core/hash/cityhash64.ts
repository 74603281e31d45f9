/**
 * CityHash64 (Google CityHash v1.1, the version Unreal Engine ships in Core/Hash/CityHash.cpp).
 * The engine hashes package names into FPackageId, names in name batches, and script object paths
 * into FPackageObjectIndex with it.
 *
 * A 64-bit word is two int32 locals (high h, low l); each 64-bit operation leaves its result in
 * OUT[0] (high) and OUT[1] (low). Typed-array stores wrap modulo 2^32 and allocate nothing, which
 * makes this many times faster than BigInt when every name of a game is hashed.
 */

const OUT = new Int32Array(2);

const K0H = 0xc3a5c85c | 0, K0L = 0x97cb3127 | 0;
const K1H = 0xb492b66f | 0, K1L = 0xbe98f273 | 0;
const K2H = 0x9ae16a3b | 0, K2L = 0x2f90404f | 0;
const KMULH = 0x9ddfea08 | 0, KMULL = 0xeb382d69 | 0;

/** a + b */
function add(ah: number, al: number, bh: number, bl: number): void {
  const l = (al >>> 0) + (bl >>> 0);
  OUT[0] = ah + bh + (l > 0xffffffff ? 1 : 0);
  OUT[1] = l;
}

/** High 32 bits of the 64-bit product of two unsigned 32-bit values. */
function mulHigh32(a: number, b: number): number {
  const a0 = a & 0xffff, a1 = a >>> 16, b0 = b & 0xffff, b1 = b >>> 16;
  const p01 = a0 * b1, p10 = a1 * b0;
  const mid = ((a0 * b0) >>> 16) + (p01 & 0xffff) + (p10 & 0xffff);
  return a1 * b1 + (p01 >>> 16) + (p10 >>> 16) + (mid >>> 16);
}

/** a * b modulo 2^64 */
function mul(ah: number, al: number, bh: number, bl: number): void {
  OUT[0] = mulHigh32(al >>> 0, bl >>> 0) + Math.imul(ah, bl) + Math.imul(al, bh);
  OUT[1] = Math.imul(al, bl);
}

/** Rotate right by 1..63 bits. */
function rotr(h: number, l: number, s: number): void {
  if (s >= 32) { const t = h; h = l; l = t; s -= 32; }
  if (s === 0) { OUT[0] = h; OUT[1] = l; return; }
  OUT[0] = (h >>> s) | (l << (32 - s));
  OUT[1] = (l >>> s) | (h << (32 - s));
}

function bswap32(x: number): number {
  return ((x & 0xff) << 24) | ((x & 0xff00) << 8) | ((x >>> 8) & 0xff00) | (x >>> 24);
}

/** Murmur-style mix of two words; CityHash's Hash128to64 when the multiplier is KMUL. */
function hashLen16(uh: number, ul: number, vh: number, vl: number, mh = KMULH, ml = KMULL): void {
  mul(uh ^ vh, ul ^ vl, mh, ml);
  const ah = OUT[0]!, al = OUT[1]! ^ (OUT[0]! >>> 15); // a ^= a >> 47
  mul(vh ^ ah, vl ^ al, mh, ml);
  const bh = OUT[0]!, bl = OUT[1]! ^ (OUT[0]! >>> 15);
  mul(bh, bl, mh, ml);
}

/** Little-endian 32-bit reads (plain byte arithmetic: cheaper than a DataView per short input). */
class Input {
  /** Set per hash: one Input serves every call, so hashing allocates nothing. */
  bytes: Uint8Array = new Uint8Array(0);
  lo(at: number): number {
    const b = this.bytes;
    return b[at]! | (b[at + 1]! << 8) | (b[at + 2]! << 16) | (b[at + 3]! << 24);
  }
  hi(at: number): number { return this.lo(at + 4); }
}

/** k2 + len * 2, the per-length multiplier. */
function lengthMul(len: number): void {
  add(K2H, K2L, 0, len * 2);
}

function hashLen0to16(s: Input, len: number): void {
  if (len >= 8) {
    lengthMul(len);
    const mh = OUT[0]!, ml = OUT[1]!;
    add(s.hi(0), s.lo(0), K2H, K2L);
    const ah = OUT[0]!, al = OUT[1]!;
    const bh = s.hi(len - 8), bl = s.lo(len - 8);
    rotr(bh, bl, 37); mul(OUT[0]!, OUT[1]!, mh, ml); add(OUT[0]!, OUT[1]!, ah, al);
    const ch = OUT[0]!, cl = OUT[1]!;
    rotr(ah, al, 25); add(OUT[0]!, OUT[1]!, bh, bl); mul(OUT[0]!, OUT[1]!, mh, ml);
    hashLen16(ch, cl, OUT[0]!, OUT[1]!, mh, ml);
    return;
  }
  if (len >= 4) {
    lengthMul(len);
    const mh = OUT[0]!, ml = OUT[1]!;
    const a = s.lo(0);
    add(a >>> 29, a << 3, 0, len); // len + (a << 3)
    hashLen16(OUT[0]!, OUT[1]!, 0, s.lo(len - 4), mh, ml);
    return;
  }
  if (len > 0) {
    const a = s.bytes[0]!, b = s.bytes[len >> 1]!, c = s.bytes[len - 1]!;
    mul(0, a + (b << 8), K2H, K2L); // y * k2
    const yh = OUT[0]!, yl = OUT[1]!;
    mul(0, len + (c << 2), K0H, K0L); // z * k0
    const xh = yh ^ OUT[0]!, xl = yl ^ OUT[1]!;
    mul(xh, xl ^ (xh >>> 15), K2H, K2L); // ShiftMix(...) * k2
    return;
  }
  OUT[0] = K2H; OUT[1] = K2L;
}

function hashLen17to32(s: Input, len: number): void {
  lengthMul(len);
  const mh = OUT[0]!, ml = OUT[1]!;
  mul(s.hi(0), s.lo(0), K1H, K1L); const ah = OUT[0]!, al = OUT[1]!;
  const bh = s.hi(8), bl = s.lo(8);
  mul(s.hi(len - 8), s.lo(len - 8), mh, ml); const ch = OUT[0]!, cl = OUT[1]!;
  mul(s.hi(len - 16), s.lo(len - 16), K2H, K2L); const dh = OUT[0]!, dl = OUT[1]!;
  // u = Rotate(a + b, 43) + Rotate(c, 30) + d
  add(ah, al, bh, bl); rotr(OUT[0]!, OUT[1]!, 43); const r1h = OUT[0]!, r1l = OUT[1]!;
  rotr(ch, cl, 30); add(OUT[0]!, OUT[1]!, r1h, r1l); add(OUT[0]!, OUT[1]!, dh, dl);
  const uh = OUT[0]!, ul = OUT[1]!;
  // v = a + Rotate(b + k2, 18) + c
  add(bh, bl, K2H, K2L); rotr(OUT[0]!, OUT[1]!, 18); add(OUT[0]!, OUT[1]!, ah, al); add(OUT[0]!, OUT[1]!, ch, cl);
  hashLen16(uh, ul, OUT[0]!, OUT[1]!, mh, ml);
}

function hashLen33to64(s: Input, len: number): void {
  lengthMul(len);
  const mh = OUT[0]!, ml = OUT[1]!;
  mul(s.hi(0), s.lo(0), K2H, K2L); let ah = OUT[0]!, al = OUT[1]!;
  let bh = s.hi(8), bl = s.lo(8);
  const ch = s.hi(len - 24), cl = s.lo(len - 24);
  const dh = s.hi(len - 32), dl = s.lo(len - 32);
  mul(s.hi(16), s.lo(16), K2H, K2L); const eh = OUT[0]!, el = OUT[1]!;
  mul(s.hi(24), s.lo(24), 0, 9); const fh = OUT[0]!, fl = OUT[1]!;
  const gh = s.hi(len - 8), gl = s.lo(len - 8);
  mul(s.hi(len - 16), s.lo(len - 16), mh, ml); const hh = OUT[0]!, hl = OUT[1]!;
  // u = Rotate(a + g, 43) + (Rotate(b, 30) + c) * 9
  add(ah, al, gh, gl); const agh = OUT[0]!, agl = OUT[1]!;
  rotr(agh, agl, 43); const t1h = OUT[0]!, t1l = OUT[1]!;
  rotr(bh, bl, 30); add(OUT[0]!, OUT[1]!, ch, cl); mul(OUT[0]!, OUT[1]!, 0, 9); add(OUT[0]!, OUT[1]!, t1h, t1l);
  const uh = OUT[0]!, ul = OUT[1]!;
  // v = ((a + g) ^ d) + f + 1
  add(agh ^ dh, agl ^ dl, fh, fl); add(OUT[0]!, OUT[1]!, 0, 1);
  const vh = OUT[0]!, vl = OUT[1]!;
  // w = bswap((u + v) * mul) + h
  add(uh, ul, vh, vl); mul(OUT[0]!, OUT[1]!, mh, ml); add(bswap32(OUT[1]!), bswap32(OUT[0]!), hh, hl);
  const wh = OUT[0]!, wl = OUT[1]!;
  // x = Rotate(e + f, 42) + c
  add(eh, el, fh, fl); rotr(OUT[0]!, OUT[1]!, 42); add(OUT[0]!, OUT[1]!, ch, cl);
  const xh = OUT[0]!, xl = OUT[1]!;
  // y = (bswap((v + w) * mul) + g) * mul
  add(vh, vl, wh, wl); mul(OUT[0]!, OUT[1]!, mh, ml); add(bswap32(OUT[1]!), bswap32(OUT[0]!), gh, gl); mul(OUT[0]!, OUT[1]!, mh, ml);
  const yh = OUT[0]!, yl = OUT[1]!;
  // z = e + f + c
  add(eh, el, fh, fl); add(OUT[0]!, OUT[1]!, ch, cl);
  const zh = OUT[0]!, zl = OUT[1]!;
  // a = bswap((x + z) * mul + y) + b
  add(xh, xl, zh, zl); mul(OUT[0]!, OUT[1]!, mh, ml); add(OUT[0]!, OUT[1]!, yh, yl); add(bswap32(OUT[1]!), bswap32(OUT[0]!), bh, bl);
  ah = OUT[0]!; al = OUT[1]!;
  // b = ShiftMix((z + a) * mul + d + h) * mul
  add(zh, zl, ah, al); mul(OUT[0]!, OUT[1]!, mh, ml); add(OUT[0]!, OUT[1]!, dh, dl); add(OUT[0]!, OUT[1]!, hh, hl);
  mul(OUT[0]!, OUT[1]! ^ (OUT[0]! >>> 15), mh, ml);
  bh = OUT[0]!; bl = OUT[1]!;
  add(bh, bl, xh, xl);
}

/** WeakHashLen32WithSeeds over the four words at `at`: writes the pair's first to OUT, second to PAIR. */
const PAIR = new Int32Array(2);
function weakHash32(s: Input, at: number, ah: number, al: number, bh: number, bl: number): void {
  const zh = s.hi(at + 24), zl = s.lo(at + 24);
  add(ah, al, s.hi(at), s.lo(at)); ah = OUT[0]!; al = OUT[1]!;        // a += w
  add(bh, bl, ah, al); add(OUT[0]!, OUT[1]!, zh, zl); rotr(OUT[0]!, OUT[1]!, 21);
  bh = OUT[0]!; bl = OUT[1]!;                                          // b = Rotate(b + a + z, 21)
  const ch = ah, cl = al;                                              // c = a
  add(ah, al, s.hi(at + 8), s.lo(at + 8)); add(OUT[0]!, OUT[1]!, s.hi(at + 16), s.lo(at + 16));
  ah = OUT[0]!; al = OUT[1]!;                                          // a += x; a += y
  rotr(ah, al, 44); add(bh, bl, OUT[0]!, OUT[1]!); bh = OUT[0]!; bl = OUT[1]!; // b += Rotate(a, 44)
  add(bh, bl, ch, cl); PAIR[0] = OUT[0]!; PAIR[1] = OUT[1]!;          // second = b + c
  add(ah, al, zh, zl);                                                 // first = a + z
}

const INPUT = new Input();

/** CityHash64 of bytes[0, len) into OUT. */
function cityHash64Into(bytes: Uint8Array, len = bytes.length): void {
  const s = INPUT;
  s.bytes = bytes;
  if (len <= 16) return hashLen0to16(s, len);
  if (len <= 32) return hashLen17to32(s, len);
  if (len <= 64) return hashLen33to64(s, len);

  // Longer input: hash the tail first, then 64-byte blocks, keeping 56 bytes of state v, w, x, y, z.
  const nh = Math.floor(len / 0x100000000) | 0, nl = len | 0;
  let xh = s.hi(len - 40), xl = s.lo(len - 40);
  add(s.hi(len - 16), s.lo(len - 16), s.hi(len - 56), s.lo(len - 56));
  let yh = OUT[0]!, yl = OUT[1]!;
  add(s.hi(len - 48), s.lo(len - 48), nh, nl);
  hashLen16(OUT[0]!, OUT[1]!, s.hi(len - 24), s.lo(len - 24));
  let zh = OUT[0]!, zl = OUT[1]!;
  weakHash32(s, len - 64, nh, nl, zh, zl);
  let v1h = OUT[0]!, v1l = OUT[1]!, v2h = PAIR[0]!, v2l = PAIR[1]!;
  add(yh, yl, K1H, K1L);
  weakHash32(s, len - 32, OUT[0]!, OUT[1]!, xh, xl);
  let w1h = OUT[0]!, w1l = OUT[1]!, w2h = PAIR[0]!, w2l = PAIR[1]!;
  mul(xh, xl, K1H, K1L); add(OUT[0]!, OUT[1]!, s.hi(0), s.lo(0));
  xh = OUT[0]!; xl = OUT[1]!;

  let at = 0;
  let remaining = Math.floor((len - 1) / 64) * 64;
  do {
    // x = Rotate(x + y + v.first + Fetch64(s + 8), 37) * k1
    add(xh, xl, yh, yl); add(OUT[0]!, OUT[1]!, v1h, v1l); add(OUT[0]!, OUT[1]!, s.hi(at + 8), s.lo(at + 8));
    rotr(OUT[0]!, OUT[1]!, 37); mul(OUT[0]!, OUT[1]!, K1H, K1L); xh = OUT[0]!; xl = OUT[1]!;
    // y = Rotate(y + v.second + Fetch64(s + 48), 42) * k1
    add(yh, yl, v2h, v2l); add(OUT[0]!, OUT[1]!, s.hi(at + 48), s.lo(at + 48));
    rotr(OUT[0]!, OUT[1]!, 42); mul(OUT[0]!, OUT[1]!, K1H, K1L); yh = OUT[0]!; yl = OUT[1]!;
    // x ^= w.second; y += v.first + Fetch64(s + 40)
    xh ^= w2h; xl ^= w2l;
    add(v1h, v1l, s.hi(at + 40), s.lo(at + 40)); add(OUT[0]!, OUT[1]!, yh, yl); yh = OUT[0]!; yl = OUT[1]!;
    // z = Rotate(z + w.first, 33) * k1
    add(zh, zl, w1h, w1l); rotr(OUT[0]!, OUT[1]!, 33); mul(OUT[0]!, OUT[1]!, K1H, K1L); zh = OUT[0]!; zl = OUT[1]!;
    // v = WeakHashLen32WithSeeds(s, v.second * k1, x + w.first)
    mul(v2h, v2l, K1H, K1L); const sah = OUT[0]!, sal = OUT[1]!;
    add(xh, xl, w1h, w1l);
    weakHash32(s, at, sah, sal, OUT[0]!, OUT[1]!);
    v1h = OUT[0]!; v1l = OUT[1]!; v2h = PAIR[0]!; v2l = PAIR[1]!;
    // w = WeakHashLen32WithSeeds(s + 32, z + w.second, y + Fetch64(s + 16))
    add(zh, zl, w2h, w2l); const tah = OUT[0]!, tal = OUT[1]!;
    add(yh, yl, s.hi(at + 16), s.lo(at + 16));
    weakHash32(s, at + 32, tah, tal, OUT[0]!, OUT[1]!);
    w1h = OUT[0]!; w1l = OUT[1]!; w2h = PAIR[0]!; w2l = PAIR[1]!;
    // swap(z, x)
    const th = zh, tl = zl; zh = xh; zl = xl; xh = th; xl = tl;
    at += 64;
    remaining -= 64;
  } while (remaining !== 0);
  // HashLen16(HashLen16(v.first, w.first) + ShiftMix(y) * k1 + z, HashLen16(v.second, w.second) + x)
  hashLen16(v1h, v1l, w1h, w1l); const p1h = OUT[0]!, p1l = OUT[1]!;
  mul(yh, yl ^ (yh >>> 15), K1H, K1L); add(OUT[0]!, OUT[1]!, p1h, p1l); add(OUT[0]!, OUT[1]!, zh, zl);
  const qh = OUT[0]!, ql = OUT[1]!;
  hashLen16(v2h, v2l, w2h, w2l); add(OUT[0]!, OUT[1]!, xh, xl);
  hashLen16(qh, ql, OUT[0]!, OUT[1]!);
}

/** CityHash64 of the bytes as its two 32-bit halves [high, low]. */
export function cityHash64Words(bytes: Uint8Array): [number, number] {
  cityHash64Into(bytes);
  return [OUT[0]! >>> 0, OUT[1]! >>> 0];
}

/** CityHash64 of the bytes, as an unsigned 64-bit BigInt. */
export function cityHash64(bytes: Uint8Array): bigint {
  const [h, l] = cityHash64Words(bytes);
  return (BigInt(h) << 32n) | BigInt(l);
}

/** The engine's TChar::ToLower: ASCII letters only, every other code unit unchanged. */
export function toLowerAscii(s: string): string {
  return /[A-Z]/.test(s) ? s.replace(/[A-Z]+/g, (m) => m.toLowerCase()) : s;
}

/** The string lowercased the engine's way (ASCII only), as UTF-16LE bytes, in one pass. */
export function lowerUtf16leBytes(s: string): Uint8Array {
  const out = new Uint8Array(s.length * 2);
  writeLowerUtf16le(s, out);
  return out;
}

/** lowerUtf16leBytes into `out` (room for 2 bytes per code unit). */
function writeLowerUtf16le(s: string, out: Uint8Array): void {
  for (let i = 0; i < s.length; i++) {
    let c = s.charCodeAt(i);
    if (c >= 65 && c <= 90) c += 32;
    out[2 * i] = c & 0xff;
    out[2 * i + 1] = c >> 8;
  }
}

/** Reused for the names hashed into package ids: no buffer per name. */
let nameBytes = new Uint8Array(512);

/** CityHash64 of the name lowercased the engine's way, as UTF-16LE, into OUT. */
function hashPackageName(name: string): void {
  if (name.length * 2 > nameBytes.length) nameBytes = new Uint8Array(Math.max(name.length * 2, nameBytes.length * 2));
  writeLowerUtf16le(name, nameBytes);
  cityHash64Into(nameBytes, name.length * 2);
}

/** The string lowercased the engine's way, one byte per character (ANSI names). */
export function lowerAnsiBytes(s: string): Uint8Array {
  const out = new Uint8Array(s.length);
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    out[i] = c >= 65 && c <= 90 ? c + 32 : c & 0xff;
  }
  return out;
}

/** The string's UTF-16 code units, little-endian (the engine's TCHAR bytes on every platform it cooks for). */
export function utf16leBytes(s: string): Uint8Array {
  const out = new Uint8Array(s.length * 2);
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    out[2 * i] = c & 0xff;
    out[2 * i + 1] = c >> 8;
  }
  return out;
}

/** Char code of each hex digit. */
const HEX_CODE = Array.from('0123456789abcdef', (c) => c.charCodeAt(0));
const nib = (v: number, shift: number): number => HEX_CODE[(v >>> shift) & 15]!;

/** A 32-bit word as 8 lowercase hex digits (one flat string: Number#toString(16) is slow in bulk). */
export function hex32(v: number): string {
  return String.fromCharCode(nib(v, 28), nib(v, 24), nib(v, 20), nib(v, 16), nib(v, 12), nib(v, 8), nib(v, 4), nib(v, 0));
}

/** A 64-bit value given as its high and low words, as 16 lowercase hex digits. */
export function hexWords(hi: number, lo: number): string {
  return String.fromCharCode(
    nib(hi, 28), nib(hi, 24), nib(hi, 20), nib(hi, 16), nib(hi, 12), nib(hi, 8), nib(hi, 4), nib(hi, 0),
    nib(lo, 28), nib(lo, 24), nib(lo, 20), nib(lo, 16), nib(lo, 12), nib(lo, 8), nib(lo, 4), nib(lo, 0));
}

/** A 64-bit id as the 16 lowercase hex digits PakScope prints everywhere. */
export function hex64(v: bigint): string {
  return hexWords(Number(v >> 32n), Number(v & 0xffffffffn));
}

/**
 * FPackageId::FromName as a BigInt: CityHash64 of the package name (e.g. "/Game/Maps/Start", no
 * extension, no object name) lowercased in ASCII only, as UTF-16LE.
 */
export function packageIdValue(name: string): bigint {
  hashPackageName(name);
  return (BigInt(OUT[0]! >>> 0) << 32n) | BigInt(OUT[1]! >>> 0);
}

/** FPackageId::FromName as 16 hex digits. */
export function packageIdFromName(name: string): string {
  hashPackageName(name);
  return hexWords(OUT[0]!, OUT[1]!);
}

/**
 * A 32-bit hash of a path level's name, case-insensitive as the tree compares names: a function of
 * `name.toLowerCase()` alone (a multiply-rotate hash over its UTF-16 units, four latin1 units to a
 * word, then MurmurHash3's finalizer), so names that lowercase to the same string hash the same,
 * whether hashed from a string or straight from the latin1 bytes of an IoStore string table. The
 * tree can then index names without a lowercased string per file; equal hashes still compare the
 * names.
 */
import type { DirectoryStrings } from '../iostore/directory-index.js';

const SEED = 0x9747b28c;
/** 2^32 / golden ratio, odd. */
const MULTIPLIER = 0x9e3779b1;

/**
 * toLowerCase of each latin1 character, or -1 where it is not one latin1 character (none are
 * today; checked once here rather than assumed).
 */
const LOWER_LATIN1 = (() => {
  const t = new Int32Array(256);
  for (let c = 0; c < 256; c++) {
    const l = String.fromCharCode(c).toLowerCase();
    t[c] = l.length === 1 && l.charCodeAt(0) < 256 ? l.charCodeAt(0) : -1;
  }
  return t;
})();

/** LOWER_LATIN1, but -1 also for "/" and "\", so that names holding them leave the byte loop. */
const LOWER_NAME_BYTE = (() => {
  const t = LOWER_LATIN1.slice();
  t[0x2f] = -1;
  t[0x5c] = -1;
  return t;
})();

/** Hash of s.slice(from, to), case-insensitively. */
export function nameHash(s: string, from = 0, to = s.length): number {
  let h = SEED;
  let i = from;
  for (; i + 4 <= to; i += 4) {
    const l0 = lowerUnit(s.charCodeAt(i));
    const l1 = lowerUnit(s.charCodeAt(i + 1));
    const l2 = lowerUnit(s.charCodeAt(i + 2));
    const l3 = lowerUnit(s.charCodeAt(i + 3));
    // Beyond latin1, lowercasing can depend on the neighbours (final sigma): lowercase it whole.
    if ((l0 | l1 | l2 | l3) < 0) return loweredHash(s.slice(from, to).toLowerCase());
    h = mixWord(h, l0 | (l1 << 8) | (l2 << 16) | (l3 << 24));
  }
  let tail = 0;
  for (let shift = 0; i < to; i++, shift += 8) {
    const l = lowerUnit(s.charCodeAt(i));
    if (l < 0) return loweredHash(s.slice(from, to).toLowerCase());
    tail |= l << shift;
  }
  return finish(h, tail, to - from);
}

/** Whether s.slice(from, to).toLowerCase() === lower, mostly without making either string. */
export function equalsLowered(s: string, from: number, to: number, lower: string): boolean {
  if (to - from === lower.length) {
    let i = 0;
    for (; i < lower.length; i++) {
      const l = lowerUnit(s.charCodeAt(from + i));
      if (l < 0) break; // beyond latin1: lowercase it whole
      if (l !== lower.charCodeAt(i)) return false;
    }
    if (i === lower.length) return true;
  }
  return s.slice(from, to).toLowerCase() === lower;
}

/** Whether a.toLowerCase() === b.slice(from, to).toLowerCase(), mostly without making the strings. */
export function equalsIgnoringCase(a: string, b: string, from = 0, to = b.length): boolean {
  if (to - from === a.length) {
    let i = 0;
    for (; i < a.length; i++) {
      const x = a.charCodeAt(i);
      const y = b.charCodeAt(from + i);
      if (x === y) continue;
      const lx = lowerUnit(x);
      const ly = lowerUnit(y);
      if (lx < 0 || ly < 0) break; // beyond latin1: lowercase them whole
      if (lx !== ly) return false;
    }
    if (i === a.length) return true;
  }
  return a.toLowerCase() === b.slice(from, to).toLowerCase();
}

export interface DirectoryNameHashes {
  /** nameHash of every string of the table. */
  hashes: Uint32Array;
  /** The strings holding a "/" or "\" (they are not one path level as they stand). */
  slashed: { index: number; slash: boolean; backslash: boolean }[];
}

/**
 * Hashes every string of a directory index's string table. Short ANSI names are hashed from their
 * bytes, four at a time where they are ASCII (lowercased and checked for "/" and "\" in one word).
 */
export function directoryNameHashes(strings: DirectoryStrings): DirectoryNameHashes {
  const { bytes, starts, lengths } = strings;
  const dv = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const hashes = new Uint32Array(strings.count);
  const slashed: DirectoryNameHashes['slashed'] = [];
  for (let i = 0; i < hashes.length; i++) {
    const n = lengths[i]!;
    if (strings.isShortAnsi(i)) {
      const h = asciiBytesHash(bytes, dv, starts[i]!, starts[i]! + n - 1); // without the NUL
      if (h >= 0) {
        hashes[i] = h;
        continue;
      }
    }
    const name = strings.name(i);
    hashes[i] = nameHash(name);
    const slash = name.includes('/');
    const backslash = name.includes('\\');
    if (slash || backslash) slashed.push({ index: i, slash, backslash });
  }
  return { hashes, slashed };
}

/** nameHash of the latin1 bytes [start, end), or -1 when they hold a "/" or "\" (or lowercase oddly). */
function asciiBytesHash(bytes: Uint8Array, dv: DataView, start: number, end: number): number {
  let h = SEED;
  let p = start;
  for (; p + 4 <= end; p += 4) {
    const w = dv.getInt32(p, true);
    let k: number;
    if ((w & 0x80808080) === 0) {
      // Four ASCII bytes: a byte equal to "/" or "\" leaves a zero byte after the xor.
      if (hasZeroByte(w ^ 0x2f2f2f2f) || hasZeroByte(w ^ 0x5c5c5c5c)) return -1;
      // Bytes from "A" (0x41) to "Z" (0x5a) get 0x20 added.
      const upper = (w + 0x3f3f3f3f) & ~(w + 0x25252525) & 0x80808080;
      k = w | (upper >>> 2);
    } else {
      const l0 = LOWER_NAME_BYTE[bytes[p]!]!;
      const l1 = LOWER_NAME_BYTE[bytes[p + 1]!]!;
      const l2 = LOWER_NAME_BYTE[bytes[p + 2]!]!;
      const l3 = LOWER_NAME_BYTE[bytes[p + 3]!]!;
      if ((l0 | l1 | l2 | l3) < 0) return -1;
      k = l0 | (l1 << 8) | (l2 << 16) | (l3 << 24);
    }
    h = mixWord(h, k);
  }
  let tail = 0;
  for (let shift = 0; p < end; p++, shift += 8) {
    const l = LOWER_NAME_BYTE[bytes[p]!]!;
    if (l < 0) return -1;
    tail |= l << shift;
  }
  return finish(h, tail, end - start);
}

/** The hash of an already lowercased string. */
function loweredHash(s: string): number {
  let h = SEED;
  let wide = false;
  for (let i = 0; i < s.length; i++) if (s.charCodeAt(i) > 0xff) wide = true;
  if (wide) {
    // Not latin1 after lowercasing: a unit per word (no latin1 name can lowercase to this).
    for (let i = 0; i < s.length; i++) h = mixWord(h, s.charCodeAt(i));
    return finish(h, 0, s.length);
  }
  let i = 0;
  for (; i + 4 <= s.length; i += 4) {
    h = mixWord(h, s.charCodeAt(i) | (s.charCodeAt(i + 1) << 8) | (s.charCodeAt(i + 2) << 16) | (s.charCodeAt(i + 3) << 24));
  }
  let tail = 0;
  for (let shift = 0; i < s.length; i++, shift += 8) tail |= s.charCodeAt(i) << shift;
  return finish(h, tail, s.length);
}

function lowerUnit(c: number): number {
  return c < 256 ? LOWER_LATIN1[c]! : -1;
}

function hasZeroByte(v: number): boolean {
  return ((v - 0x01010101) & ~v & 0x80808080) !== 0;
}

/** One word into the state: rotate (so high bits come back down), xor, multiply. */
function mixWord(h: number, k: number): number {
  return Math.imul(((h << 5) | (h >>> 27)) ^ k, MULTIPLIER);
}

/** The tail word, the length, and MurmurHash3's finalizer: every bit of the result depends on every unit. */
function finish(h: number, tail: number, length: number): number {
  h = mixWord(h, tail);
  h ^= length;
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35);
  h ^= h >>> 16;
  return h >>> 0;
}

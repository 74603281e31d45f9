import type { BinaryReader } from '../io/binary-reader.js';
import { cityHash64Words, hexWords, lowerAnsiBytes, lowerUtf16leBytes } from '../hash/cityhash64.js';

/** FNameHash algorithm id written before name hashes: CityHash64 of the lowercased name. */
export const NAME_HASH_ALGORITHM_ID = 0xc1640000n;

/** Longest name the engine writes (NAME_SIZE); the 15-bit length field allows no more anyway. */
const MAX_NAME_LENGTH = 0x7fff;

export interface NameBatchOptions {
  /** Check each stored hash against the name (default true). */
  verifyHashes?: boolean;
  /** Where non-fatal findings go (a non-ASCII name whose hash differs). */
  warnings?: string[];
}

/** One byte per character; names are short, so this beats TextDecoder's per-call cost. */
function latin1(bytes: Uint8Array): string {
  return String.fromCharCode.apply(null, bytes as unknown as number[]);
}

/** UTF-16LE code units, unaligned. */
function utf16(bytes: Uint8Array): string {
  const units = new Uint16Array(bytes.length >> 1);
  for (let i = 0; i < units.length; i++) units[i] = bytes[2 * i]! | (bytes[2 * i + 1]! << 8);
  return String.fromCharCode.apply(null, units as unknown as number[]);
}

/** The bytes the engine hashes for a name: lowercased (ASCII letters only) in its stored encoding. */
function nameHashInput(name: string, wide: boolean): Uint8Array {
  return wide ? lowerUtf16leBytes(name) : lowerAnsiBytes(name);
}

/**
 * The engine's name hash as 16 hex digits: CityHash64 of the name lowercased (ASCII letters only)
 * in the encoding it is stored in: one byte per character for ANSI names, UTF-16LE for wide ones.
 */
export function nameHash(name: string, wide: boolean): string {
  const [h, l] = cityHash64Words(nameHashInput(name, wide));
  return hexWords(h, l);
}

/** An FName as the engine prints it: number 0 is no suffix, number n is "_" + (n - 1). */
export function displayName(base: string, number: number): string {
  return number === 0 ? base : `${base}_${number - 1}`;
}

function checkHash(r: BinaryReader, name: string, wide: boolean, storedHi: number, storedLo: number, at: number, i: number,
  opts: NameBatchOptions): void {
  if (opts.verifyHashes === false) return;
  const [h, l] = cityHash64Words(nameHashInput(name, wide));
  if (h === storedHi && l === storedLo) return;
  const stored = hexWords(storedHi, storedLo);
  const computed = hexWords(h, l);
  // The engine lowercases wide names with its own tables; for non-ASCII text a different
  // lowercase is not proof of corruption, so it is reported, not thrown.
  // eslint-disable-next-line no-control-regex
  if (/[^\x00-\x7f]/.test(name)) {
    opts.warnings?.push(`name ${i} "${name}": stored hash ${stored} differs from ${computed}`);
    return;
  }
  throw r.error(`name ${i} "${name}" has hash ${stored} but CityHash64 of its lowercase is ${computed}`, at);
}

/**
 * A UE5 name batch (FNameBatch): u32 count; if non-zero: u32 string bytes, u64 hash algorithm id,
 * u64 hashes[count], u16 big-endian headers[count] (top bit = UTF-16, low 15 bits = length in
 * characters), then the strings back to back, unaligned.
 */
export function readNameBatch(r: BinaryReader, opts: NameBatchOptions = {}): string[] {
  const countAt = r.pos;
  const count = r.u32();
  if (count === 0) return [];
  // Each name takes at least 8 (hash) + 2 (header) bytes.
  r.checkCount(count, 10, 'name count', countAt);
  const stringBytesAt = r.pos;
  const stringBytes = r.u32();
  const algoAt = r.pos;
  const algo = r.u64();
  if (algo !== NAME_HASH_ALGORITHM_ID) {
    throw r.error(`name hash algorithm is 0x${algo.toString(16)}, not 0x${NAME_HASH_ALGORITHM_ID.toString(16)}`, algoAt);
  }
  const hashesAt = r.pos;
  const hashes = r.bytesView(count * 8);
  const hashView = new DataView(hashes.buffer, hashes.byteOffset, hashes.byteLength);
  const headers = r.bytesView(count * 2);
  let total = 0;
  for (let i = 0; i < count; i++) {
    const len = ((headers[2 * i]! & 0x7f) << 8) | headers[2 * i + 1]!;
    total += headers[2 * i]! & 0x80 ? len * 2 : len;
  }
  if (total !== stringBytes) {
    throw r.error(`${count} name headers add up to ${total} string bytes, but the batch declares ${stringBytes}`, stringBytesAt);
  }
  r.need(total);
  const names: string[] = new Array(count);
  for (let i = 0; i < count; i++) {
    const wide = (headers[2 * i]! & 0x80) !== 0;
    const len = ((headers[2 * i]! & 0x7f) << 8) | headers[2 * i + 1]!;
    const name = wide ? utf16(r.bytesView(len * 2)) : latin1(r.bytesView(len));
    checkHash(r, name, wide, hashView.getUint32(i * 8 + 4, true), hashView.getUint32(i * 8, true), hashesAt + i * 8, i, opts);
    names[i] = name;
  }
  return names;
}

/**
 * A UE4.25-4.27 names buffer: header + string pairs to the end of the buffer, UTF-16 strings
 * aligned to 2 bytes from the buffer start. With a hashes buffer (u64 algorithm id, then one u64
 * per name), the count and every hash are checked.
 */
export function readNamePairs(names: BinaryReader, hashes: BinaryReader | undefined, opts: NameBatchOptions = {}): string[] {
  const out: string[] = [];
  const wides: boolean[] = [];
  while (names.remaining > 0) {
    const at = names.pos;
    const header = names.u16be();
    const wide = (header & 0x8000) !== 0;
    const len = header & MAX_NAME_LENGTH;
    if (wide) {
      if (names.pos & 1) names.skip(1);
      out.push(utf16(names.bytesView(names.need(len * 2))));
    } else {
      if (len > names.remaining) throw names.error(`name ${out.length} is ${len} bytes long but only ${names.remaining} remain`, at);
      out.push(latin1(names.bytesView(len)));
    }
    wides.push(wide);
  }
  if (!hashes) return out;
  const algoAt = hashes.pos;
  if (hashes.length === 0 && out.length === 0) return out;
  const algo = hashes.u64();
  if (algo !== NAME_HASH_ALGORITHM_ID) {
    throw hashes.error(`name hash algorithm is 0x${algo.toString(16)}, not 0x${NAME_HASH_ALGORITHM_ID.toString(16)}`, algoAt);
  }
  if (hashes.remaining !== out.length * 8) {
    throw hashes.error(`${hashes.remaining / 8} name hashes for ${out.length} names`, algoAt);
  }
  for (let i = 0; i < out.length; i++) {
    const at = hashes.pos;
    const lo = hashes.u32();
    checkHash(hashes, out[i]!, wides[i]!, hashes.u32(), lo, at, i, opts);
  }
  return out;
}

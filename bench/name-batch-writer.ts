/**
 * Writes a UE5 name batch (formats.md "Name batch"): u32 count; if > 0: u32 string bytes,
 * u64 0xC1640000, u64 hash per name (CityHash64 of the lowercased name), u16 big-endian headers,
 * then the strings. Hashes are cached: the same property names recur in every package.
 */
import { nameHash, NAME_HASH_ALGORITHM_ID } from '../src/core/zen/name-batch.js';
import type { ByteWriter } from '../test/fixtures/byte-writer.js';

const hashCache = new Map<string, string>();

function ansiHash(name: string): string {
  let h = hashCache.get(name);
  if (h === undefined) {
    h = nameHash(name, false);
    if (hashCache.size > 200_000) hashCache.clear(); // package names are unique: keep the cache bounded
    hashCache.set(name, h);
  }
  return h;
}

/** Names must be ASCII here (the generator only makes ASCII names). */
export function writeNameBatch(w: ByteWriter, names: readonly string[]): void {
  w.u32(names.length);
  if (names.length === 0) return;
  let stringBytes = 0;
  for (const n of names) stringBytes += n.length;
  w.u32(stringBytes);
  w.u64(NAME_HASH_ALGORITHM_ID);
  for (const n of names) w.hex64(ansiHash(n));
  for (const n of names) {
    if (n.length > 0x7fff) throw new Error(`name too long: ${n.length} characters`);
    w.u16be(n.length);
  }
  for (const n of names) w.bytes(Buffer.from(n, 'latin1'));
}

/**
 * Seeded byte mutations for the readers' "a result or a FormatError" tests: bytes overwritten,
 * ints set to extremes, the file cut. A small LCG so the same seed gives the same variants on
 * every machine (test/fuzz/mutate.ts is the recorded-recipe fuzzer; this is its quick cousin).
 */

/** Uniform in [0, 1), from a 32-bit LCG seeded with `seed`. */
export function seededRandom(seed: number): () => number {
  let s = seed >>> 0;
  return () => { s = (Math.imul(s, 1664525) + 1013904223) >>> 0; return s / 2 ** 32; };
}

/**
 * A copy of `src` with one to three mutations, 70 % of them in its first `hot` bytes (the headers,
 * where a bad number matters): a byte set, a u32 set to 0, 1, 2^31-1, 2^32-1 or 65536, or a cut.
 */
export function mutateBytes(src: Uint8Array, r: () => number, hot: number): Uint8Array {
  const head = Math.min(src.length, hot);
  let b = src.slice();
  for (let n = 1 + Math.floor(r() * 3); n > 0; n--) {
    const at = r() < 0.7 ? Math.floor(r() * head) : Math.floor(r() * b.length);
    const k = r();
    if (k < 0.4) b[at] = Math.floor(r() * 256);
    else if (k < 0.8 && at + 4 <= b.length) new DataView(b.buffer).setUint32(at, [0, 1, 0x7fffffff, 0xffffffff, 0x10000][Math.floor(r() * 5)]!, true);
    else b = b.slice(0, at);
  }
  return b;
}

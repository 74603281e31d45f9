/**
 * Ids of byte strings, found by their bytes: a package header's names are looked up without a JS
 * string being made for each (most names of an install repeat from package to package). An open
 * addressing table over FNV-1a hashes whose slots hold the hash beside the entry (a probe reads
 * one cache line, and only a matching hash leads on to the entry and its bytes); the entries
 * (hash, offset, length, value) in one array and their bytes in one growing pool. The caller
 * makes the string (and its id) only for bytes not seen before.
 */
const ENTRY = 4;

export class ByteInterner {
  /** Per slot: the hash, then entry + 1 (0: empty). */
  private slots = new Int32Array(2 << 12);
  private entries = new Int32Array(ENTRY << 10);
  private pool = new Uint8Array(1 << 16);
  private poolUsed = 0;
  private count = 0;
  /** Set by find(): where a miss would go, for add(). */
  private lastSlot = -1;
  private lastHash = 0;

  get size(): number { return this.count; }

  /** The hash of the bytes the last find() missed (textHash of their Latin-1 text). */
  get missHash(): number { return this.lastHash; }

  /** The value stored for bytes [start, end) of `b`, or -1 (then add() may follow for the same bytes). */
  find(b: Uint8Array, start: number, end: number): number {
    const len = end - start;
    let h = 0x811c9dc5 ^ len;
    for (let i = start; i < end; i++) h = Math.imul(h ^ b[i]!, 0x01000193);
    const slots = this.slots;
    const mask = (slots.length >> 1) - 1;
    for (let s = h & mask; ; s = (s + 1) & mask) {
      const e = slots[2 * s + 1]! - 1;
      if (e < 0) {
        this.lastSlot = s;
        this.lastHash = h;
        return -1;
      }
      if (slots[2 * s] === h && this.entries[e * ENTRY + 2] === len && this.same(e, b, start, end)) return this.entries[e * ENTRY + 3]!;
    }
  }

  /** Stores `value` for the bytes the last find() missed. */
  add(b: Uint8Array, start: number, end: number, value: number): void {
    const len = end - start;
    const e = this.count++;
    if ((e + 1) * ENTRY > this.entries.length) {
      const more = new Int32Array(this.entries.length * 2);
      more.set(this.entries);
      this.entries = more;
    }
    if (this.poolUsed + len > this.pool.length) {
      const more = new Uint8Array(Math.max(this.pool.length * 2, this.poolUsed + len));
      more.set(this.pool.subarray(0, this.poolUsed));
      this.pool = more;
    }
    this.pool.set(b.subarray(start, end), this.poolUsed);
    const o = e * ENTRY;
    this.entries[o] = this.lastHash;
    this.entries[o + 1] = this.poolUsed;
    this.entries[o + 2] = len;
    this.entries[o + 3] = value;
    this.poolUsed += len;
    this.slots[2 * this.lastSlot] = this.lastHash;
    this.slots[2 * this.lastSlot + 1] = e + 1;
    if (this.count * 4 > this.slots.length) this.rehash();
  }

  private same(e: number, b: Uint8Array, start: number, end: number): boolean {
    const pool = this.pool;
    for (let i = start, j = this.entries[e * ENTRY + 1]!; i < end; i++, j++) if (pool[j] !== b[i]) return false;
    return true;
  }

  private rehash(): void {
    const slots = new Int32Array(this.slots.length * 2);
    const mask = (slots.length >> 1) - 1;
    for (let e = 0; e < this.count; e++) {
      const h = this.entries[e * ENTRY]!;
      let s = h & mask;
      while (slots[2 * s + 1] !== 0) s = (s + 1) & mask;
      slots[2 * s] = h;
      slots[2 * s + 1] = e + 1;
    }
    this.slots = slots;
  }
}

/**
 * Ids of byte strings, found by their bytes: a package header's names are looked up without a JS
 * string being made for each (most names of an install repeat from package to package). An open
 * addressing table over FNV-1a hashes; the bytes of each entry kept in one growing pool. The
 * caller makes the string (and its id) only for bytes not seen before.
 */
export class ByteInterner {
  private slots = new Int32Array(1 << 12);
  private hashes = new Int32Array(1 << 10);
  private offsets = new Int32Array(1 << 10);
  private lengths = new Int32Array(1 << 10);
  private values = new Int32Array(1 << 10);
  private pool = new Uint8Array(1 << 16);
  private poolUsed = 0;
  private count = 0;
  /** Set by find(): where a miss would go, for add(). */
  private lastSlot = -1;
  private lastHash = 0;

  get size(): number { return this.count; }

  /** The value stored for bytes [start, end) of `b`, or -1 (then add() may follow for the same bytes). */
  find(b: Uint8Array, start: number, end: number): number {
    let h = 0x811c9dc5 ^ (end - start);
    for (let i = start; i < end; i++) h = Math.imul(h ^ b[i]!, 0x01000193);
    const mask = this.slots.length - 1;
    for (let s = h & mask; ; s = (s + 1) & mask) {
      const e = this.slots[s]! - 1;
      if (e < 0) {
        this.lastSlot = s;
        this.lastHash = h;
        return -1;
      }
      if (this.hashes[e] === h && this.lengths[e] === end - start && this.same(e, b, start, end)) return this.values[e]!;
    }
  }

  /** Stores `value` for the bytes the last find() missed. */
  add(b: Uint8Array, start: number, end: number, value: number): void {
    const len = end - start;
    const e = this.count++;
    if (e === this.hashes.length) this.growEntries();
    if (this.poolUsed + len > this.pool.length) {
      const more = new Uint8Array(Math.max(this.pool.length * 2, this.poolUsed + len));
      more.set(this.pool.subarray(0, this.poolUsed));
      this.pool = more;
    }
    this.pool.set(b.subarray(start, end), this.poolUsed);
    this.hashes[e] = this.lastHash;
    this.offsets[e] = this.poolUsed;
    this.lengths[e] = len;
    this.values[e] = value;
    this.poolUsed += len;
    this.slots[this.lastSlot] = e + 1;
    if (this.count * 2 > this.slots.length) this.rehash();
  }

  private same(e: number, b: Uint8Array, start: number, end: number): boolean {
    const pool = this.pool;
    for (let i = start, j = this.offsets[e]!; i < end; i++, j++) if (pool[j] !== b[i]) return false;
    return true;
  }

  private growEntries(): void {
    const grow = (a: Int32Array): Int32Array<ArrayBuffer> => {
      const m = new Int32Array(a.length * 2);
      m.set(a);
      return m;
    };
    this.hashes = grow(this.hashes);
    this.offsets = grow(this.offsets);
    this.lengths = grow(this.lengths);
    this.values = grow(this.values);
  }

  private rehash(): void {
    const slots = new Int32Array(this.slots.length * 2);
    const mask = slots.length - 1;
    for (let e = 0; e < this.count; e++) {
      let s = this.hashes[e]! & mask;
      while (slots[s] !== 0) s = (s + 1) & mask;
      slots[s] = e + 1;
    }
    this.slots = slots;
  }
}

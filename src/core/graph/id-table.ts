/**
 * The dependency graph's storage: package ids (16 hex digits, or two 32-bit words) to node numbers
 * in an open-addressing hash table, and growable Int32Array lists; no string or object per id.
 */
import { hexWord } from '../io/hex.js';

/**
 * Package ids (16 hex digits) to node numbers: an open-addressing hash table over the id's two
 * 32-bit halves. Several times faster than a Map of strings when millions of import ids, each a
 * string of its own, are looked up: no string hashing, no per-entry objects. Each slot keeps
 * {high, low, node + 1} together, so a probe touches one cache line.
 */
export class IdTable {
  /** Slot i: [3i] high half, [3i+1] low half, [3i+2] node + 1 (0 = empty). */
  private slots: Int32Array;
  private mask: number;
  size = 0;

  constructor(capacity = 1 << 12) {
    this.slots = new Int32Array(capacity * 3);
    this.mask = capacity - 1;
  }

  /** The slot holding the id, or the empty slot where it would go. */
  private slot(hi: number, lo: number): number {
    let h = Math.imul(lo ^ Math.imul(hi, 0x9e3779b1), 0x85ebca6b);
    h ^= h >>> 16;
    const t = this.slots;
    let i = h & this.mask;
    while (t[3 * i + 2] !== 0 && (t[3 * i] !== hi || t[3 * i + 1] !== lo)) i = (i + 1) & this.mask;
    return i;
  }

  /** The node of an id, or -1. */
  get(id: string): number {
    if (id.length !== 16) return -1;
    const hi = hexWord(id, 0), lo = hexWord(id, 8);
    if (hi < 0 || lo < 0) return -1;
    return this.getWords(hi, lo);
  }

  /** The node of an id given as its high and low words, or -1. */
  getWords(hi: number, lo: number): number {
    return this.slots[3 * this.slot(hi | 0, lo | 0) + 2]! - 1;
  }

  /** The node of an id given as its high and low words, `next` when new (then added as that). */
  getOrAddWords(hi: number, lo: number, next: number): number {
    hi |= 0;
    lo |= 0;
    let i = this.slot(hi, lo);
    const found = this.slots[3 * i + 2]!;
    if (found !== 0) return found - 1;
    if ((this.size + 1) * 2 > this.mask + 1) {
      this.grow();
      i = this.slot(hi, lo);
    }
    this.slots[3 * i] = hi;
    this.slots[3 * i + 1] = lo;
    this.slots[3 * i + 2] = next + 1;
    this.size++;
    return next;
  }

  /** Room for `ids` ids in all at the table's load factor (at most half full). */
  reserve(ids: number): void {
    const capacity = tableCapacity(ids);
    if (capacity > this.mask + 1) this.grow(capacity);
  }

  private grow(capacity = (this.mask + 1) * 2): void {
    const old = this.slots;
    this.slots = new Int32Array(capacity * 3);
    this.mask = capacity - 1;
    for (let j = 0; j < old.length; j += 3) {
      if (old[j + 2] === 0) continue;
      const i = this.slot(old[j]!, old[j + 1]!);
      this.slots[3 * i] = old[j]!;
      this.slots[3 * i + 1] = old[j + 1]!;
      this.slots[3 * i + 2] = old[j + 2]!;
    }
  }
}

/** A power of two IdTable capacity holding `ids` ids at most half full. */
function tableCapacity(ids: number): number {
  let capacity = 16;
  while (ids * 2 > capacity) capacity *= 2;
  return capacity;
}

/** An Int32Array that doubles when full. */
export class IntList {
  data: Int32Array;
  length = 0;
  constructor(capacity = 1024) { this.data = new Int32Array(capacity); }
  push(v: number): void {
    if (this.length === this.data.length) this.reserve(1);
    this.data[this.length++] = v;
  }
  /** Room for n more values. */
  reserve(n: number): void {
    if (this.length + n <= this.data.length) return;
    const bigger = new Int32Array(Math.max(this.data.length * 2, this.length + n));
    bigger.set(this.data.subarray(0, this.length));
    this.data = bigger;
  }
}

/** [high, low] of a 16 hex digit id; throws on anything else. */
export function idWords(id: string): [number, number] {
  const hi = id.length === 16 ? hexWord(id, 0) : -1, lo = id.length === 16 ? hexWord(id, 8) : -1;
  if (hi < 0 || lo < 0) throw new RangeError(`package id "${id}" is not 16 hex digits`);
  return [hi, lo];
}

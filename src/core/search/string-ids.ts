/**
 * Ids of strings, the same for equal strings, found through a hash the caller may already have:
 * a worker hashes each name's bytes when it interns them (byte-interner.ts) and sends the hash
 * with the string, so that the main thread finds a string it has had from the other thread
 * without hashing it again, by an open addressing table of (hash, id) pairs and one comparison of
 * the strings. Cheaper than a Map of a million strings, whose lookups each hash the new string
 * and chase several cache lines.
 */

/** FNV-1a over the character codes, seeded with the length: for text of one byte per character, the hash ByteInterner gives its bytes. */
export function textHash(s: string): number {
  let h = 0x811c9dc5 ^ s.length;
  for (let i = 0; i < s.length; i++) h = Math.imul(h ^ s.charCodeAt(i), 0x01000193);
  return h;
}

export class StringIds {
  /** Per table slot: the hash, then id + 1 (0: empty). */
  private slots = new Int32Array(2 << 12);
  private hashes = new Int32Array(1024);
  readonly strings: string[] = [];

  get size(): number { return this.strings.length; }

  /** The id of `s`, whose textHash is `hash`, given it if it is new. */
  id(s: string, hash: number = textHash(s)): number {
    const slots = this.slots;
    const mask = (slots.length >> 1) - 1;
    for (let i = hash & mask; ; i = (i + 1) & mask) {
      const v = slots[2 * i + 1]! - 1;
      if (v < 0) {
        const id = this.strings.push(s) - 1;
        if (id === this.hashes.length) {
          const more = new Int32Array(this.hashes.length * 2);
          more.set(this.hashes);
          this.hashes = more;
        }
        this.hashes[id] = hash;
        slots[2 * i] = hash;
        slots[2 * i + 1] = id + 1;
        if (this.strings.length * 2 > mask + 1) this.rehash();
        return id;
      }
      if (slots[2 * i] === hash && this.strings[v] === s) return v;
    }
  }

  private rehash(): void {
    const slots = new Int32Array(this.slots.length * 2);
    const mask = (slots.length >> 1) - 1;
    for (let id = 0; id < this.strings.length; id++) {
      const hash = this.hashes[id]!;
      let i = hash & mask;
      while (slots[2 * i + 1] !== 0) i = (i + 1) & mask;
      slots[2 * i] = hash;
      slots[2 * i + 1] = id + 1;
    }
    this.slots = slots;
  }
}

/** A growable little-endian byte buffer for the bench's format writers. */
export class ByteWriter {
  private buf: Uint8Array;
  private dv: DataView;
  length = 0;

  constructor(capacity = 1024) {
    this.buf = new Uint8Array(capacity);
    this.dv = new DataView(this.buf.buffer);
  }

  /** Makes room for n more bytes and returns where they go (the buffer may move). */
  private reserve(n: number): number {
    const at = this.length;
    if (at + n > this.buf.length) {
      const next = new Uint8Array(Math.max(this.buf.length * 2, at + n));
      next.set(this.buf.subarray(0, at));
      this.buf = next;
      this.dv = new DataView(next.buffer);
    }
    this.length += n;
    return at;
  }

  bytes(b: Uint8Array): this { const at = this.reserve(b.length); this.buf.set(b, at); return this; }
  zeros(n: number): this { const at = this.reserve(n); this.buf.fill(0, at, at + n); return this; }
  u8(v: number): this { const at = this.reserve(1); this.buf[at] = v; return this; }
  u16be(v: number): this { const at = this.reserve(2); this.dv.setUint16(at, v, false); return this; }
  u32(v: number): this { const at = this.reserve(4); this.dv.setUint32(at, v >>> 0, true); return this; }
  i32(v: number): this { const at = this.reserve(4); this.dv.setInt32(at, v, true); return this; }
  /** A u64 given as 16 hex digits (ids and hashes are kept as hex text throughout PakScope). */
  hex64(hex: string): this {
    const at = this.reserve(8);
    this.dv.setUint32(at, parseInt(hex.slice(8, 16), 16) >>> 0, true);
    this.dv.setUint32(at + 4, parseInt(hex.slice(0, 8), 16) >>> 0, true);
    return this;
  }
  u64(v: number | bigint): this { const at = this.reserve(8); this.dv.setBigUint64(at, BigInt(v), true); return this; }
  i64(v: number | bigint): this { const at = this.reserve(8); this.dv.setBigInt64(at, BigInt(v), true); return this; }
  /** Overwrites a u32 written earlier (offsets known only later). */
  patchU32(at: number, v: number): void { this.dv.setUint32(at, v >>> 0, true); }
  patchI32(at: number, v: number): void { this.dv.setInt32(at, v, true); }
  finish(): Uint8Array { return this.buf.slice(0, this.length); }
}

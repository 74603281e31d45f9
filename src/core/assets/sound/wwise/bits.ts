/**
 * Bit streams as Vorbis packs them: values least significant bit first, bytes filled from their
 * lowest bit. The reader stops at its end with a FormatError (a setup packet that claims more
 * than it holds); the writer grows as needed.
 */
import { FormatError } from '../../../errors.js';

export class BitReader {
  private bit = 0;

  /** @param base the bytes' offset in the file, for errors; `what` names the structure. */
  constructor(private readonly bytes: Uint8Array, private readonly file: string, private readonly what: string, private readonly base = 0) {}

  /** Bits read so far. */
  get position(): number { return this.bit; }
  get totalBits(): number { return this.bytes.length * 8; }

  read(n: number): number {
    if (this.bit + n > this.bytes.length * 8) {
      throw new FormatError(this.file, this.what, this.base + (this.bit >> 3), `needs ${n} more bits but the ${this.bytes.length}-byte packet ends`);
    }
    let v = 0;
    for (let i = 0; i < n; i++) {
      const b = this.bit++;
      if ((this.bytes[b >> 3]! >> (b & 7)) & 1) v += 2 ** i;
    }
    return v;
  }
}

export class BitWriter {
  private buf = new Uint8Array(1024);
  private bit = 0;

  get bitLength(): number { return this.bit; }

  write(value: number, n: number): void {
    this.ensure(n);
    for (let i = 0; i < n; i++) {
      if (Math.floor(value / 2 ** i) % 2) this.buf[this.bit >> 3]! |= 1 << (this.bit & 7);
      this.bit++;
    }
  }

  /** Whole bytes, at any bit position (the common case of a packet's body). */
  writeBytes(bytes: Uint8Array): void {
    if ((this.bit & 7) === 0) {
      this.ensure(bytes.length * 8);
      this.buf.set(bytes, this.bit >> 3);
      this.bit += bytes.length * 8;
      return;
    }
    for (const b of bytes) this.write(b, 8);
  }

  /** The bytes written, the last one padded with zero bits. */
  bytes(): Uint8Array {
    return this.buf.slice(0, (this.bit + 7) >> 3);
  }

  private ensure(bits: number): void {
    const need = (this.bit + bits + 7) >> 3;
    if (need <= this.buf.length) return;
    const next = new Uint8Array(Math.max(need, this.buf.length * 2));
    next.set(this.buf);
    this.buf = next;
  }
}

/** The number of bits of v (Vorbis's ilog): 0 for 0. */
export function ilog(v: number): number {
  let n = 0;
  while (v > 0) { n++; v = Math.floor(v / 2); }
  return n;
}

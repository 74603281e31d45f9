import { FormatError } from '../errors.js';

const latin1 = new TextDecoder('latin1');
const utf16 = new TextDecoder('utf-16le');
const utf8 = new TextDecoder('utf-8');

/**
 * The one little-endian reader over bytes already in memory, with the engine's basic types.
 * Every read is bounds-checked and fails with a FormatError naming the file, the structure being
 * read (set with `at`/`struct`) and the absolute byte offset.
 */
export class BinaryReader {
  private readonly view: DataView;
  pos = 0;
  /** What is being read now, for error messages ("utoc header", "directory index"). */
  structure = 'data';

  /**
   * @param base absolute offset of bytes[0] in the file, so errors report file offsets.
   */
  constructor(
    readonly bytes: Uint8Array,
    readonly file: string,
    readonly base = 0,
  ) {
    this.view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  }

  get length(): number { return this.bytes.length; }
  get remaining(): number { return this.bytes.length - this.pos; }
  get absolutePos(): number { return this.base + this.pos; }

  /** Names the structure read from here on. Returns this for chaining. */
  struct(name: string): this { this.structure = name; return this; }

  error(detail: string, at = this.pos): FormatError {
    return new FormatError(this.file, this.structure, this.base + at, detail);
  }

  seek(pos: number): this {
    if (!Number.isSafeInteger(pos) || pos < 0 || pos > this.bytes.length) {
      throw this.error(`offset ${pos} is outside the ${this.bytes.length} bytes available`, Math.max(0, Math.min(this.pos, this.bytes.length)));
    }
    this.pos = pos;
    return this;
  }

  skip(n: number): this { return this.seek(this.pos + this.need(n)); }

  /** Checks that n more bytes exist and returns n. */
  need(n: number): number {
    if (!Number.isSafeInteger(n) || n < 0 || this.pos + n > this.bytes.length) {
      throw this.error(`needs ${n} bytes but only ${this.remaining} remain`);
    }
    return n;
  }

  /**
   * Reads a count and checks it against the bytes left, given the smallest size an element can
   * have, before anything is allocated for it.
   */
  count(minElementSize: number, what = 'count'): number {
    const at = this.pos;
    const n = this.i32();
    return this.checkCount(n, minElementSize, what, at);
  }

  checkCount(n: number, minElementSize: number, what = 'count', at = this.pos): number {
    if (n < 0 || !Number.isSafeInteger(n)) throw this.error(`${what} ${n} is negative`, at);
    if (minElementSize > 0 && n * minElementSize > this.remaining) {
      throw this.error(`${what} ${n} needs at least ${n * minElementSize} bytes but only ${this.remaining} remain`, at);
    }
    return n;
  }

  u8(): number { this.need(1); return this.bytes[this.pos++]!; }
  i8(): number { this.need(1); return this.view.getInt8(this.pos++); }
  bool32(): boolean {
    const at = this.pos;
    const v = this.u32();
    if (v > 1) throw this.error(`bool is ${v}, not 0 or 1`, at);
    return v === 1;
  }
  u16(): number { this.need(2); const v = this.view.getUint16(this.pos, true); this.pos += 2; return v; }
  i16(): number { this.need(2); const v = this.view.getInt16(this.pos, true); this.pos += 2; return v; }
  u16be(): number { this.need(2); const v = this.view.getUint16(this.pos, false); this.pos += 2; return v; }
  u32(): number { this.need(4); const v = this.view.getUint32(this.pos, true); this.pos += 4; return v; }
  i32(): number { this.need(4); const v = this.view.getInt32(this.pos, true); this.pos += 4; return v; }
  u32be(): number { this.need(4); const v = this.view.getUint32(this.pos, false); this.pos += 4; return v; }
  f32(): number { this.need(4); const v = this.view.getFloat32(this.pos, true); this.pos += 4; return v; }
  f64(): number { this.need(8); const v = this.view.getFloat64(this.pos, true); this.pos += 8; return v; }
  u64(): bigint { this.need(8); const v = this.view.getBigUint64(this.pos, true); this.pos += 8; return v; }
  i64(): bigint { this.need(8); const v = this.view.getBigInt64(this.pos, true); this.pos += 8; return v; }

  /** A u64 that must fit a JS number exactly (sizes, offsets). */
  u64n(what = 'value'): number {
    const at = this.pos;
    const v = this.u64();
    if (v > BigInt(Number.MAX_SAFE_INTEGER)) throw this.error(`${what} ${v} is too large`, at);
    return Number(v);
  }
  /** An i64 that must fit a JS number exactly. */
  i64n(what = 'value'): number {
    const at = this.pos;
    const v = this.i64();
    if (v > BigInt(Number.MAX_SAFE_INTEGER) || v < BigInt(Number.MIN_SAFE_INTEGER)) throw this.error(`${what} ${v} is out of range`, at);
    return Number(v);
  }

  /** Unsigned little-endian integer of 1..6 bytes (24-bit sizes in compression blocks). */
  uintLE(bytes: number): number {
    this.need(bytes);
    let v = 0;
    for (let i = bytes - 1; i >= 0; i--) v = v * 256 + this.bytes[this.pos + i]!;
    this.pos += bytes;
    return v;
  }
  /** Unsigned big-endian integer of 1..6 bytes (40-bit offsets and lengths in .utoc). */
  uintBE(bytes: number): number {
    this.need(bytes);
    let v = 0;
    for (let i = 0; i < bytes; i++) v = v * 256 + this.bytes[this.pos + i]!;
    this.pos += bytes;
    return v;
  }

  /** n bytes as a view into the underlying buffer (no copy). */
  bytesView(n: number): Uint8Array {
    this.need(n);
    const out = this.bytes.subarray(this.pos, this.pos + n);
    this.pos += n;
    return out;
  }

  /** 16 bytes as the engine prints an FGuid: four u32 words as 8 uppercase hex digits each. */
  guid(): string {
    const a = this.u32(), b = this.u32(), c = this.u32(), d = this.u32();
    return [a, b, c, d].map((x) => x.toString(16).toUpperCase().padStart(8, '0')).join('');
  }

  /**
   * FString: i32 length; positive = ANSI (latin1) chars including the NUL, negative = UTF-16
   * code units including the NUL; 0 = empty.
   */
  fstring(maxChars = 1 << 20): string {
    const at = this.pos;
    const n = this.i32();
    if (n === 0) return '';
    if (n === -2147483648 || Math.abs(n) > maxChars) throw this.error(`string length ${n} is implausible`, at);
    if (n > 0) {
      this.need(n);
      const s = latin1.decode(this.bytes.subarray(this.pos, this.pos + n - 1));
      this.pos += n;
      return s;
    }
    const units = -n;
    this.need(units * 2);
    const s = utf16.decode(this.bytes.subarray(this.pos, this.pos + (units - 1) * 2));
    this.pos += units * 2;
    return s;
  }

  /** Fixed-size NUL-padded ASCII field (compression method names). */
  fixedAscii(n: number): string {
    const b = this.bytesView(n);
    const end = b.indexOf(0);
    return latin1.decode(end < 0 ? b : b.subarray(0, end));
  }

  /** Null-terminated latin1 string (UE1 names before version 64). */
  cstring(maxBytes = 1024): string {
    const start = this.pos;
    const limit = Math.min(this.bytes.length, start + maxBytes);
    let end = start;
    while (end < limit && this.bytes[end] !== 0) end++;
    if (end >= limit) throw this.error('unterminated string', start);
    this.pos = end + 1;
    return latin1.decode(this.bytes.subarray(start, end));
  }

  utf8(n: number): string { return utf8.decode(this.bytesView(n)); }
  latin1(n: number): string { return latin1.decode(this.bytesView(n)); }
  utf16(units: number): string { return utf16.decode(this.bytesView(units * 2)); }

  /** UE1/UE2 compact index: sign and 6 bits, then up to four bytes of 7 (or 8) bits. */
  compactIndex(): number {
    const at = this.pos;
    const b0 = this.u8();
    let value = b0 & 0x3f;
    if (b0 & 0x40) {
      let shift = 6;
      for (let i = 0; i < 4; i++) {
        const b = this.u8();
        value += (i === 3 ? b : b & 0x7f) * 2 ** shift;
        if (i < 3 && !(b & 0x80)) break;
        shift += 7;
        if (i === 3 && b > 0x1f) throw this.error('compact index overflows 32 bits', at);
      }
    }
    return b0 & 0x80 ? -value : value;
  }

  /** A reader over the next n bytes (its offsets stay absolute in errors). */
  sub(n: number, structure = this.structure): BinaryReader {
    const at = this.pos;
    const r = new BinaryReader(this.bytesView(n), this.file, this.base + at);
    r.structure = structure;
    return r;
  }

  /** A reader over [start, start+n) of this reader's bytes, without moving this one. */
  slice(start: number, n: number, structure = this.structure): BinaryReader {
    if (!Number.isSafeInteger(start) || !Number.isSafeInteger(n) || start < 0 || n < 0 || start + n > this.bytes.length) {
      throw this.error(`range ${start}+${n} is outside the ${this.bytes.length} bytes available`);
    }
    const r = new BinaryReader(this.bytes.subarray(start, start + n), this.file, this.base + start);
    r.structure = structure;
    return r;
  }
}

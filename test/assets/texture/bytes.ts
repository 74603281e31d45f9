/** Little-endian bytes built field by field, for the texture reader's built layouts. */
export class Bytes {
  parts: number[] = [];
  get length(): number { return this.parts.length; }
  u8(v: number): this { this.parts.push(v & 0xff); return this; }
  u16(v: number): this { return this.u8(v).u8(v >>> 8); }
  u32(v: number): this { for (let i = 0; i < 4; i++) this.u8(v >>> (8 * i)); return this; }
  i64(v: number): this { this.u32(v >>> 0); return this.u32(Math.floor(v / 2 ** 32)); }
  fstring(s: string): this { this.u32(s.length + 1); for (const c of s) this.u8(c.charCodeAt(0)); return this.u8(0); }
  name(i: number): this { return this.u32(i).u32(0); }
  fill(n: number, v = 0): this { for (let i = 0; i < n; i++) this.u8(v); return this; }
}


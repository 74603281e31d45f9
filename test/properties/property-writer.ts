/** Writes small tagged and unversioned property streams (UE4.27 tag layout) for the bad-input tests. */

export class StreamWriter {
  private readonly parts: number[] = [];
  constructor(readonly names: string[]) {}

  get length(): number { return this.parts.length; }
  bytes(): Uint8Array { return new Uint8Array(this.parts); }

  u8(v: number): this { this.parts.push(v & 0xff); return this; }
  u16(v: number): this { return this.u8(v).u8(v >> 8); }
  i32(v: number): this { return this.u8(v).u8(v >> 8).u8(v >> 16).u8(v >>> 24); }
  raw(b: Uint8Array | number[]): this { for (const x of b) this.parts.push(x); return this; }

  name(n: string): this {
    let i = this.names.indexOf(n);
    if (i < 0) i = this.names.push(n) - 1;
    return this.i32(i).i32(0);
  }

  /** A UE4.27 FPropertyTag (no property GUID) followed by its value. */
  tag(name: string, type: string, value: Uint8Array, opts: { size?: number; struct?: string; arrayIndex?: number } = {}): this {
    this.name(name).name(type).i32(opts.size ?? value.length).i32(opts.arrayIndex ?? 0);
    if (type === 'StructProperty') this.name(opts.struct ?? 'S').raw(new Uint8Array(16));
    if (type === 'ByteProperty' || type === 'EnumProperty') this.name('None');
    return this.u8(0).raw(value);
  }

  none(): this { return this.name('None'); }
}

export const int32 = (v: number): Uint8Array => new Uint8Array(new Int32Array([v]).buffer);

/** A struct value nested `depth` levels: each level one StructProperty "Loop" holding the next. */
export function nestedStructs(names: string[], depth: number): Uint8Array {
  let inner = new StreamWriter(names).tag('A', 'IntProperty', int32(1)).none().bytes();
  for (let i = 0; i < depth; i++) inner = new StreamWriter(names).tag('Loop', 'StructProperty', inner).none().bytes();
  return inner;
}

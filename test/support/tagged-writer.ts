/**
 * A writer of tagged property streams as UE 4.27 (file version 522) saves them, for fixtures no
 * public file provides: FPropertyTag (name, type, size, array index, the type's extra names,
 * HasPropertyGuid), then the value; a struct's properties end with a "None" name. Names go into
 * the writer's own name table (`names`), which the reader's context is then given.
 */

export type TaggedValue =
  | { type: 'UInt32Property' | 'IntProperty'; value: number }
  | { type: 'NameProperty'; value: string }
  | { type: 'BoolProperty'; value: boolean }
  | { type: 'StructProperty'; struct: string; value: TaggedProps }
  | { type: 'ArrayProperty'; struct: string; value: TaggedProps[] }
  | { type: 'MapProperty'; value: [TaggedProps, TaggedProps][] };
export type TaggedProps = [string, TaggedValue][];

export class TaggedWriter {
  readonly names: string[] = [];
  private readonly bytes: number[] = [];

  private nameIndex(name: string): number {
    let i = this.names.indexOf(name);
    if (i < 0) i = this.names.push(name) - 1;
    return i;
  }

  u8(v: number): void { this.bytes.push(v & 0xff); }
  u32(v: number): void { for (let k = 0; k < 4; k++) this.bytes.push((v >>> (8 * k)) & 0xff); }
  fname(name: string): void { this.u32(this.nameIndex(name)); this.u32(0); }

  /** A struct's properties and its "None". */
  props(props: TaggedProps): void {
    for (const [name, v] of props) this.tag(name, v);
    this.fname('None');
  }

  private tag(name: string, v: TaggedValue): void {
    this.fname(name);
    this.fname(v.type);
    const body = new TaggedWriter();
    body.names.push(...this.names);
    body.value(v);
    // The body may have added names: take its table.
    this.names.splice(0, this.names.length, ...body.names);
    this.u32(v.type === 'BoolProperty' ? 0 : body.bytes.length);
    this.u32(0); // array index
    if (v.type === 'StructProperty') { this.fname(v.struct); for (let k = 0; k < 16; k++) this.u8(0); }
    if (v.type === 'BoolProperty') this.u8(v.value ? 1 : 0);
    if (v.type === 'ArrayProperty') this.fname('StructProperty');
    if (v.type === 'MapProperty') { this.fname('StructProperty'); this.fname('StructProperty'); }
    this.u8(0); // HasPropertyGuid
    this.bytes.push(...body.bytes);
  }

  private value(v: TaggedValue): void {
    switch (v.type) {
      case 'UInt32Property': case 'IntProperty': this.u32(v.value); break;
      case 'NameProperty': this.fname(v.value); break;
      case 'BoolProperty': break;
      case 'StructProperty': this.props(v.value); break;
      case 'ArrayProperty': {
        this.u32(v.value.length);
        // Arrays of structs repeat a tag for their elements (size: all of them).
        const elements = new TaggedWriter();
        elements.names.push(...this.names);
        for (const e of v.value) elements.props(e);
        this.names.splice(0, this.names.length, ...elements.names);
        this.fname('Element');
        this.fname('StructProperty');
        this.u32(elements.bytes.length);
        this.u32(0);
        this.fname(v.struct);
        for (let k = 0; k < 16; k++) this.u8(0);
        this.u8(0);
        this.bytes.push(...elements.bytes);
        break;
      }
      case 'MapProperty':
        this.u32(0); // keys to remove
        this.u32(v.value.length);
        for (const [k, val] of v.value) { this.props(k); this.props(val); }
        break;
    }
  }

  /** The bytes written, with `before` in front (an object's own native data). */
  finish(before: number[] = []): Uint8Array {
    return Uint8Array.from([...before, ...this.bytes]);
  }
}

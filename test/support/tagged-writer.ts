/**
 * A writer of tagged property streams as UE 4.27 (file version 522) saves them, and UE5 up to 5.3
 * (before PROPERTY_TAG_EXTENSION_AND_OVERRIDABLE_SERIALIZATION, 1011) alike, for fixtures no
 * public file provides: FPropertyTag (name, type, size, array index, the type's extra names,
 * HasPropertyGuid), then the value; a struct's properties end with a "None" name. Names go into
 * the writer's name table (`names`, which a package writer may share), which the reader's context
 * is then given. Object references are FPackageIndex numbers the caller has resolved.
 */
import { ByteWriter } from '../fixtures/byte-writer.js';

/** A value without its tag: a property's, an array element's, a map key's or value's. */
export type TaggedValue =
  | { type: 'UInt32Property' | 'IntProperty' | 'ObjectProperty' | 'FloatProperty'; value: number }
  | { type: 'NameProperty' | 'StrProperty'; value: string }
  | { type: 'BoolProperty'; value: boolean }
  /** A struct of tagged properties (`before`: bytes of a native struct's own ahead of them, FontData's bIsCooked), or an FGuid (the native struct "Guid": its four u32 as hex, "BA141C0C-B3E5-..."). */
  | { type: 'StructProperty'; struct: string; value: TaggedProps; before?: number[] }
  | { type: 'StructProperty'; struct: 'Guid'; guid: string }
  /** `inner` is the elements' type (and `struct` theirs when structs), written in the tag even when empty. */
  | { type: 'ArrayProperty'; inner: TaggedValue['type']; struct?: string; value: TaggedValue[] }
  | { type: 'MapProperty'; key: TaggedValue['type']; valueType: TaggedValue['type']; value: [TaggedValue, TaggedValue][] };
export type TaggedProps = [string, TaggedValue][];

export class TaggedWriter {
  private readonly w = new ByteWriter();

  constructor(readonly names: string[] = []) {}

  private nameIndex(name: string): number {
    let i = this.names.indexOf(name);
    if (i < 0) i = this.names.push(name) - 1;
    return i;
  }

  get length(): number { return this.w.length; }
  u8(v: number): void { this.w.u8(v & 0xff); }
  u32(v: number): void { this.w.u32(v); }
  f32(v: number): void { const b = new Uint8Array(4); new DataView(b.buffer).setFloat32(0, v, true); this.w.bytes(b); }
  fname(name: string): void { this.u32(this.nameIndex(name)); this.u32(0); }
  fstring(s: string): void { this.w.fstring(s); }
  /** FGuid: four u32, A to D, from "AAAAAAAA-BBBB-BBBB-CCCC-CCCCDDDDDDDD" (braces and dashes optional). */
  guid(text: string): void {
    const hex = text.replace(/[{}-]/g, '');
    if (!/^[0-9a-fA-F]{32}$/.test(hex)) throw new Error(`not a GUID: ${text}`);
    for (let k = 0; k < 4; k++) this.u32(parseInt(hex.slice(8 * k, 8 * k + 8), 16));
  }

  /** A struct's properties and its "None". */
  props(props: TaggedProps): void {
    for (const [name, v] of props) this.tag(name, v);
    this.fname('None');
  }

  private tag(name: string, v: TaggedValue): void {
    this.fname(name);
    this.fname(v.type);
    const body = new TaggedWriter(this.names);
    body.value(v);
    this.u32(v.type === 'BoolProperty' ? 0 : body.length);
    this.u32(0); // array index
    if (v.type === 'StructProperty') { this.fname(v.struct); for (let k = 0; k < 16; k++) this.u8(0); }
    if (v.type === 'BoolProperty') this.u8(v.value ? 1 : 0);
    if (v.type === 'ArrayProperty') this.fname(v.inner);
    if (v.type === 'MapProperty') { this.fname(v.key); this.fname(v.valueType); }
    this.u8(0); // HasPropertyGuid
    this.w.bytes(body.w.finish());
  }

  /** The value's bytes (an array's and map's elements have no tags of their own). */
  private value(v: TaggedValue): void {
    switch (v.type) {
      case 'UInt32Property': case 'IntProperty': case 'ObjectProperty': this.u32(v.value); break;
      case 'FloatProperty': this.f32(v.value); break;
      case 'NameProperty': this.fname(v.value); break;
      case 'StrProperty': this.fstring(v.value); break;
      case 'BoolProperty': break;
      case 'StructProperty': if ('guid' in v) this.guid(v.guid); else { this.w.bytes(Uint8Array.from(v.before ?? [])); this.props(v.value); } break;
      case 'ArrayProperty': {
        this.u32(v.value.length);
        if (v.inner !== 'StructProperty') { for (const e of v.value) this.value(e); break; }
        // Arrays of structs repeat a tag for their elements (size: all of them).
        const elements = new TaggedWriter(this.names);
        for (const e of v.value) elements.value(e);
        this.fname('Element');
        this.fname('StructProperty');
        this.u32(elements.length);
        this.u32(0);
        this.fname(v.struct ?? 'None');
        for (let k = 0; k < 16; k++) this.u8(0);
        this.u8(0);
        this.w.bytes(elements.w.finish());
        break;
      }
      case 'MapProperty':
        this.u32(0); // keys to remove
        this.u32(v.value.length);
        for (const [k, val] of v.value) { this.value(k); this.value(val); }
        break;
    }
  }

  /** The bytes written, with `before` in front (an object's own native data) and `after` behind. */
  finish(before: number[] = [], after: number[] = []): Uint8Array {
    return Uint8Array.from([...before, ...this.w.finish(), ...after]);
  }
}

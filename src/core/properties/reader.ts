/**
 * Reads property values: tagged streams (every FPropertyTag layout, tagged-stream.ts) and
 * unversioned streams (an FUnversionedHeader and values in schema order, with mappings,
 * unversioned-stream.ts), and every value type (decode-value.ts). A PropertyReader is what they
 * share: the package's context, the names and object references every value type reads, how deep
 * structs are nested, and where values lie (ctx.offsets).
 */
import { BinaryReader } from '../io/binary-reader.js';
import { findStruct } from '../usmap/parse.js';
import type { MappedProperty, MappedStruct } from '../usmap/types.js';
import { displayName } from '../zen/name-batch.js';
import type { PropType, PropertyContext } from './context.js';
import { readInstancedStruct, readValue, utf8String, zeroValue, type ReadMode } from './decode-value.js';
import { NATIVE_STRUCTS } from './native-structs.js';
import { MAX_PROPERTY_DEPTH, PropertyLoopError } from './property-errors.js';
import { readTaggedProperties } from './tagged-stream.js';
import type { PropertyEntry, PropertyValue } from './types.js';
import { readUnversionedProperties } from './unversioned-stream.js';
import { hasSoftObjectPath, hasSoftObjectPathList, hasTopLevelAssetPath, hasUtf8SoftObjectSubPath } from './versions.js';

export class PropertyReader {
  private depth = 0;
  /** Per struct: schema slot -> property, its own slots only (unversioned-stream.ts). */
  readonly slotCache = new Map<MappedStruct, Map<number, { prop: MappedProperty; arrayIndex: number }>>();

  /** Absolute offset of the export's first byte: raw values report offsets from it. */
  exportBase = 0;
  /** With ctx.offsets: where the elements of each container value read start (PropertyEntry.elements). */
  private readonly elementStarts = new WeakMap<object, number[]>();
  /** The top-level tagged property being read: a set or map of it may have its struct known by its name. */
  currentProperty: string | undefined;

  constructor(readonly ctx: PropertyContext) {}

  // ---- basic types ------------------------------------------------------------------------

  /** FName: index into the name map and a number (0 none, n prints as _n-1). */
  name(r: BinaryReader): string {
    const at = r.pos;
    const index = r.i32();
    const number = r.i32();
    const base = this.ctx.names[index];
    if (base === undefined) throw r.error(`name index ${index} is outside the name map (${this.ctx.names.length} names)`, at);
    return displayName(base, number);
  }

  /** FPackageIndex as a path; null for 0. */
  object(r: BinaryReader): string | null {
    const at = r.pos;
    const index = r.i32();
    const path = this.ctx.objectPath(index);
    if (path === undefined) throw r.error(`object index ${index} is outside the import and export maps`, at);
    return path;
  }

  /** FSoftObjectPath as "/Game/A.A" or "/Game/A.A:Sub"; null for none. */
  softObjectPath(r: BinaryReader): string | null {
    const v = this.ctx.versions;
    if (!hasSoftObjectPath(v)) return r.fstring() || null;
    const list = this.ctx.softObjectPaths;
    if (hasSoftObjectPathList(v) && list && list.length > 0) {
      const at = r.pos;
      const i = r.i32();
      const path = list[i];
      if (path === undefined) throw r.error(`soft object path index ${i} is outside the ${list.length} paths of the header`, at);
      return path || null;
    }
    let path: string;
    if (hasTopLevelAssetPath(v)) {
      const pkg = this.name(r), asset = this.name(r);
      path = pkg === 'None' ? '' : asset === 'None' ? pkg : `${pkg}.${asset}`;
    } else {
      const p = this.name(r);
      path = p === 'None' ? '' : p;
    }
    const sub = hasUtf8SoftObjectSubPath(v) ? utf8String(r) : r.fstring();
    if (sub) return `${path}:${sub}`;
    return path || null;
  }

  enter(r: BinaryReader): void {
    if (++this.depth > MAX_PROPERTY_DEPTH) {
      this.depth--;
      throw new PropertyLoopError(r.file, r.structure, r.absolutePos, `properties nested deeper than ${MAX_PROPERTY_DEPTH} (a property loop?)`);
    }
  }
  leave(): void { this.depth--; }

  /** A position of `r` as an offset from the start of the export. */
  at(r: BinaryReader, pos: number): number {
    return r.base + pos - this.exportBase;
  }

  /** Records where a container's elements start (ctx.offsets), before the next element is read. */
  elementAt(r: BinaryReader, starts: number[] | undefined): void {
    starts?.push(this.at(r, r.pos));
  }

  /** An entry whose value is a container read here gets its elements' offsets. */
  noteElements(entry: PropertyEntry): void {
    const starts = Array.isArray(entry.value) ? this.elementStarts.get(entry.value) : undefined;
    if (starts) entry.elements = starts;
  }

  /** The list an array, set or map records its element offsets in (ctx.offsets), keyed by its value. */
  startsFor(out: PropertyValue[]): number[] | undefined {
    if (!this.ctx.offsets) return undefined;
    const starts: number[] = [];
    this.elementStarts.set(out, starts);
    return starts;
  }

  // ---- streams and values ------------------------------------------------------------------

  /**
   * A tagged property list, read to its "None". An object's list starts with a serialization
   * control byte from UE5.4 (a struct's does not).
   */
  taggedProperties(r: BinaryReader, isStruct: boolean, out: PropertyEntry[] = []): PropertyEntry[] {
    return readTaggedProperties(this, r, isStruct, out);
  }

  /** An FUnversionedHeader and the values it lists, in schema order. */
  unversionedProperties(r: BinaryReader, structName: string, out: PropertyEntry[] = []): PropertyEntry[] {
    return readUnversionedProperties(this, r, structName, out);
  }

  /** The schema of a class or struct: the package's own first, then the mappings. */
  findSchema(name: string): MappedStruct | undefined {
    return this.ctx.localStructs?.get(name.toLowerCase()) ?? (this.ctx.mappings ? findStruct(this.ctx.mappings, name) : undefined);
  }

  /** One value of type `t`. `size` is the tagged value's size when known (byte arrays need it). */
  value(r: BinaryReader, t: PropType, mode: ReadMode, size?: number): PropertyValue {
    return readValue(this, r, t, mode, size);
  }

  /** A struct value: native, or its properties (tagged, or unversioned with its schema). */
  struct(r: BinaryReader, structName: string | undefined): PropertyValue {
    const native = structName !== undefined ? NATIVE_STRUCTS.get(structName) : undefined;
    if (native) return native(this, r);
    if (!this.ctx.unversioned) return readTaggedProperties(this, r, true);
    if (structName === undefined) throw r.error('an unversioned struct of unknown type');
    return readUnversionedProperties(this, r, structName);
  }

  /** FInstancedStruct: the struct's type, its size, then the struct. */
  instancedStruct(r: BinaryReader): PropertyValue {
    return readInstancedStruct(this, r);
  }

  /** The value an unversioned property has when the header marks it zero. */
  zero(t: PropType): PropertyValue {
    return zeroValue(this, t);
  }
}

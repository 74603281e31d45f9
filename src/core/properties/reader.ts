/**
 * Reads property values: tagged streams (every FPropertyTag layout) and unversioned streams (an
 * FUnversionedHeader and values in schema order, with mappings), and every value type in the
 * three places a value can sit: a top-level property, an array or set element, a map key or value
 * (the engine writes bools and enums differently in each, as CUE4Parse's ReadType says).
 *
 * A tagged value carries its size, so a value that cannot be decoded keeps its bytes as hex and
 * the stream goes on; only a tag that runs past the data, or a stream without its terminator,
 * stops it. Unversioned values have no sizes: a value that cannot be decoded ends the stream.
 */
import { FormatError } from '../errors.js';
import { BinaryReader } from '../io/binary-reader.js';
import { findEnum, findStruct } from '../usmap/parse.js';
import type { MappedProperty, MappedStruct } from '../usmap/types.js';
import { displayName } from '../zen/name-batch.js';
import { type PropType, type PropertyContext, typeName } from './context.js';
import { NATIVE_ALTERNATIVES, NATIVE_STRUCTS } from './native-structs.js';
import { type PropertyTag, readTag } from './tag.js';
import { readText } from './text.js';
import type { PropertyEntry, PropertyValue } from './types.js';
import { floatValue, float32Value, int64Value, rawSuffix, toHex } from './values.js';
import {
  hasCompleteTypeName, hasFieldPathOwner, hasInnerArrayTag, hasLegacyInstancedStructHeader, hasSoftObjectPath,
  hasSoftObjectPathList, hasTagExtensions, hasTopLevelAssetPath, hasUtf8SoftObjectSubPath,
} from './versions.js';

/** Where a value sits: the engine serializes bools and enums differently in each. */
export type ReadMode = 'normal' | 'array' | 'map' | 'optional';

/** Structs inside structs deeper than this are a loop in corrupt data, not a real object. */
export const MAX_PROPERTY_DEPTH = 64;

/** Map entries whose struct the tag does not name (before UE5.4), as CUE4Parse knows them. */
const MAP_STRUCT_TYPES: Record<string, [string | null, string | null]> = {
  BindingIdToReferences: ['Guid', null],
  UserParameterRedirects: ['NiagaraVariable', 'NiagaraVariable'],
  Tracks: ['MovieSceneTrackIdentifier', null],
  SubSequences: ['MovieSceneSequenceID', null],
  Hierarchy: ['MovieSceneSequenceID', null],
  TrackSignatureToTrackIdentifier: ['Guid', 'MovieSceneTrackIdentifier'],
};

/** Structs nested past MAX_PROPERTY_DEPTH: the export's stream stops, it is not kept as a raw value. */
export class PropertyLoopError extends FormatError {}

/** EClassSerializationControlExtension. */
const OVERRIDABLE_SERIALIZATION_INFORMATION = 0x02;

export class PropertyReader {
  private depth = 0;
  /** Per struct: schema slot -> property, its own slots only. */
  private readonly slotCache = new Map<MappedStruct, Map<number, { prop: MappedProperty; arrayIndex: number }>>();

  /** Absolute offset of the export's first byte: raw values report offsets from it. */
  exportBase = 0;
  /** With ctx.offsets: where the elements of each container value read start (PropertyEntry.elements). */
  private readonly elementStarts = new WeakMap<object, number[]>();

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

  private enter(r: BinaryReader): void {
    if (++this.depth > MAX_PROPERTY_DEPTH) {
      this.depth--;
      throw new PropertyLoopError(r.file, r.structure, r.absolutePos, `properties nested deeper than ${MAX_PROPERTY_DEPTH} (a property loop?)`);
    }
  }
  private leave(): void { this.depth--; }

  /** A position of `r` as an offset from the start of the export. */
  private at(r: BinaryReader, pos: number): number {
    return r.base + pos - this.exportBase;
  }

  /** Records where a container's elements start (ctx.offsets), before the next element is read. */
  private elementAt(r: BinaryReader, starts: number[] | undefined): void {
    starts?.push(this.at(r, r.pos));
  }

  /** An entry whose value is a container read here gets its elements' offsets. */
  private noteElements(entry: PropertyEntry): void {
    const starts = Array.isArray(entry.value) ? this.elementStarts.get(entry.value) : undefined;
    if (starts) entry.elements = starts;
  }

  /** The list an array, set or map records its element offsets in (ctx.offsets), keyed by its value. */
  private startsFor(out: PropertyValue[]): number[] | undefined {
    if (!this.ctx.offsets) return undefined;
    const starts: number[] = [];
    this.elementStarts.set(out, starts);
    return starts;
  }

  // ---- tagged streams ---------------------------------------------------------------------

  /**
   * A tagged property list, read to its "None". An object's list starts with a serialization
   * control byte from UE5.4 (a struct's does not).
   */
  taggedProperties(r: BinaryReader, isStruct: boolean, out: PropertyEntry[] = []): PropertyEntry[] {
    this.enter(r);
    try {
      if (!isStruct && hasTagExtensions(this.ctx.versions)) {
        const control = r.u8();
        if (control & OVERRIDABLE_SERIALIZATION_INFORMATION) r.u8();
      }
      for (;;) {
        if (r.remaining === 0) throw r.error('the property list ends without its "None" terminator');
        const tag = readTag(this, r);
        if (tag === null) return out;
        if (tag.size < 0 || tag.valueStart + tag.size > r.length) {
          throw r.error(`property "${tag.name}" (${typeName(tag.type)}) says its value has ${tag.size} bytes but only ${r.length - tag.valueStart} remain`, tag.tagStart);
        }
        out.push(this.taggedEntry(r, tag));
        r.seek(tag.valueStart + tag.size);
      }
    } finally {
      this.leave();
    }
  }

  /** One tagged property: its value decoded from exactly its bytes, or kept raw. */
  private taggedEntry(r: BinaryReader, tag: PropertyTag): PropertyEntry {
    const entry: PropertyEntry = { name: tag.name, type: typeName(tag.type), value: null };
    if (tag.indexed || tag.arrayIndex > 0) entry.arrayIndex = tag.arrayIndex;
    if (this.ctx.offsets) entry.range = { start: this.at(r, tag.tagStart), value: this.at(r, tag.valueStart), end: this.at(r, tag.valueStart + tag.size) };
    if (tag.skipped) {
      entry.note = 'the value was skipped when saving';
      return entry;
    }
    if (tag.type.type === 'BoolProperty') {
      entry.value = tag.boolValue;
      return entry;
    }
    const bytes = r.slice(tag.valueStart, tag.size, `property "${tag.name}"`);
    const outerProperty = this.currentProperty;
    this.currentProperty = tag.name;
    let lastProblem = '';
    try {
      for (const attempt of this.taggedAttempts(tag)) {
        const sub = r.slice(tag.valueStart, tag.size, `property "${tag.name}"`);
        try {
          const value = attempt.read(sub);
          if (sub.pos === tag.size) {
            entry.value = value;
            if (attempt.note) entry.note = attempt.note;
            this.noteElements(entry);
            return entry;
          }
          lastProblem ||= `decoding it used ${sub.pos} of its ${tag.size} bytes`;
        } catch (e) {
          if (!(e instanceof FormatError) || e instanceof PropertyLoopError) throw e;
          lastProblem ||= detailOf(e);
        }
      }
    } finally {
      this.currentProperty = outerProperty;
    }
    entry.value = toHex(bytes.bytes);
    entry.raw = true;
    entry.offset = r.base + tag.valueStart - this.exportBase;
    entry.note = (lastProblem ? `kept raw: ${lastProblem}` : `kept raw: ${typeName(tag.type)} is not a type this reader knows`) + rawSuffix(tag.size);
    return entry;
  }

  /** The ways a tagged value may be decoded, most likely first. */
  private taggedAttempts(tag: PropertyTag): { read: (r: BinaryReader) => PropertyValue; note?: string }[] {
    const t = tag.type;
    if (t.type !== 'StructProperty') {
      if (!isKnownType(t.type)) return [];
      const attempts: { read: (r: BinaryReader) => PropertyValue; note?: string }[] = [{ read: (r) => this.value(r, t, 'normal', tag.size) }];
      // Containers of structs whose tag does not name the struct (before UE4.12 for arrays, UE5.4
      // for sets and maps): a property named for GUIDs holds Guids.
      const guessed = guessContainerStruct(t, tag.name);
      if (guessed) attempts.push({ read: (r) => this.value(r, guessed, 'normal', tag.size), note: 'struct type guessed from the property name: Guid' });
      return attempts;
    }
    const name = t.struct;
    const native = name !== undefined ? NATIVE_STRUCTS.get(name) : undefined;
    const tagged = { read: (r: BinaryReader): PropertyValue => this.taggedProperties(r, true) };
    // UE5.4 tags say which way the struct was written.
    if (tag.binaryOrNative === false) return [tagged];
    const attempts: { read: (r: BinaryReader) => PropertyValue; note?: string }[] = [];
    if (native) attempts.push({ read: (r) => native(this, r) });
    for (const alt of (name !== undefined ? NATIVE_ALTERNATIVES.get(name) : undefined) ?? []) attempts.push({ read: (r) => alt(this, r) });
    if (tag.binaryOrNative !== true) attempts.push(tagged);
    return attempts;
  }

  // ---- unversioned streams ----------------------------------------------------------------

  /** The schema of a class or struct: the package's own first, then the mappings. */
  findSchema(name: string): MappedStruct | undefined {
    return this.ctx.localStructs?.get(name.toLowerCase()) ?? (this.ctx.mappings ? findStruct(this.ctx.mappings, name) : undefined);
  }

  /** The property at a schema slot of `s`, counting its own slots first, then its supers'. */
  private slot(s: MappedStruct, index: number): { prop: MappedProperty; arrayIndex: number } | undefined {
    let cur: MappedStruct | undefined = s;
    for (let hops = 0; cur && hops < MAX_PROPERTY_DEPTH; hops++) {
      if (index < cur.propertyCount) {
        let cache = this.slotCache.get(cur);
        if (!cache) {
          cache = new Map();
          for (const p of cur.properties) for (let i = 0; i < p.arrayDim; i++) cache.set(p.index + i, { prop: p, arrayIndex: i });
          this.slotCache.set(cur, cache);
        }
        return cache.get(index);
      }
      index -= cur.propertyCount;
      cur = cur.super ? this.findSchema(cur.super) : undefined;
    }
    return undefined;
  }

  /** An FUnversionedHeader and the values it lists, in schema order. */
  unversionedProperties(r: BinaryReader, structName: string, out: PropertyEntry[] = []): PropertyEntry[] {
    this.enter(r);
    try {
      const headerAt = r.pos;
      const header = readUnversionedHeader(r);
      if (header.values.length === 0) return out;
      const schema = this.findSchema(structName);
      if (!schema) {
        throw r.error(`"${structName}" is not in the mappings, so its unversioned properties cannot be read`, headerAt);
      }
      for (const { index, zero } of header.values) {
        const slot = this.slot(schema, index);
        if (!slot) {
          if (zero) continue; // a default value of a property the mappings do not know: nothing to read
          throw r.error(`${structName} has no property at schema index ${index} in the mappings (do they match this game build?)`);
        }
        const { prop, arrayIndex } = slot;
        const entry: PropertyEntry = { name: prop.name, type: typeName(prop.type), value: null };
        if (prop.arrayDim > 1) entry.arrayIndex = arrayIndex;
        if (zero) {
          entry.value = this.zero(prop.type);
        } else {
          const at = r.pos;
          try {
            entry.value = this.value(r, prop.type, 'normal');
          } catch (e) {
            if (!(e instanceof FormatError)) throw e;
            throw new FormatError(e.file, `property "${prop.name}" (${entry.type}) at byte ${r.base + at}, ${e.structure}`, e.offset, detailOf(e));
          }
          if (this.ctx.offsets) {
            entry.range = { start: this.at(r, at), value: this.at(r, at), end: this.at(r, r.pos) };
            this.noteElements(entry);
          }
        }
        out.push(entry);
      }
      return out;
    } finally {
      this.leave();
    }
  }

  // ---- values -----------------------------------------------------------------------------

  /** One value of type `t`. `size` is the tagged value's size when known (byte arrays need it). */
  value(r: BinaryReader, t: PropType, mode: ReadMode, size?: number): PropertyValue {
    const unversioned = this.ctx.unversioned;
    switch (t.type) {
      case 'BoolProperty':
        // Top-level tagged bools live in the tag; everywhere else they are a byte.
        return r.u8() !== 0;
      case 'ByteProperty': {
        const isEnum = (t.enumName !== undefined && t.enumName !== 'None') || (mode === 'map' && this.looksLikeName(r));
        return isEnum ? this.enumValue(r, t, mode) : r.u8();
      }
      case 'EnumProperty':
        return this.enumValue(r, t, mode);
      case 'Int8Property': return r.i8();
      case 'Int16Property': return r.i16();
      case 'IntProperty': return r.i32();
      case 'Int64Property': return int64Value(r.i64());
      case 'UInt16Property': return r.u16();
      case 'UInt32Property': return r.u32();
      case 'UInt64Property': return int64Value(r.u64());
      case 'FloatProperty': return float32Value(r.f32());
      case 'DoubleProperty': return floatValue(r.f64());
      case 'StrProperty':
      case 'VerseStringProperty':
        return r.fstring();
      case 'AnsiStrProperty': {
        const n = r.count(1, 'string length');
        return r.latin1(n);
      }
      case 'Utf8StrProperty':
        return utf8String(r);
      case 'NameProperty':
        return this.name(r);
      case 'TextProperty':
        return readText(this, r);
      case 'ObjectProperty':
      case 'ClassProperty':
      case 'InterfaceProperty':
      case 'WeakObjectProperty':
      case 'VerseDynamicProperty':
        return this.object(r);
      case 'LazyObjectProperty':
        return r.guid();
      case 'SoftObjectProperty':
      case 'SoftClassProperty':
        return this.softObjectPath(r);
      case 'AssetObjectProperty':
      case 'AssetClassProperty':
        return r.fstring() || null;
      case 'DelegateProperty':
        return this.delegate(r);
      case 'MulticastDelegateProperty':
      case 'MulticastInlineDelegateProperty':
      case 'MulticastSparseDelegateProperty': {
        const n = r.count(12, 'delegate count');
        const out: PropertyValue[] = [];
        for (let i = 0; i < n; i++) out.push(this.delegate(r));
        return out;
      }
      case 'FieldPathProperty': {
        const n = r.count(8, 'field path length');
        const path: PropertyValue[] = [];
        for (let i = 0; i < n; i++) path.push(this.name(r));
        if (path.length === 1 && path[0] === 'None') path.length = 0;
        const owner = hasFieldPathOwner(this.ctx.versions) ? this.object(r) : null;
        return { path, owner };
      }
      case 'OptionalProperty': {
        if (!t.inner) throw r.error('an OptionalProperty without its inner type');
        return r.bool32() ? this.value(r, t.inner, 'optional') : null;
      }
      case 'ArrayProperty':
        return this.array(r, t, mode, size);
      case 'SetProperty':
        return this.set(r, t);
      case 'MapProperty':
        return this.map(r, t);
      case 'StructProperty':
        return this.struct(r, t.struct);
      default:
        throw r.error(`unknown property type "${t.type}"${unversioned ? ' (unversioned values have no size, so it cannot be skipped)' : ''}`);
    }
  }

  /** Enum values are names, except top-level unversioned ones, which are the underlying integer. */
  private enumValue(r: BinaryReader, t: PropType, mode: ReadMode): PropertyValue {
    if (!(this.ctx.unversioned && mode === 'normal')) return this.name(r);
    let index: number;
    if (t.inner) {
      const v = this.value(r, t.inner, 'normal');
      if (typeof v !== 'number') throw r.error(`enum ${t.enumName ?? '?'} has a non-integer underlying type ${t.inner.type}`);
      index = v;
    } else {
      index = r.u8();
    }
    return this.enumMember(t.enumName, index);
  }

  private enumMember(enumName: string | undefined, index: number): string {
    if (enumName === undefined || enumName === 'None') return String(index);
    const e = this.ctx.mappings ? findEnum(this.ctx.mappings, enumName) : undefined;
    const member = e?.values.get(index);
    return `${enumName}::${member ?? index}`;
  }

  /** CUE4Parse's guess for map keys whose tag does not say they are enums: do the next 8 bytes read as an FName? */
  private looksLikeName(r: BinaryReader): boolean {
    if (this.ctx.unversioned || r.remaining < 8) return false;
    const index = r.bytes[r.pos]! | (r.bytes[r.pos + 1]! << 8) | (r.bytes[r.pos + 2]! << 16) | (r.bytes[r.pos + 3]! << 24);
    const number = r.bytes[r.pos + 4]! | (r.bytes[r.pos + 5]! << 8) | (r.bytes[r.pos + 6]! << 16) | (r.bytes[r.pos + 7]! << 24);
    return index >= 0 && index < this.ctx.names.length && number >= 0 && number < 256;
  }

  private delegate(r: BinaryReader): PropertyValue {
    const object = this.object(r);
    return { object, function: this.name(r) };
  }

  private array(r: BinaryReader, t: PropType, mode: ReadMode, size: number | undefined): PropertyValue {
    const countAt = r.pos;
    const n = r.count(1, 'array element count');
    let inner = t.inner;
    if (!inner) throw r.error('an ArrayProperty without its inner type', countAt);
    // Tagged arrays of structs name their struct in an inner tag (UE4.12 to UE5.3).
    if (!this.ctx.unversioned && mode === 'normal' && inner.type === 'StructProperty' && !hasCompleteTypeName(this.ctx.versions) &&
      hasInnerArrayTag(this.ctx.versions)) {
      const innerTag = readTag(this, r);
      if (innerTag === null) throw r.error('an array of structs without its inner tag', countAt + 4);
      inner = { type: 'StructProperty', struct: innerTag.type.struct };
    }
    const out: PropertyValue[] = [];
    const starts = this.startsFor(out);
    if (inner.type === 'ByteProperty') {
      // Byte arrays of enums store names: the tag's size says which (unversioned: the schema or a guess).
      let enums = (inner.enumName !== undefined && inner.enumName !== 'None') || this.looksLikeName(r);
      if (!this.ctx.unversioned) enums = n > 0 && size !== undefined ? (size - 4) / n > 1 : enums;
      for (let i = 0; i < n; i++) {
        this.elementAt(r, starts);
        out.push(enums ? this.name(r) : r.u8());
      }
      return out;
    }
    for (let i = 0; i < n; i++) {
      this.elementAt(r, starts);
      out.push(this.value(r, inner, 'array'));
    }
    return out;
  }

  private set(r: BinaryReader, t: PropType): PropertyValue {
    const inner = this.containerStruct(t.inner, 0);
    if (!inner) throw r.error('a SetProperty without its element type');
    const removed = r.count(1, 'removed element count');
    for (let i = 0; i < removed; i++) this.value(r, inner, 'array');
    const n = r.count(1, 'set element count');
    const out: PropertyValue[] = [];
    const starts = this.startsFor(out);
    for (let i = 0; i < n; i++) {
      this.elementAt(r, starts);
      out.push(this.value(r, inner, 'array'));
    }
    return out;
  }

  private map(r: BinaryReader, t: PropType): PropertyValue {
    const key = this.containerStruct(t.inner, 0), value = this.containerStruct(t.value, 1);
    if (!key || !value) throw r.error('a MapProperty without its key or value type');
    const removed = r.count(1, 'removed key count');
    for (let i = 0; i < removed; i++) this.value(r, key, 'map');
    const n = r.count(1, 'map entry count');
    const out: PropertyValue[] = [];
    const starts = this.startsFor(out);
    for (let i = 0; i < n; i++) {
      this.elementAt(r, starts);
      const k = this.value(r, key, 'map');
      out.push({ key: k, value: this.value(r, value, 'map') });
    }
    return out;
  }

  /** The struct of a set element or map key/value the tag does not name (by property name, as CUE4Parse knows some). */
  private containerStruct(t: PropType | undefined, which: 0 | 1): PropType | undefined {
    if (!t || t.type !== 'StructProperty' || t.struct !== undefined) return t;
    const known = this.currentProperty ? MAP_STRUCT_TYPES[this.currentProperty]?.[which] : undefined;
    return known ? { type: 'StructProperty', struct: known } : t;
  }
  /** The top-level property being read, for containerStruct. */
  private currentProperty: string | undefined;

  /** A struct value: native, or its properties (tagged, or unversioned with its schema). */
  struct(r: BinaryReader, structName: string | undefined): PropertyValue {
    const native = structName !== undefined ? NATIVE_STRUCTS.get(structName) : undefined;
    if (native) return native(this, r);
    if (!this.ctx.unversioned) return this.taggedProperties(r, true);
    if (structName === undefined) throw r.error('an unversioned struct of unknown type');
    return this.unversionedProperties(r, structName);
  }

  /** FInstancedStruct: the struct's type, its size, then the struct. */
  instancedStruct(r: BinaryReader): PropertyValue {
    if (hasLegacyInstancedStructHeader(this.ctx.versions)) {
      const at = r.pos;
      if (r.u32() !== 0xabababab) r.seek(at);
      r.u8(); // old version
    }
    const type = this.object(r);
    const sizeAt = r.pos;
    const size = r.i32();
    if (size < 0 || size > r.remaining) throw r.error(`instanced struct of ${size} bytes but only ${r.remaining} remain`, sizeAt);
    const start = r.pos;
    if (type === null) {
      r.skip(size);
      return { struct: null, value: null };
    }
    const structName = type.slice(Math.max(type.lastIndexOf('.'), type.lastIndexOf('/'), type.lastIndexOf(':')) + 1);
    const sub = r.slice(start, size, `instanced ${structName}`);
    r.skip(size);
    const value = this.struct(sub, structName);
    if (sub.pos !== size) throw sub.error(`instanced ${structName} used ${sub.pos} of its ${size} bytes`);
    return { struct: type, value };
  }

  /** The value an unversioned property has when the header marks it zero. */
  zero(t: PropType): PropertyValue {
    switch (t.type) {
      case 'BoolProperty': return false;
      case 'ByteProperty': return t.enumName && t.enumName !== 'None' ? this.enumMember(t.enumName, 0) : 0;
      case 'EnumProperty': return this.enumMember(t.enumName, 0);
      case 'StrProperty': case 'AnsiStrProperty': case 'Utf8StrProperty': case 'VerseStringProperty': case 'TextProperty':
        return '';
      case 'NameProperty': return 'None';
      case 'ArrayProperty': case 'SetProperty': case 'MapProperty': case 'MulticastDelegateProperty':
      case 'MulticastInlineDelegateProperty': case 'MulticastSparseDelegateProperty':
        return [];
      case 'DelegateProperty': return { object: null, function: 'None' };
      case 'FieldPathProperty': return { path: [], owner: null };
      case 'LazyObjectProperty': return '00000000000000000000000000000000';
      case 'StructProperty': return this.zeroStruct(t.struct);
      case 'Int8Property': case 'Int16Property': case 'IntProperty': case 'Int64Property': case 'UInt16Property':
      case 'UInt32Property': case 'UInt64Property': case 'FloatProperty': case 'DoubleProperty':
        return 0;
      default: return null;
    }
  }

  /** A native struct read from zeros with names as None; a property struct: no properties. */
  private zeroStruct(name: string | undefined): PropertyValue {
    const native = name !== undefined ? NATIVE_STRUCTS.get(name) : undefined;
    if (!native) return [];
    const zeros = new PropertyReader({ ...this.ctx, names: ['None'], objectPath: () => null, softObjectPaths: undefined });
    try {
      return native(zeros, new BinaryReader(new Uint8Array(256), this.ctx.file));
    } catch (e) {
      if (e instanceof FormatError) return null;
      throw e;
    }
  }
}

/** The detail of a FormatError, without its "file: structure at byte N: " prefix. */
export function detailOf(e: FormatError): string {
  const prefix = `${e.file}: ${e.structure} at byte ${e.offset}: `;
  return e.message.startsWith(prefix) ? e.message.slice(prefix.length) : e.message;
}

/** FUtf8String: i32 byte count, then UTF-8 bytes without a terminator. */
function utf8String(r: BinaryReader): string {
  const n = r.count(1, 'UTF-8 string length');
  return r.utf8(n);
}

/** A container type whose unnamed struct parts are Guids, when the property's name says GUID; else undefined. */
function guessContainerStruct(t: PropType, propertyName: string): PropType | undefined {
  if (!/guid/i.test(propertyName)) return undefined;
  const fill = (x: PropType | undefined): PropType | undefined =>
    x && x.type === 'StructProperty' && x.struct === undefined ? { type: 'StructProperty', struct: 'Guid' } : x;
  if ((t.type === 'ArrayProperty' || t.type === 'SetProperty') && fill(t.inner) !== t.inner) return { ...t, inner: fill(t.inner) };
  if (t.type === 'MapProperty' && (fill(t.inner) !== t.inner || fill(t.value) !== t.value)) return { ...t, inner: fill(t.inner), value: fill(t.value) };
  return undefined;
}

const KNOWN_TYPES = new Set([
  'BoolProperty', 'ByteProperty', 'EnumProperty', 'Int8Property', 'Int16Property', 'IntProperty', 'Int64Property',
  'UInt16Property', 'UInt32Property', 'UInt64Property', 'FloatProperty', 'DoubleProperty', 'StrProperty', 'AnsiStrProperty',
  'Utf8StrProperty', 'VerseStringProperty', 'NameProperty', 'TextProperty', 'ObjectProperty', 'ClassProperty',
  'InterfaceProperty', 'WeakObjectProperty', 'VerseDynamicProperty', 'LazyObjectProperty', 'SoftObjectProperty',
  'SoftClassProperty', 'AssetObjectProperty', 'AssetClassProperty', 'DelegateProperty', 'MulticastDelegateProperty',
  'MulticastInlineDelegateProperty', 'MulticastSparseDelegateProperty', 'FieldPathProperty', 'OptionalProperty',
  'ArrayProperty', 'SetProperty', 'MapProperty', 'StructProperty',
]);
export const isKnownType = (type: string): boolean => KNOWN_TYPES.has(type);

interface UnversionedHeader {
  /** Schema index of each stored or zero value, in order. */
  values: { index: number; zero: boolean }[];
}

/** Real schemas have at most a few thousand slots; more fragments than this are corrupt data. */
const MAX_FRAGMENTS = 65536;

/**
 * FUnversionedHeader: u16 fragments (7-bit skip count, has-zero-mask bit, last-fragment bit,
 * 7-bit value count), then a bit mask over the values of fragments that have one: one byte for up
 * to 8 bits, two for up to 16, else whole u32 words.
 */
export function readUnversionedHeader(r: BinaryReader): UnversionedHeader {
  const fragments: { skip: number; hasZeros: boolean; count: number }[] = [];
  let zeroBits = 0;
  for (;;) {
    const packed = r.u16();
    const frag = { skip: packed & 0x7f, hasZeros: (packed & 0x80) !== 0, count: packed >> 9 };
    fragments.push(frag);
    if (frag.hasZeros) zeroBits += frag.count;
    if (packed & 0x100) break;
    if (fragments.length > MAX_FRAGMENTS) throw r.error(`unversioned header has more than ${MAX_FRAGMENTS} fragments`);
  }
  let mask: Uint8Array = new Uint8Array(0);
  if (zeroBits > 0) {
    const bytes = zeroBits <= 8 ? 1 : zeroBits <= 16 ? 2 : Math.ceil(zeroBits / 32) * 4;
    mask = r.bytesView(bytes);
  }
  const values: { index: number; zero: boolean }[] = [];
  let index = 0, bit = 0;
  for (const f of fragments) {
    index += f.skip;
    for (let i = 0; i < f.count; i++) {
      const zero = f.hasZeros && ((mask[bit >> 3]! >> (bit & 7)) & 1) === 1;
      if (f.hasZeros) bit++;
      values.push({ index: index++, zero });
    }
  }
  return { values };
}

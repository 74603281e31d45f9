/**
 * Property values of every type, in the three places a value can sit: a top-level property, an
 * array or set element, a map key or value (the engine writes bools and enums differently in
 * each, as CUE4Parse's ReadType says); and the value an unversioned property has when its header
 * marks it zero.
 */
import { FormatError } from '../errors.js';
import { BinaryReader } from '../io/binary-reader.js';
import { findEnum } from '../usmap/parse.js';
import type { PropType } from './context.js';
import { NATIVE_STRUCTS } from './native-structs.js';
import { PropertyReader } from './reader.js';
import { readTag } from './tag.js';
import { readText } from './text.js';
import type { PropertyValue } from './types.js';
import { floatValue, float32Value, int64Value } from './values.js';
import { hasCompleteTypeName, hasFieldPathOwner, hasInnerArrayTag, hasLegacyInstancedStructHeader } from './versions.js';

/** Where a value sits: the engine serializes bools and enums differently in each. */
export type ReadMode = 'normal' | 'array' | 'map' | 'optional';

/** Map entries whose struct the tag does not name (before UE5.4), as CUE4Parse knows them. */
const MAP_STRUCT_TYPES: Record<string, [string | null, string | null]> = {
  BindingIdToReferences: ['Guid', null],
  UserParameterRedirects: ['NiagaraVariable', 'NiagaraVariable'],
  Tracks: ['MovieSceneTrackIdentifier', null],
  SubSequences: ['MovieSceneSequenceID', null],
  Hierarchy: ['MovieSceneSequenceID', null],
  TrackSignatureToTrackIdentifier: ['Guid', 'MovieSceneTrackIdentifier'],
};

/** One value of type `t`. `size` is the tagged value's size when known (byte arrays need it). */
export function readValue(pr: PropertyReader, r: BinaryReader, t: PropType, mode: ReadMode, size?: number): PropertyValue {
  const unversioned = pr.ctx.unversioned;
  switch (t.type) {
    case 'BoolProperty':
      // Top-level tagged bools live in the tag; everywhere else they are a byte.
      return r.u8() !== 0;
    case 'ByteProperty': {
      const isEnum = (t.enumName !== undefined && t.enumName !== 'None') || (mode === 'map' && looksLikeName(pr, r));
      return isEnum ? enumValue(pr, r, t, mode) : r.u8();
    }
    case 'EnumProperty':
      return enumValue(pr, r, t, mode);
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
      return pr.name(r);
    case 'TextProperty':
      return readText(pr, r);
    case 'ObjectProperty':
    case 'ClassProperty':
    case 'InterfaceProperty':
    case 'WeakObjectProperty':
    case 'VerseDynamicProperty':
      return pr.object(r);
    case 'LazyObjectProperty':
      return r.guid();
    case 'SoftObjectProperty':
    case 'SoftClassProperty':
      return pr.softObjectPath(r);
    case 'AssetObjectProperty':
    case 'AssetClassProperty':
      return r.fstring() || null;
    case 'DelegateProperty':
      return delegate(pr, r);
    case 'MulticastDelegateProperty':
    case 'MulticastInlineDelegateProperty':
    case 'MulticastSparseDelegateProperty': {
      const n = r.count(12, 'delegate count');
      const out: PropertyValue[] = [];
      for (let i = 0; i < n; i++) out.push(delegate(pr, r));
      return out;
    }
    case 'FieldPathProperty': {
      const n = r.count(8, 'field path length');
      const path: PropertyValue[] = [];
      for (let i = 0; i < n; i++) path.push(pr.name(r));
      if (path.length === 1 && path[0] === 'None') path.length = 0;
      const owner = hasFieldPathOwner(pr.ctx.versions) ? pr.object(r) : null;
      return { path, owner };
    }
    case 'OptionalProperty': {
      if (!t.inner) throw r.error('an OptionalProperty without its inner type');
      return r.bool32() ? readValue(pr, r, t.inner, 'optional') : null;
    }
    case 'ArrayProperty':
      return readArray(pr, r, t, mode, size);
    case 'SetProperty':
      return readSet(pr, r, t);
    case 'MapProperty':
      return readMap(pr, r, t);
    case 'StructProperty':
      return pr.struct(r, t.struct);
    default:
      throw r.error(`unknown property type "${t.type}"${unversioned ? ' (unversioned values have no size, so it cannot be skipped)' : ''}`);
  }
}

/** Enum values are names, except top-level unversioned ones, which are the underlying integer. */
function enumValue(pr: PropertyReader, r: BinaryReader, t: PropType, mode: ReadMode): PropertyValue {
  if (!(pr.ctx.unversioned && mode === 'normal')) return pr.name(r);
  let index: number;
  if (t.inner) {
    const v = readValue(pr, r, t.inner, 'normal');
    if (typeof v !== 'number') throw r.error(`enum ${t.enumName ?? '?'} has a non-integer underlying type ${t.inner.type}`);
    index = v;
  } else {
    index = r.u8();
  }
  return enumMember(pr, t.enumName, index);
}

function enumMember(pr: PropertyReader, enumName: string | undefined, index: number): string {
  if (enumName === undefined || enumName === 'None') return String(index);
  const e = pr.ctx.mappings ? findEnum(pr.ctx.mappings, enumName) : undefined;
  const member = e?.values.get(index);
  return `${enumName}::${member ?? index}`;
}

/** CUE4Parse's guess for map keys whose tag does not say they are enums: do the next 8 bytes read as an FName? */
function looksLikeName(pr: PropertyReader, r: BinaryReader): boolean {
  if (pr.ctx.unversioned || r.remaining < 8) return false;
  const index = r.bytes[r.pos]! | (r.bytes[r.pos + 1]! << 8) | (r.bytes[r.pos + 2]! << 16) | (r.bytes[r.pos + 3]! << 24);
  const number = r.bytes[r.pos + 4]! | (r.bytes[r.pos + 5]! << 8) | (r.bytes[r.pos + 6]! << 16) | (r.bytes[r.pos + 7]! << 24);
  return index >= 0 && index < pr.ctx.names.length && number >= 0 && number < 256;
}

function delegate(pr: PropertyReader, r: BinaryReader): PropertyValue {
  const object = pr.object(r);
  return { object, function: pr.name(r) };
}

function readArray(pr: PropertyReader, r: BinaryReader, t: PropType, mode: ReadMode, size: number | undefined): PropertyValue {
  const countAt = r.pos;
  const n = r.count(1, 'array element count');
  let inner = t.inner;
  if (!inner) throw r.error('an ArrayProperty without its inner type', countAt);
  // Tagged arrays of structs name their struct in an inner tag (UE4.12 to UE5.3).
  if (!pr.ctx.unversioned && mode === 'normal' && inner.type === 'StructProperty' && !hasCompleteTypeName(pr.ctx.versions) &&
    hasInnerArrayTag(pr.ctx.versions)) {
    const innerTag = readTag(pr, r);
    if (innerTag === null) throw r.error('an array of structs without its inner tag', countAt + 4);
    inner = { type: 'StructProperty', struct: innerTag.type.struct };
  }
  const out: PropertyValue[] = [];
  const starts = pr.startsFor(out);
  if (inner.type === 'ByteProperty') {
    // Byte arrays of enums store names: the tag's size says which (unversioned: the schema or a guess).
    let enums = (inner.enumName !== undefined && inner.enumName !== 'None') || looksLikeName(pr, r);
    if (!pr.ctx.unversioned) enums = n > 0 && size !== undefined ? (size - 4) / n > 1 : enums;
    for (let i = 0; i < n; i++) {
      pr.elementAt(r, starts);
      out.push(enums ? pr.name(r) : r.u8());
    }
    return out;
  }
  for (let i = 0; i < n; i++) {
    pr.elementAt(r, starts);
    out.push(readValue(pr, r, inner, 'array'));
  }
  return out;
}

function readSet(pr: PropertyReader, r: BinaryReader, t: PropType): PropertyValue {
  const inner = containerStruct(pr, t.inner, 0);
  if (!inner) throw r.error('a SetProperty without its element type');
  const removed = r.count(1, 'removed element count');
  for (let i = 0; i < removed; i++) readValue(pr, r, inner, 'array');
  const n = r.count(1, 'set element count');
  const out: PropertyValue[] = [];
  const starts = pr.startsFor(out);
  for (let i = 0; i < n; i++) {
    pr.elementAt(r, starts);
    out.push(readValue(pr, r, inner, 'array'));
  }
  return out;
}

function readMap(pr: PropertyReader, r: BinaryReader, t: PropType): PropertyValue {
  const key = containerStruct(pr, t.inner, 0), value = containerStruct(pr, t.value, 1);
  if (!key || !value) throw r.error('a MapProperty without its key or value type');
  const removed = r.count(1, 'removed key count');
  for (let i = 0; i < removed; i++) readValue(pr, r, key, 'map');
  const n = r.count(1, 'map entry count');
  const out: PropertyValue[] = [];
  const starts = pr.startsFor(out);
  for (let i = 0; i < n; i++) {
    pr.elementAt(r, starts);
    const k = readValue(pr, r, key, 'map');
    out.push({ key: k, value: readValue(pr, r, value, 'map') });
  }
  return out;
}

/** The struct of a set element or map key/value the tag does not name (by property name, as CUE4Parse knows some). */
function containerStruct(pr: PropertyReader, t: PropType | undefined, which: 0 | 1): PropType | undefined {
  if (!t || t.type !== 'StructProperty' || t.struct !== undefined) return t;
  const known = pr.currentProperty ? MAP_STRUCT_TYPES[pr.currentProperty]?.[which] : undefined;
  return known ? { type: 'StructProperty', struct: known } : t;
}

/** FInstancedStruct: the struct's type, its size, then the struct. */
export function readInstancedStruct(pr: PropertyReader, r: BinaryReader): PropertyValue {
  if (hasLegacyInstancedStructHeader(pr.ctx.versions)) {
    const at = r.pos;
    if (r.u32() !== 0xabababab) r.seek(at);
    r.u8(); // old version
  }
  const type = pr.object(r);
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
  const value = pr.struct(sub, structName);
  if (sub.pos !== size) throw sub.error(`instanced ${structName} used ${sub.pos} of its ${size} bytes`);
  return { struct: type, value };
}

/** The value an unversioned property has when the header marks it zero. */
export function zeroValue(pr: PropertyReader, t: PropType): PropertyValue {
  switch (t.type) {
    case 'BoolProperty': return false;
    case 'ByteProperty': return t.enumName && t.enumName !== 'None' ? enumMember(pr, t.enumName, 0) : 0;
    case 'EnumProperty': return enumMember(pr, t.enumName, 0);
    case 'StrProperty': case 'AnsiStrProperty': case 'Utf8StrProperty': case 'VerseStringProperty': case 'TextProperty':
      return '';
    case 'NameProperty': return 'None';
    case 'ArrayProperty': case 'SetProperty': case 'MapProperty': case 'MulticastDelegateProperty':
    case 'MulticastInlineDelegateProperty': case 'MulticastSparseDelegateProperty':
      return [];
    case 'DelegateProperty': return { object: null, function: 'None' };
    case 'FieldPathProperty': return { path: [], owner: null };
    case 'LazyObjectProperty': return '00000000000000000000000000000000';
    case 'StructProperty': return zeroStruct(pr, t.struct);
    case 'Int8Property': case 'Int16Property': case 'IntProperty': case 'Int64Property': case 'UInt16Property':
    case 'UInt32Property': case 'UInt64Property': case 'FloatProperty': case 'DoubleProperty':
      return 0;
    default: return null;
  }
}

/** A native struct read from zeros with names as None; a property struct: no properties. */
function zeroStruct(pr: PropertyReader, name: string | undefined): PropertyValue {
  const native = name !== undefined ? NATIVE_STRUCTS.get(name) : undefined;
  if (!native) return [];
  const zeros = new PropertyReader({ ...pr.ctx, names: ['None'], objectPath: () => null, softObjectPaths: undefined });
  try {
    return native(zeros, new BinaryReader(new Uint8Array(256), pr.ctx.file));
  } catch (e) {
    if (e instanceof FormatError) return null;
    throw e;
  }
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

/** FUtf8String: i32 byte count, then UTF-8 bytes without a terminator. */
export function utf8String(r: BinaryReader): string {
  const n = r.count(1, 'UTF-8 string length');
  return r.utf8(n);
}

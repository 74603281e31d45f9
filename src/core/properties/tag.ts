/**
 * FPropertyTag: the header before each tagged property value. Up to UE5.3 it is name, type name,
 * size, array index, then type parameters (struct name and GUID, enum name, inner types, bool
 * value) and an optional property GUID; UE5.4 stores the complete type as a tree of names
 * (FPropertyTypeName), then size and flags that say which optional parts follow.
 */
import type { BinaryReader } from '../io/binary-reader.js';
import type { PropType } from './context.js';
import type { PropertyReader } from './reader.js';
import {
  hasArrayInnerType, hasCompleteTypeName, hasPropertyGuid, hasSetMapTypes, hasStructGuid, hasTagExtensions,
} from './versions.js';

/** EPropertyTagFlags (UE5.4). */
export const PropertyTagFlags = {
  HasArrayIndex: 0x01,
  HasPropertyGuid: 0x02,
  HasPropertyExtensions: 0x04,
  HasBinaryOrNativeSerialize: 0x08,
  BoolTrue: 0x10,
  SkippedSerialize: 0x20,
} as const;

/** EPropertyTagExtension. */
const OVERRIDABLE_INFORMATION = 0x02;

export interface PropertyTag {
  name: string;
  type: PropType;
  /** Bytes of the value after the tag. */
  size: number;
  arrayIndex: number;
  /** The tag says the property is an element of a static array. */
  indexed: boolean;
  /** BoolProperty: the value lives in the tag. */
  boolValue: boolean;
  /** UE5.4+: the value was written by a native serializer (true) or as tagged properties (false); undefined before. */
  binaryOrNative?: boolean;
  /** UE5.4+: the value was skipped (no bytes). */
  skipped: boolean;
  propertyGuid?: string;
  /** Where the tag starts and its value starts, in the reader. */
  tagStart: number;
  valueStart: number;
}

/** Reads one tag; null at the "None" that ends a property list. */
export function readTag(pr: PropertyReader, r: BinaryReader): PropertyTag | null {
  const tagStart = r.pos;
  const name = pr.name(r);
  if (name === 'None') return null;
  const v = pr.ctx.versions;
  if (hasCompleteTypeName(v)) {
    const type = readTypeNameTree(pr, r);
    const size = r.i32();
    const flags = r.u8();
    const arrayIndex = flags & PropertyTagFlags.HasArrayIndex ? r.i32() : 0;
    const propertyGuid = flags & PropertyTagFlags.HasPropertyGuid ? r.guid() : undefined;
    if (flags & PropertyTagFlags.HasPropertyExtensions) readTagExtensions(r);
    return {
      name, type, size, arrayIndex, indexed: (flags & PropertyTagFlags.HasArrayIndex) !== 0,
      boolValue: (flags & PropertyTagFlags.BoolTrue) !== 0,
      binaryOrNative: (flags & PropertyTagFlags.HasBinaryOrNativeSerialize) !== 0,
      skipped: (flags & PropertyTagFlags.SkippedSerialize) !== 0,
      ...(propertyGuid ? { propertyGuid } : {}), tagStart, valueStart: r.pos,
    };
  }
  const typeName = pr.name(r);
  const size = r.i32();
  const arrayIndex = r.i32();
  const type: PropType = { type: typeName };
  let boolValue = false;
  switch (typeName) {
    case 'StructProperty':
      type.struct = pr.name(r);
      if (hasStructGuid(v)) r.skip(16);
      break;
    case 'BoolProperty':
      boolValue = r.u8() !== 0;
      break;
    case 'ByteProperty':
    case 'EnumProperty':
      type.enumName = pr.name(r);
      break;
    case 'ArrayProperty':
      if (hasArrayInnerType(v)) type.inner = { type: pr.name(r) };
      break;
    case 'SetProperty':
      if (hasSetMapTypes(v)) type.inner = { type: pr.name(r) };
      break;
    case 'MapProperty':
      if (hasSetMapTypes(v)) {
        type.inner = { type: pr.name(r) };
        type.value = { type: pr.name(r) };
      }
      break;
    case 'OptionalProperty':
      type.inner = { type: pr.name(r) };
      break;
  }
  let propertyGuid: string | undefined;
  if (hasPropertyGuid(v) && r.u8() !== 0) propertyGuid = r.guid();
  if (hasTagExtensions(v)) readTagExtensions(r);
  return {
    name, type, size, arrayIndex, indexed: arrayIndex > 0, boolValue, skipped: false,
    ...(propertyGuid ? { propertyGuid } : {}), tagStart, valueStart: r.pos,
  };
}

function readTagExtensions(r: BinaryReader): void {
  const ext = r.u8();
  if (ext & OVERRIDABLE_INFORMATION) {
    r.u8(); // EOverriddenPropertyOperation
    r.u32(); // bExperimentalOverridableLogic
  }
}

interface TypeNode { name: string; params: TypeNode[] }

/** Real type names have a handful of nodes (MapProperty(NameProperty,StructProperty(Vector(/Script/CoreUObject)))). */
const MAX_TYPE_NAME_NODES = 256;

/** A type name tree is a flat list of (name, parameter count) in depth-first order. */
function readTypeNameTree(pr: PropertyReader, r: BinaryReader): PropType {
  const flat: { name: string; innerCount: number }[] = [];
  let remaining = 1;
  do {
    const at = r.pos;
    const name = pr.name(r);
    const innerCount = r.i32();
    if (innerCount < 0) throw r.error(`type name "${name}" has ${innerCount} parameters`, at + 8);
    flat.push({ name, innerCount });
    if (flat.length > MAX_TYPE_NAME_NODES) throw r.error(`type name has more than ${MAX_TYPE_NAME_NODES} parts`, at);
    remaining += innerCount - 1;
  } while (remaining > 0);
  let next = 0;
  const build = (): TypeNode => {
    const node = flat[next++]!;
    const params: TypeNode[] = [];
    for (let i = 0; i < node.innerCount; i++) params.push(build());
    return { name: node.name, params };
  };
  return nodeType(build());
}

function nodeType(n: TypeNode): PropType {
  const t: PropType = { type: n.name };
  const p0 = n.params[0], p1 = n.params[1];
  switch (n.name) {
    case 'StructProperty':
      // StructProperty(Name(/Script/Module), Guid)
      if (p0) t.struct = p0.name;
      break;
    case 'ByteProperty':
      if (p0) t.enumName = p0.name;
      break;
    case 'EnumProperty':
      // EnumProperty(EName(/Script/Module), UnderlyingType)
      if (p0) t.enumName = p0.name;
      if (p1) t.inner = nodeType(p1);
      break;
    case 'ArrayProperty':
    case 'SetProperty':
    case 'OptionalProperty':
      if (p0) t.inner = nodeType(p0);
      break;
    case 'MapProperty':
      if (p0) t.inner = nodeType(p0);
      if (p1) t.value = nodeType(p1);
      break;
  }
  return t;
}

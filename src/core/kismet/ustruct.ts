/**
 * What UStruct::Serialize and UFunction::Serialize write after an export's properties: the super
 * struct, children, child properties (FField list, UE4.25+), the bytecode (its in-memory and
 * stored sizes, then the stored bytes) and the function's flags. Read as a NativeDataReader of
 * the property reader, so every package layout (legacy, Zen, tagged, unversioned) comes for free.
 */
import type { BinaryReader } from '../io/binary-reader.js';
import type { PropertyReader } from '../properties/reader.js';
import { CustomVersionKey, customVersionAtLeast, type PropertyVersions } from '../properties/versions.js';
import { UE4Version } from '../uasset/versions.js';
import { scriptImportIndex } from '../zen/object-index.js';
import { decodeScript, type KismetLayout, type KismetNames } from './decode.js';
import type { Expr } from './expr.js';
import { FUNC_NET } from './tokens.js';

/** Export classes whose data is a UFunction. */
export const FUNCTION_CLASSES: readonly string[] = ['Function', 'DelegateFunction', 'SparseDelegateFunction'];
/** Their script import hashes, as a Zen package read without the global container names them. */
const FUNCTION_CLASS_BY_HASH = new Map(FUNCTION_CLASSES.map((c) => [scriptImportIndex(`/Script/CoreUObject.${c}`), c]));

/** The UFunction class `cls` is (a name, or "?0x<hash>" of a Zen package), or undefined when it is none. */
export function functionClassName(cls: string): string | undefined {
  if (FUNCTION_CLASSES.includes(cls)) return cls;
  const hash = /\?0x([0-9a-f]{16})$/.exec(cls)?.[1];
  return hash === undefined ? undefined : FUNCTION_CLASS_BY_HASH.get(hash);
}

/** Whether exports of class `cls` (a name, or "?0x<hash>" of a Zen package) are UFunctions. */
export const isFunctionClass = (cls: string): boolean => functionClassName(cls) !== undefined;

/** FCoreObjectVersion::FProperties (UE4.25): child properties are FFields. */
const CORE_FPROPERTIES = 4;
/** FFrameworkObjectVersion::RemoveUField_Next. */
const FRAMEWORK_REMOVE_UFIELD_NEXT = 29;
/** More child properties than this in one function is corrupt data. */
const MAX_CHILD_PROPERTIES = 65536;
/** Nested property types (array of map of ...) deeper than this is corrupt data. */
const MAX_FIELD_DEPTH = 16;
/** The bytecode of the largest real ubergraphs is a few MiB. */
const MAX_SCRIPT_BYTES = 256 * 1024 * 1024;

/** CPF_ flags `pakscope script` shows on parameters. */
export const PropertyFlag = { Parm: 0x80, OutParm: 0x100, ReturnParm: 0x400, ReferenceParm: 0x8000000, ConstParm: 0x2 } as const;

export interface ChildProperty {
  /** "IntProperty", "StructProperty", ... */
  type: string;
  name: string;
  arrayDim: number;
  /** CPF_ flags (the low 32 bits are the ones that tell parameters apart). */
  flags: number;
  flagsHigh: number;
  /** The struct, class, enum or signature it refers to (StructProperty's struct path, ...). */
  ref?: string | null;
  /** Inner properties: an array's element, a map's key and value, an enum's underlying type. */
  inner?: ChildProperty[];
}

export interface UStructData {
  superStruct: string | null;
  children: (string | null)[];
  childProperties: ChildProperty[] | null;
  /** ScriptBytecodeSize: the bytecode's in-memory size, as stored. */
  bytecodeSize: number;
  /** ScriptStorageSize: its size on disk, as stored. */
  storageSize: number;
  /** Absolute offset of the script bytes in their file, and that file. */
  scriptOffset: number;
  file: string;
  statements: Expr[];
  /** The in-memory size the decoder counted (equal to bytecodeSize when the script reads right). */
  decodedSize: number;
  /** Bytes of the export left after the struct's data (0 when it reads right). */
  trailing: number;
  /** UFunction only. */
  functionFlags?: number;
  eventGraphFunction?: string | null;
  eventGraphCallOffset?: number;
}

/** The version answers the readers need, from a package's versions (and the release, where versions do not tell). */
export interface StructLayout extends KismetLayout {
  /** UField::Next before RemoveUField_Next; Children is then one index, not an array. */
  fieldNext: boolean;
  /** FField flags are written (UE5.8 strips them from cooked packages). */
  fieldFlags: boolean;
  /** FField metadata maps are written (editor packages). */
  fieldMetadata: boolean;
  /** UFunction's EventGraphFunction and EventGraphCallOffset. */
  eventGraphCall: boolean;
}

/**
 * The layout of a package's structs and bytecode. `release58` says the package is from UE5.8 on,
 * which its object versions do not tell from UE5.7.
 */
export function structLayout(v: PropertyVersions, release58: boolean): StructLayout {
  const versioned = v.custom !== null;
  return {
    letProperty: v.ue4 >= 482 || v.ue4 === 0,
    textLiteralType: v.ue4 >= 504 || v.ue4 === 0,
    textWithNotes: release58,
    setArrayExpr: v.ue4 >= UE4Version.CHANGE_SETARRAY_BYTECODE || v.ue4 === 0,
    fieldPaths: versioned ? customVersionAtLeast(v, CustomVersionKey.Core, CORE_FPROPERTIES) : v.ue4 >= UE4Version.ADDED_PACKAGE_OWNER,
    fieldPathOwner: customVersionAtLeast(v, CustomVersionKey.FortniteMain, 33) || customVersionAtLeast(v, CustomVersionKey.Release, 30),
    doubles: v.ue5 >= 1004,
    fieldNext: !customVersionAtLeast(v, CustomVersionKey.Framework, FRAMEWORK_REMOVE_UFIELD_NEXT),
    fieldFlags: !(release58 && v.cooked),
    fieldMetadata: !v.cooked,
    eventGraphCall: v.ue4 >= UE4Version.SERIALIZE_BLUEPRINT_EVENTGRAPH_FASTCALLS_IN_UFUNCTION || v.ue4 === 0,
  };
}

/** Reads the UStruct (and UFunction, when `isFunction`) data at `r`, just past the property stream. */
export function readUStruct(pr: PropertyReader, r: BinaryReader, layout: StructLayout, isFunction: boolean): UStructData {
  const names: KismetNames = { name: (x) => pr.name(x), object: (x) => pr.object(x) };
  if (r.bool32()) r.skip(16); // UObject's serialized GUID (objects that are not class defaults)
  if (layout.fieldNext) pr.object(r); // UField::Next
  const superStruct = pr.object(r);
  let children: (string | null)[];
  if (layout.fieldNext) {
    const first = pr.object(r);
    children = first === null ? [] : [first];
  } else {
    const n = r.count(4, 'children count');
    children = [];
    for (let i = 0; i < n; i++) children.push(pr.object(r));
  }
  let childProperties: ChildProperty[] | null = null;
  if (layout.fieldPaths) {
    const at = r.pos;
    const n = r.count(8, 'child property count');
    if (n > MAX_CHILD_PROPERTIES) throw r.error(`${n} child properties is implausible`, at);
    childProperties = [];
    for (let i = 0; i < n; i++) {
      const type = pr.name(r);
      childProperties.push(readField(pr, r, layout, type, 0));
    }
  }
  const bytecodeSize = r.i32();
  const sizeAt = r.pos;
  const storageSize = r.i32();
  if (bytecodeSize < 0 || storageSize < 0 || storageSize > MAX_SCRIPT_BYTES) throw r.error(`script sizes ${bytecodeSize} (in memory) and ${storageSize} (stored) are implausible`, sizeAt);
  if (storageSize > r.remaining) throw r.error(`the script's ${storageSize} stored bytes run past the export's end (${r.remaining} remain)`, sizeAt);
  const scriptOffset = r.absolutePos;
  const script = r.sub(storageSize, `${r.structure} bytecode`);
  const decoded = decodeScript(script, names, layout);
  const out: UStructData = {
    superStruct, children, childProperties, bytecodeSize, storageSize, scriptOffset, file: r.file,
    statements: decoded.statements, decodedSize: decoded.memorySize, trailing: 0,
  };
  if (isFunction) {
    const flags = r.u32();
    out.functionFlags = flags;
    if (flags & FUNC_NET) r.u16(); // RepOffset
    if (layout.eventGraphCall) {
      out.eventGraphFunction = pr.object(r);
      out.eventGraphCallOffset = r.i32();
    }
  }
  out.trailing = r.remaining;
  return out;
}

/** One FField (its type name already read): FField, FProperty, then the type's own references. */
function readField(pr: PropertyReader, r: BinaryReader, layout: StructLayout, type: string, depth: number): ChildProperty {
  if (depth > MAX_FIELD_DEPTH) throw r.error(`property types nested deeper than ${MAX_FIELD_DEPTH}`);
  const name = pr.name(r);
  if (layout.fieldFlags) r.u32(); // EObjectFlags
  if (layout.fieldMetadata && r.bool32()) {
    const n = r.count(12, 'metadata count');
    for (let i = 0; i < n; i++) {
      pr.name(r);
      r.fstring();
    }
  }
  const arrayDim = r.i32();
  r.i32(); // ElementSize
  const flags = r.u32();
  const flagsHigh = r.u32();
  r.u16(); // RepIndex
  pr.name(r); // RepNotifyFunc
  r.u8(); // BlueprintReplicationCondition
  const p: ChildProperty = { type, name, arrayDim, flags, flagsHigh };
  const single = (): ChildProperty | undefined => {
    const t = pr.name(r);
    return t === 'None' ? undefined : readField(pr, r, layout, t, depth + 1);
  };
  const inner = (...fields: (ChildProperty | undefined)[]): void => {
    const found = fields.filter((f): f is ChildProperty => f !== undefined);
    if (found.length > 0) p.inner = found;
  };
  switch (type) {
    case 'BoolProperty':
      r.skip(6); // field size, byte offset, byte mask, field mask, bool size, native bool
      break;
    case 'ByteProperty': case 'ObjectProperty': case 'ObjectPtrProperty': case 'WeakObjectProperty':
    case 'LazyObjectProperty': case 'SoftObjectProperty': case 'InterfaceProperty': case 'StructProperty':
    case 'DelegateProperty': case 'MulticastDelegateProperty': case 'MulticastInlineDelegateProperty':
    case 'MulticastSparseDelegateProperty': case 'VerseFunctionProperty':
      p.ref = pr.object(r);
      break;
    case 'ClassProperty': case 'ClassPtrProperty': case 'SoftClassProperty':
      pr.object(r); // PropertyClass (UClass)
      p.ref = pr.object(r); // MetaClass
      break;
    case 'VerseClassProperty':
      pr.object(r);
      p.ref = pr.object(r);
      r.skip(2);
      break;
    case 'EnumProperty':
      p.ref = pr.object(r);
      inner(single());
      break;
    case 'ArrayProperty': case 'SetProperty': case 'OptionalProperty': case 'VerseStringProperty':
      inner(single());
      break;
    case 'MapProperty':
      inner(single(), single());
      break;
    case 'FieldPathProperty':
      p.ref = pr.name(r);
      break;
    case 'IntProperty': case 'Int8Property': case 'Int16Property': case 'Int64Property': case 'UInt16Property':
    case 'UInt32Property': case 'UInt64Property': case 'FloatProperty': case 'DoubleProperty': case 'NameProperty':
    case 'StrProperty': case 'Utf8StrProperty': case 'AnsiStrProperty': case 'TextProperty':
    case 'VerseDynamicProperty': case 'ReferenceProperty':
      break;
    default:
      throw r.error(`unknown property type "${type}" of child property "${name}"`);
  }
  return p;
}

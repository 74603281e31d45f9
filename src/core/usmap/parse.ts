/**
 * Reads a .usmap mappings file (every EUsmapVersion, as CUE4Parse's UsmapParser and the dumpers
 * write it): a small header, then one block, stored or compressed with Oodle, Brotli or Zstd,
 * holding a name table, the enums and the structs.
 */
import { brotliDecompressSync } from 'node:zlib';
import { FormatError, UnsupportedCodecError } from '../errors.js';
import { getCodec } from '../codecs/registry.js';
import { BinaryReader } from '../io/binary-reader.js';
import type { MappedEnum, MappedProperty, MappedStruct, MappedType, Usmap, UsmapCompression } from './types.js';

export const USMAP_MAGIC = 0x30c4;

/** EUsmapVersion. */
export const UsmapVersion = {
  Initial: 0,
  /** Game package versions and custom versions after the version byte. */
  PackageVersioning: 1,
  /** Name lengths are u16 instead of u8. */
  LongFName: 2,
  /** Enum member counts are u16 instead of u8. */
  LargeEnums: 3,
  /** Enum members carry their u64 value. */
  ExplicitEnumValues: 4,
} as const;
export const USMAP_LATEST = UsmapVersion.ExplicitEnumValues;

const COMPRESSION: readonly UsmapCompression[] = ['None', 'Oodle', 'Brotli', 'Zstd'];

/** EPropertyType as the schema numbers it (CUE4Parse's Usmap/EPropertyType.cs). */
const PROPERTY_TYPES: readonly string[] = [
  'ByteProperty', 'BoolProperty', 'IntProperty', 'FloatProperty', 'ObjectProperty', 'NameProperty', 'DelegateProperty',
  'DoubleProperty', 'ArrayProperty', 'StructProperty', 'StrProperty', 'TextProperty', 'InterfaceProperty',
  'MulticastDelegateProperty', 'WeakObjectProperty', 'LazyObjectProperty', 'AssetObjectProperty', 'SoftObjectProperty',
  'UInt64Property', 'UInt32Property', 'UInt16Property', 'Int64Property', 'Int16Property', 'Int8Property', 'MapProperty',
  'SetProperty', 'EnumProperty', 'FieldPathProperty', 'OptionalProperty', 'Utf8StrProperty', 'AnsiStrProperty',
  'ClassProperty', 'MulticastInlineDelegateProperty', 'SoftClassProperty', 'VerseStringProperty', 'VerseDynamicProperty',
  'VerseFunctionProperty',
];
const CUSTOM_TYPES: Record<number, string> = { 0xfd: 'CustomProperty_FD', 0xfe: 'CustomProperty_FE', 0xff: 'Unknown' };

/** Nested type parameters deeper than this are a corrupt file, not a schema. */
const MAX_TYPE_DEPTH = 32;
/** A schema block larger than this is not a mappings file (real ones are a few MiB). */
const MAX_SCHEMA_BYTES = 512 * 1024 * 1024;

/** Parses a whole .usmap file. Bad input throws FormatError; Zstd without a decoder throws UnsupportedCodecError. */
export function parseUsmap(bytes: Uint8Array, file: string): Usmap {
  const r = new BinaryReader(bytes, file).struct('usmap header');
  if (bytes.length < 2 || r.u16() !== USMAP_MAGIC) throw new FormatError(file, 'usmap header', 0, `not a mappings file (no magic 0x${USMAP_MAGIC.toString(16).toUpperCase()})`);
  const version = r.u8();
  if (version > USMAP_LATEST) throw r.error(`usmap version ${version} is newer than the newest known (${USMAP_LATEST})`, 2);

  let packageVersion: Usmap['packageVersion'] = null;
  if (version >= UsmapVersion.PackageVersioning && r.bool32()) {
    const ue4 = r.i32(), ue5 = r.i32();
    const n = r.count(20, 'custom version count');
    const customVersions: { guid: string; version: number }[] = [];
    for (let i = 0; i < n; i++) customVersions.push({ guid: r.guid(), version: r.i32() });
    packageVersion = { ue4, ue5, customVersions, netCL: r.u32() };
  }

  const methodAt = r.pos;
  const method = r.u8();
  const compression = COMPRESSION[method];
  if (compression === undefined) throw r.error(`unknown compression method ${method}`, methodAt);
  const compressedSize = r.u32();
  const size = r.u32();
  if (size > MAX_SCHEMA_BYTES) throw r.error(`schema of ${size} bytes is implausible`, methodAt + 5);
  const blockAt = r.pos;
  const block = r.bytesView(r.need(compressedSize));
  const schema = decompress(block, compression, size, file, blockAt);

  const s = new BinaryReader(schema, `${file} (schema)`).struct('usmap names');
  const names = readNames(s, version);
  const nameAt = (): string | null => {
    const at = s.pos;
    const i = s.i32();
    if (i === -1) return null;
    const n = names[i];
    if (n === undefined) throw s.error(`name index ${i} is outside the ${names.length} names`, at);
    return n;
  };
  const name = (): string => {
    const at = s.pos;
    const n = nameAt();
    if (n === null) throw s.error('a name is missing (index -1)', at);
    return n;
  };

  s.struct('usmap enums');
  const enums = new Map<string, MappedEnum>();
  const enumCount = s.count(5, 'enum count');
  for (let i = 0; i < enumCount; i++) {
    const enumName = name();
    const n = version >= UsmapVersion.LargeEnums ? s.u16() : s.u8();
    const values = new Map<number, string>();
    if (version >= UsmapVersion.ExplicitEnumValues) {
      s.checkCount(n, 12, 'enum member count');
      for (let j = 0; j < n; j++) {
        const value = s.i64();
        values.set(Number(value), name());
      }
    } else {
      s.checkCount(n, 4, 'enum member count');
      for (let j = 0; j < n; j++) values.set(j, name());
    }
    // Some games register an enum twice: the first wins, as in CUE4Parse.
    const key = enumName.toLowerCase();
    if (!enums.has(key)) enums.set(key, { name: enumName, values });
  }

  s.struct('usmap structs');
  const structs = new Map<string, MappedStruct>();
  const structCount = s.count(12, 'struct count');
  for (let i = 0; i < structCount; i++) {
    const structName = name();
    const superName = nameAt();
    const propertyCount = s.u16();
    const serializable = s.checkCount(s.u16(), 8, 'property count');
    const properties: MappedProperty[] = [];
    for (let j = 0; j < serializable; j++) {
      const index = s.u16();
      const arrayDim = s.u8();
      const propName = name();
      properties.push({ index, arrayDim: Math.max(1, arrayDim), name: propName, type: readType(s, nameAt, name, 0) });
    }
    structs.set(structName.toLowerCase(), { name: structName, super: superName, propertyCount, properties });
  }

  return {
    file, version, compression, compressedSize, size, packageVersion, names, structs, enums,
    trailingBytes: s.remaining,
  };
}

function decompress(block: Uint8Array, method: UsmapCompression, size: number, file: string, at: number): Uint8Array {
  let out: Uint8Array;
  try {
    switch (method) {
      case 'None':
        if (block.length !== size) throw new FormatError(file, 'usmap header', at, `stored schema is ${block.length} bytes but ${size} are declared`);
        return block;
      case 'Oodle':
      case 'Zstd':
        out = getCodec(method).decode(block, size);
        break;
      case 'Brotli':
        out = brotliDecompressSync(block, { maxOutputLength: Math.max(size, 1) });
        break;
    }
  } catch (e) {
    if (e instanceof FormatError) throw e;
    if (e instanceof UnsupportedCodecError) {
      throw new UnsupportedCodecError(method, `${file}: the mappings are ${method}-compressed and ${e.message.replace(/^unsupported compression method "[^"]*": /, '')}`);
    }
    throw new FormatError(file, 'usmap schema', at, `${method} schema does not decompress: ${(e as Error).message}`);
  }
  if (out.length !== size) throw new FormatError(file, 'usmap schema', at, `${method} schema decompresses to ${out.length} bytes but ${size} are declared`);
  return out;
}

function readNames(s: BinaryReader, version: number): string[] {
  const n = s.count(1, 'name count');
  const names: string[] = new Array(n);
  for (let i = 0; i < n; i++) {
    const len = version >= UsmapVersion.LongFName ? s.u16() : s.u8();
    names[i] = s.utf8(len);
  }
  return names;
}

function readType(s: BinaryReader, nameAt: () => string | null, name: () => string, depth: number): MappedType {
  const at = s.pos;
  if (depth > MAX_TYPE_DEPTH) throw s.error(`property type nested deeper than ${MAX_TYPE_DEPTH}`, at);
  const code = s.u8();
  const type = PROPERTY_TYPES[code] ?? CUSTOM_TYPES[code];
  if (type === undefined) throw s.error(`unknown property type ${code}`, at);
  switch (type) {
    case 'EnumProperty': {
      const inner = readType(s, nameAt, name, depth + 1);
      return { type, inner, enumName: nameAt() ?? undefined };
    }
    case 'StructProperty':
      return { type, struct: name() };
    case 'ArrayProperty':
    case 'SetProperty':
    case 'OptionalProperty':
      return { type, inner: readType(s, nameAt, name, depth + 1) };
    case 'MapProperty': {
      const inner = readType(s, nameAt, name, depth + 1);
      return { type, inner, value: readType(s, nameAt, name, depth + 1) };
    }
    default:
      return { type };
  }
}

/** A struct or class by name, any case. */
export function findStruct(m: Usmap, name: string): MappedStruct | undefined {
  return m.structs.get(name.toLowerCase());
}

export function findEnum(m: Usmap, name: string): MappedEnum | undefined {
  return m.enums.get(name.toLowerCase());
}

/**
 * A mappings file (.usmap): the schema of every class, struct and enum of one game build, as
 * dumpers write it. Unversioned properties are only an index into this schema, so they cannot be
 * read without it.
 */

/** A property's type as the schema describes it (EPropertyType plus its parameters). */
export interface MappedType {
  /** Engine type name: "IntProperty", "StructProperty", "ArrayProperty", ... */
  type: string;
  /** StructProperty: the struct's name ("Vector"). */
  struct?: string;
  /** EnumProperty and ByteProperty: the enum's name ("EFixtureEnum"). */
  enumName?: string;
  /** ArrayProperty, SetProperty, OptionalProperty: the element; MapProperty: the key; EnumProperty: the underlying integer. */
  inner?: MappedType;
  /** MapProperty: the value. */
  value?: MappedType;
}

/** One property of a struct: its schema index is the first of `arrayDim` consecutive slots. */
export interface MappedProperty {
  /** Schema index inside its own struct (super structs' properties are counted after it). */
  index: number;
  /** Static array size (1 for a plain property). */
  arrayDim: number;
  name: string;
  type: MappedType;
}

export interface MappedStruct {
  name: string;
  /** The super struct's name, or null. */
  super: string | null;
  /** Schema slots this struct adds (its own properties, static arrays counted per element). */
  propertyCount: number;
  /** The properties that serialize, by schema index of their first slot. */
  properties: MappedProperty[];
}

export interface MappedEnum {
  name: string;
  /** Value -> member name (without the "Enum::" prefix). Values are bigint-safe numbers. */
  values: Map<number, string>;
}

/** Compression of the schema block (EUsmapCompressionMethod). */
export type UsmapCompression = 'None' | 'Oodle' | 'Brotli' | 'Zstd';

export interface Usmap {
  file: string;
  /** EUsmapVersion: 0 Initial, 1 PackageVersioning, 2 LongFName, 3 LargeEnums, 4 ExplicitEnumValues. */
  version: number;
  compression: UsmapCompression;
  compressedSize: number;
  size: number;
  /** From PackageVersioning on, when the dumper stored the game's versions. */
  packageVersion: { ue4: number; ue5: number; netCL: number; customVersions: { guid: string; version: number }[] } | null;
  names: string[];
  /** By name, case-insensitive (lowercased keys): use findStruct / findEnum. */
  structs: Map<string, MappedStruct>;
  enums: Map<string, MappedEnum>;
  /** Bytes after the structs (extensions some dumpers append), not read. */
  trailingBytes: number;
}

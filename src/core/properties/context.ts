/**
 * What reading an object's properties needs from its package: names, object references, the
 * versions the package was saved with and, for unversioned properties, the mappings.
 */
import type { BinaryReader } from '../io/binary-reader.js';
import type { MappedStruct, MappedType, Usmap } from '../usmap/types.js';
import type { PropertyReader } from './reader.js';
import type { PropertyEntry, TextKey } from './types.js';
import type { PropertyVersions } from './versions.js';

export interface PropertyContext {
  /** For errors: the package file. */
  file: string;
  /** The package's name map, as stored (numbers are applied when an FName is read). */
  names: readonly string[];
  /**
   * The path of an FPackageIndex (> 0 export index + 1, < 0 -(import index + 1)); null for 0;
   * undefined for an index outside the tables.
   */
  objectPath(index: number): string | null | undefined;
  versions: PropertyVersions;
  /** PKG_UnversionedProperties: values are stored by schema index, with no tags. */
  unversioned: boolean;
  /** Uncooked UE5.1+: the header's soft object paths, which soft references index. */
  softObjectPaths?: readonly string[];
  /** The schema unversioned properties are read with. */
  mappings?: Usmap;
  /** Schemas of classes and structs defined in packages (Blueprint classes), by lowercased name; searched before the mappings. */
  localStructs?: ReadonlyMap<string, MappedStruct>;
  /** Record where each entry's bytes are (PropertyEntry.range, .elements): the app's hex view needs them, the CLI does not. */
  offsets?: boolean;
  /** Reads an export's native data after its property stream (see NativeDataReader). */
  nativeData?: NativeDataReader;
  /** Collects the localization key of every literal text read (the app resolves them to a culture's translation). */
  textKeys?: TextKey[];
}

/**
 * Reads what a class serializes after its properties (a data table's rows, a string table's
 * entries): `r` stands just past the property stream. Returns undefined for classes it does not
 * read; what it returns becomes ExportProperties.native. FormatErrors become nativeError.
 */
export type NativeDataReader = (pr: PropertyReader, r: BinaryReader, exp: { index?: number; name: string; class: string; properties: readonly PropertyEntry[] }) => unknown;

/** A property's type: the mapping schema's shape, also built from tags. */
export type PropType = MappedType;

/** "StructProperty<Vector>", "MapProperty<NameProperty, IntProperty>": the type as the entry shows it. */
export function typeName(t: PropType): string {
  switch (t.type) {
    case 'StructProperty':
      return t.struct ? `StructProperty<${t.struct}>` : 'StructProperty';
    case 'ByteProperty':
      return t.enumName && t.enumName !== 'None' ? `ByteProperty<${t.enumName}>` : 'ByteProperty';
    case 'EnumProperty':
      return t.enumName ? `EnumProperty<${t.enumName}>` : 'EnumProperty';
    case 'ArrayProperty':
    case 'SetProperty':
    case 'OptionalProperty':
      return t.inner ? `${t.type}<${typeName(t.inner)}>` : t.type;
    case 'MapProperty':
      return t.inner && t.value ? `MapProperty<${typeName(t.inner)}, ${typeName(t.value)}>` : t.type;
    default:
      return t.type;
  }
}

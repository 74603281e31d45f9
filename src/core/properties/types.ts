/**
 * The properties of an object as plain JSON: what `pakscope props --json` prints and the app's
 * Properties tab shows.
 *
 * Values: integers and floats are JSON numbers (64-bit integers beyond 2^53 are decimal strings,
 * NaN and infinities are the strings "NaN", "Infinity", "-Infinity"); Str, Name, enums, object and
 * soft references are strings (null for a null reference); Bool is a boolean. Structs read
 * property by property (tagged or with mappings) are a nested list of PropertyEntry; natively
 * serialized structs (Vector, Guid, Color, ...) are an object of their fields or a single
 * string/number where the engine prints them so (Guid, SoftObjectPath, DateTime); arrays and sets
 * are lists; maps are lists of {key, value}; Text is its string for the plain histories and an
 * object {history, text, ...} for the others.
 */
import type { FormatErrorData } from '../errors.js';

export type PropertyValue =
  | null
  | boolean
  | number
  | string
  | PropertyValue[]
  | PropertyEntry[]
  | { [field: string]: PropertyValue };

export interface PropertyEntry {
  /** The bare property name ("Integer", "bBoolean"). */
  name: string;
  /** The type as the engine names it, with its parameters: "StructProperty<Vector>", "ArrayProperty<IntProperty>". */
  type: string;
  value: PropertyValue;
  /** Element of a static (C-style) array property; absent for plain properties. */
  arrayIndex?: number;
  /** Set when the value could not be decoded: `value` is then its bytes as hex. */
  raw?: true;
  /** Raw values: where the bytes start, from the start of the export. */
  offset?: number;
  /** Why a value is raw, or anything else worth knowing about it. */
  note?: string;
  /**
   * Read with `offsets`: the property's bytes, from the start of the export: its tag (or, for an
   * unversioned value, the value) starts at `start`, its value at `value`, and both end at `end`.
   * Absent for values with no bytes of their own (unversioned zero values).
   */
  range?: { start: number; value: number; end: number };
  /** Read with `offsets`, an array, set or map value: where each element (map: each pair) starts, from the start of the export. */
  elements?: number[];
}

/** The properties of one export, and where its property stream ends. */
export interface ExportProperties {
  /** Export index in the package. */
  index: number;
  name: string;
  /** Short class name ("DataAsset", "BP_Foo_C"). */
  class: string;
  /** Every property read; empty when the object has no property stream (or none was read). */
  properties: PropertyEntry[];
  /**
   * Bytes of the property stream from `propertyStart` through its terminator ("None" tag, or the
   * last unversioned value). The export's remaining bytes (its native data) follow it.
   */
  propertyBytes: number;
  /** Where the property stream starts inside the export's bytes (after a UE1/2 state frame). */
  propertyStart: number;
  serialSize: number;
  /** How the stream is encoded. */
  encoding: 'tagged' | 'unversioned' | 'ue12' | 'none';
  /** Set when the stream could not be read to its end; `properties` holds what was read before. */
  error: string | null;
  /** `error` as the FormatError's parts, for a reader that throws it nested in its own structure. */
  errorData?: FormatErrorData;
  /** With a NativeDataReader: what it read after the property stream. */
  native?: unknown;
  /** With a NativeDataReader: why the native data could not be read. */
  nativeError?: string;
  /** `nativeError` as the FormatError's parts. */
  nativeErrorData?: FormatErrorData;
  /** Things the reader knows it did not do (class defaults not reached, mappings missing...). */
  notes?: string[];
}

/** A literal text's localization key (FText Base history), as the localization files (.locres) key their translations. */
export interface TextKey {
  namespace: string;
  key: string;
  /** The source string the package stores (the value `props` shows). */
  source: string;
}

export interface PackageProperties {
  /** Package name ("/Game/Maps/Entry"). */
  package: string;
  exports: ExportProperties[];
}

/** The JSON `pakscope props --json` prints. */
export interface PropsJson {
  exports: {
    name: string;
    class: string;
    properties: PropertyEntry[];
    propertyBytes: number;
    serialSize: number;
    error: string | null;
    propertyStart?: number;
    encoding?: ExportProperties['encoding'];
    notes?: string[];
  }[];
}

/**
 * The property stream at the start of one export's bytes (UObject::Serialize reads properties
 * before anything else): tagged or unversioned, read to its end, a failure kept to this export.
 */
import { FormatError } from '../errors.js';
import { BinaryReader } from '../io/binary-reader.js';
import { UE4Version } from '../uasset/versions.js';
import type { PropertyContext } from './context.js';
import { PropertyReader } from './reader.js';
import { recordError } from './property-errors.js';
import { readUnversionedHeader } from './unversioned-stream.js';
import type { ExportProperties, PropertyEntry } from './types.js';

export interface ObjectBytes {
  index: number;
  name: string;
  /** Short class name. */
  class: string;
  /** The export's bytes (serialSize of them, or fewer when the file is cut short). */
  bytes: Uint8Array;
  /** Absolute offset of bytes[0] in `file`, for error messages. */
  base: number;
  /** The file the bytes are in (a .uexp, a .ucas chunk...). */
  file: string;
  serialSize: number;
  /** The class or struct whose schema unversioned properties follow (usually `class`). */
  schema?: string;
}

/**
 * Classes whose Serialize writes their own data instead of starting with a property stream
 * (CUE4Parse's exports that do not call UObject's Deserialize).
 */
const CLASSES_WITHOUT_PROPERTIES: ReadonlySet<string> = new Set([
  'NNEModelData', 'RigHierarchy', 'RigVM', 'RigVMLink', 'LandscapeHeightmapTextureEdgeFixup',
]);

/**
 * UAssetImportData (and its Fbx and Interchange subclasses) writes its source file list as a JSON
 * FString before its properties in editor packages (VER_UE4_ASSET_IMPORT_DATA_AS_JSON).
 */
function importDataJsonLength(ctx: PropertyContext, obj: ObjectBytes): number {
  if (ctx.unversioned || ctx.versions.cooked || ctx.versions.ue4 < UE4Version.ASSET_IMPORT_DATA_AS_JSON || !/ImportData$/.test(obj.class)) return 0;
  const r = new BinaryReader(obj.bytes, obj.file, obj.base);
  try {
    r.fstring();
    return r.pos;
  } catch (e) {
    if (e instanceof FormatError) return 0;
    throw e;
  }
}

/** Reads one export's properties; FormatErrors end this export's stream and are reported in `error`. */
export function readObjectProperties(ctx: PropertyContext, obj: ObjectBytes): ExportProperties {
  const out: ExportProperties = {
    index: obj.index, name: obj.name, class: obj.class, properties: [], propertyBytes: 0, propertyStart: 0,
    serialSize: obj.serialSize, encoding: ctx.unversioned ? 'unversioned' : 'tagged', error: null,
  };
  if (obj.serialSize === 0) {
    out.encoding = 'none';
    return out;
  }
  const notes: string[] = [];
  if (CLASSES_WITHOUT_PROPERTIES.has(obj.class)) {
    out.encoding = 'none';
    return finish(out, [], [`a ${obj.class} serializes its own data, with no property stream`]);
  }
  if (obj.bytes.length === 0) {
    recordError(out, new FormatError(obj.file, `export ${obj.index} "${obj.name}" properties`, obj.base,
      `the export's ${obj.serialSize} bytes are not in the data given (a missing .uexp?)`));
    return out;
  }
  if (obj.bytes.length < obj.serialSize) notes.push(`only ${obj.bytes.length} of the export's ${obj.serialSize} bytes are in the file`);
  const pr = new PropertyReader({ ...ctx, file: obj.file });
  pr.exportBase = obj.base;
  const r = new BinaryReader(obj.bytes, obj.file, obj.base).struct(`export ${obj.index} "${obj.name}" properties`);
  const properties: PropertyEntry[] = [];
  const json = importDataJsonLength(ctx, obj);
  if (json > 0) {
    r.seek(json);
    out.propertyStart = json;
    notes.push(`the import data's source files come first, as ${json} bytes of JSON`);
  }
  try {
    if (ctx.unversioned) {
      const schema = obj.schema ?? obj.class;
      if (!ctx.mappings && !pr.findSchema(schema) && !emptyUnversionedHeader(r)) {
        notes.push('unversioned properties: a mappings file (.usmap) for this game is needed to read them');
        out.encoding = 'unversioned';
        return finish(out, properties, notes);
      }
      pr.unversionedProperties(r, schema, properties);
    } else {
      pr.taggedProperties(r, false, properties);
    }
    out.propertyBytes = r.pos - out.propertyStart;
    if (ctx.nativeData) readNative(ctx, pr, r, out, properties);
  } catch (e) {
    if (!(e instanceof FormatError)) throw e;
    recordError(out, e);
    out.propertyBytes = r.pos - out.propertyStart;
  }
  return finish(out, properties, notes);
}

/** An unversioned header that lists no values (a UFunction's) needs no schema to be read past. */
function emptyUnversionedHeader(r: BinaryReader): boolean {
  try {
    return readUnversionedHeader(r.slice(r.pos, r.remaining)).values.length === 0;
  } catch (e) {
    if (e instanceof FormatError) return false;
    throw e;
  }
}

function readNative(ctx: PropertyContext, pr: PropertyReader, r: BinaryReader, out: ExportProperties, properties: PropertyEntry[]): void {
  try {
    const native = ctx.nativeData!(pr, r, { index: out.index, name: out.name, class: out.class, properties });
    if (native !== undefined) out.native = native;
  } catch (e) {
    if (!(e instanceof FormatError)) throw e;
    out.nativeError = e.message;
    out.nativeErrorData = e.data();
  }
}

function finish(out: ExportProperties, properties: PropertyEntry[], notes: string[]): ExportProperties {
  out.properties = properties;
  if (notes.length > 0) out.notes = notes;
  return out;
}

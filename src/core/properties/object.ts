/**
 * The property stream at the start of one export's bytes (UObject::Serialize reads properties
 * before anything else): tagged or unversioned, read to its end, a failure kept to this export.
 */
import { FormatError } from '../errors.js';
import { BinaryReader } from '../io/binary-reader.js';
import type { PropertyContext } from './context.js';
import { PropertyReader } from './reader.js';
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
  if (obj.bytes.length === 0) {
    out.error = `${obj.file}: the export's ${obj.serialSize} bytes are not in the data given (a missing .uexp?)`;
    return out;
  }
  if (obj.bytes.length < obj.serialSize) notes.push(`only ${obj.bytes.length} of the export's ${obj.serialSize} bytes are in the file`);
  const pr = new PropertyReader({ ...ctx, file: obj.file });
  pr.exportBase = obj.base;
  const r = new BinaryReader(obj.bytes, obj.file, obj.base).struct(`export ${obj.index} "${obj.name}" properties`);
  const properties: PropertyEntry[] = [];
  try {
    if (ctx.unversioned) {
      const schema = obj.schema ?? obj.class;
      if (!ctx.mappings && !pr.findSchema(schema)) {
        notes.push('unversioned properties: a mappings file (.usmap) for this game is needed to read them');
        out.encoding = 'unversioned';
        return finish(out, properties, notes);
      }
      pr.unversionedProperties(r, schema, properties);
    } else {
      pr.taggedProperties(r, false, properties);
    }
    out.propertyBytes = r.pos;
  } catch (e) {
    if (!(e instanceof FormatError)) throw e;
    out.error = e.message;
    out.propertyBytes = r.pos;
  }
  return finish(out, properties, notes);
}

function finish(out: ExportProperties, properties: PropertyEntry[], notes: string[]): ExportProperties {
  out.properties = properties;
  if (notes.length > 0) out.notes = notes;
  return out;
}

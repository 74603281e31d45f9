/**
 * How a property stream fails: a value nested too deep (a loop in corrupt data) stops the
 * export's stream; any other FormatError of a tagged value keeps that value raw.
 */
import { FormatError } from '../errors.js';

/** Structs inside structs deeper than this are a loop in corrupt data, not a real object. */
export const MAX_PROPERTY_DEPTH = 64;

/** Structs nested past MAX_PROPERTY_DEPTH: the export's stream stops, it is not kept as a raw value. */
export class PropertyLoopError extends FormatError {}

/** The detail of a FormatError, without its "file: structure at byte N: " prefix. */
export function detailOf(e: FormatError): string {
  const prefix = `${e.file}: ${e.structure} at byte ${e.offset}: `;
  return e.message.startsWith(prefix) ? e.message.slice(prefix.length) : e.message;
}

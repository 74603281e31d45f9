/**
 * How a property stream fails: a value nested too deep (a loop in corrupt data) stops the
 * export's stream; any other FormatError of a tagged value keeps that value raw.
 */
import { FormatError } from '../errors.js';
import type { ExportProperties } from './types.js';

/** Structs inside structs deeper than this are a loop in corrupt data, not a real object. */
export const MAX_PROPERTY_DEPTH = 64;

/** Structs nested past MAX_PROPERTY_DEPTH: the export's stream stops, it is not kept as a raw value. */
export class PropertyLoopError extends FormatError {}

/** The export's property stream stopped at `e`: its message for people, its parts for outer readers. */
export function recordError(out: ExportProperties, e: FormatError): void {
  out.error = e.message;
  out.errorData = e.data();
}

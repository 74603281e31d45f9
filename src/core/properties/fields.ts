/**
 * Reading values out of a property list the way asset readers need them: each property's first
 * value by name, and a struct's fields whether it was read property by property (a nested
 * PropertyEntry list) or natively (an object of its fields).
 */
import type { PropertyEntry, PropertyValue } from './types.js';

export type Values = Readonly<Record<string, PropertyValue>>;

/** The first value of each property (element 0 of a static array); raw (undecoded) values left out. */
export function valuesOf(list: readonly PropertyEntry[]): Values {
  const out: Record<string, PropertyValue> = {};
  for (const e of list) if (!(e.name in out) && !e.raw) out[e.name] = e.value;
  return out;
}

/** Is `v` a struct read property by property (a list of PropertyEntry)? */
export const isEntryList = (v: PropertyValue | undefined): v is PropertyEntry[] =>
  Array.isArray(v) && v.every((e) => e !== null && typeof e === 'object' && !Array.isArray(e) && 'name' in (e as object) && 'type' in (e as object));

/** A struct's fields, read by property (a PropertyEntry list) or natively (an object). */
export function fields(v: PropertyValue | undefined): Values | undefined {
  if (Array.isArray(v)) return isEntryList(v) ? valuesOf(v) : undefined;
  return v !== null && typeof v === 'object' ? v : undefined;
}

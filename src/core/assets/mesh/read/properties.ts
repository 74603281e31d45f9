/** Reading the few property values the mesh readers use (materials, sockets, bounds) from the property reader's JSON shape. */
import type { PropertyEntry, PropertyValue } from '../../../properties/types.js';

export const prop = (entries: readonly PropertyEntry[], name: string): PropertyValue | undefined => entries.find((p) => p.name === name)?.value;
export const num = (v: PropertyValue | undefined): number | undefined => (typeof v === 'number' ? v : undefined);
export const str = (v: PropertyValue | undefined): string | undefined => (typeof v === 'string' ? v : undefined);
export const entriesOf = (v: PropertyValue | undefined): PropertyEntry[] | undefined =>
  Array.isArray(v) && v.every((e) => e !== null && typeof e === 'object' && !Array.isArray(e) && 'name' in e) ? (v as PropertyEntry[]) : undefined;

/** A natively serialized struct's fields ({X, Y, Z}), or a struct read property by property. */
export function field(v: PropertyValue | undefined, name: string): PropertyValue | undefined {
  if (v === null || v === undefined || typeof v !== 'object') return undefined;
  const e = entriesOf(v);
  if (e) return prop(e, name);
  return Array.isArray(v) ? undefined : (v as Record<string, PropertyValue>)[name];
}

/** A Vector (X, Y, Z) or Rotator (Pitch, Yaw, Roll) value, or `fallback`. */
export function vec3(v: PropertyValue | undefined, keys: [string, string, string], fallback: [number, number, number]): [number, number, number] {
  const out = keys.map((k) => num(field(v, k)));
  return out.every((x) => x !== undefined) ? (out as [number, number, number]) : fallback;
}

export function boundsOf(v: PropertyValue | undefined): { origin: [number, number, number]; extent: [number, number, number]; radius: number } | undefined {
  if (v === undefined || v === null) return undefined;
  const radius = num(field(v, 'SphereRadius'));
  const origin = field(v, 'Origin');
  const extent = field(v, 'BoxExtent');
  if (radius === undefined || origin === undefined || extent === undefined) return undefined;
  return { origin: vec3(origin, ['X', 'Y', 'Z'], [0, 0, 0]), extent: vec3(extent, ['X', 'Y', 'Z'], [0, 0, 0]), radius };
}

/** "Game/M_X.M_X" -> "M_X"; the object name of a path. */
export const objectName = (path: string): string => path.replace(/^.*[.:]/, '');

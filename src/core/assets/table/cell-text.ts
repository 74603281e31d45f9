/**
 * A table cell as text, the way the editor's CSV export writes property values (ExportText):
 * strings and names as they are, numbers, True/False, structs as (Field=value,...), arrays and
 * sets as (a,b), maps as ((key,value),...), nested strings quoted.
 */
import type { PropertyEntry, PropertyValue } from '../../properties/types.js';

const isEntryList = (v: PropertyValue): v is PropertyEntry[] =>
  Array.isArray(v) && v.length > 0 && v.every((x) => x !== null && typeof x === 'object' && !Array.isArray(x) && 'name' in x && 'type' in x && 'value' in x);

function nested(v: PropertyValue): string {
  return typeof v === 'string' ? `"${v.replace(/\\/g, '\\\\').replace(/"/g, '\\"')}"` : cellText(v);
}

/** The value as one line of text. */
export function cellText(v: PropertyValue | undefined): string {
  if (v === undefined || v === null) return '';
  if (typeof v === 'boolean') return v ? 'True' : 'False';
  if (typeof v === 'number' || typeof v === 'string') return String(v);
  if (isEntryList(v)) return `(${v.map((e) => `${e.name}${e.arrayIndex ? `[${e.arrayIndex}]` : ''}=${nested(e.value)}`).join(',')})`;
  if (Array.isArray(v)) {
    return `(${v.map((x) => {
      if (x !== null && typeof x === 'object' && !Array.isArray(x) && 'key' in x && 'value' in x && Object.keys(x).length === 2) {
        const m = x as { key: PropertyValue; value: PropertyValue };
        return `(${nested(m.key)},${nested(m.value)})`;
      }
      return nested(x);
    }).join(',')})`;
  }
  return `(${Object.entries(v).map(([k, x]) => `${k}=${nested(x)}`).join(',')})`;
}

/**
 * Literal texts of read properties shown in a culture: each text whose localization key (the
 * namespace and key the reader collected, PropertyContext.textKeys) the culture's .locres files
 * translate is replaced by the translation, its entry noting the source string. What `props`
 * prints is untouched: the app asks for this when the user picks a culture.
 */
import type { ExportProperties, PropertyEntry, PropertyValue, TextKey } from '../../properties/types.js';

/** One culture's translations: namespace -> key -> text. */
export type CultureTexts = Record<string, Record<string, string>>;

function isEntryList(v: PropertyValue): v is PropertyEntry[] {
  return Array.isArray(v) && v.length > 0 && v.every((e) => e !== null && typeof e === 'object' && !Array.isArray(e) && 'name' in e && 'type' in e && 'value' in e);
}

/** The parameters of "MapProperty<A, B>" split at the top-level comma. */
function mapTypes(type: string): [string, string] | undefined {
  const inner = /^MapProperty<(.*)>$/.exec(type)?.[1];
  if (inner === undefined) return undefined;
  let depth = 0;
  for (let i = 0; i < inner.length; i++) {
    const c = inner[i];
    if (c === '<') depth++;
    else if (c === '>') depth--;
    else if (c === ',' && depth === 0) return [inner.slice(0, i).trim(), inner.slice(i + 1).trim()];
  }
  return undefined;
}

/**
 * Replaces the texts of `exports` the culture translates, in place; returns how many. A source
 * string that two keys translate differently is left as stored (which one a value is cannot be told).
 */
export function localizeTexts(exports: ExportProperties[], keys: readonly TextKey[], texts: CultureTexts, culture: string): number {
  const bySource = new Map<string, string | null>();
  for (const k of keys) {
    const t = texts[k.namespace]?.[k.key];
    if (t === undefined) continue;
    const known = bySource.get(k.source);
    bySource.set(k.source, known === undefined || known === t ? t : null);
  }
  if (bySource.size === 0) return 0;
  let count = 0;
  const translate = (v: PropertyValue): PropertyValue => {
    if (typeof v !== 'string') return v;
    const t = bySource.get(v);
    if (t === undefined || t === null) return v;
    count++;
    return t;
  };
  const visit = (type: string, v: PropertyValue): PropertyValue => {
    if (type === 'TextProperty') return translate(v);
    if (isEntryList(v)) {
      visitEntries(v);
      return v;
    }
    const element = /^(?:ArrayProperty|SetProperty)<(.*)>$/.exec(type)?.[1];
    if (element !== undefined && Array.isArray(v)) return v.map((x) => visit(element, x));
    const kv = mapTypes(type);
    if (kv && Array.isArray(v)) {
      for (const pair of v) {
        if (pair && typeof pair === 'object' && !Array.isArray(pair)) {
          const p = pair as { [field: string]: PropertyValue };
          p['key'] = visit(kv[0], p['key'] ?? null);
          p['value'] = visit(kv[1], p['value'] ?? null);
        }
      }
    }
    return v;
  };
  const visitEntries = (list: PropertyEntry[]): void => {
    for (const e of list) {
      if (e.raw) continue;
      const before = count;
      const source = e.value;
      e.value = visit(e.type, e.value);
      if (count > before) e.note = e.type === 'TextProperty' ? `${culture}; stored: ${JSON.stringify(source)}` : `${count - before} texts in ${culture}`;
    }
  };
  for (const x of exports) visitEntries(x.properties);
  return count;
}

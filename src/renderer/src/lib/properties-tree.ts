/**
 * The Properties tab's tree (no DOM, tested in Node): an export's property entries as nodes with
 * a name, a type, a one-line value and their byte range, children made only when a node is opened,
 * and the rows the view shows (the open nodes flattened, so the list can be virtualized).
 *
 * Values are core/properties' JSON: a struct read property by property is a list of entries, a
 * native struct an object of fields, arrays and sets lists, maps lists of {key, value}.
 */
import type { PropertyEntry, PropertyValue } from '../../../shared/package-api.js';
import type { ExportPropertiesView, PropertyLink } from '../../../shared/api.js';

/** What the Properties tab shows, kept by the package view while its tabs change. */
export interface PropertiesState {
  /** Index (in the export table) of the export shown; -1: the package's main one. */
  exportIndex: number;
  /** Ids of the open nodes. */
  open: Set<string>;
  selected: string | null;
  /** The bytes pane under the tree. */
  showBytes: boolean;
}

export interface PropNode {
  /** Stable within the export: the child positions from the top ("3", "3/0", "3/0/2"). */
  id: string;
  depth: number;
  /** "Integer", "FixedIntegerArray[2]", "[0]", "[\"Answer\"]", "X". */
  name: string;
  /** The engine's type name; '' for fields of natively serialized structs. */
  type: string;
  value: PropertyValue;
  /** One line: the scalar, or a preview of a struct or container. */
  display: string;
  kind: 'scalar' | 'string' | 'null' | 'struct' | 'container' | 'object' | 'raw' | 'native';
  /** The value is an object path the package view can go to. */
  link?: string;
  hasChildren: boolean;
  /** Bytes from the export's start; `own`: the node's own bytes, else its nearest ancestor's. */
  range?: { start: number; value: number; end: number; own: boolean };
  note?: string;
  /** The entry the node shows (top-level and struct properties). */
  entry?: PropertyEntry;
  /** The native data after the property stream. */
  native?: true;
  /** A map pair with a struct key: the key's and the value's types. */
  pairTypes?: [string, string];
}

/** A list of property entries (a struct read property by property), told from a plain list. */
export function isEntryList(v: PropertyValue, type = ''): v is PropertyEntry[] {
  if (!Array.isArray(v)) return false;
  if (v.length === 0) return type.startsWith('StructProperty');
  const x = v[0] as unknown;
  return !!x && typeof x === 'object' && !Array.isArray(x) && 'name' in x && 'type' in x && 'value' in x;
}

/** "MapProperty<NameProperty, StructProperty<X>>" -> ["MapProperty", ["NameProperty", "StructProperty<X>"]]. */
export function parseTypeName(type: string): { name: string; params: string[] } {
  const open = type.indexOf('<');
  if (open < 0 || !type.endsWith('>')) return { name: type, params: [] };
  const inner = type.slice(open + 1, -1);
  const params: string[] = [];
  let depth = 0, from = 0;
  for (let i = 0; i < inner.length; i++) {
    const c = inner[i];
    if (c === '<') depth++;
    else if (c === '>') depth--;
    else if (c === ',' && depth === 0) {
      params.push(inner.slice(from, i).trim());
      from = i + 1;
    }
  }
  params.push(inner.slice(from).trim());
  return { name: type.slice(0, open), params };
}

const STRING_TYPES = new Set(['StrProperty', 'TextProperty', 'AnsiStrProperty', 'Utf8StrProperty', 'VerseStringProperty']);
const PREVIEW = 120;

function quote(s: string): string {
  return JSON.stringify(s);
}

/** A one-line preview of any value, at most about PREVIEW characters. */
export function preview(v: PropertyValue, type = '', budget = PREVIEW): string {
  if (v === null) return 'None';
  if (typeof v === 'boolean' || typeof v === 'number') return String(v);
  if (typeof v === 'string') return STRING_TYPES.has(parseTypeName(type).name) ? quote(v) : v;
  const parts: string[] = [];
  let used = 0;
  const add = (s: string): boolean => {
    if (used + s.length > budget && parts.length > 0) {
      parts.push('…');
      return false;
    }
    parts.push(s);
    used += s.length + 2;
    return true;
  };
  if (isEntryList(v, type)) {
    for (const e of v) if (!add(`${e.name}${e.arrayIndex !== undefined ? `[${e.arrayIndex}]` : ''}: ${preview(e.value, e.type, 40)}`)) break;
    return `{${parts.join(', ')}}`;
  }
  if (Array.isArray(v)) {
    const t = parseTypeName(type);
    if (t.name === 'MapProperty') {
      for (const x of v) {
        const pair = x as { key?: PropertyValue; value?: PropertyValue };
        if (!add(`${preview(pair.key ?? null, t.params[0], 30)}: ${preview(pair.value ?? null, t.params[1], 40)}`)) break;
      }
      return `{${parts.join(', ')}}`;
    }
    for (const x of v) if (!add(preview(x, t.params[0] ?? '', 40))) break;
    return `[${parts.join(', ')}]`;
  }
  for (const [k, x] of Object.entries(v)) if (!add(`${k}: ${preview(x, '', 40)}`)) break;
  return `{${parts.join(', ')}}`;
}

function countLabel(n: number, one: string, many: string): string {
  return `${n.toLocaleString('en-US')} ${n === 1 ? one : many}`;
}

/** Makes nodes; `links` says which strings are object paths the view can go to. */
export class PropertyTree {
  /** Node children by node id, made on first use. */
  private readonly kids = new Map<string, PropNode[]>();
  readonly roots: PropNode[];

  constructor(readonly exp: ExportPropertiesView, private readonly links: Record<string, PropertyLink>) {
    this.roots = exp.properties.map((e, i) => this.entryNode(e, String(i), 0, undefined));
    // What the class serializes itself: after the properties, or (no property stream) all of it.
    // Not known when the stream stopped early or was not read for want of mappings.
    const none = exp.encoding === 'none';
    const nativeStart = none ? 0 : exp.propertyStart + exp.propertyBytes;
    const unread = exp.encoding === 'unversioned' && exp.propertyBytes === 0 && exp.properties.length === 0;
    if (exp.serialSize > nativeStart && exp.error === null && !unread) {
      const size = exp.serialSize - nativeStart;
      this.roots.push({
        id: 'native', depth: 0, name: 'Native data', type: 'native', value: null, kind: 'native',
        display: none ? `${countLabel(size, 'byte', 'bytes')}: the whole export, serialized by its class`
          : `${countLabel(size, 'byte', 'bytes')} after the properties, at +0x${nativeStart.toString(16).toUpperCase()}`,
        hasChildren: false, range: { start: nativeStart, value: nativeStart, end: exp.serialSize, own: true }, native: true,
      });
    }
  }

  private entryNode(e: PropertyEntry, id: string, depth: number, inherited: PropNode['range']): PropNode {
    const name = e.arrayIndex !== undefined ? `${e.name}[${e.arrayIndex}]` : e.name;
    const range = e.range ? { ...e.range, own: true } : inherited ? { ...inherited, own: false } : undefined;
    if (e.raw) {
      const hex = typeof e.value === 'string' ? e.value : '';
      const bytes = hex.length / 2;
      return {
        id, depth, name, type: e.type, value: e.value, kind: 'raw', hasChildren: false, entry: e,
        display: `${countLabel(bytes, 'byte', 'bytes')}: ${spacedHex(hex.slice(0, 64))}${hex.length > 64 ? ' …' : ''}`,
        ...(range ? { range } : {}), ...(e.note ? { note: e.note } : {}),
      };
    }
    const node = this.valueNode(e.value, e.type, id, depth, name, range);
    node.entry = e;
    if (e.note) node.note = e.note;
    return node;
  }

  private valueNode(v: PropertyValue, type: string, id: string, depth: number, name: string, range: PropNode['range']): PropNode {
    const base = { id, depth, name, type, value: v, ...(range ? { range } : {}) };
    if (v === null) return { ...base, kind: 'null', display: 'None', hasChildren: false };
    if (typeof v === 'string') {
      const link = this.links[v] ? v : undefined;
      const t = parseTypeName(type).name;
      return { ...base, kind: STRING_TYPES.has(t) ? 'string' : 'scalar', display: preview(v, type), hasChildren: false, ...(link ? { link } : {}) };
    }
    if (typeof v !== 'object') return { ...base, kind: 'scalar', display: String(v), hasChildren: false };
    if (isEntryList(v, type)) {
      return { ...base, kind: 'struct', display: v.length === 0 ? '{} (no property differs from its default)' : preview(v, type), hasChildren: v.length > 0 };
    }
    if (Array.isArray(v)) {
      const t = parseTypeName(type).name;
      const what = t === 'MapProperty' ? countLabel(v.length, 'entry', 'entries') : countLabel(v.length, 'element', 'elements');
      return { ...base, kind: 'container', display: v.length === 0 ? `${what}` : `${what}  ${preview(v, type)}`, hasChildren: v.length > 0 };
    }
    const keys = Object.keys(v);
    return { ...base, kind: 'object', display: preview(v, type), hasChildren: keys.length > 0 };
  }

  /** The children of a node (made once). */
  children(node: PropNode): PropNode[] {
    if (!node.hasChildren) return [];
    let list = this.kids.get(node.id);
    if (list) return list;
    list = this.makeChildren(node);
    this.kids.set(node.id, list);
    return list;
  }

  private makeChildren(node: PropNode): PropNode[] {
    const v = node.value;
    const depth = node.depth + 1;
    const inherited = node.range;
    if (isEntryList(v, node.type)) return v.map((e, i) => this.entryNode(e, `${node.id}/${i}`, depth, inherited));
    if (Array.isArray(v)) {
      const t = parseTypeName(node.type);
      const starts = node.entry?.elements;
      const rangeOf = (i: number): PropNode['range'] => {
        const start = starts?.[i];
        if (start === undefined || !node.range?.own) return inherited ? { ...inherited, own: false } : undefined;
        const end = starts![i + 1] ?? node.range.end;
        return { start, value: start, end, own: true };
      };
      if (t.name === 'MapProperty') {
        return v.map((x, i) => {
          const pair = (x ?? {}) as { key?: PropertyValue; value?: PropertyValue };
          const key = pair.key ?? null;
          const simple = key === null || typeof key !== 'object';
          const label = simple ? `[${preview(key, t.params[0] ?? '', 60)}]` : `[${i}]`;
          if (simple) return this.valueNode(pair.value ?? null, t.params[1] ?? '', `${node.id}/${i}`, depth, label, rangeOf(i));
          // A struct key: the pair opens to its key and its value.
          const r = rangeOf(i);
          const value: PropertyValue = { Key: key, Value: pair.value ?? null };
          const out: PropNode = {
            id: `${node.id}/${i}`, depth, name: label, type: 'TPair', value, kind: 'object',
            display: preview(value), hasChildren: true, pairTypes: [t.params[0] ?? '', t.params[1] ?? ''],
          };
          if (r) out.range = r;
          return out;
        });
      }
      const inner = t.name === 'ArrayProperty' || t.name === 'SetProperty' ? t.params[0] ?? '' : '';
      return v.map((x, i) => this.valueNode(x, inner, `${node.id}/${i}`, depth, `[${i}]`, rangeOf(i)));
    }
    if (v && typeof v === 'object') {
      const pairTypes = node.pairTypes;
      return Object.entries(v).map(([k, x], i) => {
        // An instanced struct's value is its struct; a pair's key and value have the map's types.
        const type = pairTypes ? (k === 'Key' ? pairTypes[0] : pairTypes[1]) : k === 'value' && isEntryList(x) ? 'StructProperty' : '';
        return this.valueNode(x, type, `${node.id}/${i}`, depth, k, inherited ? { ...inherited, own: false } : undefined);
      });
    }
    return [];
  }

  /** The rows shown: every root and, under each open node, its children. */
  rows(open: ReadonlySet<string>): PropNode[] {
    const out: PropNode[] = [];
    const walk = (list: readonly PropNode[]): void => {
      for (const n of list) {
        out.push(n);
        if (n.hasChildren && open.has(n.id)) walk(this.children(n));
      }
    };
    walk(this.roots);
    return out;
  }

  /**
   * The rows matching `text` (name, type or value, case-insensitive) and the nodes above them,
   * all open; at most `limit` nodes are looked at (huge containers are not walked to the end).
   */
  filtered(text: string, limit = 200_000): { rows: PropNode[]; complete: boolean } {
    const needle = text.trim().toLowerCase();
    let seen = 0;
    const matches = (n: PropNode): boolean =>
      n.name.toLowerCase().includes(needle) || n.type.toLowerCase().includes(needle) || (n.kind !== 'struct' && n.kind !== 'container' && n.kind !== 'object' && n.display.toLowerCase().includes(needle));
    const walk = (list: readonly PropNode[]): PropNode[] => {
      const out: PropNode[] = [];
      for (const n of list) {
        if (++seen > limit) break;
        const below = n.hasChildren ? walk(this.children(n)) : [];
        if (below.length > 0 || matches(n)) out.push(n, ...below);
      }
      return out;
    };
    const rows = walk(this.roots);
    return { rows, complete: seen <= limit };
  }

  /** The ids of every node with children down to `maxRows` rows shown (Expand all). */
  openAll(maxRows = 5000): Set<string> {
    const open = new Set<string>();
    let rows = 0;
    const walk = (list: readonly PropNode[]): void => {
      for (const n of list) {
        if (++rows > maxRows) return;
        if (n.hasChildren) {
          open.add(n.id);
          walk(this.children(n));
        }
      }
    };
    walk(this.roots);
    return open;
  }

  /** The node's path from the export: "StructArray[1].Label", "IntegerMap[\"Answer\"]". */
  label(id: string): string {
    if (id === 'native') return 'native data';
    const parts = id.split('/');
    let list: readonly PropNode[] = this.roots;
    let out = '';
    for (let i = 0; i < parts.length; i++) {
      const node = list[Number(parts[i])];
      if (!node) break;
      out += out === '' || node.name.startsWith('[') ? node.name : `.${node.name}`;
      if (i < parts.length - 1) list = this.children(node);
    }
    return out;
  }

  /** The node with this id, making the children on the way. */
  find(id: string): PropNode | undefined {
    if (id === 'native') return this.roots.find((n) => n.native);
    const parts = id.split('/');
    let list: readonly PropNode[] = this.roots;
    let node: PropNode | undefined;
    for (let i = 0; i < parts.length; i++) {
      node = list[Number(parts[i])];
      if (!node) return undefined;
      if (i < parts.length - 1) list = this.children(node);
    }
    return node;
  }
}

/** The type as the tree's Type column shows it: the engine's name without "Property" ("Array<Struct<Vector>>"). */
export function shortType(type: string): string {
  return type.replace(/([A-Za-z0-9]+)Property\b/g, '$1');
}

/** "0a1b2c" -> "0A 1B 2C". */
export function spacedHex(hex: string): string {
  return (hex.match(/../g) ?? []).join(' ').toUpperCase();
}

/** Why an export shows no properties, in words (null when it has some or a reason is shown elsewhere). */
export function emptyReason(exp: ExportPropertiesView): string | null {
  if (exp.properties.length > 0) return null;
  if (exp.notes && exp.notes.length > 0) return exp.notes.join(' · ');
  if (exp.serialSize === 0) return 'The export has no bytes (serial size 0): nothing was saved for it.';
  if (exp.error) return null;
  if (exp.encoding === 'none') return 'The export has no property stream.';
  return 'Every property has its default value: none was saved.';
}

/**
 * Plain helpers of the package view (no DOM, tested in Node): which tree entries open as a
 * package, the engine choices, finding the byte region under an offset, and the rows of the
 * names / imports / exports tables.
 */
import type { PackageByteRegion, PackageModelView, TreeEntry } from '../../../shared/api.js';
import { COMPANION_EXTENSIONS, isPackageFileName } from '../../../shared/package-api.js';

/**
 * Engine releases for unversioned packages ("auto": the package's and container's versions
 * decide). IoStore's releases; classic .uasset files take the same names.
 */
export const ENGINE_CHOICES: readonly string[] = ['4.25', '4.26', '4.27', '5.0', '5.1', '5.2', '5.3', '5.4', '5.5', '5.6', '5.7', '5.8', '6.0'];

const ENGINE_KEY = 'pakscope.engine:';

/** The engine chosen for an install (by its root), or '' for auto. */
export function loadEngine(root: string): string {
  try {
    const v = localStorage.getItem(ENGINE_KEY + root) ?? '';
    return ENGINE_CHOICES.includes(v) ? v : '';
  } catch {
    return '';
  }
}

export function saveEngine(root: string, engine: string): void {
  try {
    if (engine) localStorage.setItem(ENGINE_KEY + root, engine);
    else localStorage.removeItem(ENGINE_KEY + root);
  } catch {
    // no storage: the choice lasts for this view only
  }
}

/** A file the package view opens: a package by its extension, its .uexp/.ubulk, or an IoStore package chunk. */
export function isPackageEntry(path: string, chunkType?: string): boolean {
  if (chunkType !== undefined) return chunkType === 'ExportBundleData';
  const name = path.slice(path.lastIndexOf('/') + 1).toLowerCase();
  if (isPackageFileName(name)) return true;
  return COMPANION_EXTENSIONS.some((ext) => name.endsWith(ext));
}

export function isPackageTreeEntry(e: TreeEntry | null | undefined, chunkType?: string): boolean {
  return !!e && !e.isDir && isPackageEntry(e.path, chunkType);
}

/** A package's own file, not its .uexp/.ubulk companion: selecting one while a package shows shows that package. */
export function isMainPackageEntry(e: TreeEntry | null | undefined): boolean {
  return !!e && !e.isDir && isPackageFileName(e.path.slice(e.path.lastIndexOf('/') + 1).toLowerCase());
}

/** The region holding `offset` (regions sorted by start, not overlapping), or -1. */
export function regionIndexAt(regions: readonly PackageByteRegion[], offset: number): number {
  let lo = 0, hi = regions.length - 1;
  while (lo <= hi) {
    const mid = (lo + hi) >> 1;
    const r = regions[mid]!;
    if (offset < r.start) hi = mid - 1;
    else if (offset >= r.end) lo = mid + 1;
    else return mid;
  }
  return -1;
}

/** ref ("name:3") → index of its region. */
export function regionsByRef(regions: readonly PackageByteRegion[]): Map<string, number> {
  const out = new Map<string, number>();
  regions.forEach((r, i) => { if (r.ref !== undefined && !out.has(r.ref)) out.set(r.ref, i); });
  return out;
}

// ---- tables ----

export type Cell = string | number | null;

export interface TableColumn {
  key: string;
  label: string;
  numeric?: boolean;
  /** CSS grid track ("64px", "minmax(120px, 1fr)"). */
  width?: string;
  mono?: boolean;
  /** Shown as 0x... hex. */
  hex?: boolean;
}

export interface TableRow {
  cells: Cell[];
  /** Cells that open something (a package's tree path), by column index: shown as links. */
  links?: Record<number, string>;
  /** Cells marked as missing (an untranslated text), by column index. */
  marked?: readonly number[];
  /** Links the row to its bytes (PackageByteRegion.ref). */
  ref?: string;
  /** For the tree: the row's own path and its outer's path (null at the top). */
  key?: string;
  parent?: string | null;
}

export interface ShownRow {
  row: TableRow;
  depth: number;
  /** Tree mode: has children; expanded. */
  hasChildren: boolean;
  expanded: boolean;
}

export interface TableQuery {
  filter: string;
  sortColumn: number;
  sortDescending: boolean;
  tree: boolean;
  /** Tree mode: keys of the collapsed rows. */
  collapsed: ReadonlySet<string>;
}

/** One collator for every comparison: localeCompare with options builds one per call (a 100,000-row sort took seconds). */
const collator = new Intl.Collator(undefined, { numeric: true, sensitivity: 'base' });

function compareCells(a: Cell, b: Cell): number {
  if (a === b) return 0;
  if (a === null) return 1;
  if (b === null) return -1;
  if (typeof a === 'number' && typeof b === 'number') return a - b;
  return collator.compare(String(a), String(b));
}

function matches(row: TableRow, needle: string): boolean {
  for (const c of row.cells) if (c !== null && String(c).toLowerCase().includes(needle)) return true;
  return false;
}

/**
 * The rows as the table shows them: filtered (any cell contains the text, case-insensitive),
 * sorted, and in tree mode nested under their outer (siblings sorted; with a filter, the matches
 * and the rows above them, all open).
 */
export function shownRows(rows: readonly TableRow[], q: TableQuery): ShownRow[] {
  const needle = q.filter.trim().toLowerCase();
  const order = (list: TableRow[]): TableRow[] => {
    if (q.sortColumn < 0) return list;
    const k = q.sortColumn;
    const sign = q.sortDescending ? -1 : 1;
    return list.slice().sort((x, y) => sign * compareCells(x.cells[k] ?? null, y.cells[k] ?? null));
  };
  if (!q.tree) {
    const list = needle ? rows.filter((r) => matches(r, needle)) : rows.slice();
    return order(list).map((row) => ({ row, depth: 0, hasChildren: false, expanded: false }));
  }
  const byKey = new Map<string, TableRow>();
  for (const r of rows) if (r.key !== undefined && !byKey.has(r.key)) byKey.set(r.key, r);
  const children = new Map<TableRow | null, TableRow[]>();
  for (const r of rows) {
    const parent = r.parent != null ? byKey.get(r.parent) ?? null : null;
    const p = parent === r ? null : parent;
    let list = children.get(p);
    if (!list) children.set(p, (list = []));
    list.push(r);
  }
  // With a filter: the matches and every row above one.
  let keep: Set<TableRow> | undefined;
  if (needle) {
    keep = new Set();
    for (const r of rows) {
      if (!matches(r, needle)) continue;
      let at: TableRow | undefined = r;
      for (let guard = 0; at && !keep.has(at) && guard < 10_000; guard++) {
        keep.add(at);
        at = at.parent != null ? byKey.get(at.parent) : undefined;
      }
    }
  }
  const out: ShownRow[] = [];
  const seen = new Set<TableRow>();
  // Rows below a collapsed row are walked too (not shown), so only rows no root reaches remain.
  const visit = (parent: TableRow | null, depth: number, show: boolean): void => {
    for (const r of order(children.get(parent) ?? [])) {
      if (seen.has(r) || (keep && !keep.has(r))) continue;
      seen.add(r); // an outer cycle cannot loop
      const kids = children.get(r);
      const hasChildren = !!kids && kids.some((k) => !keep || keep.has(k));
      const expanded = hasChildren && (!!keep || !(r.key !== undefined && q.collapsed.has(r.key)));
      if (show) out.push({ row: r, depth, hasChildren, expanded });
      visit(r, depth + 1, show && expanded);
    }
  };
  visit(null, 0, true);
  // Rows only reachable through a cycle still show, at the top.
  for (const r of rows) if (!seen.has(r) && (!keep || keep.has(r))) { seen.add(r); out.push({ row: r, depth: 0, hasChildren: false, expanded: false }); }
  return out;
}

export interface ObjectTables {
  names: { columns: TableColumn[]; rows: TableRow[] };
  imports: { columns: TableColumn[]; rows: TableRow[] };
  exports: { columns: TableColumn[]; rows: TableRow[] };
}

/** The names, imports and exports tabs' columns and rows. */
export function objectTables(m: PackageModelView): ObjectTables {
  return {
    names: {
      columns: [{ key: 'index', label: '#', numeric: true, width: '72px' }, { key: 'name', label: 'Name', width: 'minmax(200px, 1fr)', mono: true }],
      rows: m.names.map((n, i) => ({ cells: [i, n], ref: `name:${i}` })),
    },
    imports: {
      columns: [
        { key: 'index', label: '#', numeric: true, width: '64px' },
        { key: 'object', label: 'Object', width: 'minmax(160px, 1.2fr)' },
        { key: 'class', label: 'Class', width: 'minmax(100px, .7fr)' },
        { key: 'path', label: 'Path', width: 'minmax(200px, 2fr)', mono: true },
      ],
      rows: m.imports.map((x) => ({ cells: [x.index, x.objectName, x.class || null, x.path], ref: `import:${x.index}`, key: x.path, parent: x.outer })),
    },
    exports: {
      columns: [
        { key: 'index', label: '#', numeric: true, width: '52px' },
        { key: 'name', label: 'Name', width: 'minmax(200px, 1.4fr)' },
        { key: 'class', label: 'Class', width: 'minmax(120px, .8fr)' },
        { key: 'size', label: 'Size', numeric: true, width: '72px' },
        { key: 'offset', label: 'Offset', numeric: true, width: '84px', hex: true },
        { key: 'flags', label: 'Flags', width: 'minmax(110px, .8fr)' },
        { key: 'path', label: 'Path', width: 'minmax(180px, 1.4fr)', mono: true },
      ],
      rows: m.exports.map((x) => ({
        cells: [x.index, x.name, x.class || null, x.serialSize, x.serialOffset, (x.flags ?? []).map((f) => f.replace(/^RF_/, '')).join(' ') || null, x.path],
        ref: `export:${x.index}`, key: x.path, parent: x.outer,
      })),
    },
  };
}

/** Short tab labels for the format tables. */
const TABLE_TABS: Record<string, string> = {
  'imported-packages': 'Packages', 'export-bundles': 'Bundles', 'dependency-bundles': 'Dependencies', 'graph-data': 'Arcs',
  'package-arcs': 'Arcs', 'public-exports': 'Public', 'bulk-data': 'Bulk data', depends: 'Depends',
  'soft-references': 'Soft refs', 'soft-object-paths': 'Soft paths', heritage: 'Heritage', generations: 'Generations',
};

export function tableTabLabel(id: string, title: string): string {
  return TABLE_TABS[id] ?? title;
}

/** About how wide a header label is drawn (11 px uppercase, .04em spacing), with its padding and sort arrow. */
export function headerWidth(label: string): number {
  return Math.ceil(label.length * 8 + 16 + 12);
}

/**
 * A column's grid track, never narrower than its header: "96px" for "Duplicate offset" becomes
 * wide enough to show the label whole; "minmax(120px, 1fr)" gets a bigger minimum.
 */
export function columnTrack(col: TableColumn): string {
  const need = headerWidth(col.label);
  const width = col.width ?? 'minmax(80px, 1fr)';
  const fixed = /^(\d+)px$/.exec(width);
  if (fixed) return `${Math.max(Number(fixed[1]), need)}px`;
  const min = /^minmax\((\d+)px,\s*(.+)\)$/.exec(width);
  if (min) return `minmax(${Math.max(Number(min[1]), need)}px, ${min[2]})`;
  return width;
}

/** "0x1F (31)" style for offsets in cells. */
export function hexCell(n: number): string {
  return `0x${n.toString(16).toUpperCase()}`;
}

/** Base64 image → a blob: URL (the CSP allows blob: images; the caller revokes it). */
export function imageUrl(base64: string, format: string): string {
  const bin = atob(base64);
  const bytes = new Uint8Array(bin.length);
  for (let i = 0; i < bin.length; i++) bytes[i] = bin.charCodeAt(i);
  return URL.createObjectURL(new Blob([bytes], { type: format === 'jpeg' ? 'image/jpeg' : 'image/png' }));
}

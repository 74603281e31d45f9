/**
 * The format-specific tables of the package view, beside names, imports and exports: what the
 * format has of depends maps, export bundles, dependency bundles, imported packages, bulk data,
 * soft references, heritage. One generic shape (columns, rows of cells) so one table component
 * shows them all.
 */
import type { PackageModel } from '../core/package-model.js';
import type { PackageTableView } from '../shared/package-api.js';

/** Rows kept per table; `total` says how many there are. */
export const MAX_TABLE_ROWS = 50_000;

type Cell = string | number | null;

class TableBuilder {
  readonly rows: PackageTableView['rows'] = [];
  total = 0;
  constructor(readonly id: string, readonly title: string, readonly columns: PackageTableView['columns']) {}
  add(cells: Cell[], ref?: string): void {
    this.total++;
    if (this.rows.length >= MAX_TABLE_ROWS) return;
    this.rows.push(ref === undefined ? { cells } : { cells, ref });
  }
  view(): PackageTableView {
    return { id: this.id, title: this.title, columns: this.columns, rows: this.rows, total: this.total };
  }
}

const col = (key: string, label: string, numeric = false): PackageTableView['columns'][number] => (numeric ? { key, label, numeric } : { key, label });

/** The path of an FPackageIndex of this package (> 0 export, < 0 import, 0 null). */
function indexPath(model: PackageModel, index: number): string {
  if (index > 0) return model.exports[index - 1]?.path ?? `export ${index - 1}?`;
  if (index < 0) return model.imports[-index - 1]?.path ?? `import ${-index - 1}?`;
  return 'null';
}

function exportLabel(model: PackageModel, i: number): string {
  const e = model.exports[i];
  return e ? `${i}: ${e.name}` : String(i);
}

/** Names of imported packages the caller knows (the install's index, the graph): id → name. */
export type PackageNamer = (id: string) => string | undefined;

function zenTables(model: PackageModel, nameOf: PackageNamer): PackageTableView[] {
  const d = model.details as {
    importedPackageIds?: string[]; importedPackageNames?: string[];
    publicExports?: { index: number; publicExportHash: string; isPublic: boolean; filterFlags: number }[];
    exportBundleHeaders?: { serialOffset?: number; firstEntryIndex: number; entryCount: number }[];
    exportBundleEntries?: { exportIndex: number; command: string }[];
    dependencyBundleHeaders?: { firstEntryIndex: number; createBeforeCreate: number; serializeBeforeCreate: number; createBeforeSerialize: number; serializeBeforeSerialize: number }[];
    dependencyBundleEntries?: number[];
    graphData?: { internalArcs: { fromExportBundle: number; toExportBundle: number }[]; externalArcs: { fromImport: number; fromCommand: string; toExportBundle: number }[][] };
    legacyPackageArcs?: { packageId: string; arcs: { fromExportBundle: number; toExportBundle: number }[] }[];
    bulkData?: { serialOffset: number; duplicateSerialOffset: number; serialSize: number; flags: number; cookedIndex: number }[];
  };
  const out: PackageTableView[] = [];

  const ids = d.importedPackageIds ?? [];
  const names = d.importedPackageNames ?? [];
  if (ids.length > 0 || names.length > 0) {
    const t = new TableBuilder('imported-packages', 'Imported packages', [col('index', '#', true), col('id', 'Package id'), col('name', 'Name'), col('source', 'Named by')]);
    for (let i = 0; i < Math.max(ids.length, names.length); i++) {
      const id = ids[i] ?? null;
      const fromHeader = names[i];
      const known = id !== null ? nameOf(id) : undefined;
      t.add([i, id, fromHeader ?? known ?? null, fromHeader !== undefined ? 'header' : known !== undefined ? 'install' : null]);
    }
    out.push(t.view());
  }

  const entries = d.exportBundleEntries ?? [];
  if (entries.length > 0) {
    const t = new TableBuilder('export-bundles', 'Export bundles', [col('bundle', 'Bundle', true), col('entry', 'Entry', true), col('command', 'Command'), col('export', 'Export')]);
    (d.exportBundleHeaders ?? [{ firstEntryIndex: 0, entryCount: entries.length }]).forEach((h, b) => {
      for (let k = h.firstEntryIndex; k < h.firstEntryIndex + h.entryCount && k < entries.length; k++) {
        const e = entries[k]!;
        t.add([b, k, e.command, exportLabel(model, e.exportIndex)], `export:${e.exportIndex}`);
      }
    });
    out.push(t.view());
  }

  const headers = d.dependencyBundleHeaders ?? [];
  const depEntries = d.dependencyBundleEntries ?? [];
  if (headers.length > 0) {
    const t = new TableBuilder('dependency-bundles', 'Dependencies', [col('export', 'Export'), col('kind', 'Kind'), col('target', 'Needs')]);
    headers.forEach((h, i) => {
      let at = h.firstEntryIndex;
      const kinds: [string, number][] = [
        ['create before create', h.createBeforeCreate], ['serialize before create', h.serializeBeforeCreate],
        ['create before serialize', h.createBeforeSerialize], ['serialize before serialize', h.serializeBeforeSerialize],
      ];
      for (const [kind, n] of kinds) {
        for (let k = 0; k < n; k++) {
          const target = depEntries[at++];
          t.add([exportLabel(model, i), kind, target === undefined ? null : indexPath(model, target)], `export:${i}`);
        }
      }
    });
    out.push(t.view());
  }

  if (d.graphData) {
    const t = new TableBuilder('graph-data', 'Bundle arcs', [col('from', 'From'), col('to', 'To export bundle', true)]);
    for (const a of d.graphData.internalArcs) t.add([`export bundle ${a.fromExportBundle}`, a.toExportBundle]);
    d.graphData.externalArcs.forEach((list, p) => {
      const id = ids[p];
      const pkg = id !== undefined ? nameOf(id) ?? id : `imported package ${p}`;
      for (const a of list) t.add([`${pkg}: ${a.fromCommand} of ${indexPath(model, -a.fromImport - 1)}`, a.toExportBundle]);
    });
    if (t.total > 0) out.push(t.view());
  }
  if ((d.legacyPackageArcs ?? []).length > 0) {
    const t = new TableBuilder('package-arcs', 'Package arcs', [col('package', 'Package'), col('from', 'Its export bundle', true), col('to', 'Waits in bundle', true)]);
    for (const p of d.legacyPackageArcs!) for (const a of p.arcs) t.add([nameOf(p.packageId) ?? p.packageId, a.fromExportBundle, a.toExportBundle]);
    out.push(t.view());
  }

  const publicExports = (d.publicExports ?? []).filter((p) => p.isPublic);
  if (publicExports.length > 0) {
    const t = new TableBuilder('public-exports', 'Public exports', [col('export', 'Export'), col('hash', 'Public export hash'), col('filter', 'Filter')]);
    for (const p of publicExports) t.add([exportLabel(model, p.index), p.publicExportHash, ['', 'not for client', 'not for server'][p.filterFlags] ?? String(p.filterFlags)], `export:${p.index}`);
    out.push(t.view());
  }

  if ((d.bulkData ?? []).length > 0) {
    const t = new TableBuilder('bulk-data', 'Bulk data', [
      col('index', '#', true), col('offset', 'Offset', true), col('duplicate', 'Duplicate offset', true), col('size', 'Size', true),
      col('flags', 'Flags'), col('cooked', 'Cooked index', true),
    ]);
    d.bulkData!.forEach((b, i) => t.add([i, b.serialOffset, b.duplicateSerialOffset, b.serialSize, `0x${b.flags.toString(16).padStart(8, '0')}`, b.cookedIndex]));
    out.push(t.view());
  }
  return out;
}

function uassetTables(model: PackageModel): PackageTableView[] {
  const out: PackageTableView[] = [];
  const depends = new TableBuilder('depends', 'Depends', [col('export', 'Export'), col('kind', 'Kind'), col('target', 'Needs')]);
  for (const dep of model.dependencies) {
    const who = exportLabel(model, dep.export);
    for (const p of dep.dependsOn) depends.add([who, 'depends map', p], `export:${dep.export}`);
    if (dep.preload) {
      const kinds: [string, string[]][] = [
        ['serialize before serialize', dep.preload.serializeBeforeSerialize], ['create before serialize', dep.preload.createBeforeSerialize],
        ['serialize before create', dep.preload.serializeBeforeCreate], ['create before create', dep.preload.createBeforeCreate],
      ];
      for (const [kind, list] of kinds) for (const p of list) depends.add([who, kind, p], `export:${dep.export}`);
    }
  }
  if (depends.total > 0) out.push(depends.view());
  if (model.softReferences.length > 0) {
    const t = new TableBuilder('soft-references', 'Soft package references', [col('index', '#', true), col('package', 'Package')]);
    model.softReferences.forEach((p, i) => t.add([i, p]));
    out.push(t.view());
  }
  const softPaths = (model.details as { softObjectPaths?: string[] }).softObjectPaths ?? [];
  if (softPaths.length > 0) {
    const t = new TableBuilder('soft-object-paths', 'Soft object paths', [col('index', '#', true), col('path', 'Path')]);
    softPaths.forEach((p, i) => t.add([i, p]));
    out.push(t.view());
  }
  return out;
}

function ue12Tables(model: PackageModel): PackageTableView[] {
  const out: PackageTableView[] = [];
  const heritage = (model.details as { heritage?: string[] }).heritage ?? [];
  if (heritage.length > 0) {
    const t = new TableBuilder('heritage', 'Heritage', [col('index', '#', true), col('guid', 'Package GUID')]);
    heritage.forEach((g, i) => t.add([i, g]));
    out.push(t.view());
  }
  const generations = (model.summary as { generations?: { exportCount: number; nameCount: number }[] }).generations ?? [];
  if (generations.length > 0) {
    const t = new TableBuilder('generations', 'Generations', [col('index', '#', true), col('exports', 'Exports', true), col('names', 'Names', true)]);
    generations.forEach((g, i) => t.add([i, g.exportCount, g.nameCount]));
    out.push(t.view());
  }
  return out;
}

/** The tables this package's format has, in the order the tabs show them. */
export function packageTables(model: PackageModel, nameOf: PackageNamer): PackageTableView[] {
  switch (model.format) {
    case 'zen': return zenTables(model, nameOf);
    case 'uasset': return uassetTables(model);
    case 'ue12': return ue12Tables(model);
  }
}

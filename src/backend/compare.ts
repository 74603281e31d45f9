/**
 * Comparisons of two open installs for the app (core/diff): the change list kept per comparison,
 * indexed by path and with counts per folder, so the comparison's tree lists both builds' folders
 * merged with each change marked; one package's two sides for the side-by-side view; the change
 * list as CSV or JSON.
 */
import { randomUUID } from 'node:crypto';
import { checkComparable } from '../core/diff/comparable.js';
import { compareInstalls, type CompareOptions } from '../core/diff/compare-installs.js';
import { packageChanges, readPackageSide, type PackageDiffRead } from '../core/diff/package-diff.js';
import type { InstallDiff, InstallDiffJson } from '../core/diff/types.js';
import { csvCell } from '../core/export/file-list.js';
import type { Install } from '../core/install/install.js';
import { packageInfoJson } from '../core/package-model.js';
import type { InstallPackages } from '../core/package/open-package.js';
import type { Usmap } from '../core/usmap/types.js';
import type { TreeEntry } from '../shared/api.js';
import type { ChangeListFile, ChangeStatus, ComparisonSummary, PackageComparison, PackageSideView, TreeDiff } from '../shared/compare-api.js';
import { RequestError } from './request-error.js';
import { toTreeEntry } from './summary.js';

/** What the service needs of an open install. */
export interface ComparedSide {
  id: string;
  root: string;
  install: Install;
  packages: () => InstallPackages;
  mappings: () => Promise<Usmap | undefined>;
}

interface Counts { added: number; removed: number; changed: number; moved: number }

interface Comparison {
  summary: ComparisonSummary;
  old: ComparedSide;
  new: ComparedSide;
  diff: InstallDiffJson;
  /** Lowercased path -> what happened to the file there (old paths of removed and moved files too). */
  files: Map<string, { status: ChangeStatus; oldSize?: number; movedFrom?: string; movedTo?: string }>;
  /** Lowercased folder path ('' the top) -> changes below it. */
  folders: Map<string, Counts>;
}

export class CompareService {
  private readonly comparisons = new Map<string, Comparison>();

  constructor(private readonly opts: Pick<CompareOptions, 'digest'> = {}) {}

  async compare(oldSide: ComparedSide, newSide: ComparedSide): Promise<ComparisonSummary> {
    try {
      await checkComparable(oldSide.install, newSide.install);
    } catch (e) {
      throw new RequestError(e instanceof Error ? e.message : String(e));
    }
    const diff = await compareInstalls(oldSide.install, newSide.install, this.opts);
    const comparisonId = randomUUID();
    const summary: ComparisonSummary = {
      comparisonId, oldId: oldSide.id, newId: newSide.id, oldRoot: oldSide.root, newRoot: newSide.root,
      added: diff.added.length, removed: diff.removed.length, changed: diff.changed.length, moved: diff.moved.length, unchanged: diff.unchanged,
      byStoredHash: diff.stats.byStoredHash, filesRead: diff.stats.filesRead, unreadable: diff.unreadable,
    };
    this.comparisons.set(comparisonId, { summary, old: oldSide, new: newSide, diff: jsonOf(diff), ...indexChanges(diff) });
    return summary;
  }

  close(comparisonId: string): void {
    this.comparisons.delete(comparisonId);
  }

  /** Forgets the comparisons an install takes part in (it was closed or changed). */
  forgetInstall(installId: string): void {
    for (const [id, c] of this.comparisons) if (c.old.id === installId || c.new.id === installId) this.comparisons.delete(id);
  }

  dir(req: { comparisonId: string; path: string; changesOnly?: boolean }): TreeEntry[] {
    const c = this.get(req.comparisonId);
    const path = req.path.replace(/\\/g, '/').replace(/^\/+|\/+$/g, '');
    const byName = new Map<string, TreeEntry>();
    for (const e of c.new.install.listDir(path)) byName.set(e.name.toLowerCase(), toTreeEntry(e));
    // What only the old build has here: removed files and folders, old places of moved files.
    for (const e of c.old.install.listDir(path)) {
      if (!byName.has(e.name.toLowerCase())) byName.set(e.name.toLowerCase(), { ...toTreeEntry(e), diff: { status: e.isDir ? 'removed' : null, added: 0, removed: 0, changed: 0, moved: 0 } });
    }
    const newFolders = new Set(c.new.install.listDir(path).filter((e) => e.isDir).map((e) => e.name.toLowerCase()));
    const oldFolders = new Set(c.old.install.listDir(path).filter((e) => e.isDir).map((e) => e.name.toLowerCase()));
    const out: TreeEntry[] = [];
    for (const [lower, e] of byName) {
      const key = e.path.toLowerCase();
      let diff: TreeDiff;
      if (e.isDir) {
        const counts = c.folders.get(key) ?? { added: 0, removed: 0, changed: 0, moved: 0 };
        const any = counts.added + counts.removed + counts.changed + counts.moved > 0;
        const status: ChangeStatus | null = !oldFolders.has(lower) ? 'added' : !newFolders.has(lower) ? 'removed' : any ? 'changed' : null;
        diff = { status, ...counts };
      } else {
        const f = c.files.get(key);
        const status = f?.status ?? null;
        diff = {
          status, added: status === 'added' ? 1 : 0, removed: status === 'removed' ? 1 : 0, changed: status === 'changed' ? 1 : 0, moved: status === 'moved' ? 1 : 0,
          ...(f?.oldSize !== undefined ? { oldSize: f.oldSize } : {}), ...(f?.movedFrom ? { movedFrom: f.movedFrom } : {}), ...(f?.movedTo ? { movedTo: f.movedTo } : {}),
        };
      }
      if (req.changesOnly && diff.status === null) continue;
      out.push({ ...e, diff });
    }
    // Folders first, then by name, as the tree lists them.
    return out.sort((a, b) => (a.isDir !== b.isDir ? (a.isDir ? -1 : 1) : a.name.toLowerCase() < b.name.toLowerCase() ? -1 : a.name.toLowerCase() > b.name.toLowerCase() ? 1 : 0));
  }

  changes(req: { comparisonId: string; format: 'csv' | 'json' }): ChangeListFile {
    const c = this.get(req.comparisonId);
    const fileName = `changes.${req.format}`;
    // A moved file's size (the same in both builds: the same content) is the new build's file's.
    const moved = c.diff.moved.map((m) => ({ ...m, size: c.new.install.file(m.newPath)?.size ?? 0 }));
    if (req.format === 'json') return { fileName, text: `${JSON.stringify({ ...c.diff, moved }, null, 1)}\n` };
    const rows = [['change', 'path', 'oldPath', 'oldSize', 'newSize']];
    for (const f of c.diff.added) rows.push(['added', f.path, '', '', String(f.size)]);
    for (const f of c.diff.removed) rows.push(['removed', f.path, f.path, String(f.size), '']);
    for (const f of c.diff.changed) rows.push(['changed', f.path, f.path, String(f.oldSize), String(f.newSize)]);
    for (const f of moved) rows.push(['moved', f.newPath, f.oldPath, String(f.size), String(f.size)]);
    return { fileName, text: `${rows.map((r) => r.map(csvCell).join(',')).join('\r\n')}\r\n` };
  }

  /** Both sides of a package: `path` is the new build's path (a moved package's old path is looked up), or the old one's for a removed package. */
  async package(req: { comparisonId: string; path: string }): Promise<PackageComparison> {
    const c = this.get(req.comparisonId);
    const path = req.path.replace(/\\/g, '/').replace(/^\/+/, '');
    const f = c.files.get(path.toLowerCase());
    const oldPath = f?.status === 'moved' && f.movedFrom ? f.movedFrom : path;
    const read = async (side: ComparedSide, p: string): Promise<PackageDiffRead | null> => {
      if (!side.install.file(p)) return null;
      const mappings = await side.mappings();
      return readPackageSide({ packages: side.packages(), ...(mappings ? { mappings } : {}) }, p);
    };
    const [a, b] = await Promise.all([read(c.old, oldPath), read(c.new, path)]);
    if (!a && !b) throw new RequestError(`no file "${req.path}" in either build`, 404);
    const empty = { model: { names: [], imports: [], exports: [] }, exports: [] } as unknown as PackageDiffRead;
    return { package: (b ?? a)!.path, changes: packageChanges(a ?? empty, b ?? empty), old: a && sideView(a), new: b && sideView(b) };
  }

  private get(id: string): Comparison {
    const c = this.comparisons.get(id);
    if (!c) throw new RequestError(`no comparison with id "${id}" (it was closed; compare again)`, 404);
    return c;
  }
}

function jsonOf(d: InstallDiff): InstallDiffJson {
  return { added: d.added, removed: d.removed, changed: d.changed, moved: d.moved, unchanged: d.unchanged };
}

/** Every changed path and the counts of its folders. */
function indexChanges(d: InstallDiff): Pick<Comparison, 'files' | 'folders'> {
  const files: Comparison['files'] = new Map();
  const folders: Comparison['folders'] = new Map();
  const count = (path: string, kind: keyof Counts): void => {
    let p = path.toLowerCase();
    for (;;) {
      const slash = p.lastIndexOf('/');
      p = slash < 0 ? '' : p.slice(0, slash);
      let c = folders.get(p);
      if (!c) folders.set(p, (c = { added: 0, removed: 0, changed: 0, moved: 0 }));
      c[kind]++;
      if (p === '') break;
    }
  };
  for (const f of d.added) { files.set(f.path.toLowerCase(), { status: 'added' }); count(f.path, 'added'); }
  for (const f of d.removed) { files.set(f.path.toLowerCase(), { status: 'removed' }); count(f.path, 'removed'); }
  for (const f of d.changed) { files.set(f.path.toLowerCase(), { status: 'changed', oldSize: f.oldSize }); count(f.path, 'changed'); }
  for (const m of d.moved) {
    files.set(m.newPath.toLowerCase(), { status: 'moved', movedFrom: m.oldPath });
    files.set(m.oldPath.toLowerCase(), { status: 'moved', movedTo: m.newPath });
    count(m.newPath, 'moved');
  }
  return { files, folders };
}

function sideView(r: PackageDiffRead): PackageSideView {
  const info = packageInfoJson(r.model);
  const byIndex = new Map(r.exports.map((e) => [e.index, e]));
  const json = JSON.stringify({
    ...info,
    exports: r.model.exports.map((x) => ({ name: x.name, class: x.class, path: x.path, serialSize: x.serialSize, properties: byIndex.get(x.index)?.properties ?? null })),
  }, null, 2);
  return {
    path: r.path,
    names: info.names,
    imports: info.imports,
    exports: info.exports.map((e) => ({ name: e.name, class: e.class, path: e.path, serialSize: e.serialSize })),
    properties: r.exports.map((e) => ({ export: e.name, entries: e.properties.map((p) => ({ name: p.arrayIndex === undefined ? p.name : `${p.name}[${p.arrayIndex}]`, type: p.type, value: p.value })) })),
    json,
    warnings: r.warnings,
  };
}

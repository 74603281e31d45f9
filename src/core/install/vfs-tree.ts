/**
 * The merged mount-point tree: every path of every container once, the winning container first.
 * Each folder keeps its own files and subfolders, so building costs one small-map insert per file
 * (no global sort, no 250,000-key map), folder totals are summed once, and listing a folder costs
 * only its own entries. Paths compare case-insensitively, as the engine's pak lookups do; a path
 * keeps the spelling of its winning container.
 */
import type { Archive } from '../archive.js';
import type { DirListingEntry, VfsFile } from './install.js';
import { compilePathFilter } from './path-filter.js';

export interface FolderNode {
  readonly name: string;
  /** Full path without leading or trailing "/"; '' for the root. */
  readonly path: string;
  readonly parent: FolderNode | null;
  /** Keyed by lowercased name. */
  readonly folders: Map<string, FolderNode>;
  readonly files: Map<string, VfsFile>;
  /** Totals of every file below this folder. */
  fileCount: number;
  totalSize: number;
  /** The unfiltered listing, built on first use. */
  listing?: DirListingEntry[];
}

interface FilterCache {
  filter: string;
  matched: Set<VfsFile>;
  totals: Map<FolderNode, { fileCount: number; totalSize: number }>;
}

export class VfsTree {
  readonly root: FolderNode = newFolder('', '', null);
  private sorted: VfsFile[] | undefined;
  private lastFilter: FilterCache | undefined;

  /** @param archives in priority order, the winner first (see priority.ts). */
  constructor(archives: readonly Archive[]) {
    for (const archive of archives) {
      // Containers list files folder by folder, so consecutive files mostly share a folder.
      let lastDir: string | undefined;
      let folder = this.root;
      for (const file of archive.files()) {
        const path = file.path.charCodeAt(0) === 47 /* / */ ? file.path.replace(/^\/+/, '') : file.path;
        const slash = path.lastIndexOf('/');
        if (lastDir === undefined || Math.max(slash, 0) !== lastDir.length || !path.startsWith(lastDir)) {
          lastDir = slash < 0 ? '' : path.slice(0, slash);
          folder = this.makeFolder(lastDir);
        }
        const key = path.slice(slash + 1).toLowerCase();
        const known = folder.files.get(key);
        if (known) known.providers.push({ archive, file });
        else folder.files.set(key, { path, size: file.size, providers: [{ archive, file }] });
      }
    }
    sumTotals(this.root);
  }

  get fileCount(): number { return this.root.fileCount; }
  get totalSize(): number { return this.root.totalSize; }

  file(path: string): VfsFile | undefined {
    const p = path.replace(/^\/+/, '');
    const slash = p.lastIndexOf('/');
    return this.folder(slash < 0 ? '' : p.slice(0, slash))?.files.get(p.slice(slash + 1).toLowerCase());
  }

  /** Every file, sorted by path (code-unit order), built on first use. */
  files(): readonly VfsFile[] {
    if (!this.sorted) {
      // Depth-first with siblings keyed "name/" for folders and "name" for files gives the
      // full-path order directly; folders merged across spellings can break it, then sort.
      const out: VfsFile[] = [];
      collectInPathOrder(this.root, out);
      for (let i = 1; i < out.length; i++) {
        if (out[i - 1]!.path > out[i]!.path) {
          out.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
          break;
        }
      }
      this.sorted = out;
    }
    return this.sorted;
  }

  folder(path: string): FolderNode | undefined {
    let node: FolderNode | undefined = this.root;
    for (const part of path.split('/')) {
      if (part === '') continue;
      node = node.folders.get(part.toLowerCase());
      if (!node) return undefined;
    }
    return node;
  }

  private makeFolder(dir: string): FolderNode {
    let node = this.root;
    if (dir === '') return node;
    let end = -1;
    do {
      const start = end + 1;
      end = dir.indexOf('/', start);
      if (end < 0) end = dir.length;
      const name = dir.slice(start, end);
      if (name === '') continue; // "a//b"
      const key = name.toLowerCase();
      let child = node.folders.get(key);
      if (!child) {
        child = newFolder(name, node.path === '' ? name : `${node.path}/${name}`, node);
        node.folders.set(key, child);
      }
      node = child;
    } while (end < dir.length);
    return node;
  }

  /** See Install.listDir. */
  listDir(path: string, filter?: string): DirListingEntry[] {
    const node = this.folder(path);
    if (!node) return [];
    const listing = (node.listing ??= listFolder(node));
    if (!filter) return [...listing];
    const cache = this.filterCache(filter);
    const out: DirListingEntry[] = [];
    for (const entry of listing) {
      if (entry.isDir) {
        const totals = cache.totals.get(node.folders.get(entry.name.toLowerCase())!);
        if (totals) out.push({ ...entry, size: totals.totalSize, fileCount: totals.fileCount });
      } else if (cache.matched.has(entry.file!)) {
        out.push(entry);
      }
    }
    return out;
  }

  /** Matches every path once per new filter; the last filter's result is kept for the next folder. */
  private filterCache(filter: string): FilterCache {
    if (this.lastFilter?.filter === filter) return this.lastFilter;
    const matches = compilePathFilter(filter);
    const matched = new Set<VfsFile>();
    const totals = new Map<FolderNode, { fileCount: number; totalSize: number }>();
    const visit = (node: FolderNode, lowerPrefix: string): { fileCount: number; totalSize: number } => {
      const t = { fileCount: 0, totalSize: 0 };
      for (const [lowerName, file] of node.files) {
        if (!matches(lowerPrefix + lowerName)) continue;
        matched.add(file);
        t.fileCount++;
        t.totalSize += file.size;
      }
      for (const [lowerName, child] of node.folders) {
        const c = visit(child, `${lowerPrefix}${lowerName}/`);
        t.fileCount += c.fileCount;
        t.totalSize += c.totalSize;
      }
      if (t.fileCount > 0) totals.set(node, t);
      return t;
    };
    visit(this.root, '');
    this.lastFilter = { filter, matched, totals };
    return this.lastFilter;
  }
}

function newFolder(name: string, path: string, parent: FolderNode | null): FolderNode {
  return { name, path, parent, folders: new Map(), files: new Map(), fileCount: 0, totalSize: 0 };
}

function sumTotals(node: FolderNode): void {
  let count = node.files.size;
  let size = 0;
  for (const f of node.files.values()) size += f.size;
  for (const child of node.folders.values()) {
    sumTotals(child);
    count += child.fileCount;
    size += child.totalSize;
  }
  node.fileCount = count;
  node.totalSize = size;
}

function collectInPathOrder(node: FolderNode, out: VfsFile[]): void {
  const children: [string, FolderNode | VfsFile][] = [];
  for (const f of node.folders.values()) children.push([`${f.name}/`, f]);
  for (const f of node.files.values()) children.push([f.path.slice(f.path.lastIndexOf('/') + 1), f]);
  children.sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0));
  for (const [, c] of children) {
    if ('providers' in c) out.push(c);
    else collectInPathOrder(c, out);
  }
}

/** Folders first, then files, each by name (case-insensitive, then exact, so the order is total). */
function listFolder(node: FolderNode): DirListingEntry[] {
  const folders: [string, DirListingEntry][] = [];
  for (const [key, f] of node.folders) {
    folders.push([key, { name: f.name, path: f.path, isDir: true, size: f.totalSize, fileCount: f.fileCount }]);
  }
  const files: [string, DirListingEntry][] = [];
  for (const [key, f] of node.files) {
    const name = f.path.slice(f.path.lastIndexOf('/') + 1);
    files.push([key, { name, path: f.path, isDir: false, size: f.size, fileCount: 1, file: f }]);
  }
  return [...folders.sort(byKeyThenName), ...files.sort(byKeyThenName)].map((e) => e[1]);
}

function byKeyThenName(a: [string, DirListingEntry], b: [string, DirListingEntry]): number {
  if (a[0] !== b[0]) return a[0] < b[0] ? -1 : 1;
  return a[1].name < b[1].name ? -1 : a[1].name > b[1].name ? 1 : 0;
}

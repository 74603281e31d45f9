/**
 * The merged mount-point tree: every path of every container once, the winning container first.
 * Folders and files are numbers in typed arrays (tree-nodes.ts), filled straight from each
 * container's directory index where it can be (tree-sources.ts), so opening makes no object or
 * path per file. Paths, VfsFile objects and sorted listings are made when a folder is listed or a
 * file looked up, and kept. Paths compare case-insensitively, as the engine's pak lookups do; a
 * path keeps the spelling of its winning container.
 */
import type { Archive } from '../archive.js';
import type { DirListingEntry, FileVisit, Provider, VfsFile } from './install.js';
import { nameHash } from './name-hash.js';
import { compilePathFilter } from './path-filter.js';
import { NO_NODE, ROOT, TreeNodes } from './tree-nodes.js';
import { findFolderOfPath, treeSources, type TreeSource } from './tree-sources.js';

/** A folder's unfiltered listing, and per entry its node: folder f as -(f + 1), file id as id. */
interface Listing {
  entries: DirListingEntry[];
  nodes: Int32Array;
}

interface FilterCache {
  filter: string;
  /** Per file: 1 when its path matches. */
  matched: Uint8Array;
  /** Per folder: matching files below it, and their total size. */
  fileCounts: Int32Array;
  totalSizes: Float64Array;
}

/** What Install.pairFiles hands its caller, as file numbers (fileById). */
export interface FilePairing {
  both(here: number, there: number): void;
  onlyHere(here: number): void;
  onlyThere(there: number): void;
}

/**
 * The merged tree's own arrays, read-only, for views of the whole tree (the size map): folder 0
 * is the root, NO_NODE (-1) ends a chain; a file's source is an index into `sources`.
 */
export interface TreeArrays {
  readonly folderCount: number;
  readonly fileCount: number;
  readonly folderParent: Int32Array;
  readonly folderFirstFolder: Int32Array;
  readonly folderNextFolder: Int32Array;
  readonly folderFirstFile: Int32Array;
  readonly fileNext: Int32Array;
  readonly fileFolder: Int32Array;
  readonly fileSize: Float64Array;
  readonly fileSource: Int32Array;
  readonly folderName: readonly string[];
  /** Per folder: the size and number of the files below it. */
  readonly folderTotals: Float64Array;
  readonly folderFileCounts: Int32Array;
  readonly sources: readonly Archive[];
  folderPath(folder: number): string;
  fileName(id: number): string;
  /** The file's ref in its winning archive. */
  fileRef(id: number): number;
}

export class VfsTree {
  private readonly nodes: TreeNodes;
  private readonly sources: TreeSource[];
  /** Per folder: files below it and their total size. */
  private readonly fileCounts: Int32Array;
  private readonly totalSizes: Float64Array;
  private readonly folderPaths: (string | undefined)[] = [];
  private readonly listings = new Map<number, Listing>();
  private vfsFiles: (VfsFile | undefined)[] | undefined;
  private sorted: VfsFile[] | undefined;
  private lastFilter: FilterCache | undefined;
  /** Lowercased text the filter also matches a file by (setFilterLabels), by file id. */
  private filterLabels: ReadonlyMap<number, string> | undefined;

  /** @param archives in priority order, the winner first (see priority.ts). */
  constructor(archives: readonly Archive[]) {
    this.sources = treeSources(archives);
    const sources = this.sources;
    const expected = sources.reduce((n, s) => n + s.fileCount, 0);
    this.nodes = new TreeNodes((source, local) => sources[source]!.fileName(local), expected);
    sources.forEach((s, i) => s.addTo(this.nodes, i));
    [this.fileCounts, this.totalSizes] = this.sumTotals();
  }

  get fileCount(): number { return this.nodes.fileCount; }

  /**
   * Files whose winning container lists them more than once, in spellings that differ only by
   * case (tree-nodes.ts: the later entry wins, the earlier are its first overridden copies), by path.
   */
  caseCopies(): VfsFile[] {
    const n = this.nodes;
    const out: VfsFile[] = [];
    for (let id = 0; id < n.fileCount; id++) {
      const e = n.fileExtra[id]!;
      if (e !== NO_NODE && n.extraSource[e] === n.fileSource[id]) out.push(this.vfsFile(id));
    }
    return out.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
  }
  get totalSize(): number { return this.totalSizes[ROOT]!; }

  file(path: string): VfsFile | undefined {
    let start = 0;
    while (path.charCodeAt(start) === 47 /* / */) start++;
    const slash = path.lastIndexOf('/');
    const folder = slash < start ? ROOT : findFolderOfPath(this.nodes, path, start, slash);
    if (folder === NO_NODE) return undefined;
    const id = this.nodes.findFile(folder, nameHash(path, slash + 1), path, slash + 1);
    return id === NO_NODE ? undefined : this.vfsFile(id);
  }

  /** Every file, sorted by path (code-unit order), built on first use. */
  files(): readonly VfsFile[] {
    if (!this.sorted) {
      // Depth-first with siblings keyed "name/" for folders and "name" for files gives the
      // full-path order directly; folders merged across spellings can break it, then sort.
      // Every file of every archive is needed: their lists are made whole at once.
      for (const s of this.sources) s.archive.files();
      const out: VfsFile[] = [];
      this.collectInPathOrder(ROOT, out);
      for (let i = 1; this.nodes.respelled && i < out.length; i++) {
        if (out[i - 1]!.path > out[i]!.path) {
          out.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
          break;
        }
      }
      this.sorted = out;
    }
    return this.sorted;
  }

  /**
   * Every file in path order, as files() lists them, without a path or an object per file: `visit`
   * is handed one FileVisit, filled anew for each file (its folder's path is one string for all the
   * folder's files).
   */
  visitFiles(visit: (v: FileVisit) => void): void {
    const v: FileVisit = { folder: '', name: '', id: 0, archive: this.sources[0]?.archive as Archive, ref: 0 };
    if (!this.nodes.respelled) {
      this.visitInPathOrder(ROOT, v, visit);
      return;
    }
    // A folder met in another spelling: paths are the winners' own, which only files() knows.
    const ids = new Map<VfsFile, number>();
    this.files();
    this.vfsFiles!.forEach((f, id) => { if (f) ids.set(f, id); });
    for (const f of this.files()) {
      const slash = f.path.lastIndexOf('/');
      v.folder = slash < 0 ? '' : f.path.slice(0, slash);
      v.name = f.path.slice(slash + 1);
      v.id = ids.get(f)!;
      v.archive = f.providers[0]!.archive;
      v.ref = f.providers[0]!.file.ref;
      visit(v);
    }
  }

  /** The file of a FileVisit (or any file number below fileCount), made on first use. */
  fileById(id: number): VfsFile {
    if (!(id >= 0 && id < this.nodes.fileCount)) throw new RangeError(`file ${id} is not in the tree of ${this.nodes.fileCount}`);
    return this.vfsFile(id);
  }

  /** See Install.treeArrays. */
  treeArrays(): TreeArrays {
    const n = this.nodes;
    return {
      folderCount: n.folderCount, fileCount: n.fileCount,
      folderParent: n.folderParent, folderFirstFolder: n.folderFirstFolder, folderNextFolder: n.folderNextFolder,
      folderFirstFile: n.folderFirstFile, fileNext: n.fileNext, fileFolder: n.fileFolder, fileSize: n.fileSize,
      fileSource: n.fileSource, folderName: n.folderName, folderTotals: this.totalSizes, folderFileCounts: this.fileCounts,
      sources: this.sources.map((s) => s.archive),
      folderPath: (f) => this.folderPath(f),
      fileName: (id) => this.fileName(id),
      fileRef: (id) => this.sources[n.fileSource[id]!]!.ref(n.fileLocal[id]!),
    };
  }

  /** See Install.pairFiles. */
  pairFiles(other: VfsTree, pair: FilePairing): void {
    const seen = new Uint8Array(other.nodes.fileCount);
    this.pairFolder(other, ROOT, ROOT, seen, pair);
    for (let b = 0; b < seen.length; b++) if (!seen[b]) pair.onlyThere(b);
  }

  /** Folder `fa` of this tree against folder `fb` of `other` (NO_NODE: it has none), by case-insensitive names. */
  private pairFolder(other: VfsTree, fa: number, fb: number, seen: Uint8Array, pair: FilePairing): void {
    const n = this.nodes, o = other.nodes;
    for (let id = n.folderFirstFile[fa]!; id !== NO_NODE; id = n.fileNext[id]!) {
      let b = NO_NODE;
      if (fb !== NO_NODE) {
        const name = this.fileName(id);
        b = o.findFile(fb, nameHash(name), name);
      }
      if (b === NO_NODE) pair.onlyHere(id);
      else {
        seen[b] = 1;
        pair.both(id, b);
      }
    }
    for (let c = n.folderFirstFolder[fa]!; c !== NO_NODE; c = n.folderNextFolder[c]!) {
      const name = n.folderName[c]!;
      this.pairFolder(other, c, fb === NO_NODE ? NO_NODE : o.findFolder(fb, nameHash(name), name), seen, pair);
    }
  }

  /** The size and winning container of file `id`, without making its VfsFile. */
  fileSize(id: number): number { return this.nodes.fileSize[id]!; }
  winnerArchive(id: number): Archive { return this.sources[this.nodes.fileSource[id]!]!.archive; }
  winnerRef(id: number): number { return this.sources[this.nodes.fileSource[id]!]!.ref(this.nodes.fileLocal[id]!); }

  /** See Install.listDir. */
  listDir(path: string, filter?: string): DirListingEntry[] {
    const folder = findFolderOfPath(this.nodes, path, 0, path.length);
    if (folder === NO_NODE) return [];
    let listing = this.listings.get(folder);
    if (!listing) {
      listing = this.listFolder(folder);
      this.listings.set(folder, listing);
    }
    if (!filter) return [...listing.entries];
    const cache = this.filterCache(filter);
    const out: DirListingEntry[] = [];
    listing.entries.forEach((entry, i) => {
      const node = listing.nodes[i]!;
      if (node < 0) {
        const count = cache.fileCounts[-node - 1]!;
        if (count > 0) out.push({ ...entry, size: cache.totalSizes[-node - 1]!, fileCount: count });
      } else if (cache.matched[node]) {
        out.push(entry);
      }
    });
    return out;
  }

  /** See Install.setFilterLabels. Returns how many files got a label. */
  setFilterLabels(labelOf: (path: string) => string | undefined): number {
    const labels = new Map<number, string>();
    const n = this.nodes;
    for (let id = 0; id < n.fileCount; id++) {
      const folder = this.folderPath(n.fileFolder[id]!);
      const name = this.fileName(id);
      const label = labelOf(folder === '' ? name : `${folder}/${name}`);
      if (label) labels.set(id, label.toLowerCase());
    }
    this.filterLabels = labels.size > 0 ? labels : undefined;
    this.lastFilter = undefined;
    return labels.size;
  }

  /** Folder totals: each folder's own files, then each folder added to its parent (children have higher numbers). */
  private sumTotals(): [Int32Array, Float64Array] {
    const n = this.nodes;
    const counts = n.folderFileCount.slice(0, n.folderCount);
    const sizes = n.folderFileSize.slice(0, n.folderCount);
    for (let f = n.folderCount - 1; f > ROOT; f--) {
      counts[n.folderParent[f]!]! += counts[f]!;
      sizes[n.folderParent[f]!]! += sizes[f]!;
    }
    return [counts, sizes];
  }

  /** Full path of a folder, '' for the root, in the spelling of the first container that has it. */
  private folderPath(f: number): string {
    if (f === ROOT) return '';
    let p = this.folderPaths[f];
    if (p === undefined) {
      const parent = this.folderPath(this.nodes.folderParent[f]!);
      const name = this.nodes.folderName[f]!;
      p = parent === '' ? name : `${parent}/${name}`;
      this.folderPaths[f] = p;
    }
    return p;
  }

  /** The VfsFile of file `id`, made on first use: the winner's path and entry, then the overridden ones. */
  private vfsFile(id: number): VfsFile {
    const cache = (this.vfsFiles ??= filledArray(this.nodes.fileCount));
    let f = cache[id];
    if (!f) {
      const n = this.nodes;
      const providers: Provider[] = [this.provider(n.fileSource[id]!, n.fileLocal[id]!)];
      for (let e = n.fileExtra[id]!; e !== NO_NODE; e = n.extraNext[e]!) {
        providers.push(this.provider(n.extraSource[e]!, n.extraLocal[e]!));
      }
      const path = providers[0]!.file.path;
      f = { path: path.charCodeAt(0) === 47 ? path.replace(/^\/+/, '') : path, size: n.fileSize[id]!, providers };
      cache[id] = f;
    }
    return f;
  }

  private provider(source: number, local: number): Provider {
    const s = this.sources[source]!;
    return { archive: s.archive, file: s.archiveFile(local) };
  }

  /** The winner's name of file `id` (the last level of its path). */
  private fileName(id: number): string {
    return this.sources[this.nodes.fileSource[id]!]!.fileName(this.nodes.fileLocal[id]!);
  }

  private visitInPathOrder(folder: number, v: FileVisit, visit: (v: FileVisit) => void): void {
    const n = this.nodes;
    const path = this.folderPath(folder);
    for (const [name, node] of this.childrenInPathOrder(folder)) {
      if (node < 0) {
        this.visitInPathOrder(-node - 1, v, visit);
        continue;
      }
      const source = this.sources[n.fileSource[node]!]!;
      v.folder = path;
      v.name = name;
      v.id = node;
      v.archive = source.archive;
      v.ref = source.ref(n.fileLocal[node]!);
      visit(v);
    }
  }

  /** A folder's subfolders (as -(f + 1)) and files, in path order: a folder sorts as "name/". */
  private childrenInPathOrder(folder: number): [string, number][] {
    const n = this.nodes;
    const children: [string, number][] = [];
    for (let c = n.folderFirstFolder[folder]!; c !== NO_NODE; c = n.folderNextFolder[c]!) children.push([`${n.folderName[c]}/`, -(c + 1)]);
    for (let id = n.folderFirstFile[folder]!; id !== NO_NODE; id = n.fileNext[id]!) children.push([this.fileName(id), id]);
    return children.sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0));
  }

  private collectInPathOrder(folder: number, out: VfsFile[]): void {
    for (const [, node] of this.childrenInPathOrder(folder)) {
      if (node < 0) this.collectInPathOrder(-node - 1, out);
      else out.push(this.vfsFile(node));
    }
  }

  /** Folders first, then files, each by name (case-insensitive, then exact, so the order is total). */
  private listFolder(folder: number): Listing {
    const n = this.nodes;
    const folders: [string, DirListingEntry, number][] = [];
    for (let c = n.folderFirstFolder[folder]!; c !== NO_NODE; c = n.folderNextFolder[c]!) {
      const entry = { name: n.folderName[c]!, path: this.folderPath(c), isDir: true, size: this.totalSizes[c]!, fileCount: this.fileCounts[c]! };
      folders.push([n.folderLower[c]!, entry, -(c + 1)]);
    }
    const files: [string, DirListingEntry, number][] = [];
    for (let id = n.folderFirstFile[folder]!; id !== NO_NODE; id = n.fileNext[id]!) {
      const f = this.vfsFile(id);
      const name = this.fileName(id);
      files.push([name.toLowerCase(), { name, path: f.path, isDir: false, size: f.size, fileCount: 1, file: f }, id]);
    }
    const sorted = [...folders.sort(byKeyThenName), ...files.sort(byKeyThenName)];
    return { entries: sorted.map((e) => e[1]), nodes: Int32Array.from(sorted, (e) => e[2]) };
  }

  /** Matches every path once per new filter; the last filter's result is kept for the next folder. */
  private filterCache(filter: string): FilterCache {
    if (this.lastFilter?.filter === filter) return this.lastFilter;
    const matches = compilePathFilter(filter);
    const n = this.nodes;
    // Lowercased folder paths with a trailing "/", parents first.
    const prefixes: string[] = [''];
    for (let f = 1; f < n.folderCount; f++) prefixes.push(`${prefixes[n.folderParent[f]!]}${n.folderLower[f]}/`);
    const matched = new Uint8Array(n.fileCount);
    const fileCounts = new Int32Array(n.folderCount);
    const totalSizes = new Float64Array(n.folderCount);
    for (let id = 0; id < n.fileCount; id++) {
      const folder = n.fileFolder[id]!;
      const lowerName = this.fileName(id).toLowerCase();
      if (!matches(prefixes[folder]! + lowerName)) {
        const label = this.filterLabels?.get(id);
        if (label === undefined || !matches(label)) continue;
      }
      matched[id] = 1;
      fileCounts[folder]!++;
      totalSizes[folder]! += n.fileSize[id]!;
    }
    for (let f = n.folderCount - 1; f > ROOT; f--) {
      fileCounts[n.folderParent[f]!]! += fileCounts[f]!;
      totalSizes[n.folderParent[f]!]! += totalSizes[f]!;
    }
    this.lastFilter = { filter, matched, fileCounts, totalSizes };
    return this.lastFilter;
  }
}

function byKeyThenName(a: [string, DirListingEntry, number], b: [string, DirListingEntry, number]): number {
  if (a[0] !== b[0]) return a[0] < b[0] ? -1 : 1;
  return a[1].name < b[1].name ? -1 : a[1].name > b[1].name ? 1 : 0;
}

/** An array of n undefined slots that stays a plain (not sparse) array. */
function filledArray<T>(n: number): (T | undefined)[] {
  const a: (T | undefined)[] = [];
  for (let i = 0; i < n; i++) a.push(undefined);
  return a;
}

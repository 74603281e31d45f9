/**
 * Turns an ExportSelection into the list of things to write: the selected files of the install,
 * and (raw format) the files a selected package needs beside it. Every output path appears once.
 */
import type { Archive } from '../archive.js';
import type { Install, VfsFile } from '../install/install.js';
import { compilePathFilters } from '../install/path-filter.js';
import { IoStoreContainer } from '../iostore/container.js';
import type { ExportFailure, ExportSelection, ExportSkip } from './types.js';

export interface ExportItem {
  /** Path as `ls` prints it; the output path below the chosen folder. */
  path: string;
  size: number;
  archive: Archive;
  ref: number;
  /** IoStore: the chunk type name (ExportBundleData, BulkData, ...). */
  chunkType?: string;
  /** Set for a file added because the package at this path needs it. */
  companionOf?: string;
}

export interface SelectedItems {
  items: ExportItem[];
  /** Two sources for one output path: the first is kept. */
  skipped: ExportSkip[];
}

const PACKAGE_EXTENSIONS = ['.uasset', '.umap'];
/** What a cooked package may have beside it, as separate files (pak, loose) or listed chunks. */
const COMPANION_EXTENSIONS = ['.uexp', '.ubulk', '.uptnl', '.m.ubulk'];
/** IoStore bulk chunk types and the file extension the cooker gives each. */
const BULK_EXTENSIONS: Record<string, string> = {
  BulkData: '.ubulk',
  OptionalBulkData: '.uptnl',
  MemoryMappedBulkData: '.m.ubulk',
};

/**
 * The selected files of the install, in path order. Selected folders and files are looked up in
 * the tree (a folder's files are listed from it, subfolders too), so the cost is that of the
 * selected files, not of the install. Filters alone, or the root, go through every file once.
 */
export function selectFiles(install: Install, selection: ExportSelection): { files: VfsFile[]; failed: ExportFailure[] } {
  const paths = (selection.paths ?? []).map((p) => p.replace(/^\/+|\/+$/g, ''));
  const matches = compilePathFilters(selection.filters ?? []);
  const chosen = paths.length > 0 && !paths.includes('') ? lookUp(install, paths) : scan(install.files(), paths);
  const files = matches === undefined ? chosen.files : chosen.files.filter((f) => matches(f.path.toLowerCase()));
  const failed: ExportFailure[] = [];
  (selection.paths ?? []).forEach((p, i) => {
    if (!chosen.hits[i]) failed.push({ path: p, error: 'no such file or folder in the install' });
  });
  return { files, failed };
}

/** Each path as a file and as a folder of the tree (case-insensitive, as the tree looks up). */
function lookUp(install: Install, paths: readonly string[]): { files: VfsFile[]; hits: boolean[] } {
  const hits = paths.map(() => false);
  const found = new Set<VfsFile>();
  paths.forEach((p, i) => {
    const file = install.file(p);
    if (file) {
      found.add(file);
      hits[i] = true;
    }
    if (addFolder(install, p, found)) hits[i] = true;
  });
  // The order of Install.files(): by path, code-unit order.
  const files = [...found].sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
  return { files, hits };
}

/** Adds every file below folder `path`; false when there is no such folder. */
function addFolder(install: Install, path: string, into: Set<VfsFile>): boolean {
  const entries = install.listDir(path);
  for (const e of entries) {
    if (e.isDir) addFolder(install, e.path, into);
    else if (e.file) into.add(e.file);
  }
  return entries.length > 0;
}

/**
 * Every file once, matched against the selected paths through its folder: a folder's answer
 * (which paths it is, or is below) is worked out once for all its files.
 */
function scan(all: Iterable<VfsFile>, paths: readonly string[]): { files: VfsFile[]; hits: boolean[] } {
  const prefixes = paths.map((p) => p.toLowerCase());
  const hits = new Array<boolean>(prefixes.length).fill(false);
  /** Selected path (lowercase) → its indices in `paths` (a path may be given twice). */
  const selected = new Map<string, number[]>();
  prefixes.forEach((p, i) => selected.set(p, [...(selected.get(p) ?? []), i]));
  const everything = prefixes.length === 0;
  /** Folders (lowercase) that directly hold a selected path: only their files can be selected by name. */
  const parents = new Set(prefixes.map((p) => p.slice(0, Math.max(0, p.lastIndexOf('/')))));
  const files: VfsFile[] = [];
  let lastDir: string | null = null;
  let dirSelected = false;
  let namesSelected = false;
  for (const f of all) {
    const slash = f.path.lastIndexOf('/');
    const dir = slash < 0 ? '' : f.path.slice(0, slash);
    if (dir !== lastDir) {
      lastDir = dir;
      const lowerDir = dir.toLowerCase();
      dirSelected = markFolder(lowerDir, selected, hits) || everything;
      namesSelected = parents.has(lowerDir);
    }
    let under = dirSelected;
    if (namesSelected) {
      const own = selected.get(f.path.toLowerCase());
      if (own) {
        for (const i of own) hits[i] = true;
        under = true;
      }
    }
    if (under) files.push(f);
  }
  return { files, hits };
}

/** Marks every selected path that is `dir`, a folder above it or the root (''); true when there is one. */
function markFolder(dir: string, selected: Map<string, number[]>, hits: boolean[]): boolean {
  let found = false;
  for (let d = dir; ; d = d.slice(0, Math.max(0, d.lastIndexOf('/')))) {
    const own = selected.get(d);
    if (own) {
      for (const i of own) hits[i] = true;
      found = true;
    }
    if (d === '') return found;
  }
}

/**
 * The items to write for `files`: each file from its winning container, and with `companions`
 * each package's .uexp/.ubulk/.uptnl/.m.ubulk (by name in the install) and its IoStore bulk
 * chunks that have no path of their own (by chunk id).
 */
export function exportItems(install: Install, files: readonly VfsFile[], companions: boolean): SelectedItems {
  const items: ExportItem[] = [];
  const skipped: ExportSkip[] = [];
  const byOutput = new Map<string, ExportItem>();
  const bulk = new BulkChunkIndex();

  const add = (item: ExportItem): void => {
    // The tree has each path once (case-insensitively): only companions can name one twice.
    if (!companions) {
      items.push(item);
      return;
    }
    const key = item.path.toLowerCase();
    const known = byOutput.get(key);
    if (!known) {
      byOutput.set(key, item);
      items.push(item);
    } else if (known.archive !== item.archive || known.ref !== item.ref) {
      skipped.push({ path: item.path, reason: `another file is written to the same path (from ${known.archive.name})` });
    }
  };

  for (const f of files) {
    const { archive, file } = f.providers[0]!;
    const item: ExportItem = { path: f.path, size: f.size, archive, ref: file.ref };
    if (file.chunkType) item.chunkType = file.chunkType;
    add(item);
    if (!companions) continue;
    const ext = PACKAGE_EXTENSIONS.find((e) => f.path.toLowerCase().endsWith(e));
    if (!ext) continue;
    const stem = f.path.slice(0, f.path.length - ext.length);
    for (const c of COMPANION_EXTENSIONS) {
      const other = install.file(stem + c);
      if (other) {
        const p = other.providers[0]!;
        add({ path: other.path, size: other.size, archive: p.archive, ref: p.file.ref, companionOf: f.path, ...(p.file.chunkType ? { chunkType: p.file.chunkType } : {}) });
      }
    }
    if (archive instanceof IoStoreContainer && file.chunkType === 'ExportBundleData') {
      for (const chunk of bulk.unlistedBulkChunks(archive, file.ref)) {
        add({ path: stem + chunk.suffix, size: archive.chunkSize(chunk.entry), archive, ref: chunk.entry, chunkType: chunk.type, companionOf: f.path });
      }
    }
  }
  return { items, skipped };
}

/**
 * Per container, its bulk chunks without a directory entry, by package id. A chunk id is the
 * 8-byte package id, the chunk index (u16, big-endian), the cooked index byte and the type byte.
 */
class BulkChunkIndex {
  private readonly perContainer = new Map<IoStoreContainer, Map<string, { entry: number; type: string; suffix: string }[]>>();

  unlistedBulkChunks(c: IoStoreContainer, packageEntry: number): { entry: number; type: string; suffix: string }[] {
    let index = this.perContainer.get(c);
    if (!index) {
      index = new Map();
      const listed = new Set(c.files().map((f) => f.ref));
      for (let i = 0; i < c.chunkCount; i++) {
        if (listed.has(i)) continue;
        const type = c.chunkTypeName(i);
        const ext = BULK_EXTENSIONS[type];
        if (!ext) continue;
        const id = c.chunkIdHex(i);
        const chunkIndex = parseInt(id.slice(16, 20), 16);
        const cookedIndex = parseInt(id.slice(20, 22), 16);
        // The cooker's names for the rarer cases: ".o001" for a cooked index, "_N" for a chunk index.
        const suffix = `${cookedIndex ? `.o${String(cookedIndex).padStart(3, '0')}` : ''}${chunkIndex ? `_${chunkIndex}` : ''}${ext}`;
        const list = index.get(id.slice(0, 16)) ?? [];
        list.push({ entry: i, type, suffix });
        index.set(id.slice(0, 16), list);
      }
      this.perContainer.set(c, index);
    }
    return index.get(c.chunkIdHex(packageEntry).slice(0, 16)) ?? [];
  }
}

/**
 * Turns an ExportSelection into the list of things to write: the selected files of the install,
 * and (raw format) the files a selected package needs beside it. Every output path appears once.
 */
import type { Archive } from '../archive.js';
import type { Install, VfsFile } from '../install/install.js';
import { compilePathFilter } from '../install/path-filter.js';
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

/** The selected files of the install, in path order. */
export function selectFiles(install: Install, selection: ExportSelection): { files: VfsFile[]; failed: ExportFailure[] } {
  const prefixes = (selection.paths ?? []).map((p) => p.replace(/^\/+|\/+$/g, '').toLowerCase());
  const filters = (selection.filters ?? []).filter((f) => f !== '').map(compilePathFilter);
  const failed: ExportFailure[] = [];
  const hits = new Array<boolean>(prefixes.length).fill(false);
  const files: VfsFile[] = [];
  for (const f of install.files()) {
    const lower = f.path.toLowerCase();
    let under = prefixes.length === 0;
    for (let i = 0; i < prefixes.length; i++) {
      const p = prefixes[i]!;
      if (p === '' || lower === p || (lower.startsWith(p) && lower.charCodeAt(p.length) === 47 /* / */)) {
        hits[i] = true;
        under = true;
      }
    }
    if (under && (filters.length === 0 || filters.some((m) => m(lower)))) files.push(f);
  }
  (selection.paths ?? []).forEach((p, i) => {
    if (!hits[i]) failed.push({ path: p, error: 'no such file or folder in the install' });
  });
  return { files, failed };
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
    add({ path: f.path, size: f.size, archive, ref: file.ref, ...(file.chunkType ? { chunkType: file.chunkType } : {}) });
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

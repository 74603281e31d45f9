/**
 * The size map: a squarified treemap of the merged tree (Bruls, Huizing and van Wijk's layout:
 * each folder's entries, largest first, laid in rows along the shorter side so that rectangles
 * stay near square), computed from the tree's typed arrays without an object per file. Sizes are
 * the files' uncompressed sizes or what they take in their containers (compressed, padded to
 * AES blocks as stored). Also the largest files and folders, for `pakscope tree --top`.
 */
import type { Archive } from '../archive.js';
import { IoStoreContainer } from '../iostore/container.js';
import { blockRange } from '../iostore/toc.js';
import { PakArchive } from '../pak/pak-archive.js';
import type { TreeArrays } from './vfs-tree.js';

export type SizeMeasure = 'size' | 'stored';

export interface SizeMapOptions {
  /** The folder shown ('' the root). */
  folder?: string;
  width: number;
  height: number;
  measure?: SizeMeasure;
  /** Folders smaller than this (px, either side) are not opened; entries smaller are not listed. */
  minSide?: number;
  /** At most this many rectangles (the biggest levels first). */
  maxRects?: number;
  /** Room kept at the top of an opened folder for its label, and around its entries (px). */
  header?: number;
  pad?: number;
}

export interface SizeMapRect {
  path: string;
  name: string;
  isDir: boolean;
  x: number;
  y: number;
  w: number;
  h: number;
  size: number;
  stored: number;
  fileCount: number;
  /** 0 for the shown folder's own entries. */
  depth: number;
  /** File: what it is by its extension (package, map, bulk, export data, text, shader, media, other); folder: "folder". */
  kind: string;
  /** File: the file name of its winning container. */
  container: string;
}

export interface SizeMapLayout {
  folder: string;
  measure: SizeMeasure;
  total: number;
  rects: SizeMapRect[];
  /** Entries left out because they were too small or past maxRects. */
  hidden: number;
}

const NO_NODE = -1;

/** What a file is, by its extension, for the map's colours. */
export function fileKindOf(name: string): string {
  const dot = name.indexOf('.');
  const ext = dot < 0 ? '' : name.slice(dot + 1).toLowerCase();
  switch (ext) {
    case 'uasset': return 'package';
    case 'umap': return 'map';
    case 'uexp': return 'export data';
    case 'ubulk': case 'm.ubulk': case 'uptnl': return 'bulk';
    case 'ushaderbytecode': case 'ushadercode': case 'shaderbundle': case 'upipelinecache': return 'shader';
    case 'ini': case 'json': case 'txt': case 'csv': case 'xml': case 'locres': case 'locmeta': case 'uplugin': case 'uproject': return 'text';
    case 'bnk': case 'wem': case 'bik': case 'bk2': case 'mp4': case 'webm': case 'wav': case 'ogg': case 'ttf': case 'otf': case 'ufont': return 'media';
    case 'u': case 'utx': case 'uax': case 'umx': case 'usx': case 'ukx': case 'unr': return 'package';
    default: return 'other';
  }
}

/** What a file of an archive takes there: its compressed blocks (IoStore), its entry's stored bytes (pak), else its size. */
function storedSizer(archive: Archive): ((ref: number, size: number) => number) {
  if (archive instanceof IoStoreContainer) {
    const toc = archive.toc;
    return (ref) => {
      const [first, end] = blockRange(toc, toc.chunkOffsets[ref]!, toc.chunkLengths[ref]!);
      let n = 0;
      for (let b = first; b < end; b++) n += toc.blockCompressedSizes[b] ?? 0;
      return n;
    };
  }
  if (archive instanceof PakArchive) return (ref) => archive.entry(ref).compressedSize;
  return (_ref, size) => size;
}

export class SizeMap {
  private stored: { files: Float64Array; folders: Float64Array } | undefined;

  constructor(readonly tree: TreeArrays) {}

  /** Per file and per folder (its files below): the bytes stored in the containers. Made once. */
  storedSizes(): { files: Float64Array; folders: Float64Array } {
    if (this.stored) return this.stored;
    const t = this.tree;
    const sizers = t.sources.map(storedSizer);
    const files = new Float64Array(t.fileCount);
    const folders = new Float64Array(t.folderCount);
    for (let id = 0; id < t.fileCount; id++) {
      files[id] = sizers[t.fileSource[id]!]!(t.fileRef(id), t.fileSize[id]!);
      folders[t.fileFolder[id]!]! += files[id]!;
    }
    // Children have higher numbers than their parents.
    for (let f = t.folderCount - 1; f > 0; f--) folders[t.folderParent[f]!]! += folders[f]!;
    return (this.stored = { files, folders });
  }

  /** The folder number of a path ('' the root), or undefined. Case-insensitive, as the tree is. */
  folderOf(path: string): number | undefined {
    const t = this.tree;
    let f = 0;
    for (const part of path.split('/').filter((p) => p !== '')) {
      const lower = part.toLowerCase();
      let c = t.folderFirstFolder[f]!;
      while (c !== NO_NODE && t.folderName[c]!.toLowerCase() !== lower) c = t.folderNextFolder[c]!;
      if (c === NO_NODE) return undefined;
      f = c;
    }
    return f;
  }

  /** The rectangles of a folder's map, its entries and, where they are big enough, theirs (see SizeMapOptions). */
  layout(opts: SizeMapOptions): SizeMapLayout {
    const t = this.tree;
    const folderPath = opts.folder ?? '';
    const root = this.folderOf(folderPath);
    if (root === undefined) throw new RangeError(`${folderPath}: no such folder in the install`);
    const measure = opts.measure ?? 'size';
    const minSide = opts.minSide ?? 4;
    const maxRects = opts.maxRects ?? 5000;
    const header = opts.header ?? 16;
    const pad = opts.pad ?? 2;
    const stored = this.storedSizes();
    const fileValue = measure === 'size' ? t.fileSize : stored.files;
    const folderValue = measure === 'size' ? t.folderTotals : stored.folders;
    const rects: SizeMapRect[] = [];
    let hidden = 0;
    // Breadth first: a level is laid out whole before the next, so maxRects cuts the deepest.
    let level: { folder: number; x: number; y: number; w: number; h: number }[] = [{ folder: root, x: 0, y: 0, w: opts.width, h: opts.height }];
    for (let depth = 0; level.length > 0; depth++) {
      const next: typeof level = [];
      for (const box of level) {
        const entries = this.entriesOf(box.folder, fileValue, folderValue);
        squarify(entries.values, box.x, box.y, box.w, box.h, (k, x, y, w, h) => {
          const node = entries.nodes[k]!;
          if (w < minSide || h < minSide || rects.length >= maxRects) {
            hidden++;
            return;
          }
          if (node < 0) {
            const f = -node - 1;
            rects.push({
              path: t.folderPath(f), name: t.folderName[f]!, isDir: true, x, y, w, h, size: t.folderTotals[f]!, stored: stored.folders[f]!,
              fileCount: t.folderFileCounts[f]!, depth, kind: 'folder', container: '',
            });
            if (w > 2 * pad + minSide && h > header + pad + minSide) next.push({ folder: f, x: x + pad, y: y + header, w: w - 2 * pad, h: h - header - pad });
          } else {
            const name = t.fileName(node);
            const parent = t.folderPath(t.fileFolder[node]!);
            rects.push({
              path: parent === '' ? name : `${parent}/${name}`, name, isDir: false, x, y, w, h, size: t.fileSize[node]!, stored: stored.files[node]!,
              fileCount: 1, depth, kind: fileKindOf(name), container: baseName(t.sources[t.fileSource[node]!]!.path),
            });
          }
        });
      }
      level = next;
    }
    return { folder: folderPath, measure, total: folderValue[root]!, rects, hidden };
  }

  /**
   * The whole tree laid out, every folder and file (no size limit): what the bench times. Returns
   * the rectangles as x, y, w, h per node (folders first by number, then files).
   */
  layoutAll(width: number, height: number, measure: SizeMeasure = 'size'): Float32Array {
    const t = this.tree;
    const stored = measure === 'stored' ? this.storedSizes() : undefined;
    const fileValue = stored?.files ?? t.fileSize;
    const folderValue = stored?.folders ?? t.folderTotals;
    const out = new Float32Array((t.folderCount + t.fileCount) * 4);
    out.set([0, 0, width, height], 0);
    // Folders are numbered after their parents: each is laid out after its own box is known.
    for (let f = 0; f < t.folderCount; f++) {
      const entries = this.entriesOf(f, fileValue, folderValue);
      squarify(entries.values, out[f * 4]!, out[f * 4 + 1]!, out[f * 4 + 2]!, out[f * 4 + 3]!, (k, x, y, w, h) => {
        const node = entries.nodes[k]!;
        const at = (node < 0 ? -node - 1 : t.folderCount + node) * 4;
        out[at] = x;
        out[at + 1] = y;
        out[at + 2] = w;
        out[at + 3] = h;
      });
    }
    return out;
  }

  /** A folder's subfolders (as -(f + 1)) and files with their values, largest first, empty ones left out. */
  private entriesOf(folder: number, fileValue: Float64Array, folderValue: Float64Array): { nodes: number[]; values: number[] } {
    const t = this.tree;
    const pairs: [number, number][] = [];
    for (let c = t.folderFirstFolder[folder]!; c !== NO_NODE; c = t.folderNextFolder[c]!) if (folderValue[c]! > 0) pairs.push([folderValue[c]!, -(c + 1)]);
    for (let id = t.folderFirstFile[folder]!; id !== NO_NODE; id = t.fileNext[id]!) if (fileValue[id]! > 0) pairs.push([fileValue[id]!, id]);
    pairs.sort((a, b) => b[0] - a[0]);
    return { nodes: pairs.map((p) => p[1]), values: pairs.map((p) => p[0]) };
  }
}

/**
 * Squarified layout of `values` (largest first, all > 0) in the box: `place(k, x, y, w, h)` for
 * each. Rows go along the box's shorter side and take entries while the row's worst aspect
 * ratio improves.
 */
export function squarify(values: readonly number[], x: number, y: number, w: number, h: number,
  place: (k: number, x: number, y: number, w: number, h: number) => void): void {
  let remaining = 0;
  for (const v of values) remaining += v;
  let i = 0;
  const n = values.length;
  while (i < n && w > 0 && h > 0 && remaining > 0) {
    const scale = (w * h) / remaining;
    const side = Math.min(w, h);
    let rowSum = 0, rowMin = Infinity, rowMax = 0, best = Infinity;
    let j = i;
    while (j < n) {
      const a = values[j]! * scale;
      const sum = rowSum + a;
      const min = Math.min(rowMin, a), max = Math.max(rowMax, a);
      const worst = Math.max((side * side * max) / (sum * sum), (sum * sum) / (side * side * min));
      if (j > i && worst > best) break;
      best = worst;
      rowSum = sum;
      rowMin = min;
      rowMax = max;
      j++;
    }
    const thick = rowSum / side;
    let at = 0;
    for (let k = i; k < j; k++) {
      const len = (values[k]! * scale) / thick;
      if (w >= h) place(k, x, y + at, thick, len);
      else place(k, x + at, y, len, thick);
      at += len;
    }
    if (w >= h) {
      x += thick;
      w -= thick;
    } else {
      y += thick;
      h -= thick;
    }
    for (let k = i; k < j; k++) remaining -= values[k]!;
    i = j;
  }
}

/** The `n` largest files and folders (the root left out) by size or stored size. */
export function largestEntries(map: SizeMap, n: number, measure: SizeMeasure = 'size'): {
  files: { path: string; size: number; stored: number }[];
  folders: { path: string; size: number; stored: number; fileCount: number }[];
} {
  const t = map.tree;
  const stored = map.storedSizes();
  const fileValue = measure === 'size' ? t.fileSize : stored.files;
  const folderValue = measure === 'size' ? t.folderTotals : stored.folders;
  const top = (count: number, value: Float64Array, from: number): number[] => {
    const ids = Array.from({ length: Math.max(0, count - from) }, (_, i) => i + from);
    return ids.sort((a, b) => value[b]! - value[a]! || a - b).slice(0, n);
  };
  return {
    files: top(t.fileCount, fileValue, 0).map((id) => {
      const parent = t.folderPath(t.fileFolder[id]!);
      const name = t.fileName(id);
      return { path: parent === '' ? name : `${parent}/${name}`, size: t.fileSize[id]!, stored: stored.files[id]! };
    }),
    folders: top(t.folderCount, folderValue, 1).map((f) => ({ path: t.folderPath(f), size: t.folderTotals[f]!, stored: stored.folders[f]!, fileCount: t.folderFileCounts[f]! })),
  };
}

function baseName(p: string): string {
  return p.slice(Math.max(p.lastIndexOf('/'), p.lastIndexOf('\\')) + 1);
}

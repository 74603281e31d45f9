/**
 * The merged tree's folders and files as numbers, their links and fields in typed arrays. Each
 * folder has a small open-addressing table of its entries by case-insensitive name hash, all
 * tables in one pool, so adding a folder's files touches one short stretch of memory. A file is
 * where its winning container lists it (source, local index) plus its size; containers it
 * overrides are chained behind it. Building costs a few array writes per file and no object per
 * file, so an install of 250,000 files is merged without work for the garbage collector.
 */
import { equalsIgnoringCase, equalsLowered } from './name-hash.js';

/** Folder 0 is the root. */
export const ROOT = 0;
export const NO_NODE = -1;
/** Smallest folder table (slots). */
const MIN_TABLE_BITS = 3;
/** Largest folder table (slots): a table's size stays a positive 32-bit power of two. */
const MAX_TABLE_SIZE = 2 ** 30;

/** The name of file `local` of source `source` (its last path level, as that container spells it). */
export type SourceFileName = (source: number, local: number) => string;

export class TreeNodes {
  folderCount = 1;
  folderParent = new Int32Array(256).fill(NO_NODE);
  folderFirstFolder = new Int32Array(256).fill(NO_NODE);
  folderNextFolder = new Int32Array(256).fill(NO_NODE);
  folderFirstFile = new Int32Array(256).fill(NO_NODE);
  private folderHash = new Uint32Array(256);
  /** Where the folder's table starts in the pool, its size as a power of two (0: none yet) and its entries. */
  private folderTable = new Int32Array(256);
  private folderTableBits = new Uint8Array(256);
  private folderEntries = new Int32Array(256);
  /** Files directly in the folder and their total size (VfsTree adds the subfolders'). */
  folderFileCount = new Int32Array(256);
  folderFileSize = new Float64Array(256);
  /** As the first container to hold the folder spells it. */
  readonly folderName: string[] = [''];
  readonly folderLower: string[] = [''];
  /**
   * Set when some file's path may not be its folder's path + "/" + its name: a folder met again
   * in another spelling, or a path with an empty level ("a//b"). Then path order needs a sort.
   */
  respelled = false;

  fileCount = 0;
  fileFolder: Int32Array;
  fileNext: Int32Array;
  fileSize: Float64Array;
  /** The winning provider. */
  fileSource: Int32Array;
  fileLocal: Int32Array;
  /** First overridden provider, NO_NODE for none (the array starts filled with it). */
  fileExtra: Int32Array;
  private fileHash: Uint32Array;

  extraCount = 0;
  extraSource = new Int32Array(16);
  extraLocal = new Int32Array(16);
  extraNext = new Int32Array(16);

  /** Folder tables: 0 = empty, file i = i + 1, folder f = -(f + 1). Each table is at most half full. */
  private pool: Int32Array;
  private poolUsed = 0;

  /** @param expectedFiles sizes the arrays; more files still fit. */
  constructor(private readonly nameOf: SourceFileName, expectedFiles: number) {
    const n = Math.max(16, expectedFiles);
    this.fileFolder = new Int32Array(n);
    this.fileNext = new Int32Array(n);
    this.fileSize = new Float64Array(n);
    this.fileSource = new Int32Array(n);
    this.fileLocal = new Int32Array(n);
    this.fileExtra = new Int32Array(n).fill(NO_NODE);
    this.fileHash = new Uint32Array(n);
    this.pool = new Int32Array(n * 4 + 1024);
  }

  /** The child folder of `parent` named name.slice(from, to) in any case (`hash` is its nameHash), or NO_NODE. */
  findFolder(parent: number, hash: number, name: string, from = 0, to = name.length): number {
    const bits = this.folderTableBits[parent]!;
    if (bits === 0) return NO_NODE;
    const pool = this.pool;
    const start = this.folderTable[parent]!;
    const mask = (1 << bits) - 1;
    for (let s = hash & mask; ; s = (s + 1) & mask) {
      const v = pool[start + s]!;
      if (v === 0) return NO_NODE;
      if (v >= 0 || this.folderHash[-v - 1] !== hash) continue;
      const f = -v - 1;
      // Most often the same spelling: the whole name compares equal at once.
      if ((from === 0 && to === name.length && this.folderName[f] === name) || equalsLowered(name, from, to, this.folderLower[f]!)) return f;
    }
  }

  /** The child folder of `parent` with this name, made if there is none. */
  folder(parent: number, hash: number, name: string): number {
    const found = this.findFolder(parent, hash, name);
    if (found !== NO_NODE) {
      if (this.folderName[found] !== name) this.respelled = true;
      return found;
    }
    const lower = name.toLowerCase();
    const f = this.folderCount++;
    if (f === this.folderParent.length) this.growFolders();
    this.folderParent[f] = parent;
    this.folderName.push(name);
    this.folderLower.push(lower);
    this.folderHash[f] = hash;
    this.folderNextFolder[f] = this.folderFirstFolder[parent]!;
    this.folderFirstFolder[parent] = f;
    this.reserve(parent, 1);
    this.put(parent, hash, -(f + 1));
    return f;
  }

  /** The file of `folder` named name.slice(from, to) in any case (`hash` is its nameHash), or NO_NODE. */
  findFile(folder: number, hash: number, name: string, from = 0, to = name.length): number {
    const bits = this.folderTableBits[folder]!;
    if (bits === 0) return NO_NODE;
    const pool = this.pool;
    const start = this.folderTable[folder]!;
    const mask = (1 << bits) - 1;
    for (let s = hash & mask; ; s = (s + 1) & mask) {
      const v = pool[start + s]!;
      if (v === 0) return NO_NODE;
      if (v > 0 && this.fileHash[v - 1] === hash &&
          equalsIgnoringCase(this.nameOf(this.fileSource[v - 1]!, this.fileLocal[v - 1]!), name, from, to)) return v - 1;
    }
  }

  /** Makes room in the folder's table for `more` entries, so that adding them does not grow it. */
  reserve(folder: number, more: number): void {
    const needed = (this.folderEntries[folder]! + more) * 2;
    const bits = this.folderTableBits[folder]!;
    if (bits !== 0 && needed <= 1 << bits) return;
    if (needed > MAX_TABLE_SIZE) throw new RangeError(`a folder of ${needed / 2} entries is more than the tree holds`);
    let newBits = Math.max(MIN_TABLE_BITS, bits + 1);
    while (1 << newBits < needed) newBits++;
    const size = 1 << newBits;
    if (this.poolUsed + size > this.pool.length) {
      const pool = new Int32Array(Math.max(this.pool.length * 2, this.poolUsed + size));
      pool.set(this.pool.subarray(0, this.poolUsed));
      this.pool = pool;
    }
    const oldStart = this.folderTable[folder]!;
    const oldSize = bits === 0 ? 0 : 1 << bits;
    this.folderTable[folder] = this.poolUsed;
    this.folderTableBits[folder] = newBits;
    this.folderEntries[folder] = 0;
    this.poolUsed += size;
    // The old stretch of the pool is left unused.
    for (let s = 0; s < oldSize; s++) {
      const v = this.pool[oldStart + s]!;
      if (v !== 0) this.put(folder, v > 0 ? this.fileHash[v - 1]! : this.folderHash[-v - 1]!, v);
    }
  }

  /**
   * Adds file `local` of `source` to `folder`: a new file when the folder has none of that name,
   * else one more provider of it (sources are added winner first). A container that lists the
   * name twice (in spellings that differ only by case) is read as the engine reads its index:
   * its lookup ignores case and a later entry replaces an earlier one, so the later wins and the
   * earlier becomes an overridden copy.
   */
  addFile(folder: number, hash: number, source: number, local: number, size: number): void {
    this.reserve(folder, 1);
    this.addReservedFile(folder, hash, source, local, size);
  }

  /** addFile, in a folder whose table has room for it (see reserve). */
  addReservedFile(folder: number, hash: number, source: number, local: number, size: number): void {
    const pool = this.pool;
    const start = this.folderTable[folder]!;
    const mask = (1 << this.folderTableBits[folder]!) - 1;
    let s = hash & mask;
    for (; ; s = (s + 1) & mask) {
      const v = pool[start + s]!;
      if (v === 0) break;
      if (v < 0 || this.fileHash[v - 1] !== hash) continue;
      // Same hash: the names decide (almost always the same path in two containers).
      if (equalsIgnoringCase(this.nameOf(this.fileSource[v - 1]!, this.fileLocal[v - 1]!), this.nameOf(source, local))) {
        if (this.fileSource[v - 1] === source) this.replaceWinner(v - 1, folder, local, size);
        else this.addProvider(v - 1, source, local);
        return;
      }
    }
    const id = this.fileCount++;
    if (id === this.fileFolder.length) this.growFiles();
    this.fileFolder[id] = folder;
    this.fileSize[id] = size;
    this.fileSource[id] = source;
    this.fileLocal[id] = local;
    this.fileHash[id] = hash;
    this.fileNext[id] = this.folderFirstFile[folder]!;
    this.folderFirstFile[folder] = id;
    this.folderFileCount[folder]!++;
    this.folderFileSize[folder]! += size;
    pool[start + s] = id + 1;
    this.folderEntries[folder]!++;
  }

  /** Puts an entry in the folder's table, which has room (see reserve). */
  private put(folder: number, hash: number, value: number): void {
    const start = this.folderTable[folder]!;
    const mask = (1 << this.folderTableBits[folder]!) - 1;
    let s = hash & mask;
    while (this.pool[start + s] !== 0) s = (s + 1) & mask;
    this.pool[start + s] = value;
    this.folderEntries[folder]!++;
  }

  /** File `local` of the winner's own source wins over its earlier entry, which becomes the first overridden copy. */
  private replaceWinner(id: number, folder: number, local: number, size: number): void {
    const earlier = this.fileLocal[id]!;
    this.fileLocal[id] = local;
    this.folderFileSize[folder]! += size - this.fileSize[id]!;
    this.fileSize[id] = size;
    this.addProvider(id, this.fileSource[id]!, earlier, true);
  }

  private addProvider(id: number, source: number, local: number, first = false): void {
    const e = this.extraCount++;
    if (e === this.extraSource.length) {
      this.extraSource = grown(this.extraSource);
      this.extraLocal = grown(this.extraLocal);
      this.extraNext = grown(this.extraNext);
    }
    this.extraSource[e] = source;
    this.extraLocal[e] = local;
    this.extraNext[e] = NO_NODE;
    if (first) {
      // A copy of the winner's own container: before the other containers' copies.
      this.extraNext[e] = this.fileExtra[id]!;
      this.fileExtra[id] = e;
      return;
    }
    // Appended, so providers stay in priority order.
    let last = this.fileExtra[id]!;
    if (last === NO_NODE) {
      this.fileExtra[id] = e;
      return;
    }
    while (this.extraNext[last] !== NO_NODE) last = this.extraNext[last]!;
    this.extraNext[last] = e;
  }

  private growFolders(): void {
    this.folderParent = grown(this.folderParent, NO_NODE);
    this.folderFirstFolder = grown(this.folderFirstFolder, NO_NODE);
    this.folderNextFolder = grown(this.folderNextFolder, NO_NODE);
    this.folderFirstFile = grown(this.folderFirstFile, NO_NODE);
    this.folderHash = grown(this.folderHash);
    this.folderTable = grown(this.folderTable);
    this.folderTableBits = grown(this.folderTableBits);
    this.folderEntries = grown(this.folderEntries);
    this.folderFileCount = grown(this.folderFileCount);
    this.folderFileSize = grown(this.folderFileSize);
  }

  private growFiles(): void {
    this.fileFolder = grown(this.fileFolder);
    this.fileNext = grown(this.fileNext);
    this.fileSize = grown(this.fileSize);
    this.fileSource = grown(this.fileSource);
    this.fileLocal = grown(this.fileLocal);
    this.fileExtra = grown(this.fileExtra, NO_NODE);
    this.fileHash = grown(this.fileHash);
  }
}

function grown<T extends Int32Array | Uint32Array | Uint8Array | Float64Array>(a: T, fill = 0): T {
  const b = new (a.constructor as new (n: number) => T)(a.length * 2);
  b.set(a);
  if (fill !== 0) b.fill(fill, a.length);
  return b;
}

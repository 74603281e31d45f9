/**
 * The packages an install holds, by name and by package id. Names come from the paths through
 * the game path mapping (game-path.ts): "Proj/Content/Maps/A.umap" is /Game/Maps/A. Ids come from
 * the IoStore chunk id (an ExportBundleData chunk id starts with its package id) or, for classic
 * packages, from the name (FPackageId = CityHash64 of the lowercased name). UE1/2 packages are
 * named by their file's base name ("Botpack"), as those engines name them.
 */
import { hexWords, packageIdFromName } from '../hash/cityhash64.js';
import { hexDigit } from '../io/hex.js';
import { mountPathToPackageName, pluginMounts, type PluginMounts } from '../install/game-path.js';
import type { Archive } from '../archive.js';
import type { FileVisit, Install, VfsFile } from '../install/install.js';
import { chunkTypeValue } from '../iostore/chunk-type.js';
import { IoStoreContainer } from '../iostore/container.js';
import { chunkTypeByte } from '../iostore/toc.js';
import { isUAssetFileName, isUe12FileName, withoutExtension } from './package-files.js';

export type PackageKind = 'zen' | 'uasset' | 'ue12';

export interface IndexedPackage {
  /** "/Game/Maps/A"; the base name for UE1/2. */
  readonly name: string;
  /** 16 hex digits. */
  readonly id: string;
  readonly file: VfsFile;
  readonly kind: PackageKind;
}

/** The package id (16 hex digits of the u64) from the first 8 bytes (little-endian) of a chunk id in hex. */
export function packageIdOfChunkId(chunkIdHex: string): string {
  const c = (i: number): number => chunkIdHex.charCodeAt(i);
  // One flat string: slices joined byte by byte would leave eight pieces per id.
  return String.fromCharCode(c(14), c(15), c(12), c(13), c(10), c(11), c(8), c(9), c(6), c(7), c(4), c(5), c(2), c(3), c(0), c(1));
}

/** Bytes `at`..`at + 3` of a chunk id in hex, little-endian: one word of its package id. */
function chunkIdWord(chunkIdHex: string, at: number): number {
  let v = 0;
  for (let i = at + 3; i >= at; i--) v = (v << 8) | (hexDigit(chunkIdHex.charCodeAt(2 * i)) << 4) | hexDigit(chunkIdHex.charCodeAt(2 * i + 1));
  return v >>> 0;
}

/** The high word of packageIdOfChunkId(chunkIdHex), without making the string. */
export function packageIdHighOfChunkId(chunkIdHex: string): number { return chunkIdWord(chunkIdHex, 4); }

/** The low word of packageIdOfChunkId(chunkIdHex), without making the string. */
export function packageIdLowOfChunkId(chunkIdHex: string): number { return chunkIdWord(chunkIdHex, 0); }

/** The 24 hex digits of a package's chunk id of the given type (index 0): the id's bytes little-endian, 0000, 00, type. */
export function packageChunkIdHex(packageId: string, chunkType: number): string {
  return `${packageIdOfChunkId(packageId)}000000${chunkType.toString(16).padStart(2, '0')}`;
}

export const PACKAGE_ID_PATTERN = /^[0-9a-f]{16}$/i;

/** FIoChunkId: 12 bytes, the package id in the first 8 (little-endian) for package chunks. */
const CHUNK_ID_BYTES = 12;

/** PackageKind by its code in the index's kinds array. */
const KINDS: readonly PackageKind[] = ['zen', 'uasset', 'ue12'];
const ZEN = 0, UASSET = 1, UE12 = 2;

/*
 * Names are keyed case-insensitively (as toLowerCase() compares them) by a 32-bit hash of the
 * lowercased name, FNV-1a over its UTF-16 units. ASCII names are hashed as they stand, lowering
 * A-Z on the way, and in two parts (the folder's prefix once, then each file's base name), so
 * indexing makes no lowercased string and no key per package; other names are lowercased whole.
 */
const FNV_SEED = 0x811c9dc5 | 0;
const FNV_PRIME = 0x01000193;
/**
 * A hash state for "not ASCII: hash name.toLowerCase() instead" (a state that is -1 by chance
 * takes that slower way to the same hash).
 */
const NOT_ASCII = -1;

/** Hash state after the ASCII units s[from, to), lowercased; NOT_ASCII when one is not ASCII. */
function hashAscii(h: number, s: string, from: number, to: number): number {
  for (let i = from; i < to; i++) {
    let c = s.charCodeAt(i);
    if (c >= 128) return NOT_ASCII;
    if (c >= 65 && c <= 90) c += 32;
    h = Math.imul(h ^ c, FNV_PRIME);
  }
  return h;
}

/** The table hash of a name, from the state after all its units (murmur3's finalizer). */
function finishHash(h: number): number {
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35);
  return h ^ (h >>> 16);
}

/** hashAscii's result for any name: its lowercased units. */
function lowerNameHash(name: string): number {
  const h = hashAscii(FNV_SEED, name, 0, name.length);
  if (h !== NOT_ASCII) return finishHash(h);
  const lower = name.toLowerCase();
  let l = FNV_SEED;
  for (let i = 0; i < lower.length; i++) l = Math.imul(l ^ lower.charCodeAt(i), FNV_PRIME);
  return finishHash(l);
}

/** A folder's package name prefix ("/Game/Maps/") and the hash state after it. */
interface FolderPrefix {
  name: string;
  hash: number;
}

/**
 * Package names of files, folder by folder: every file of a folder shares its name but for the last
 * part, so the path mapping runs once per folder (mapping a stand-in file name), not once per file.
 */
class FolderNames {
  private readonly byDir = new Map<string, FolderPrefix | null>();
  private lastDir: string | undefined;
  private last: FolderPrefix | null = null;

  constructor(private readonly plugins: PluginMounts) {}

  /** The prefix of folder `dir` ('' = the root); null when its files map to no name. */
  of(dir: string): FolderPrefix | null {
    // Files come folder by folder (Install.visitFiles hands each folder's files one string).
    if (dir === this.lastDir) return this.last;
    this.last = this.prefixOf(dir);
    this.lastDir = dir;
    return this.last;
  }

  /**
   * The prefix of a folder. Below a Content folder it is its parent's plus its own name (the path
   * mapping takes the first Content folder, and the mount name from above it); elsewhere the path
   * mapping names it.
   */
  private prefixOf(dir: string): FolderPrefix | null {
    let prefix = this.byDir.get(dir);
    if (prefix !== undefined) return prefix;
    const slash = dir.lastIndexOf('/');
    const parent = slash > 0 ? this.prefixOf(dir.slice(0, slash)) : null;
    if (parent !== null) {
      const name = `${parent.name}${dir.slice(slash + 1)}/`;
      const h = parent.hash === NOT_ASCII ? NOT_ASCII : hashAscii(parent.hash, name, parent.name.length, name.length);
      prefix = { name, hash: h };
    } else {
      // "_" has no extension, so the stand-in's name is the prefix plus "_".
      const name = mountPathToPackageName(`${dir}/_`, this.plugins)?.slice(0, -1);
      prefix = name === undefined ? null : { name, hash: hashAscii(FNV_SEED, name, 0, name.length) };
    }
    this.byDir.set(dir, prefix);
    return prefix;
  }
}

/**
 * What one file is as a package: its kind code, name hash, and its name as the folder's prefix
 * plus base[0, end), or as `name` (UE1/2 packages, and names already made). One object, filled
 * per file, so that describing 250,000 files allocates nothing but the names it must make.
 */
interface FileDescription { kind: number; hash: number; prefix: FolderPrefix | null; base: string; end: number; name: string | undefined }

const described: FileDescription = { kind: 0, hash: 0, prefix: null, base: '', end: 0, name: undefined };

/** Where a package file's name ends in its file name: before its extension (game-path.ts). */
function nameEnd(base: string): number {
  const dot = base.lastIndexOf('.');
  return dot > 0 ? dot : base.length;
}

/**
 * Kinds of files: an IoStore chunk is a package when it is an ExportBundleData chunk (read from the
 * TOC by the chunk's entry); other files by their names.
 */
class Kinds {
  private lastToc: IoStoreContainer | undefined;
  private bundleType = -1;

  /** The package kind code of a file (its winning archive, ref there, chunk type if known, and name), or -1 when it is no package. */
  of(archive: Archive, ref: number, chunkType: string | undefined, name: string): number {
    if (archive instanceof IoStoreContainer) {
      if (chunkType !== undefined) return chunkType === 'ExportBundleData' ? ZEN : -1;
      if (archive !== this.lastToc) {
        this.lastToc = archive;
        this.bundleType = chunkTypeValue(archive.toc.header.version, 'ExportBundleData') ?? -1;
      }
      return Number.isInteger(ref) && ref >= 0 && ref < archive.toc.header.entryCount && chunkTypeByte(archive.toc, ref) === this.bundleType ? ZEN : -1;
    }
    if (chunkType !== undefined) return -1;
    if (isUAssetFileName(name)) return UASSET;
    if (isUe12FileName(name)) return UE12;
    return -1;
  }
}

/** Describes the file `name` in folder `dir` into `described`; false when it is no package. */
function describe(kind: number, dir: string, name: string, folders: FolderNames): boolean {
  if (kind < 0) return false;
  const d = described;
  d.kind = kind;
  if (kind === UE12) {
    const base = withoutExtension(name);
    d.hash = lowerNameHash(base);
    d.prefix = null;
    d.name = base;
    return true;
  }
  // mountPathToPackageName(path): the folder's prefix, then the file name without its extension.
  const prefix = folders.of(dir);
  if (prefix === null) return false;
  const end = nameEnd(name);
  d.prefix = prefix;
  d.base = name;
  d.end = end;
  d.name = undefined;
  const h = prefix.hash === NOT_ASCII ? NOT_ASCII : hashAscii(prefix.hash, name, 0, end);
  d.hash = h === NOT_ASCII ? lowerNameHash(describedName()) : finishHash(h);
  return true;
}

/** The name of the file last described, made once. */
function describedName(): string {
  const d = described;
  d.name ??= d.prefix!.name + d.base.slice(0, d.end);
  return d.name;
}

/** Whether two names are the same but for case, as toLowerCase() compares them. */
function sameName(a: string, b: string): boolean {
  return a === b || a.toLowerCase() === b.toLowerCase();
}

/** A package of the index; its id is made (from the chunk id's words, or hashed from the name) when first asked for. */
class Entry implements IndexedPackage {
  private made: string | undefined;
  constructor(readonly name: string, readonly file: VfsFile, readonly kind: PackageKind, private readonly hi: number, private readonly lo: number) {}
  get id(): string {
    this.made ??= this.kind === 'zen' ? hexWords(this.hi, this.lo) : packageIdFromName(this.name);
    return this.made;
  }
}

/**
 * pluginMounts(every path of the install), read only for the plugin folders the path mapping asks
 * about, from the .uplugin files each one lists: no pass over every path for a few descriptors.
 * The last descriptor of a folder in path order names its mount, as in pluginMounts.
 */
class PluginMountsOf extends Map<string, string> {
  private readonly read = new Set<string>();

  constructor(private readonly install: Install) {
    super();
  }

  /** The mount name of the plugin in `folder` (lowercased, as game-path.ts asks). */
  override get(folder: string): string | undefined {
    if (!this.read.has(folder)) {
      this.read.add(folder);
      const descriptors = this.install.listDir(folder).filter((e) => !e.isDir && e.name.toLowerCase().endsWith('.uplugin')).map((e) => e.path).sort();
      const name = pluginMounts(descriptors).get(folder);
      if (name !== undefined) this.set(folder, name);
    }
    return super.get(folder);
  }
}

/**
 * The packages of an install. Kept as arrays (a file, its folder's name prefix and a kind per
 * package, in path order) and an open-addressing table of name hashes, so indexing 250,000
 * packages makes no object, key, name or lowercased string per package: names and IndexedPackage
 * objects are made when asked for.
 */
export class PackageIndex {
  private count = 0;
  /** Per package: its file's number in the install's tree (Install.visitFiles). */
  private fileIds = new Int32Array(1024);
  /** Per package: its file name (the name is the folder's prefix and the part before the extension). */
  private readonly bases: string[] = [];
  /** Per package: its folder's name prefix (null for a UE1/2 package, named in `names`). */
  private readonly prefixes: (FolderPrefix | null)[] = [];
  /** Per package: its name, once made. */
  private readonly names: (string | undefined)[] = [];
  private kinds = new Uint8Array(1024);
  /** Per package: the table hash of its name. */
  private hashes = new Int32Array(1024);
  /** Per IoStore package: its id's high and low words, read from the chunk id while indexing. */
  private ids = new Uint32Array(2048);
  /** Slot → package + 1 (0 = empty), at most half full. */
  private slots = new Int32Array(4096);
  private readonly entries: (Entry | undefined)[] = [];
  /** Built on first use: hashing every classic package's name costs a few µs each. */
  private byIdCache: Map<string, IndexedPackage> | undefined;
  private readonly kindsOf = new Kinds();

  private constructor(private readonly plugins: PluginMounts, private readonly fileOf: (id: number) => VfsFile) {}

  /** Every package file of the install, once per name (the first path in path order wins). */
  static build(install: Install): PackageIndex {
    const index = new PackageIndex(new PluginMountsOf(install), install.filesById());
    const folders = new FolderNames(index.plugins);
    install.visitFiles((v) => index.addVisited(v, folders));
    return index;
  }

  /**
   * build(), giving the event loop a turn first: reads started before it (the dependency graph's
   * container headers) proceed meanwhile, on the worker pool.
   */
  static async buildAsync(install: Install, signal?: AbortSignal): Promise<PackageIndex> {
    await new Promise<void>((resolve) => setImmediate(resolve));
    signal?.throwIfAborted();
    return PackageIndex.build(install);
  }

  private addVisited(v: FileVisit, folders: FolderNames): void {
    const kind = this.kindsOf.of(v.archive, v.ref, undefined, v.name);
    if (describe(kind, v.folder, v.name, folders) && this.find(described.hash, describedName) < 0) this.add(v.id, v.archive, v.ref);
  }

  get size(): number { return this.count; }

  /** The package with this name (as toLowerCase() compares; `name` made only for a package of the same hash), or -1. */
  private find(hash: number, name: () => string): number {
    const mask = this.slots.length - 1;
    for (let i = hash & mask; ; i = (i + 1) & mask) {
      const p = this.slots[i]! - 1;
      if (p < 0) return -1;
      if (this.hashes[p] === hash && sameName(this.nameOfPackage(p), name())) return p;
    }
  }

  /** Package p's name, made once. */
  private nameOfPackage(p: number): string {
    let name = this.names[p];
    if (name === undefined) {
      const base = this.bases[p]!;
      name = this.prefixes[p]!.name + base.slice(0, nameEnd(base));
      this.names[p] = name;
    }
    return name;
  }

  /** Adds the package `described` tells of: file `id` of the tree, `ref` in its winning archive. */
  private add(id: number, archive: Archive, ref: number): void {
    const p = this.count;
    if ((p + 1) * 2 > this.slots.length) this.growSlots();
    if (p === this.kinds.length) {
      this.kinds = grown(this.kinds, new Uint8Array(p * 2));
      this.hashes = grown(this.hashes, new Int32Array(p * 2));
      this.fileIds = grown(this.fileIds, new Int32Array(p * 2));
      this.ids = grown(this.ids, new Uint32Array(p * 4));
    }
    const d = described;
    this.count++;
    this.fileIds[p] = id;
    this.bases.push(d.base);
    this.prefixes.push(d.prefix);
    this.names.push(d.name);
    this.kinds[p] = d.kind;
    this.hashes[p] = d.hash;
    if (d.kind === ZEN) this.setZenId(p, archive, ref);
    this.place(p);
  }

  /**
   * An IoStore package's id words: the first 8 bytes of its chunk id, read from the container's TOC
   * (a chunk id string is a slice of a long one, slow to read a character at a time), else parsed.
   */
  private setZenId(p: number, archive: Archive, ref: number): void {
    const chunkIds = (archive as IoStoreContainer).toc.chunkIds;
    const at = ref * CHUNK_ID_BYTES;
    this.ids[2 * p] = (chunkIds[at + 4]! | (chunkIds[at + 5]! << 8) | (chunkIds[at + 6]! << 16) | (chunkIds[at + 7]! << 24)) >>> 0;
    this.ids[2 * p + 1] = (chunkIds[at]! | (chunkIds[at + 1]! << 8) | (chunkIds[at + 2]! << 16) | (chunkIds[at + 3]! << 24)) >>> 0;
  }

  private place(p: number): void {
    const mask = this.slots.length - 1;
    let i = this.hashes[p]! & mask;
    while (this.slots[i] !== 0) i = (i + 1) & mask;
    this.slots[i] = p + 1;
  }

  private growSlots(): void {
    this.slots = new Int32Array(this.slots.length * 2);
    for (let p = 0; p < this.count; p++) this.place(p);
  }

  /** Package i of packages() (0 ≤ i < size). */
  at(i: number): IndexedPackage {
    let e = this.entries[i];
    if (e === undefined) {
      this.checked(i);
      e = new Entry(this.nameOfPackage(i), this.fileOf(this.fileIds[i]!), KINDS[this.kinds[i]!]!, this.ids[2 * i]!, this.ids[2 * i + 1]!);
      this.entries[i] = e;
    }
    return e;
  }

  /** at(i).name without making the object: for readers of every package (the dependency graph). */
  nameAt(i: number): string { return this.nameOfPackage(this.checked(i)); }

  /** at(i).kind without making the object. */
  kindAt(i: number): PackageKind { return KINDS[this.kinds[this.checked(i)]!]!; }

  /**
   * The high word of at(i).id, and below its low word, without making a string when the package is
   * an IoStore one (its chunk id's words, read while indexing); a classic package's id is hashed.
   */
  idHighAt(i: number): number {
    return this.kinds[this.checked(i)] === ZEN ? this.ids[2 * i]! : parseInt(this.at(i).id.slice(0, 8), 16);
  }

  idLowAt(i: number): number {
    return this.kinds[this.checked(i)] === ZEN ? this.ids[2 * i + 1]! : parseInt(this.at(i).id.slice(8), 16);
  }

  private checked(i: number): number {
    if (!(i >= 0 && i < this.count)) throw new RangeError(`package ${i} is not in the index of ${this.count}`);
    return i;
  }

  private get byId(): Map<string, IndexedPackage> {
    if (!this.byIdCache) {
      this.byIdCache = new Map();
      for (const p of this.packages()) if (!this.byIdCache.has(p.id)) this.byIdCache.set(p.id, p);
    }
    return this.byIdCache;
  }

  /** The package with this id (16 hex digits, any case). */
  byPackageId(id: string): IndexedPackage | undefined { return this.byId.get(id.toLowerCase()); }

  /** The package with this name, case-insensitive ("/Game/Maps/A", "Botpack"). */
  byPackageName(name: string): IndexedPackage | undefined {
    const p = this.find(lowerNameHash(name), () => name);
    return p < 0 ? undefined : this.at(p);
  }

  /**
   * The packages whose name ends in "/" + `short` ("T_BC7" for /Game/Textures/T_BC7), any case:
   * a scan of every name, made for one lookup by a user.
   */
  byShortName(short: string): IndexedPackage[] {
    const tail = '/' + short.toLowerCase();
    const found: IndexedPackage[] = [];
    for (let i = 0; i < this.count; i++) {
      const name = this.nameOfPackage(i);
      if (name.length > tail.length && name.toLowerCase().endsWith(tail)) found.push(this.at(i));
    }
    return found;
  }

  /** The package a file of the install is (undefined for a file whose name an earlier path took). */
  ofFile(file: VfsFile): IndexedPackage | undefined {
    const winner = file.providers[0]!;
    const slash = file.path.lastIndexOf('/');
    const name = file.path.slice(slash + 1);
    const kind = new Kinds().of(winner.archive, winner.file.ref, winner.file.chunkType, name);
    const dir = slash < 0 ? '' : file.path.slice(0, slash);
    const p = describe(kind, dir, name, new FolderNames(this.plugins)) ? this.find(described.hash, describedName) : -1;
    return p >= 0 && this.fileOf(this.fileIds[p]!) === file ? this.at(p) : undefined;
  }

  /** The name of a package id the install holds. */
  nameOf(id: string): string | undefined { return this.byId.get(id)?.name; }

  /** Every package, in path order. */
  *packages(): IterableIterator<IndexedPackage> {
    for (let i = 0; i < this.count; i++) yield this.at(i);
  }
}

/** `bigger` holding `a`'s values first. */
function grown<T extends Uint8Array | Int32Array | Uint32Array>(a: T, bigger: T): T {
  bigger.set(a);
  return bigger;
}

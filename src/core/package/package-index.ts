/**
 * The packages an install holds, by name and by package id. Names come from the paths through
 * the game path mapping (game-path.ts): "Proj/Content/Maps/A.umap" is /Game/Maps/A. Ids come from
 * the IoStore chunk id (an ExportBundleData chunk id starts with its package id) or, for classic
 * packages, from the name (FPackageId = CityHash64 of the lowercased name). UE1/2 packages are
 * named by their file's base name ("Botpack"), as those engines name them.
 */
import { packageIdFromName } from '../hash/cityhash64.js';
import { mountPathToPackageName, pluginMounts } from '../install/game-path.js';
import type { Install, VfsFile } from '../install/install.js';
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
  let s = '';
  for (let i = 14; i >= 0; i -= 2) s += chunkIdHex.slice(i, i + 2);
  return s;
}

/** The 24 hex digits of a package's chunk id of the given type (index 0): the id's bytes little-endian, 0000, 00, type. */
export function packageChunkIdHex(packageId: string, chunkType: number): string {
  return `${packageIdOfChunkId(packageId)}000000${chunkType.toString(16).padStart(2, '0')}`;
}

export const PACKAGE_ID_PATTERN = /^[0-9a-f]{16}$/i;

/** What one file of the install is as a package (its id still to hash for a classic one), or undefined when it is none. */
function describeFile(f: VfsFile, plugins: ReadonlyMap<string, string>): { name: string; kind: PackageKind; chunkId?: string } | undefined {
  const winner = f.providers[0]!.file;
  if (winner.chunkType !== undefined) {
    if (winner.chunkType !== 'ExportBundleData' || winner.chunkId === undefined) return undefined;
    const name = mountPathToPackageName(f.path, plugins);
    return name === undefined ? undefined : { name, kind: 'zen', chunkId: winner.chunkId };
  }
  if (isUAssetFileName(f.path)) {
    const name = mountPathToPackageName(f.path, plugins);
    return name === undefined ? undefined : { name, kind: 'uasset' };
  }
  if (isUe12FileName(f.path)) return { name: withoutExtension(f.path.slice(f.path.lastIndexOf('/') + 1)), kind: 'ue12' };
  return undefined;
}

/** A package of the index; a classic package's id is hashed from its name when first asked for. */
class Entry implements IndexedPackage {
  private hashed: string | undefined;
  constructor(readonly name: string, readonly file: VfsFile, readonly kind: PackageKind, chunkId?: string) {
    if (chunkId !== undefined) this.hashed = packageIdOfChunkId(chunkId);
  }
  get id(): string {
    this.hashed ??= packageIdFromName(this.name);
    return this.hashed;
  }
}

export class PackageIndex {
  private readonly byName = new Map<string, IndexedPackage>();
  private readonly byFile = new Map<VfsFile, IndexedPackage>();
  /** Built on first use: hashing every classic package's name costs a few µs each. */
  private byIdCache: Map<string, IndexedPackage> | undefined;

  /** Every package file of the install, once per name (the first path in path order wins). */
  static build(install: Install): PackageIndex {
    const files = [...install.files()];
    const plugins = pluginMounts(files.map((f) => f.path));
    const index = new PackageIndex();
    for (const f of files) {
      const d = describeFile(f, plugins);
      if (!d) continue;
      const key = d.name.toLowerCase();
      if (index.byName.has(key)) continue;
      const entry = new Entry(d.name, f, d.kind, d.chunkId);
      index.byName.set(key, entry);
      index.byFile.set(f, entry);
    }
    return index;
  }

  get size(): number { return this.byName.size; }

  private get byId(): Map<string, IndexedPackage> {
    if (!this.byIdCache) {
      this.byIdCache = new Map();
      for (const p of this.byName.values()) if (!this.byIdCache.has(p.id)) this.byIdCache.set(p.id, p);
    }
    return this.byIdCache;
  }

  /** The package with this id (16 hex digits, any case). */
  byPackageId(id: string): IndexedPackage | undefined { return this.byId.get(id.toLowerCase()); }

  /** The package with this name, case-insensitive ("/Game/Maps/A", "Botpack"). */
  byPackageName(name: string): IndexedPackage | undefined { return this.byName.get(name.toLowerCase()); }

  /** The package a file of the install is. */
  ofFile(file: VfsFile): IndexedPackage | undefined { return this.byFile.get(file); }

  /** The name of a package id the install holds. */
  nameOf(id: string): string | undefined { return this.byId.get(id)?.name; }

  /** Every package, in path order. */
  packages(): IterableIterator<IndexedPackage> { return this.byName.values(); }
}

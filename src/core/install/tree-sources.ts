/**
 * Puts one container's files into the merged tree. An IoStore container whose directory index is
 * a plain tree of names goes in straight from the index: one folder look-up per directory and one
 * hash-index insert per file, with no path, name or object made per file. Any other archive goes
 * in by its files' paths, split at "/" (a folder look-up only where the folder changes).
 */
import type { Archive, ArchiveFile } from '../archive.js';
import type { DirectoryIndex } from '../iostore/directory-index.js';
import { IoStoreContainer } from '../iostore/container.js';
import { PakArchive } from '../pak/pak-archive.js';
import { directoryNameHashes, nameHash, type DirectoryNameHashes } from './name-hash.js';
import { NO_NODE, ROOT, type TreeNodes } from './tree-nodes.js';

/** One archive of the tree, by its place in priority order. */
export interface TreeSource {
  readonly archive: Archive;
  /** How many files it lists (sizes the tree's arrays). */
  readonly fileCount: number;
  /** The name of its file `local` (an index into archive.files()): its last path level, as spelled there. */
  fileName(local: number): string;
  /** archive.files()[local]; made alone where the archive can (a listing needs a few files of many containers). */
  archiveFile(local: number): ArchiveFile;
  /** archive.files()[local].ref, without making the file. */
  ref(local: number): number;
  /** Adds its files to the tree as source number `source`. */
  addTo(nodes: TreeNodes, source: number): void;
}

/**
 * The sources of archives in priority order (the winner first). A patch pak's delete records
 * (pak v6+) hide the files at those paths in every archive below it, as the engine's pak lookup
 * stops at the deleting pak; an archive above it still provides them.
 */
export function treeSources(archives: readonly Archive[]): TreeSource[] {
  const deleted = new Set<string>(); // lowercased paths, from the archives placed so far
  return archives.map((archive) => {
    const files = deleted.size > 0 ? archive.files() : undefined;
    const kept = files?.filter((f) => !deleted.has(normalizedPath(f.path)));
    const source = kept && kept.length < files!.length ? new PathSource(archive, kept) : treeSource(archive);
    if (archive instanceof PakArchive) for (const p of archive.deletedPaths) deleted.add(normalizedPath(p));
    return source;
  });
}

/** A path as the tree compares it: no leading "/", case-insensitive. */
function normalizedPath(path: string): string {
  let start = 0;
  while (path.charCodeAt(start) === 47 /* / */) start++;
  return path.slice(start).toLowerCase();
}

export function treeSource(archive: Archive): TreeSource {
  const index = archive instanceof IoStoreContainer ? archive.directoryIndex : null;
  if (index?.structured) {
    const names = directoryNameHashes(index.strings);
    if (fileNamesArePlain(index, names)) return new IndexSource(archive as IoStoreContainer, index, names.hashes);
  }
  return new PathSource(archive, archive.files());
}

/**
 * True when no file name holds a "/", nor a "\" where the directory prefix is empty (there the
 * path is normalized): then every file is its name in its directory's folder.
 */
function fileNamesArePlain(index: DirectoryIndex, names: DirectoryNameHashes): boolean {
  if (names.slashed.length === 0) return true;
  const slashed = new Map(names.slashed.map((s) => [s.index, s]));
  // A directory's prefix is empty when the base is and no directory on its way has a name.
  const { dirParents, dirNames } = index;
  const emptyPrefix = new Uint8Array(dirParents.length);
  for (let v = 0; v < dirParents.length; v++) {
    const parentEmpty = dirParents[v]! < 0 ? index.basePrefix === '' : emptyPrefix[dirParents[v]!] === 1;
    emptyPrefix[v] = parentEmpty && dirNames[v]! < 0 ? 1 : 0;
  }
  for (let k = 0; k < index.fileNames.length; k++) {
    const s = slashed.get(index.fileNames[k]!);
    if (s && (s.slash || (s.backslash && emptyPrefix[index.fileDirs[k]!]))) return false;
  }
  return true;
}

/**
 * An IoStore container read from its directory index; its local indices are the index's file
 * order, which is the order of its files().
 */
class IndexSource implements TreeSource {
  constructor(readonly archive: IoStoreContainer, private readonly index: DirectoryIndex, private readonly hashes: Uint32Array) {}

  get fileCount(): number { return this.index.fileCount; }

  fileName(local: number): string {
    return this.index.strings.name(this.index.fileNames[local]!);
  }

  archiveFile(local: number): ArchiveFile {
    return this.archive.fileAt(local)!;
  }

  ref(local: number): number {
    return this.index.fileEntries[local]!;
  }

  addTo(nodes: TreeNodes, source: number): void {
    const { strings, dirParents, dirNames, dirFirstFile, fileNames, fileEntries } = this.index;
    const sizes = this.archive.toc.chunkLengths;
    const hashes = this.hashes;
    const base = folderOfPath(nodes, this.index.basePrefix, 0, this.index.basePrefix.length);
    // Parents are visited before their children, so each directory's folder is found from its
    // parent's; a directory's files follow one another.
    const folderOf = new Int32Array(dirParents.length);
    for (let v = 0; v < dirParents.length; v++) {
      const parent = dirParents[v]!;
      const parentFolder = parent < 0 ? base : folderOf[parent]!;
      const name = dirNames[v]!;
      const folder = name < 0 ? parentFolder : nodes.folder(parentFolder, hashes[name]!, strings.name(name));
      folderOf[v] = folder;
      const first = dirFirstFile[v]!;
      const end = dirFirstFile[v + 1]!;
      if (end === first) continue;
      nodes.reserve(folder, end - first); // the folder's table grows once for all of them
      for (let k = first; k < end; k++) nodes.addReservedFile(folder, hashes[fileNames[k]!]!, source, k, sizes[fileEntries[k]!]!);
    }
  }
}

/** Any archive, by the paths of its files(). */
class PathSource implements TreeSource {
  constructor(readonly archive: Archive, private readonly files: readonly ArchiveFile[]) {}

  get fileCount(): number { return this.files.length; }

  fileName(local: number): string {
    const path = this.files[local]!.path;
    return path.slice(path.lastIndexOf('/') + 1);
  }

  archiveFile(local: number): ArchiveFile {
    return this.files[local]!;
  }

  ref(local: number): number {
    return this.files[local]!.ref;
  }

  addTo(nodes: TreeNodes, source: number): void {
    // Containers list files folder by folder, so consecutive files mostly share a folder.
    let lastDir: string | undefined;
    let folder = ROOT;
    for (let local = 0; local < this.files.length; local++) {
      const file = this.files[local]!;
      const path = file.path;
      let start = 0;
      while (path.charCodeAt(start) === 47 /* / */) start++;
      const slash = path.lastIndexOf('/');
      const dirLength = slash < start ? 0 : slash - start;
      if (lastDir === undefined || dirLength !== lastDir.length || !path.startsWith(lastDir, start)) {
        lastDir = path.slice(start, start + dirLength);
        folder = folderOfPath(nodes, lastDir, 0, lastDir.length);
      }
      nodes.addFile(folder, nameHash(path, slash + 1), source, local, file.size);
    }
  }
}

/** The folder at path.slice(from, to) ("a/b", empty levels skipped), made if missing. */
function folderOfPath(nodes: TreeNodes, path: string, from: number, to: number): number {
  let folder = ROOT;
  let start = from;
  while (start < to) {
    let end = path.indexOf('/', start);
    if (end < 0 || end > to) end = to;
    if (end > start) folder = nodes.folder(folder, nameHash(path, start, end), path.slice(start, end));
    else nodes.respelled = true; // an empty level: the path is not the folder's path
    start = end + 1;
  }
  return folder;
}

/** The folder at path.slice(from, to), or NO_NODE; case-insensitive, empty levels skipped. */
export function findFolderOfPath(nodes: TreeNodes, path: string, from: number, to: number): number {
  let folder = ROOT;
  let start = from;
  while (start < to && folder !== NO_NODE) {
    let end = path.indexOf('/', start);
    if (end < 0 || end > to) end = to;
    if (end > start) folder = nodes.findFolder(folder, nameHash(path, start, end), path, start, end);
    start = end + 1;
  }
  return folder;
}

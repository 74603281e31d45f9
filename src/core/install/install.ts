/**
 * An install: the containers of a game folder (or the files the user named) merged into one
 * mount-point tree. The backend and the CLI both open game files through this.
 *
 *   const install = await openInstall(['/games/X/Content/Paks'], { keys });
 *   install.listDir('X/Content');          // folders first, with totals
 *   install.file('X/Content/A.uasset')?.providers[0].archive.read(...)
 */
import { basename, dirname, extname, join } from 'node:path';
import type { Archive, ArchiveFile } from '../archive.js';
import { isInputError } from '../errors.js';
import type { KeyRing } from '../crypto/keys.js';
import type { BlockDecoder } from '../workers/block-job.js';
import { LooseFolderArchive } from './loose-folder.js';
import { openContainer } from './open-container.js';
import { compareByPriority } from './priority.js';
import { scanInstallPaths } from './scan.js';
import { VfsTree, type FilePairing, type TreeArrays } from './vfs-tree.js';

export type { FilePairing } from './vfs-tree.js';

export interface InstallProgress { phase: 'scan' | 'index' | 'done'; done: number; total: number; current?: string }

export interface InstallProblem {
  path: string;
  message: string;
  /** The container could not be read at all (it failed to open, or it is locked without a key). */
  fatal: boolean;
  /** Set when the failure is PakScope's own (a bug), not the input's; the CLI exits 1 for it. */
  internal?: boolean;
}

export interface OpenInstallOptions {
  keys?: KeyRing;
  decoder?: BlockDecoder;
  onProgress?: (p: InstallProgress) => void;
  signal?: AbortSignal;
}

export interface Provider { archive: Archive; file: ArchiveFile }

/** providers: the winner first, then the containers it overrides, by priority. */
export interface VfsFile { path: string; size: number; providers: Provider[] }

/** One file as Install.visitFiles tells it: `folder` + "/" + `name` is its path ('' folder: the root). */
export interface FileVisit {
  folder: string;
  name: string;
  /** Its number (Install.fileById). */
  id: number;
  /** The winning archive, and the file's ref there. */
  archive: Archive;
  ref: number;
}

export interface DirListingEntry {
  name: string;
  path: string;
  isDir: boolean;
  /** Folder: total size of the files below it (matching the filter, if any); file: its size. */
  size: number;
  /** Folder: number of files below it (matching the filter, if any); file: 1. */
  fileCount: number;
  file?: VfsFile;
}

export class Install {
  private tree: VfsTree;

  /** @param archives every opened container, in scan order; priority decides the winners. */
  constructor(readonly roots: string[], readonly archives: Archive[], readonly problems: InstallProblem[]) {
    this.tree = new VfsTree([...archives].sort(compareByPriority));
  }

  get fileCount(): number { return this.tree.fileCount; }
  get totalSize(): number { return this.tree.totalSize; }

  /**
   * Merges the tree again after containers changed, without reopening the install: each
   * [old, next] pair puts `next` in the place of `old` (an IoStore container reopened with a
   * key); a container unlocked in place (PakArchive.unlock) needs no pair, only this call. The
   * problems of the containers are derived again from their status. Closing `old` is the
   * caller's job. VfsFile objects from before the call are stale (they name the old providers).
   */
  updateArchives(replacements: readonly (readonly [Archive, Archive])[] = []): void {
    for (const [old, next] of replacements) {
      const i = this.archives.indexOf(old);
      if (i < 0) throw new Error(`${old.path} is not a container of this install`);
      this.archives[i] = next;
    }
    // Problems of opened containers come from their status; the rest (files that failed to
    // open, scan problems) have no archive and stay.
    const opened = new Set(this.archives.map((a) => a.path));
    const kept = this.problems.filter((p) => !opened.has(p.path));
    this.problems.length = 0;
    this.problems.push(...kept);
    for (const a of this.archives) {
      const s = a.status;
      if (s.state === 'warning') this.problems.push({ path: a.path, message: s.message, fatal: false });
      else if (s.state === 'locked' || s.state === 'error') this.problems.push({ path: a.path, message: s.message, fatal: true });
    }
    this.tree = new VfsTree([...this.archives].sort(compareByPriority));
  }

  /** Case-insensitive, as the engine looks paths up; a leading "/" is ignored. */
  file(path: string): VfsFile | undefined { return this.tree.file(path); }

  /** Every path once, sorted by path. */
  files(): Iterable<VfsFile> { return this.tree.files(); }

  /**
   * Files a container lists more than once in spellings that differ only by case. The engine's
   * lookup ignores case and a later index entry replaces an earlier one: the later wins, and the
   * others stay visible as overridden copies in `providers` (after the winner, before other
   * containers' copies), so that commands can say so.
   */
  caseCopies(): VfsFile[] { return this.tree.caseCopies(); }

  /**
   * Every file in the order of files(), for readers of every file that need no VfsFile per file
   * (the package index): `visit` is handed one FileVisit, filled anew for each file.
   */
  visitFiles(visit: (v: FileVisit) => void): void { this.tree.visitFiles(visit); }

  /**
   * Files by their numbers (FileVisit.id) in the tree as it is now: a reload makes a new tree,
   * and numbers from before it are then read from the old one.
   */
  filesById(): (id: number) => VfsFile {
    const tree = this.tree;
    return (id) => tree.fileById(id);
  }

  /**
   * Pairs every file of this install with the file of `other` at the same path (compared as the
   * engine does, ignoring case), folder by folder through both trees' typed arrays: no path
   * string or VfsFile per file. `both` gets a pair, `onlyHere`/`onlyThere` the rest; numbers as
   * fileById takes them (filesById() of each install).
   */
  /** The tree's typed arrays as they are now (a reload makes new ones), for whole-tree views: see size-map.ts. */
  treeArrays(): TreeArrays { return this.tree.treeArrays(); }

  pairFiles(other: Install, pair: FilePairing): void { this.tree.pairFiles(other.tree, pair); }

  /** File `id`'s size and its winning container and ref there, without making its VfsFile. */
  fileSizeById(id: number): number { return this.tree.fileSize(id); }
  winnerArchiveById(id: number): Archive { return this.tree.winnerArchive(id); }
  winnerRefById(id: number): number { return this.tree.winnerRef(id); }

  /**
   * The entries of one folder ('' = the root): folders first, then files, by name. Folder sizes
   * and counts are the totals below them. `filter` is a glob when it has * ? or [ (full path,
   * case-insensitive, ** crosses folders), else a case-insensitive substring of the full path;
   * only matching files, and folders holding some, are listed, with totals of the matching files.
   */
  listDir(path: string, filter?: string): DirListingEntry[] { return this.tree.listDir(path, filter); }

  /**
   * Text the tree's filter also matches a file by, besides its path (the events that play a Wwise
   * medium named by its id): `labelOf` is asked once per file; a later call replaces the labels.
   * Returns how many files got one.
   */
  setFilterLabels(labelOf: (path: string) => string | undefined): number { return this.tree.setFilterLabels(labelOf); }

  async close(): Promise<void> {
    await Promise.allSettled(this.archives.map((a) => a.close()));
  }
}

/** Containers opened at once: opening reads each TOC or index, so a few in flight hide the disk's latency. */
const OPEN_CONCURRENCY = 4;

/**
 * Opens every container of the given paths. A container that fails is a problem and the rest
 * still open; only an abort (opts.signal) rejects.
 */
export async function openInstall(paths: string[], opts: OpenInstallOptions = {}): Promise<Install> {
  const { signal, onProgress } = opts;
  const scan = await scanInstallPaths(paths, { signal, onProgress });
  const problems = scan.problems;
  const total = scan.files.length;
  const stubs = ioStoreStubs(scan.files);
  // Per scanned file: its archive, or the reason it has none; kept in scan order.
  const outcomes: ({ archive: Archive } | { problem: InstallProblem } | undefined)[] = new Array(total);
  let done = 0;
  let next = 0;

  const openOne = async (i: number): Promise<void> => {
    const path = scan.files[i]!;
    const stub = stubs.has(path);
    try {
      const archive = await openContainer(path, { keys: opts.keys, decoder: opts.decoder });
      // The .pak beside a .utoc of the same name is the IoStore stub: keep it only if it lists files.
      if (stub && archive.files().length === 0) await archive.close();
      else outcomes[i] = { archive };
    } catch (e) {
      const text = e instanceof Error ? e.message : String(e);
      // A stub that fails costs nothing: the .utoc beside it holds the files.
      const message = stub ? `${text} (an IoStore stub: the .utoc beside it holds the files)` : text;
      outcomes[i] = { problem: { path, message, fatal: !stub, ...(isInputError(e) ? {} : { internal: true }) } };
    } finally {
      done++;
      onProgress?.({ phase: 'index', done, total, current: path });
    }
  };
  const worker = async (): Promise<void> => {
    while (next < total && !signal?.aborted) await openOne(next++);
  };
  await Promise.all(Array.from({ length: Math.min(OPEN_CONCURRENCY, total) }, worker));

  const archives: Archive[] = [];
  for (const o of outcomes) {
    if (!o) continue;
    if ('problem' in o) {
      problems.push(o.problem);
      continue;
    }
    const a = o.archive;
    archives.push(a);
    const s = a.status;
    if (s.state === 'warning') problems.push({ path: a.path, message: s.message, fatal: false });
    else if (s.state === 'locked' || s.state === 'error') problems.push({ path: a.path, message: s.message, fatal: true });
  }
  // Loose package files of each root folder, after its containers.
  for (const folder of scan.looseFolders) {
    if (signal?.aborted) break;
    try {
      archives.push(await LooseFolderArchive.open(folder.root, folder.files));
    } catch (e) {
      problems.push({ path: folder.root, message: e instanceof Error ? e.message : String(e), fatal: false });
    }
  }
  if (signal?.aborted) {
    await Promise.allSettled(archives.map((a) => a.close()));
    signal.throwIfAborted();
  }
  const install = new Install([...paths], archives, problems);
  onProgress?.({ phase: 'done', done: total, total });
  return install;
}

/** The .pak files that sit beside a .utoc of the same name. */
function ioStoreStubs(files: readonly string[]): Set<string> {
  const tocs = new Set(files.filter((f) => extname(f).toLowerCase() === '.utoc').map((f) => withoutExtension(f).toLowerCase()));
  return new Set(files.filter((f) => extname(f).toLowerCase() === '.pak' && tocs.has(withoutExtension(f).toLowerCase())));
}

function withoutExtension(p: string): string {
  return join(dirname(p), basename(p, extname(p)));
}

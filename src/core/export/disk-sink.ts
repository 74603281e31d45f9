/**
 * Writes exported files below a folder without ever writing outside it:
 * - names were checked by safe-path.ts;
 * - folders are created one level at a time, and an existing entry on the way must be a real
 *   folder, or a symlink whose target (realpath) is inside the output folder (synchronously: a
 *   folder is made once for many files, and a promise round trip per step cost more than the step);
 * - each file is written to a fresh temporary name opened with O_CREAT|O_EXCL|O_NOFOLLOW and
 *   renamed into place when complete: rename replaces a symlink at the final name instead of
 *   following it, a cancelled or failed file leaves nothing behind, and no reader sees half a file;
 * - an existing file is only replaced under 'overwrite'.
 * Small files are written by a worker instead (reserve/settleExisting; workers/file-write.ts does
 * the same steps): their bytes never come to this thread.
 */
import { randomBytes } from 'node:crypto';
import { lstatSync, mkdirSync, realpathSync, type Stats } from 'node:fs';
import { lstat, open, rename, unlink, type FileHandle } from 'node:fs/promises';
import { CREATE_NEW, numberedTemp, type SplitWriteTarget, type WriteTarget } from '../workers/file-write.js';
import { basename, dirname, sep } from 'node:path';
import type { EntryWriter, ExportSink } from './sink.js';
import { Destination, isInside, numberedName, UnsafePathError } from './safe-path.js';
import type { ConflictPolicy } from './types.js';

/** "name (2).ext" ... "name (N).ext" are tried before keep-both gives up. */
const MAX_COPIES = 10_000;

export class DiskSink implements ExportSink {
  /** Folders checked or made, by relative path ('' = the root), each done once. */
  private readonly folders = new Map<string, string>();
  private last: { segments: readonly string[]; dir: string } | null = null;
  /** Per folder, the final names (lowercased) claimed in this run, so keep-both never picks one twice. */
  private readonly claimed = new Map<string, Set<string>>();
  /** The folder of the last claim and its names: an export's files come folder by folder. */
  private lastClaims: { dir: string; names: Set<string> } = { dir: '\0', names: new Set() };
  /** The last folder reserved in, and its path with a trailing separator. */
  private lastPrefix = { dir: '\0', prefix: '' };
  /** Folders this run created: nothing in them predates the run, so no name needs looking up on disk. */
  private readonly created = new Set<string>();
  private realRoot = '';
  /** Every final and temporary path is checked by it before anything is written (safe-path.ts). */
  private dest!: Destination;
  /** Temporary names: one random part per run, then a counter (numberedTemp). */
  private readonly tempPrefix = `.pakscope-${randomBytes(6).toString('hex')}-`;
  private tempCount = 0;

  private constructor(private readonly root: string, private readonly conflict: ConflictPolicy) {}

  /**
   * Creates the output folder if missing. Synchronously: four quick calls, where four trips
   * through libuv's thread pool kept the workers waiting a few milliseconds at every export's start.
   */
  static async create(root: string, conflict: ConflictPolicy): Promise<DiskSink> {
    const sink = new DiskSink(root, conflict);
    const existed = lstatOrNullSync(root) !== null;
    mkdirSync(root, { recursive: true });
    sink.realRoot = realpathSync(root);
    sink.dest = new Destination(sink.realRoot);
    const s = lstatSync(sink.realRoot);
    if (!s.isDirectory()) throw Object.assign(new Error(`${root} is not a folder`), { code: 'ENOTDIR' });
    if (!existed) sink.created.add(sink.realRoot);
    return sink;
  }

  async begin(path: string, segments: readonly string[]): Promise<{ writer: EntryWriter } | { skipped: string }> {
    const dir = this.folder(path, segments, segments.length - 1);
    const chosen = this.chooseTarget(path, dir, segments[segments.length - 1]!);
    if (typeof chosen !== 'string') return chosen;
    const target = this.dest.file(dir, chosen, path);
    const temp = this.dest.file(dir, numberedTemp(this.tempPrefix, ++this.tempCount), path);
    const handle = await open(temp, CREATE_NEW, 0o644);
    return { writer: new DiskEntryWriter(this, handle, temp, target, path) };
  }

  /**
   * For a worker to write `path` (checked by safe-path.ts): its folder made and checked, the name
   * chosen under the conflict policy, and a fresh temporary name beside it. `checkTarget` is false
   * where whatever is at the name is to be replaced (overwrite, or a folder this run created).
   */
  reserve(path: string, dir: readonly string[], name: string): SplitWriteTarget | { skipped: string } {
    const folder = this.folder(path, dir);
    const chosen = this.chooseTarget(path, folder, name);
    if (typeof chosen !== 'string') return chosen;
    this.dest.check(folder, chosen, path);
    return new ReservedTarget(this.prefixOf(folder), chosen, this.tempPrefix, ++this.tempCount,
      !(this.conflict === 'overwrite' || this.created.has(folder)));
  }

  /** `folder` with a trailing separator, one string per folder (a write job packs each folder once, found by its string). */
  private prefixOf(folder: string): string {
    if (this.lastPrefix.dir !== folder) this.lastPrefix = { dir: folder, prefix: childPath(folder, '') };
    return this.lastPrefix.prefix;
  }

  /**
   * The worker found a file at the target meanwhile and left its bytes at `to.temp`: skip removes
   * them, keep-both renames them to the next free numbered name.
   */
  async settleExisting(to: WriteTarget, path: string): Promise<{ path: string } | { skipped: string }> {
    try {
      const target = await this.finalTarget(to.target, path);
      if ('skipped' in target) {
        await unlink(to.temp).catch(() => undefined);
        return target;
      }
      await rename(to.temp, target.absolute);
      return { path: path.slice(0, path.lastIndexOf('/') + 1) + basename(target.absolute) };
    } catch (e) {
      await unlink(to.temp).catch(() => undefined);
      throw e;
    }
  }

  async close(): Promise<void> {}
  async abort(): Promise<void> {}

  /** The name to write in folder `dir`: `name` itself, a numbered copy (keep-both), or nothing (skip). */
  private chooseTarget(path: string, dir: string, name: string): string | { skipped: string } {
    const existing = this.created.has(dir) ? null : lstatOrNullSync(childPath(dir, name));
    if (existing?.isDirectory()) throw new UnsafePathError(path, 'a folder of that name exists in the output');
    // Overwrite writes to the name whatever was there or was claimed: nothing to keep track of.
    if (this.conflict === 'overwrite') return name;
    const claimed = this.claimsIn(dir);
    const lower = name.toLowerCase();
    if (!existing && !claimed.has(lower)) {
      claimed.add(lower);
      return name;
    }
    if (this.conflict === 'skip') return { skipped: 'exists in the output folder (not overwritten)' };
    for (let n = 2; n <= MAX_COPIES; n++) {
      const candidate = numberedName(name, n);
      const candidateLower = candidate.toLowerCase();
      if (!claimed.has(candidateLower) && !lstatOrNullSync(childPath(dir, candidate))) {
        claimed.add(candidateLower);
        return candidate;
      }
    }
    throw new Error(`${path}: ${MAX_COPIES} copies exist already`);
  }

  /** The names claimed in folder `dir`. */
  private claimsIn(dir: string): Set<string> {
    if (this.lastClaims.dir === dir) return this.lastClaims.names;
    let names = this.claimed.get(dir);
    if (!names) this.claimed.set(dir, names = new Set());
    this.lastClaims = { dir, names };
    return names;
  }

  /** Called at commit: under skip and keep-both, a file that appeared meanwhile is still not replaced. */
  async finalTarget(absolute: string, path: string): Promise<{ absolute: string } | { skipped: string }> {
    if (this.conflict === 'overwrite' || this.created.has(dirname(absolute))) return { absolute };
    const existing = await lstatOrNull(absolute);
    if (!existing) return { absolute };
    if (this.conflict === 'skip') return { skipped: 'exists in the output folder (not overwritten)' };
    const chosen = this.chooseTarget(path, dirname(absolute), basename(absolute));
    return typeof chosen === 'string' ? { absolute: this.dest.file(dirname(absolute), chosen, path) } : chosen;
  }

  /** The folder for the first `count` of `segments` below the root, created level by level and checked once. */
  private folder(path: string, segments: readonly string[], count = segments.length): string {
    // Files come folder by folder: the last folder again needs no key.
    if (this.last && sameSegments(this.last.segments, segments, count)) return this.last.dir;
    const dirSegments = segments.slice(0, count);
    const dir = this.folderOf(path, dirSegments);
    this.last = { segments: dirSegments, dir };
    return dir;
  }

  private folderOf(path: string, dirSegments: readonly string[]): string {
    const key = dirSegments.join('/').toLowerCase();
    let dir = this.folders.get(key);
    if (dir === undefined) {
      // A failure is the file's; a later file may try again (another name may have been the problem).
      dir = dirSegments.length === 0
        ? this.realRoot
        : this.enter(path, this.folderOf(path, dirSegments.slice(0, -1)), dirSegments[dirSegments.length - 1]!);
      this.folders.set(key, dir);
    }
    return dir;
  }

  /** `parent/name` as a folder: made if missing; a symlink only if it resolves inside the root. */
  private enter(path: string, parent: string, name: string): string {
    const dir = childPath(parent, name);
    // Nothing predates this run in a folder it created: no need to look before making one.
    let s = this.created.has(parent) ? null : lstatOrNullSync(dir);
    if (!s) {
      try {
        mkdirSync(dir);
        this.created.add(dir);
        return dir;
      } catch (e) {
        if ((e as NodeJS.ErrnoException).code !== 'EEXIST') throw e;
      }
      s = lstatSync(dir);
    }
    if (s.isSymbolicLink()) {
      let target: string | null;
      try {
        target = realpathSync(dir);
      } catch {
        target = null;
      }
      if (target === null || !isInside(this.realRoot, target)) {
        throw new UnsafePathError(path, `"${name}" in the output folder is a symlink to a place outside it`);
      }
      if (!lstatSync(target).isDirectory()) throw new UnsafePathError(path, `"${name}" in the output folder is not a folder`);
      return target;
    }
    if (!s.isDirectory()) throw new UnsafePathError(path, `"${name}" in the output folder is a file, not a folder`);
    return dir;
  }
}

/** A name reserved for a worker to write: its folder and names apart, joined only when asked. */
class ReservedTarget implements SplitWriteTarget {
  constructor(readonly dirPrefix: string, readonly name: string, readonly tempPrefix: string, readonly tempNumber: number,
    readonly checkTarget: boolean) {}

  get target(): string {
    return this.dirPrefix + this.name;
  }

  get temp(): string {
    return this.dirPrefix + numberedTemp(this.tempPrefix, this.tempNumber);
  }
}

class DiskEntryWriter implements EntryWriter {
  private closed = false;

  constructor(
    private readonly sink: DiskSink,
    private readonly handle: FileHandle,
    private readonly temp: string,
    private readonly target: string,
    private readonly path: string,
  ) {}

  async write(chunk: Uint8Array): Promise<void> {
    let done = 0;
    while (done < chunk.length) {
      const { bytesWritten } = await this.handle.write(chunk, done, chunk.length - done);
      done += bytesWritten;
    }
  }

  async commit(): Promise<{ path: string } | { skipped: string }> {
    await this.close();
    const target = await this.sink.finalTarget(this.target, this.path);
    if ('skipped' in target) {
      await unlink(this.temp).catch(() => undefined);
      return target;
    }
    try {
      await rename(this.temp, target.absolute);
    } catch (e) {
      await unlink(this.temp).catch(() => undefined);
      throw e;
    }
    // keep-both may have numbered the name; the folders are the path's own.
    return { path: this.path.slice(0, this.path.lastIndexOf('/') + 1) + basename(target.absolute) };
  }

  async discard(): Promise<void> {
    await this.close().catch(() => undefined);
    await unlink(this.temp).catch((e: NodeJS.ErrnoException) => {
      if (e.code !== 'ENOENT') throw e;
    });
  }

  private async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    await this.handle.close();
  }
}

/** `a` is the first `count` of `b`. */
function sameSegments(a: readonly string[], b: readonly string[], count: number): boolean {
  if (a.length !== count) return false;
  for (let i = 0; i < count; i++) if (a[i] !== b[i]) return false;
  return true;
}

/**
 * `dir`/`name` for a name safe-path.ts accepted (no separator, not "." or ".."): what path.join
 * gives, without normalizing a path that is normal already (thousands of files per export).
 */
function childPath(dir: string, name: string): string {
  return dir.endsWith(sep) ? dir + name : dir + sep + name;
}

function lstatOrNullSync(p: string): Stats | null {
  try {
    return lstatSync(p);
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw e;
  }
}

async function lstatOrNull(p: string): Promise<Stats | null> {
  try {
    return await lstat(p);
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw e;
  }
}

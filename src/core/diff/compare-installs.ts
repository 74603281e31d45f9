/**
 * Compares two installs file by file: every path added, removed or changed, the files that moved
 * (same content, new path) and how many are unchanged. Same content means the same decoded bytes.
 * Where both sides are IoStore chunks with a stored hash, the hashes are compared and nothing is
 * read; otherwise a different size settles it, and only files of equal size are read, decoded
 * and hashed (in the worker pool when the digester is one).
 *
 *   const diff = await compareInstalls(oldInstall, newInstall, { digest: pool.digest });
 */
import { basename } from 'node:path';
import { asError } from '../errors.js';
import { CHUNK_HASH_BYTES, contentDigest } from '../hash/chunk-hash.js';
import { bytesToHex } from '../io/hex.js';
import type { Install, VfsFile } from '../install/install.js';
import { IoStoreContainer } from '../iostore/container.js';
import { chunkMetaHash } from '../iostore/toc.js';
import type { AddedOrRemovedFile, InstallDiff, MovedFile } from './types.js';

export interface CompareOptions {
  /** Hashes decoded bytes; WorkerPool.digest runs it off this thread. Default: on this thread. */
  digest?: (data: Uint8Array) => Promise<string>;
  /** Files read at once when contents must be hashed. */
  concurrency?: number;
  signal?: AbortSignal;
  onProgress?: (done: number, total: number) => void;
}

/** Files read in flight: enough to keep the pool's threads busy, few enough to bound memory. */
const DEFAULT_CONCURRENCY = 8;

/** A chunk's stored hash, and what tells hash schemes apart (UE4 SHA-1 vs UE5 BLAKE3: the TOC version). */
interface StoredHash { bytes: Uint8Array; scheme: number }

export async function compareInstalls(oldInstall: Install, newInstall: Install, opts: CompareOptions = {}): Promise<InstallDiff> {
  const digest = opts.digest ?? contentDigest;
  const signal = opts.signal;
  const concurrency = opts.concurrency ?? DEFAULT_CONCURRENCY;
  const stats = { byStoredHash: 0, bySize: 0, byDigest: 0, filesRead: 0 };
  const unreadable: InstallDiff['unreadable'] = [];
  const oldSide = new Side(oldInstall), newSide = new Side(newInstall);

  const removed: number[] = [];
  const added: number[] = [];
  const changed: [number, number][] = [];
  const toRead: [number, number][] = [];
  let unchanged = 0;
  oldInstall.pairFiles(newInstall, {
    both(a, b) {
      if (oldInstall.fileSizeById(a) !== newInstall.fileSizeById(b)) {
        stats.bySize++;
        changed.push([a, b]);
        return;
      }
      // Stored hashes compared where they lie in each TOC: no object per file.
      const at = oldSide.hashAt(a), bt = newSide.hashAt(b);
      if (at >= 0 && bt >= 0) {
        if (sameBytes(oldSide.metas!, at, newSide.metas!, bt, CHUNK_HASH_BYTES)) {
          stats.byStoredHash++;
          unchanged++;
          return;
        }
        // The same scheme and different hashes: different bytes. Different schemes say nothing.
        if (oldSide.scheme === newSide.scheme) {
          stats.byStoredHash++;
          changed.push([a, b]);
          return;
        }
      }
      toRead.push([a, b]);
    },
    onlyHere(a) { removed.push(a); },
    onlyThere(b) { added.push(b); },
  });

  // Equal sizes without comparable hashes: read both and hash the decoded bytes.
  const reader = new DigestReader(digest, stats, unreadable, signal);
  let done = 0;
  await runLimited(toRead, concurrency, signal, async ([a, b]) => {
    const [da, db] = await Promise.all([reader.digestOf(oldSide, a), reader.digestOf(newSide, b)]);
    stats.byDigest++;
    if (da === undefined || db === undefined || da !== db) changed.push([a, b]);
    else unchanged++;
    opts.onProgress?.(++done, toRead.length);
  });

  const moved = await findMoves(oldSide, removed, newSide, added, reader, concurrency, signal);
  const movedOld = new Set(moved.map(([a]) => a));
  const movedNew = new Set(moved.map(([, b]) => b));
  const byPath = (x: { path: string }, y: { path: string }): number => (x.path < y.path ? -1 : x.path > y.path ? 1 : 0);
  const sized = (side: Side, id: number): AddedOrRemovedFile => ({ path: side.path(id), size: side.install.fileSizeById(id) });

  return {
    added: added.filter((b) => !movedNew.has(b)).map((b) => sized(newSide, b)).sort(byPath),
    removed: removed.filter((a) => !movedOld.has(a)).map((a) => sized(oldSide, a)).sort(byPath),
    changed: changed
      .map(([a, b]) => ({ path: newSide.path(b), oldSize: oldInstall.fileSizeById(a), newSize: newInstall.fileSizeById(b) }))
      .sort(byPath),
    moved: moved.map(([a, b]): MovedFile => ({ oldPath: oldSide.path(a), newPath: newSide.path(b) }))
      .sort((x, y) => (x.newPath < y.newPath ? -1 : x.newPath > y.newPath ? 1 : 0)),
    unchanged,
    stats,
    unreadable,
  };
}

/** One install's files by number: where their stored hashes are and, for the few reported, their paths. */
class Side {
  private readonly byId: (id: number) => VfsFile;
  /** Set by hashAt: the chunk metas of the file's container and its hash scheme (the TOC version). */
  metas: Uint8Array | null = null;
  scheme = 0;

  constructor(readonly install: Install) {
    this.byId = install.filesById();
  }

  path(id: number): string { return this.byId(id).path; }

  /**
   * Where file `id`'s stored hash starts in `metas` (set with `scheme`), or -1: another kind of
   * container, or a hash of zeros (none stored).
   */
  hashAt(id: number): number {
    const archive = this.install.winnerArchiveById(id);
    if (!(archive instanceof IoStoreContainer)) return -1;
    const toc = archive.toc;
    const at = this.install.winnerRefById(id) * toc.metaStride;
    const metas = toc.metas;
    for (let i = 0; i < CHUNK_HASH_BYTES; i++) {
      if (metas[at + i] !== 0) {
        this.metas = metas;
        this.scheme = toc.header.version;
        return at;
      }
    }
    return -1;
  }

  /** The stored hash of file `id`, or undefined (see hashAt). */
  storedHash(id: number): StoredHash | undefined {
    const at = this.hashAt(id);
    return at < 0 ? undefined : { bytes: this.metas!.subarray(at, at + CHUNK_HASH_BYTES), scheme: this.scheme };
  }
}

/**
 * Pairs removed and added files of the same content (same size first, then the stored hash or
 * the digest of the bytes): each removed file moves to at most one added file.
 */
async function findMoves(
  oldSide: Side, removed: readonly number[], newSide: Side, added: readonly number[], reader: DigestReader, concurrency: number, signal?: AbortSignal,
): Promise<[number, number][]> {
  const sizes = new Set(added.map((b) => newSide.install.fileSizeById(b)));
  const removedCandidates = removed.filter((a) => sizes.has(oldSide.install.fileSizeById(a)));
  if (removedCandidates.length === 0) return [];
  const oldSizes = new Set(removedCandidates.map((a) => oldSide.install.fileSizeById(a)));
  const addedCandidates = added.filter((b) => oldSizes.has(newSide.install.fileSizeById(b)));
  const keyOf = async (side: Side, id: number): Promise<string | undefined> => {
    const size = side.install.fileSizeById(id);
    const stored = side.storedHash(id);
    if (stored) return `${size}:h${stored.scheme}:${bytesToHex(stored.bytes)}`;
    const d = await reader.digestOf(side, id);
    return d === undefined ? undefined : `${size}:d:${d}`;
  };
  const oldKeys = new Map<number, string>(), newKeys = new Map<number, string>();
  await runLimited(removedCandidates, concurrency, signal, async (a) => {
    const k = await keyOf(oldSide, a);
    if (k !== undefined) oldKeys.set(a, k);
  });
  await runLimited(addedCandidates, concurrency, signal, async (b) => {
    const k = await keyOf(newSide, b);
    if (k !== undefined) newKeys.set(b, k);
  });
  const waiting = new Map<string, number[]>();
  for (const a of removedCandidates) {
    const key = oldKeys.get(a);
    if (key === undefined) continue;
    const list = waiting.get(key);
    if (list) list.push(a);
    else waiting.set(key, [a]);
  }
  const pairs: [number, number][] = [];
  for (const b of addedCandidates) {
    const key = newKeys.get(b);
    const from = key === undefined ? undefined : waiting.get(key)?.shift();
    if (from !== undefined) pairs.push([from, b]);
  }
  return pairs;
}

/** Reads a file's winning copy and hashes it; a file that cannot be read is recorded once. */
class DigestReader {
  private readonly failed = new Set<string>();

  constructor(
    private readonly digest: (data: Uint8Array) => Promise<string>,
    private readonly stats: InstallDiff['stats'],
    private readonly unreadable: InstallDiff['unreadable'],
    private readonly signal?: AbortSignal,
  ) {}

  async digestOf(side: Side, id: number): Promise<string | undefined> {
    const archive = side.install.winnerArchiveById(id), ref = side.install.winnerRefById(id);
    try {
      const bytes = await archive.read(ref, this.signal);
      this.stats.filesRead++;
      return await this.digest(bytes);
    } catch (e) {
      this.signal?.throwIfAborted();
      const path = side.path(id);
      if (!this.failed.has(path)) {
        this.failed.add(path);
        this.unreadable.push({ path, message: `${basename(archive.path)}: ${asError(e).message}` });
      }
      return undefined;
    }
  }
}

function sameBytes(a: Uint8Array, at: number, b: Uint8Array, bt: number, n: number): boolean {
  for (let i = 0; i < n; i++) if (a[at + i] !== b[bt + i]) return false;
  return true;
}

/** Runs `work` on every item, at most `limit` at once; the first failure rejects. */
async function runLimited<T>(items: readonly T[], limit: number, signal: AbortSignal | undefined, work: (item: T) => Promise<void>): Promise<void> {
  let next = 0;
  const worker = async (): Promise<void> => {
    while (next < items.length) {
      signal?.throwIfAborted();
      await work(items[next++]!);
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
}

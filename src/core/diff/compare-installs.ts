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
import { contentDigest } from '../hash/chunk-hash.js';
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
  const stats = { byStoredHash: 0, bySize: 0, byDigest: 0, filesRead: 0 };
  const unreadable: InstallDiff['unreadable'] = [];

  const oldFiles = [...oldInstall.files()];
  const newFiles = [...newInstall.files()];
  const newByKey = new Map<string, VfsFile>();
  for (const f of newFiles) newByKey.set(f.path.toLowerCase(), f);

  const removed: VfsFile[] = [];
  const toRead: [VfsFile, VfsFile][] = [];
  const changedFiles = new Set<VfsFile>(); // new side's file
  let unchanged = 0;
  const seenNew = new Set<VfsFile>();
  for (const a of oldFiles) {
    const b = newByKey.get(a.path.toLowerCase());
    if (!b) {
      removed.push(a);
      continue;
    }
    seenNew.add(b);
    if (a.size !== b.size) {
      stats.bySize++;
      changedFiles.add(b);
      continue;
    }
    const ha = storedHash(a), hb = storedHash(b);
    if (ha && hb) {
      if (bytesEqual(ha.bytes, hb.bytes)) {
        stats.byStoredHash++;
        unchanged++;
        continue;
      }
      // The same scheme and different hashes: different bytes. Different schemes say nothing.
      if (ha.scheme === hb.scheme) {
        stats.byStoredHash++;
        changedFiles.add(b);
        continue;
      }
    }
    toRead.push([a, b]);
  }
  const added = newFiles.filter((f) => !seenNew.has(f));

  // Equal sizes without comparable hashes: read both and hash the decoded bytes.
  const reader = new DigestReader(digest, stats, unreadable, signal);
  let done = 0;
  await runLimited(toRead, opts.concurrency ?? DEFAULT_CONCURRENCY, signal, async ([a, b]) => {
    const [da, db] = await Promise.all([reader.digestOf(a), reader.digestOf(b)]);
    stats.byDigest++;
    if (da === undefined || db === undefined || da !== db) changedFiles.add(b);
    else unchanged++;
    opts.onProgress?.(++done, toRead.length);
  });

  const moved = await findMoves(removed, added, reader, opts.concurrency ?? DEFAULT_CONCURRENCY, signal);
  const movedOld = new Set(moved.map(([a]) => a));
  const movedNew = new Set(moved.map(([, b]) => b));
  const oldByKey = new Map(oldFiles.map((f) => [f.path.toLowerCase(), f]));
  const byPath = (x: { path: string }, y: { path: string }): number => (x.path < y.path ? -1 : x.path > y.path ? 1 : 0);

  return {
    added: added.filter((f) => !movedNew.has(f)).map(sized).sort(byPath),
    removed: removed.filter((f) => !movedOld.has(f)).map(sized).sort(byPath),
    changed: [...changedFiles]
      .map((b) => ({ path: b.path, oldSize: oldByKey.get(b.path.toLowerCase())!.size, newSize: b.size }))
      .sort(byPath),
    moved: moved.map(([a, b]): MovedFile => ({ oldPath: a.path, newPath: b.path }))
      .sort((x, y) => (x.newPath < y.newPath ? -1 : x.newPath > y.newPath ? 1 : 0)),
    unchanged,
    stats,
    unreadable,
  };
}

function sized(f: VfsFile): AddedOrRemovedFile {
  return { path: f.path, size: f.size };
}

/**
 * Pairs removed and added files of the same content (same size first, then the stored hash or
 * the digest of the bytes): each removed file moves to at most one added file, in path order.
 */
async function findMoves(
  removed: readonly VfsFile[], added: readonly VfsFile[], reader: DigestReader, concurrency: number, signal?: AbortSignal,
): Promise<[VfsFile, VfsFile][]> {
  const sizes = new Set(added.map((f) => f.size));
  const removedCandidates = removed.filter((f) => sizes.has(f.size));
  if (removedCandidates.length === 0) return [];
  const oldSizes = new Set(removedCandidates.map((f) => f.size));
  const addedCandidates = added.filter((f) => oldSizes.has(f.size));
  const keyOf = new Map<VfsFile, string>();
  await runLimited([...removedCandidates, ...addedCandidates], concurrency, signal, async (f) => {
    const key = await contentKey(f, reader);
    if (key !== undefined) keyOf.set(f, key);
  });
  const waiting = new Map<string, VfsFile[]>();
  for (const f of removedCandidates) {
    const key = keyOf.get(f);
    if (key === undefined) continue;
    const list = waiting.get(key);
    if (list) list.push(f);
    else waiting.set(key, [f]);
  }
  const pairs: [VfsFile, VfsFile][] = [];
  for (const f of addedCandidates) {
    const key = keyOf.get(f);
    const from = key === undefined ? undefined : waiting.get(key)?.shift();
    if (from) pairs.push([from, f]);
  }
  return pairs;
}

/** What identifies a file's content for move detection: its size and stored hash, else its size and digest. */
async function contentKey(f: VfsFile, reader: DigestReader): Promise<string | undefined> {
  const stored = storedHash(f);
  if (stored) return `${f.size}:h${stored.scheme}:${Buffer.from(stored.bytes).toString('hex')}`;
  const d = await reader.digestOf(f);
  return d === undefined ? undefined : `${f.size}:d:${d}`;
}

/** Reads a file's winning copy and hashes it; a file that cannot be read is recorded once. */
class DigestReader {
  private readonly failed = new Set<VfsFile>();

  constructor(
    private readonly digest: (data: Uint8Array) => Promise<string>,
    private readonly stats: InstallDiff['stats'],
    private readonly unreadable: InstallDiff['unreadable'],
    private readonly signal?: AbortSignal,
  ) {}

  async digestOf(f: VfsFile): Promise<string | undefined> {
    const { archive, file } = f.providers[0]!;
    try {
      const bytes = await archive.read(file.ref, this.signal);
      this.stats.filesRead++;
      return await this.digest(bytes);
    } catch (e) {
      this.signal?.throwIfAborted();
      if (!this.failed.has(f)) {
        this.failed.add(f);
        this.unreadable.push({ path: f.path, message: `${basename(archive.path)}: ${asError(e).message}` });
      }
      return undefined;
    }
  }
}

/** The stored hash of an IoStore chunk, or undefined (another kind of container, or a hash of zeros: none stored). */
function storedHash(f: VfsFile): StoredHash | undefined {
  const { archive, file } = f.providers[0]!;
  if (!(archive instanceof IoStoreContainer)) return undefined;
  const bytes = chunkMetaHash(archive.toc, file.ref).subarray(0, 20);
  if (bytes.every((x) => x === 0)) return undefined;
  return { bytes, scheme: archive.toc.header.version };
}

function bytesEqual(a: Uint8Array, b: Uint8Array): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
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

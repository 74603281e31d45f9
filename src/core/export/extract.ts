/**
 * Exports selected files of an install to a folder or a zip: several files in flight (their
 * blocks decode in the install's decoder, the worker pool), progress reported, cancellable at any
 * moment, and a summary at the end that lists what failed or was skipped without having stopped
 * the rest. Names are checked by safe-path.ts first; a refused name is a failure of that file only.
 *
 * To a folder through a worker pool, files are read, decoded and written by workers (a big one
 * in pieces, workers/file-write.ts) in batches of neighbours, whatever archives they come from
 * (DiskSink.reserve for each, then each archive plans its files into one write job, which every
 * worker shares, writeBatches): their bytes never come to this thread, which spends a few
 * messages per batch, not per file, and the next batch is ready when the workers finish one.
 * Zips, JSON models and archives without workers are streamed here piece by piece.
 *
 *   const pool = createWorkerPool();
 *   const install = await openInstall([paks], { keys, decoder: pool });
 *   const summary = await extractFiles(install, { filters: ['*.uasset'] }, { out: 'Export', onProgress });
 */
import { setMaxListeners } from 'node:events';
import type { Install } from '../install/install.js';
import type { Archive } from '../archive.js';
import { IoStoreContainer } from '../iostore/container.js';
import { PakArchive } from '../pak/pak-archive.js';
import type { WriteResult, WriteTarget } from '../workers/file-write.js';
import { writeBatches, type PlannedBatch, type WriteWatch } from '../workers/block-plan.js';
import { WriteJobBuilder } from '../workers/packed-writes.js';
import { FileFlag } from '../workers/wire.js';
import { asError } from '../errors.js';
import { DiskSink } from './disk-sink.js';
import { filePieces } from './file-pieces.js';
import { AssetConverter, type ConvertedOutput } from './asset-convert.js';
import { PackageJsonConverter } from './package-json.js';
import { ProgressMeter, type LiveCount } from './progress.js';
import { PathChecker, printable, UnsafePathError } from './safe-path.js';
import { systemErrorText } from '../system-error.js';
import { exportItems, selectFiles, type ExportItem } from './selection.js';
import type { EntryWriter, ExportSink } from './sink.js';
import type { ConflictPolicy, ExportFailure, ExportFormat, ExportOptions, ExportSelection, ExportSkip, ExportSummary } from './types.js';
import { ZIP_MAX_BYTES, ZIP_MAX_ENTRIES, ZipBrokenError, ZipLimitError, ZipSink } from './zip-sink.js';

const DEFAULT_CONCURRENCY = 8;
/**
 * Batches of files written by workers: every thread of the pool works on a batch at once, each
 * claiming files as it goes (workers/file-write.ts), so a batch ends on all threads together
 * and big batches cost no waiting at the end. The first batch is small, so the workers start at
 * once; each next may be BATCH_GROWTH times the size, up to this many files and bytes (unless
 * one file is bigger). A batch costs this thread a few messages and promises, so fewer, bigger
 * batches leave the cores to the workers (on 2 cores, going from 8 batches to 5 for 66 MiB of
 * small files took about 2 % less CPU); progress still moves as each file finishes
 * (ProgressMeter.watch looks at the batch's file flags).
 */
const FIRST_BATCH_FILES = 32;
const FIRST_BATCH_BYTES = 1024 * 1024;
const BATCH_GROWTH = 4;
const BATCH_FILES = 4096;
const BATCH_BYTES = 32 * 1024 * 1024;
/**
 * Worker batches in flight at once: one being written, the next waiting, one more being made.
 * Counted, not weighed: workers stream a big file in pieces, so a batch holds little here
 * whatever its size.
 */
const DIRECT_WINDOW_BATCHES = 3;
const DEFAULT_ZIP_LEVEL = 6;
/** System errors after which every other file would fail the same way: the export stops. */
const FATAL_CODES = new Set(['ENOSPC', 'EDQUOT', 'EROFS', 'EMFILE', 'ENFILE']);

/** The options checked and with their defaults. */
interface Settings {
  format: ExportFormat;
  conflict: ConflictPolicy;
  companions: boolean;
  concurrency: number;
  zipLevel: number;
}

function settings(o: ExportOptions): Settings {
  if ((o.out === undefined) === (o.zip === undefined)) throw new TypeError('give exactly one of `out` (a folder) and `zip` (a .zip file)');
  const format = o.format ?? 'raw';
  if (format !== 'raw' && format !== 'json' && format !== 'convert') throw new TypeError(`format must be 'raw', 'json' or 'convert', not ${String(format)}`);
  const conflict = o.conflict ?? 'skip';
  if (!['overwrite', 'skip', 'keep-both'].includes(conflict)) throw new TypeError(`conflict must be 'overwrite', 'skip' or 'keep-both', not ${String(conflict)}`);
  const concurrency = o.concurrency ?? DEFAULT_CONCURRENCY;
  if (!Number.isInteger(concurrency) || concurrency < 1) throw new RangeError(`concurrency must be a whole number 1 or more, not ${concurrency}`);
  const zipLevel = o.zipLevel ?? DEFAULT_ZIP_LEVEL;
  if (!Number.isInteger(zipLevel) || zipLevel < 0 || zipLevel > 9) throw new RangeError(`zipLevel must be 0 to 9, not ${zipLevel}`);
  return { format, conflict, companions: o.companions ?? format !== 'json', concurrency, zipLevel };
}

/**
 * Exports the selected files. Resolves with the summary, also when cancelled (`cancelled: true`;
 * the file in progress is removed, a zip is removed whole). Rejects only when the export cannot
 * go on at all: bad options, an output that cannot be created, a full disk, a zip past its limits.
 */
export async function extractFiles(install: Install, selection: ExportSelection | readonly string[], options: ExportOptions): Promise<ExportSummary> {
  const started = performance.now();
  const s = settings(options);
  options.signal?.throwIfAborted();
  const sel: ExportSelection = isPathList(selection) ? { paths: selection } : selection;
  const chosen = selectFiles(install, sel);
  const { items, skipped: duplicates } = exportItems(install, chosen.files, s.companions);
  const failed: ExportFailure[] = [...chosen.failed];
  const skipped: ExportSkip[] = [...duplicates];
  const summary = (cancelled: boolean, files = 0, bytes = 0): ExportSummary => ({
    files, bytes, failed: byPath(failed), skipped: byPath(skipped), cancelled, seconds: (performance.now() - started) / 1000,
  });

  const bytesTotal = items.reduce((n, i) => n + i.size, 0);
  // Nothing to write: no folder or zip is created.
  if (items.length === 0) return summary(false);
  if (options.zip !== undefined) {
    if (items.length > ZIP_MAX_ENTRIES) throw new ZipLimitError(`${items.length} files selected`);
    if (bytesTotal > ZIP_MAX_BYTES) throw new ZipLimitError(`${bytesTotal} bytes selected`);
  }

  let sink: ExportSink;
  if (options.zip !== undefined) {
    const z = await ZipSink.create(options.zip, s.conflict, s.zipLevel);
    if ('skipped' in z) {
      skipped.push({ path: z.target, reason: z.skipped });
      return summary(false);
    }
    sink = z;
  } else {
    sink = await DiskSink.create(options.out!, s.conflict);
  }

  const meter = new ProgressMeter(items.length, bytesTotal, options.onProgress, options.progressIntervalMs ?? 100);
  // Stops the workers: the caller's signal, or a failure every other file would share.
  const stop = new AbortController();
  const signal = options.signal ? AbortSignal.any([options.signal, stop.signal]) : stop.signal;
  // Every streamed read in flight listens to it.
  setMaxListeners(0, signal);
  let fatal: unknown;
  const converter = s.format === 'json' ? new PackageJsonConverter(install, options.mappings ? { mappings: options.mappings } : {}) : undefined;
  const assets = s.format === 'convert' ? new AssetConverter(install, items, options.pool, options.mappings) : undefined;
  const job = new ExportJob(sink, meter, signal, converter, assets);
  let next = 0;
  const window = new Window(DIRECT_WINDOW_BATCHES);
  const direct = new Set<Promise<void>>();

  /** False once the export must stop. */
  const settle = (item: ExportItem, outcome: Outcome): boolean => {
    if (outcome.kind === 'failed') {
      if (signal.aborted) return false; // the abort's own error, not the file's
      if (isFatal(outcome.error)) {
        fatal ??= outcome.error;
        stop.abort(outcome.error);
        return false;
      }
      failed.push({ path: item.path, error: failureText(outcome.error) });
    } else if (outcome.kind === 'skipped') {
      skipped.push({ path: item.path, reason: outcome.reason });
    }
    return !signal.aborted;
  };

  let batches = 0;
  const lane = async (): Promise<void> => {
    while (next < items.length && !signal.aborted) {
      const item = items[next++]!;
      if (job.writesInWorker(item)) {
        // The files after it go in the same batch.
        const grow = BATCH_GROWTH ** Math.min(batches++, 10);
        const mostFiles = Math.min(BATCH_FILES, FIRST_BATCH_FILES * grow);
        const mostBytes = Math.min(BATCH_BYTES, FIRST_BATCH_BYTES * grow);
        const batch = [item];
        let bytes = item.size;
        while (next < items.length && batch.length < mostFiles && bytes + items[next]!.size <= mostBytes && job.writesInWorker(items[next]!)) {
          bytes += items[next++]!.size;
          batch.push(items[next - 1]!);
        }
        await window.enter();
        if (signal.aborted) {
          window.leave();
          break;
        }
        const p = job.runInWorkers(batch).then((outcomes) => { outcomes.forEach((o, i) => settle(batch[i]!, o)); });
        direct.add(p);
        void p.finally(() => {
          direct.delete(p);
          window.leave();
        });
        continue;
      }
      if (!settle(item, await job.run(item))) break;
    }
  };
  await Promise.all(Array.from({ length: Math.min(s.concurrency, items.length) }, lane));
  while (direct.size > 0) await Promise.all([...direct]);
  meter.finish();
  await assets?.close();
  await converter?.close();

  if (fatal !== undefined || options.signal?.aborted) {
    await sink.abort();
    if (fatal !== undefined) throw fatal;
    return summary(true, job.files, job.bytes);
  }
  try {
    await sink.close();
  } catch (e) {
    await sink.abort();
    throw e;
  }
  return summary(false, job.files, job.bytes);
}

/** `left out`: a companion of a converted package, neither written nor listed. */
type Outcome = { kind: 'written' } | { kind: 'left out' } | { kind: 'skipped'; reason: string } | { kind: 'failed'; error: unknown };
const WRITTEN: Outcome = { kind: 'written' };
const LEFT_OUT: Outcome = { kind: 'left out' };

/** Writes one item at a time per caller; counts what was written. */
class ExportJob {
  files = 0;
  bytes = 0;
  private readonly paths = new PathChecker();

  constructor(
    private readonly sink: ExportSink,
    private readonly meter: ProgressMeter,
    private readonly signal: AbortSignal,
    private readonly converter: PackageJsonConverter | undefined,
    private readonly assets: AssetConverter | undefined,
  ) {}

  /** The item goes to a folder as stored and its archive can have a worker write it (a big file in pieces). */
  writesInWorker(item: ExportItem): boolean {
    if (!(this.sink instanceof DiskSink) || this.convertsToJson(item) || this.assets?.mayConvert(item)) return false;
    const a = item.archive;
    return (a instanceof IoStoreContainer || a instanceof PakArchive) && a.writesInWorkers;
  }

  /** JSON: packages are converted whole; anything else goes out raw like in raw mode. */
  private convertsToJson(item: ExportItem): boolean {
    return this.converter !== undefined && (item.chunkType === undefined || item.chunkType === 'ExportBundleData');
  }

  private checked(path: string): string[] {
    const check = this.paths.check(path);
    if (!check.ok) throw new UnsafePathError(path, check.reason);
    return check.segments;
  }

  /** checked, the folder's segments (shared: not to be changed) and the name apart. */
  private checkedFile(path: string): { dir: readonly string[]; name: string } {
    const check = this.paths.checkFile(path);
    if (!check.ok) throw new UnsafePathError(path, check.reason);
    return check;
  }

  /** Workers read, decode and write the files (see writesInWorker), those of every archive in one job. */
  async runInWorkers(items: readonly ExportItem[]): Promise<Outcome[]> {
    const sink = this.sink as DiskSink;
    const outcomes = new Array<Outcome>(items.length);
    /** Per archive, the files to write: their index in `items` and where they go. */
    const byArchive = new Map<Archive, { at: number[]; refs: number[]; to: WriteTarget[] }>();
    this.meter.started(items[0]!.path);
    for (let i = 0; i < items.length; i++) {
      const item = items[i]!;
      try {
        const { dir, name } = this.checkedFile(item.path);
        const to = sink.reserve(item.path, dir, name);
        if ('skipped' in to) {
          outcomes[i] = { kind: 'skipped', reason: to.skipped };
          continue;
        }
        let files = byArchive.get(item.archive);
        if (!files) byArchive.set(item.archive, files = { at: [], refs: [], to: [] });
        files.at.push(i);
        files.refs.push(item.ref);
        files.to.push(to);
      } catch (error) {
        outcomes[i] = { kind: 'failed', error };
      }
    }
    const groups = [...byArchive.entries()];
    let results: WriteResult[][];
    let unwatch = (): void => {};
    try {
      // One job for every archive's files, planned into it one archive after the other.
      const job = new WriteJobBuilder();
      const batches: PlannedBatch[] = [];
      for (const [archive, f] of groups) batches.push(await planWrites(archive, f.refs, f.to, job));
      const slots = Math.max(1, job.files);
      const watch = { flags: new Int32Array(new SharedArrayBuffer(4 * slots)), kib: new Int32Array(new SharedArrayBuffer(4 * slots)) };
      unwatch = this.meter.watch(liveCount(watch, job.sizes()));
      results = await writeBatches(job, batches, this.signal, watch);
    } catch (error) {
      results = groups.map(([, f]) => f.refs.map(() => asError(error)));
    }
    // The whole batch counts as done from here (a file met at its name is only renamed or dropped).
    unwatch();
    this.meter.fileDone(items.reduce((n, item) => n + item.size, 0), items.length);
    const settling: Promise<void>[] = [];
    for (const [g, [, f]] of groups.entries()) {
      for (const [k, r] of results[g]!.entries()) {
        const i = f.at[k]!;
        // Only a file that met another at its name needs more disk work here.
        if (r === 'exists') settling.push(this.settleExisting(items[i]!, f.to[k]!).then((o) => { outcomes[i] = o; }));
        else outcomes[i] = this.written(items[i]!, r);
      }
    }
    await Promise.all(settling);
    return outcomes;
  }

  private written(item: ExportItem, result: Exclude<WriteResult, 'exists'>): Outcome {
    if (result instanceof Error) return { kind: 'failed', error: result };
    if (result === 'cancelled') return { kind: 'failed', error: this.signal.reason ?? new Error('cancelled') };
    this.files++;
    this.bytes += item.size;
    return WRITTEN;
  }

  /** A worker left the file at its temporary name, something being at its own: the conflict policy decides. */
  private async settleExisting(item: ExportItem, to: WriteTarget): Promise<Outcome> {
    try {
      const settled = await (this.sink as DiskSink).settleExisting(to, item.path);
      if ('skipped' in settled) return { kind: 'skipped', reason: settled.skipped };
      return this.written(item, 'written');
    } catch (error) {
      return { kind: 'failed', error };
    }
  }

  async run(item: ExportItem): Promise<Outcome> {
    if (this.assets?.mayConvert(item)) {
      let role;
      try {
        role = await this.assets.role(item, this.signal);
      } catch (error) {
        this.meter.fileDone(item.size);
        return { kind: 'failed', error };
      }
      if (role.kind === 'companion') {
        // Its package is written as what it converts to: nothing of this file goes out.
        this.meter.fileDone(item.size);
        return LEFT_OUT;
      }
      if (role.kind === 'convert') return this.runConverted(item, (signal) => this.assets!.convert(item, role.exports, signal));
      if (role.kind === 'plain') return this.runConverted(item, (signal) => this.assets!.convertPlain(item, role.asset, signal));
    }
    return this.runStored(item);
  }

  /** Writes what the package converts to (AssetConverter.convert): every file, or the reason none is. */
  private async runConverted(item: ExportItem, make: (signal: AbortSignal) => Promise<ConvertedOutput[]>): Promise<Outcome> {
    this.meter.started(item.path);
    let writer: EntryWriter | undefined;
    const skipped: string[] = [];
    try {
      const files = await make(this.signal);
      for (const f of files) {
        this.signal.throwIfAborted();
        const opened = await this.sink.begin(f.path, this.checked(f.path), f.data.length);
        if ('skipped' in opened) {
          skipped.push(opened.skipped);
          continue;
        }
        writer = opened.writer;
        await writer.write(f.data);
        const done = await writer.commit();
        writer = undefined;
        if ('skipped' in done) {
          skipped.push(done.skipped);
          continue;
        }
        this.files++;
        this.bytes += f.data.length;
      }
      return skipped.length > 0 && skipped.length === files.length ? { kind: 'skipped', reason: skipped[0]! } : WRITTEN;
    } catch (error) {
      await writer?.discard().catch(() => undefined);
      return { kind: 'failed', error };
    } finally {
      this.meter.fileDone(item.size);
    }
  }

  private async runStored(item: ExportItem): Promise<Outcome> {
    this.meter.started(item.path);
    let counted = 0;
    let writer: EntryWriter | undefined;
    const pieces = filePieces(item.archive, item.ref, item.size, this.signal);
    try {
      this.checked(item.path);
      let first: Uint8Array | undefined;
      let json: Uint8Array | undefined;
      if (this.convertsToJson(item)) {
        const head = await pieces.next();
        const bytes: Uint8Array = head.done ? new Uint8Array(0) : head.value;
        first = bytes;
        if (this.converter!.isPackage(item, bytes)) json = new TextEncoder().encode(await this.converter!.convert(item, await rest(bytes, pieces)));
      }
      const outPath = json === undefined ? item.path : `${item.path}.json`;
      const segments = this.checked(outPath);
      const opened = await this.sink.begin(outPath, segments, json === undefined ? item.size : json.length);
      if ('skipped' in opened) return { kind: 'skipped', reason: opened.skipped };
      writer = opened.writer;
      let written = 0;
      if (json !== undefined) {
        await writer.write(json);
        written = json.length;
      } else {
        if (first !== undefined) {
          await writer.write(first);
          written += first.length;
          this.meter.addBytes(first.length);
          counted += first.length;
        }
        for await (const piece of pieces) {
          this.signal.throwIfAborted();
          await writer.write(piece);
          written += piece.length;
          this.meter.addBytes(piece.length);
          counted += piece.length;
        }
        if (written !== item.size) throw new Error(`read ${written} bytes but the file is ${item.size} bytes`);
      }
      this.signal.throwIfAborted();
      const done = await writer.commit();
      writer = undefined;
      if ('skipped' in done) return { kind: 'skipped', reason: done.skipped };
      this.files++;
      this.bytes += written;
      return { kind: 'written' };
    } catch (error) {
      await writer?.discard().catch(() => undefined);
      return { kind: 'failed', error };
    } finally {
      await pieces.return(undefined).catch(() => undefined);
      this.meter.fileDone(item.size - counted);
    }
  }
}

/** The files of a write job finished so far, and their bytes with those written of big files in progress. */
function liveCount({ flags, kib }: WriteWatch, sizes: Float64Array): LiveCount {
  return () => {
    let files = 0;
    let bytes = 0;
    for (let i = 0; i < sizes.length; i++) {
      const f = flags[i];
      if (f === FileFlag.Written || f === FileFlag.Exists) {
        files++;
        bytes += sizes[i]!;
      } else {
        bytes += Math.min(sizes[i]!, 1024 * kib[i]!);
      }
    }
    return { files, bytes };
  };
}

/** The archive's files planned for workers to write (writesInWorker said it can). */
function planWrites(archive: Archive, refs: readonly number[], to: readonly WriteTarget[], job: WriteJobBuilder): PlannedBatch | Promise<PlannedBatch> {
  if (archive instanceof IoStoreContainer || archive instanceof PakArchive) return archive.planWrites(refs, to, job);
  throw new Error(`${archive.name}: its files cannot be written by workers`);
}

/** Batches in flight, at most `max` at once. */
class Window {
  private batches = 0;
  private readonly waiting: (() => void)[] = [];

  constructor(private readonly max: number) {}

  async enter(): Promise<void> {
    while (this.batches >= this.max) await new Promise<void>((resolve) => this.waiting.push(resolve));
    this.batches++;
  }

  leave(): void {
    this.batches--;
    this.waiting.shift()?.();
  }
}

/** All the bytes: `first` and whatever pieces follow. */
async function rest(first: Uint8Array, pieces: AsyncGenerator<Uint8Array>): Promise<Uint8Array> {
  const parts = [first];
  let total = first.length;
  for await (const p of pieces) {
    parts.push(p);
    total += p.length;
  }
  if (parts.length === 1) return first;
  const out = new Uint8Array(total);
  let at = 0;
  for (const p of parts) {
    out.set(p, at);
    at += p.length;
  }
  return out;
}

function isPathList(s: ExportSelection | readonly string[]): s is readonly string[] {
  return Array.isArray(s);
}

function isFatal(e: unknown): boolean {
  return e instanceof ZipLimitError || e instanceof ZipBrokenError || FATAL_CODES.has((e as NodeJS.ErrnoException)?.code ?? '');
}

function failureText(e: unknown): string {
  if (e instanceof UnsafePathError) return `refused: ${e.reason}`;
  return printable(systemErrorText(e)).replace(/\s*\n\s*/g, ' ');
}

function byPath<T extends { path: string }>(list: T[]): T[] {
  return [...list].sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
}

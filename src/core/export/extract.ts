/**
 * Exports selected files of an install to a folder or a zip: several files in flight (their
 * blocks decode in the install's decoder, the worker pool), each streamed to disk piece by piece,
 * progress reported, cancellable at any moment, and a summary at the end that lists what failed
 * or was skipped without having stopped the rest. Names are checked by safe-path.ts first; a
 * refused name is a failure of that file only.
 *
 *   const pool = createWorkerPool();
 *   const install = await openInstall([paks], { keys, decoder: pool });
 *   const summary = await extractFiles(install, { filters: ['*.uasset'] }, { out: 'Export', onProgress });
 */
import { setMaxListeners } from 'node:events';
import type { Install } from '../install/install.js';
import { DiskSink } from './disk-sink.js';
import { filePieces } from './file-pieces.js';
import { PackageJsonConverter } from './package-json.js';
import { ProgressMeter } from './progress.js';
import { checkRelativePath, printable, UnsafePathError } from './safe-path.js';
import { exportItems, selectFiles, type ExportItem } from './selection.js';
import type { EntryWriter, ExportSink } from './sink.js';
import type { ConflictPolicy, ExportFailure, ExportFormat, ExportOptions, ExportSelection, ExportSkip, ExportSummary } from './types.js';
import { ZIP_MAX_BYTES, ZIP_MAX_ENTRIES, ZipBrokenError, ZipLimitError, ZipSink } from './zip-sink.js';

const DEFAULT_CONCURRENCY = 8;
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
  if (format !== 'raw' && format !== 'json') throw new TypeError(`format must be 'raw' or 'json', not ${String(format)}`);
  const conflict = o.conflict ?? 'skip';
  if (!['overwrite', 'skip', 'keep-both'].includes(conflict)) throw new TypeError(`conflict must be 'overwrite', 'skip' or 'keep-both', not ${String(conflict)}`);
  const concurrency = o.concurrency ?? DEFAULT_CONCURRENCY;
  if (!Number.isInteger(concurrency) || concurrency < 1) throw new RangeError(`concurrency must be a whole number 1 or more, not ${concurrency}`);
  const zipLevel = o.zipLevel ?? DEFAULT_ZIP_LEVEL;
  if (!Number.isInteger(zipLevel) || zipLevel < 0 || zipLevel > 9) throw new RangeError(`zipLevel must be 0 to 9, not ${zipLevel}`);
  return { format, conflict, companions: o.companions ?? format === 'raw', concurrency, zipLevel };
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
  // Every read in flight listens to it (the worker pool adds one listener per task).
  setMaxListeners(0, signal);
  let fatal: unknown;
  const converter = s.format === 'json' ? new PackageJsonConverter(install) : undefined;
  const job = new ExportJob(sink, meter, signal, converter);
  let next = 0;

  const worker = async (): Promise<void> => {
    while (next < items.length && !signal.aborted) {
      const item = items[next++]!;
      const outcome = await job.run(item);
      if (outcome.kind === 'failed') {
        if (signal.aborted) break; // the abort's own error, not the file's
        if (isFatal(outcome.error)) {
          fatal ??= outcome.error;
          stop.abort(outcome.error);
          break;
        }
        failed.push({ path: item.path, error: errorText(outcome.error) });
      } else if (outcome.kind === 'skipped') {
        skipped.push({ path: item.path, reason: outcome.reason });
      }
    }
  };
  await Promise.all(Array.from({ length: Math.min(s.concurrency, items.length) }, worker));
  meter.finish();

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

type Outcome = { kind: 'written' } | { kind: 'skipped'; reason: string } | { kind: 'failed'; error: unknown };

/** Writes one item at a time per caller; counts what was written. */
class ExportJob {
  files = 0;
  bytes = 0;

  constructor(
    private readonly sink: ExportSink,
    private readonly meter: ProgressMeter,
    private readonly signal: AbortSignal,
    private readonly converter: PackageJsonConverter | undefined,
  ) {}

  async run(item: ExportItem): Promise<Outcome> {
    this.meter.started(item.path);
    let counted = 0;
    let writer: EntryWriter | undefined;
    const pieces = filePieces(item.archive, item.ref, item.size, this.signal);
    try {
      const check = checkRelativePath(item.path);
      if (!check.ok) throw new UnsafePathError(item.path, check.reason);
      let first: Uint8Array | undefined;
      let json: Uint8Array | undefined;
      // JSON: packages are converted whole; anything else goes out raw like in raw mode.
      if (this.converter && (item.chunkType === undefined || item.chunkType === 'ExportBundleData')) {
        const head = await pieces.next();
        const bytes: Uint8Array = head.done ? new Uint8Array(0) : head.value;
        first = bytes;
        if (this.converter.isPackage(item, bytes)) json = new TextEncoder().encode(await this.converter.convert(item, await rest(bytes, pieces)));
      }
      const outPath = json === undefined ? item.path : `${item.path}.json`;
      const outCheck = checkRelativePath(outPath);
      if (!outCheck.ok) throw new UnsafePathError(outPath, outCheck.reason);
      const opened = await this.sink.begin(outPath, outCheck.segments, json === undefined ? item.size : json.length);
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

function errorText(e: unknown): string {
  if (e instanceof UnsafePathError) return `refused: ${e.reason}`;
  return printable(e instanceof Error ? e.message : String(e)).replace(/\s*\n\s*/g, ' ');
}

function byPath<T extends { path: string }>(list: T[]): T[] {
  return [...list].sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
}

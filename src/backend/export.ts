/**
 * Exports for the app: checks the destination, runs core's extractFiles in the background with
 * progress as events, cancels on request, and writes file lists. Which names may be written
 * below the destination is the core's business (safe-path.ts, disk-sink.ts); this file decides
 * which destinations may be written to at all:
 *
 * - an absolute path without control characters;
 * - not inside a folder the install was opened from (the export would join the install the next
 *   time it is scanned), and not a folder that holds one of its containers (a name in an archive
 *   could then replace an input file);
 * - in Electron, only a folder the user picked in the native dialog: a page that misbehaves
 *   cannot choose another.
 */
import type { Usmap } from '../core/usmap/types.js';
import { RequestError } from './request-error.js';
import { randomUUID } from 'node:crypto';
import { mkdir, open, rename, stat, unlink } from 'node:fs/promises';
import { basename, dirname, extname, isAbsolute, join, resolve } from 'node:path';
import { extractFiles } from '../core/export/extract.js';
import { systemErrorText } from '../core/system-error.js';
import { exportFileList } from '../core/export/file-list.js';
import { Destination, isInside, numberedName, UnsafePathError } from '../core/export/safe-path.js';
import { exportItems, selectFiles } from '../core/export/selection.js';
import type { ExportSelection, ExportSummary } from '../core/export/types.js';
import type { Install } from '../core/install/install.js';
import type { WorkerPool } from '../core/workers/pool.js';
import type {
  ApiEvent, ExportRequest, ExportResult, ExportSelectionRequest, ExportStarted, FileListRequest, FileListWritten,
} from '../shared/api.js';

/** Failures and skips sent to the page at most (the counts are complete). */
export const MAX_LISTED = 1000;

export class DestinationError extends RequestError {
  constructor(message: string) {
    super(message);
    this.name = 'DestinationError';
  }
}

export interface ExportServiceOptions {
  /** Sends events to the page. */
  emit: (event: ApiEvent) => void;
  /** Electron: destinations must have been picked in the native dialog (see notePicked). */
  pickedOnly: boolean;
  /** Where `convert` exports decode textures; on the calling thread when absent. */
  pool?: WorkerPool;
}

interface Job {
  installId: string;
  abort: AbortController;
  done: Promise<void>;
}

export class ExportService {
  private readonly jobs = new Map<string, Job>();
  private readonly picked = new Set<string>();

  constructor(private readonly opts: ExportServiceOptions) {}

  /** A folder the user chose in the native dialog: exports may go there. */
  notePicked(folder: string | null): string | null {
    if (folder) this.picked.add(resolve(folder));
    return folder;
  }

  /** Checks the request and starts the export; answers before the first file is written. */
  async start(install: Install, installName: string, req: ExportRequest, mappings?: Usmap): Promise<ExportStarted> {
    const destination = await this.destination(install, req.destination);
    const zip = req.output === 'zip' ? await zipTarget(destination, req.zipName ?? `${installName}-export.zip`, req.conflict) : undefined;
    const target = zip ?? destination;
    const selection = selectionOf(req);
    // The totals the progress will count to, for the dialog's first frame.
    const chosen = selectFiles(install, selection);
    const { items } = exportItems(install, chosen.files, req.format !== 'json');
    const bytesTotal = items.reduce((n, i) => n + i.size, 0);

    const exportId = randomUUID();
    const abort = new AbortController();
    const emit = this.opts.emit;
    const run = extractFiles(install, selection, {
      ...(zip !== undefined ? { zip } : { out: destination }),
      format: req.format,
      conflict: req.conflict,
      ...(this.opts.pool ? { pool: this.opts.pool } : {}),
      ...(mappings ? { mappings } : {}),
      signal: abort.signal,
      onProgress: (progress) => emit({ type: 'export-progress', exportId, progress }),
    });
    const job: Job = {
      installId: req.installId,
      abort,
      done: run.then(
        (summary) => emit({ type: 'export-done', result: resultOf(exportId, target, summary) }),
        (e: unknown) => emit({ type: 'export-done', result: failedResult(exportId, target, e, abort.signal.aborted) }),
      ).finally(() => this.jobs.delete(exportId)),
    };
    this.jobs.set(exportId, job);
    return { exportId, target, filesTotal: items.length, bytesTotal };
  }

  /** Stops an export; unknown or finished ids are ignored. Resolves when it has stopped. */
  async cancel(exportId: string): Promise<void> {
    const job = this.jobs.get(exportId);
    if (!job) return;
    job.abort.abort();
    await job.done;
  }

  /** Stops the exports of an install that is being closed. */
  async cancelInstall(installId: string): Promise<void> {
    await Promise.all([...this.jobs.entries()].filter(([, j]) => j.installId === installId).map(([id]) => this.cancel(id)));
  }

  async close(): Promise<void> {
    await Promise.all([...this.jobs.keys()].map((id) => this.cancel(id)));
  }

  /** Writes "<install>-files.csv" (or .json) into the destination, following the conflict policy. */
  async fileList(install: Install, installName: string, req: FileListRequest): Promise<FileListWritten> {
    const destination = await this.destination(install, req.destination);
    const selection = selectionOf(req);
    const text = exportFileList(install, selection, req.format);
    const files = selectFiles(install, selection).files.length;
    const name = `${installName}-files.${req.format}`;
    const path = await writeNew(destination, name, text, req.conflict);
    return { path, files };
  }

  /** The destination as an absolute, normalized path, after the checks in the file comment. */
  async destination(install: Install, given: string): Promise<string> {
    const text = given.trim();
    if (text === '') throw new DestinationError('choose a destination folder');
    if (/[\u0000-\u001f\u007f]/.test(text)) throw new DestinationError('the destination folder has a control character in its name');
    if (!isAbsolute(text)) throw new DestinationError(`the destination must be an absolute path (like ${process.platform === 'win32' ? 'C:\\Export' : '/home/you/Export'}), not "${text}"`);
    const dest = resolve(text);
    if (this.opts.pickedOnly && !this.picked.has(dest)) {
      throw new DestinationError(`${dest} was not chosen in the folder dialog: click "Choose…" to pick the destination`);
    }
    for (const root of install.roots.map((r) => resolve(r))) {
      const isFolder = await stat(root).then((s) => s.isDirectory(), () => false);
      if (isFolder && isInside(root, dest)) throw new DestinationError(`${dest} is inside the install (${root}): choose a folder outside it`);
    }
    for (const container of containerFolders(install)) {
      if (isInside(dest, container)) throw new DestinationError(`${dest} holds containers of this install (in ${container}): choose a folder that does not`);
    }
    const existing = await stat(dest).catch(() => null);
    if (existing && !existing.isDirectory()) throw new DestinationError(`${dest} is a file, not a folder`);
    return dest;
  }
}

/** Folders holding the install's inputs: every container (open or not) and every root file. */
export function containerFolders(install: Install): Set<string> {
  const out = new Set<string>();
  for (const a of install.archives) if (a.kind !== 'loose') out.add(dirname(resolve(a.path)));
  for (const p of install.problems) out.add(dirname(resolve(p.path)));
  for (const r of install.roots) if (extname(r) !== '') out.add(dirname(resolve(r)));
  return out;
}

function selectionOf(req: ExportSelectionRequest): ExportSelection {
  const filter = req.filter?.trim();
  const sel: { paths?: string[]; filters?: string[] } = {};
  if (req.paths.length > 0) sel.paths = req.paths;
  if (filter) sel.filters = [filter];
  return sel;
}

/**
 * The .zip to write in `dir`: one file name (no separator, no "..", nothing checkName refuses),
 * and under keep-both the first free "name (n).zip"; every candidate passes Destination's check.
 */
async function zipTarget(dir: string, name: string, conflict: ExportRequest['conflict']): Promise<string> {
  const given = name.trim();
  const file = given.toLowerCase().endsWith('.zip') ? given : `${given}.zip`;
  const dest = new Destination(dir);
  try {
    // The name as given too: ".." would pass as "...zip".
    for (const n of new Set([given, file])) dest.check(dir, n, file);
  } catch (e) {
    if (e instanceof UnsafePathError) throw new DestinationError(`the zip name "${file}" cannot be used: ${e.reason}`);
    throw e;
  }
  if (conflict !== 'keep-both') return dest.file(dir, file);
  for (let n = 1; n < 10_000; n++) {
    const candidate = dest.file(dir, n === 1 ? file : numberedName(file, n));
    if (!(await stat(candidate).then(() => true, () => false))) return candidate;
  }
  throw new DestinationError(`${join(dir, file)}: too many numbered copies exist`);
}

/**
 * Writes `text` as `name` in `dir` without following or replacing anything unless asked:
 * 'skip' leaves an existing file (answers null), 'keep-both' picks "name (n).ext", 'overwrite'
 * replaces it through a temporary file and a rename.
 */
async function writeNew(dir: string, name: string, text: string, conflict: FileListRequest['conflict']): Promise<string | null> {
  await mkdir(dir, { recursive: true });
  const dest = new Destination(dir);
  const write = async (path: string, flags: string): Promise<boolean> => {
    try {
      const h = await open(path, flags, 0o644);
      try {
        await h.writeFile(text);
      } finally {
        await h.close();
      }
      return true;
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code === 'EEXIST') return false;
      throw e;
    }
  };
  const wanted = dest.file(dir, name);
  if (conflict === 'overwrite') {
    const tmp = dest.file(dir, `.${basename(name)}.${randomUUID()}.partial`);
    await write(tmp, 'wx');
    try {
      await rename(tmp, wanted);
    } catch (e) {
      await unlink(tmp).catch(() => undefined);
      throw e;
    }
    return wanted;
  }
  if (await write(wanted, 'wx')) return wanted;
  if (conflict === 'skip') return null;
  for (let n = 2; n < 10_000; n++) {
    const candidate = dest.file(dir, numberedName(name, n));
    if (await write(candidate, 'wx')) return candidate;
  }
  throw new Error(`${wanted}: too many numbered copies exist`);
}

function resultOf(exportId: string, target: string, s: ExportSummary): ExportResult {
  return {
    exportId,
    target,
    files: s.files,
    bytes: s.bytes,
    seconds: s.seconds,
    cancelled: s.cancelled,
    failed: s.failed.slice(0, MAX_LISTED),
    failedCount: s.failed.length,
    skipped: s.skipped.slice(0, MAX_LISTED),
    skippedCount: s.skipped.length,
  };
}

function failedResult(exportId: string, target: string, e: unknown, cancelled: boolean): ExportResult {
  return {
    exportId, target, files: 0, bytes: 0, seconds: 0, cancelled,
    failed: [], failedCount: 0, skipped: [], skippedCount: 0,
    error: systemErrorText(e),
  };
}

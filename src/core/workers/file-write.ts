/**
 * A worker writes an exported file itself, so its bytes never go back to the main thread. The
 * main thread has checked the name and chosen the folder, the final name and a temporary name
 * beside it (export/disk-sink.ts); here the file is decoded (a big one piece by piece) and written:
 * - first straight to its final name, created exclusively (O_CREAT|O_EXCL|O_NOFOLLOW: never
 *   through a symlink, never over a file): in a fresh folder, as most exports are, that is one
 *   create and no rename;
 * - when something is at that name already, to the temporary name (created the same way), then
 *   renamed over it, or left there for the main thread to settle under the conflict policy.
 * A failure or a cancel removes what this wrote, so nothing half-written stays behind. A big file
 * is decoded and written WRITE_PIECE_BYTES at a time, so a thread never holds more of it.
 */
import { closeSync, constants, lstatSync, openSync, renameSync, unlinkSync, writeSync } from 'node:fs';
import { PLAN_STRIDE, PlanField, runBlockPlan, splitPlan, type BlockPlan, type RangeReader, type Scratch } from './block-plan.js';
import { jobIndexOf, tagJobIndex } from './block-job.js';
import { FileFlag } from './wire.js';

/** O_NOFOLLOW does not exist on Windows (0 there): the temporary name is fresh anyway. */
export const CREATE_NEW = constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | (constants.O_NOFOLLOW ?? 0);

export interface WriteTarget {
  /** A fresh temporary name in the output folder, used when something is at `target` already. */
  temp: string;
  /** Where the file goes. */
  target: string;
  /**
   * Something at `target` is left alone (the outcome is 'exists', with the bytes at `temp` for
   * the main thread to settle); false: it is replaced.
   */
  checkTarget: boolean;
}

/**
 * A WriteTarget with its folder and names apart (DiskSink.reserve's): a write job packs each
 * folder once and each file's name, with no joined path to build per file. The temporary name
 * is numbered (tempPrefix + tempNumber + ".partial"), so a job carries one number for it per file.
 */
export interface SplitWriteTarget extends WriteTarget {
  /** The folder, ending in a path separator: `target` is dirPrefix + name, `temp` dirPrefix + numberedTemp(...). */
  dirPrefix: string;
  name: string;
  tempPrefix: string;
  tempNumber: number;
}

/** The temporary name a SplitWriteTarget's prefix and number stand for. */
export function numberedTemp(tempPrefix: string, tempNumber: number): string {
  return `${tempPrefix}${tempNumber}.partial`;
}

/** 'exists': written to `temp` only; 'cancelled': nothing left on disk. */
export type WriteOutcome = 'written' | 'exists' | 'cancelled';

/** A file for a worker to write: the plan of its bytes and where they go. */
export interface PlannedWrite {
  plan: BlockPlan;
  to: WriteTarget;
}

/** One file's result of PlanRunner.writePacked: its outcome, or its error (tagged with its failing block, jobIndexOf). */
export type WriteResult = WriteOutcome | Error;

/** What became of one file of writePlannedFiles: its outcome, or its error and failing block. */
export type FileWriteResult = WriteOutcome | { error: unknown; index: number | undefined };

/** How a write job's files are shared out among the threads running it (wire.ts: a write job's `claim`). */
export interface Claim {
  /** One Int32 on a SharedArrayBuffer: the first file no thread has taken yet. */
  next: Int32Array;
  /** Threads running the job. */
  sharers: number;
}

/**
 * Writes the files of a write job, each as writePlannedFile does; one failing is that file's
 * result only. `file(i)` is file i of `count`. Alone (no `claim`), this thread writes them all in
 * order. Shared, it takes runs of files from the claim until none are left, so threads that
 * started late or met slow files still finish together: a run is a 1/(2 x sharers) share of the
 * files left (guided self-scheduling), long at first (each thread on its own folders) and down to
 * one file at the end. Files another thread took are null here.
 * `flags` (FileFlag per file) record how far each got: files a dead worker finished are reported,
 * not written again, and what it left half-written is removed first. Once `stop` says so, the
 * rest of this thread's are 'cancelled'.
 */
export function writePlannedFiles(count: number, file: (i: number) => PlannedWrite, flags: Int32Array, reader: RangeReader,
  scratch: Scratch, stop: () => boolean, claim?: Claim, kib?: Int32Array): (FileWriteResult | null)[] {
  const results = new Array<FileWriteResult | null>(count).fill(null);
  /** Files [from, to), those whose stored bytes follow one another read in one go. */
  const writeRun = (from: number, to: number): void => {
    for (let i = from; i < to;) {
      const group = neighbours(file, i, to, reader);
      for (const f of group) {
        results[i] = writeOne(f, i, flags, reader, scratch, stop, kib);
        i++;
      }
    }
  };
  if (!claim) {
    writeRun(0, count);
    return results;
  }
  for (let run = takeRun(claim, count); run; run = takeRun(claim, count)) writeRun(run[0], run[1]);
  return results;
}

/** Stored bytes of neighbouring files read at once at most. */
const READ_AHEAD_BYTES = 1024 * 1024;

/**
 * File `i` and the files after it (before `to`) whose stored bytes follow its own in the same file,
 * up to READ_AHEAD_BYTES, which the reader then reads in one go: the files of a folder usually
 * lie one after the other in a .ucas, and one read instead of one per file saves a system call
 * each (about a microsecond on a virtual machine).
 */
function neighbours(file: (i: number) => PlannedWrite, i: number, to: number, reader: RangeReader): PlannedWrite[] {
  const first = file(i);
  const group = [first];
  if (!reader.readAhead || i + 1 >= to) return group;
  const span = spanOf(first.plan);
  if (!span) return group;
  for (let k = i + 1; k < to; k++) {
    const next = file(k);
    const end = span.end + storedBytes(next.plan);
    if (end - span.start > READ_AHEAD_BYTES || !follows(next.plan, span.name, span.end)) break;
    span.end = end;
    group.push(next);
  }
  if (group.length > 1) reader.readAhead(span.name, span.start, span.end - span.start);
  return group;
}

/** Where a plan's stored bytes lie when they follow one another in one file, else null. */
function spanOf(plan: BlockPlan): { name: string; start: number; end: number } | null {
  const b = plan.blocks;
  if (b.length === 0) return null;
  const name = plan.files[b[PlanField.file]! | 0]!;
  const start = b[PlanField.offset]!;
  return follows(plan, name, start) ? { name, start, end: start + storedBytes(plan) } : null;
}

/** True when the plan's stored bytes lie one after the other in `name`, from `at`. */
function follows(plan: BlockPlan, name: string, at: number): boolean {
  const b = plan.blocks;
  if (b.length === 0) return false;
  for (let o = 0; o < b.length; o += PLAN_STRIDE) {
    if (plan.files[b[o + PlanField.file]! | 0] !== name || b[o + PlanField.offset] !== at) return false;
    at += b[o + PlanField.stored]!;
  }
  return true;
}

function storedBytes(plan: BlockPlan): number {
  let n = 0;
  for (let o = PlanField.stored; o < plan.blocks.length; o += PLAN_STRIDE) n += plan.blocks[o]!;
  return n;
}

/** The next run [from, to) of files for this thread, or null when every file is taken. */
function takeRun(claim: Claim, count: number): [number, number] | null {
  for (;;) {
    const from = Atomics.load(claim.next, 0);
    if (from >= count) return null;
    const to = Math.min(count, from + Math.max(1, Math.ceil((count - from) / (2 * claim.sharers))));
    if (Atomics.compareExchange(claim.next, 0, from, to) === from) return [from, to];
  }
}

function writeOne({ plan, to }: PlannedWrite, i: number, flags: Int32Array, reader: RangeReader, scratch: Scratch,
  stop: () => boolean, kib?: Int32Array): FileWriteResult {
  const flag = Atomics.load(flags, i);
  if (flag === FileFlag.Written) return 'written';
  if (flag === FileFlag.Exists) return 'exists';
  if (stop()) return 'cancelled';
  if (flag === FileFlag.AtTarget) removeQuietly(to.target);
  if (flag === FileFlag.AtTemp) removeQuietly(to.temp);
  try {
    const outcome = writePlannedFile(plan, to, reader, scratch, stop, flags, i, kib);
    if (outcome !== 'cancelled') Atomics.store(flags, i, outcome === 'written' ? FileFlag.Written : FileFlag.Exists);
    return outcome;
  } catch (error) {
    return { error, index: jobIndexOf(error) };
  }
}

/** A file bigger than this is decoded and written this much at a time (whole blocks). */
export const WRITE_PIECE_BYTES = 4 * 1024 * 1024;

/**
 * Writes one file; its flag (`flags[i]`) is set once this made a file at the final name
 * (AtTarget) or at the temporary one (AtTemp), so whoever retries after this thread died knows
 * what to remove. A file written in pieces counts its KiB written so far in `kib[i]` (progress).
 */
export function writePlannedFile(plan: BlockPlan, to: WriteTarget, reader: RangeReader, scratch: Scratch, stop: () => boolean,
  flags?: Int32Array, i = 0, kib?: Int32Array): WriteOutcome {
  let write: (fd: number) => boolean;
  if (plan.size <= WRITE_PIECE_BYTES) {
    // Decoded before any file is made: a block that fails leaves nothing to remove. The bytes are
    // written out before the next run: the thread's scratch output holds them.
    const data = runBlockPlan(plan, reader, scratch, stop, true);
    if (data === null) return 'cancelled';
    write = (fd) => {
      writeAll(fd, data);
      return true;
    };
  } else {
    const { parts } = splitPlan(plan, WRITE_PIECE_BYTES);
    write = (fd) => writePieces(fd, parts, reader, scratch, stop, kib, i);
  }
  if (writeNew(to.target, write, stop, flags, i, FileFlag.AtTarget)) return stop() ? 'cancelled' : 'written';
  // The temporary name is fresh: something there is an error (EEXIST), not a conflict.
  writeNew(to.temp, write, stop, flags, i, FileFlag.AtTemp, false);
  try {
    if (stop()) {
      removeQuietly(to.temp);
      return 'cancelled';
    }
    if (to.checkTarget && exists(to.target)) return 'exists';
    renameSync(to.temp, to.target);
    return 'written';
  } catch (e) {
    removeQuietly(to.temp);
    throw e;
  }
}

/**
 * A big file's parts (splitPlan), each decoded and written in turn; false once `stop` says so. A
 * failing block is tagged with its index in the whole plan.
 */
function writePieces(fd: number, parts: readonly BlockPlan[], reader: RangeReader, scratch: Scratch, stop: () => boolean,
  kib: Int32Array | undefined, i: number): boolean {
  let firstBlock = 0;
  let written = 0;
  if (kib) Atomics.store(kib, i, 0);
  for (const part of parts) {
    let data: Uint8Array | null;
    try {
      data = runBlockPlan(part, reader, scratch, stop, true);
    } catch (e) {
      throw tagJobIndex(e, firstBlock + (jobIndexOf(e) ?? 0));
    }
    if (data === null) return false;
    writeAll(fd, data);
    written += data.length;
    if (kib) Atomics.store(kib, i, Math.floor(written / 1024));
    firstBlock += part.blocks.length / PLAN_STRIDE;
  }
  return true;
}

function writeAll(fd: number, data: Uint8Array): void {
  for (let done = 0; done < data.length;) done += writeSync(fd, data, done, data.length - done);
}

/**
 * Makes a new file at `path` and has `write` fill it: false when something is there already (and
 * `mayExist`; else that is thrown as EEXIST). A write that fails, or is stopped (`write` says
 * false, or `stop` true after it), removes the file again (it is this call's own: O_EXCL made it).
 */
function writeNew(path: string, write: (fd: number) => boolean, stop: () => boolean, flags: Int32Array | undefined, i: number,
  at: typeof FileFlag.AtTarget | typeof FileFlag.AtTemp, mayExist = true): boolean {
  let fd: number;
  try {
    fd = openSync(path, CREATE_NEW, 0o644);
  } catch (e) {
    if (mayExist && (e as NodeJS.ErrnoException).code === 'EEXIST') return false;
    throw e;
  }
  if (flags) Atomics.store(flags, i, at);
  let complete: boolean;
  try {
    try {
      complete = write(fd);
    } finally {
      closeSync(fd);
    }
  } catch (e) {
    removeQuietly(path);
    throw e;
  }
  if (!complete || stop()) removeQuietly(path);
  return true;
}

function exists(path: string): boolean {
  try {
    lstatSync(path);
    return true;
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENOENT') return false;
    throw e;
  }
}

function removeQuietly(path: string): void {
  try {
    unlinkSync(path);
  } catch {
    // Already gone, or the folder went away: nothing of ours is left to remove.
  }
}

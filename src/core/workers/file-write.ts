/**
 * A worker writes an exported file itself, so its bytes never go back to the main thread. The
 * main thread has checked the name and chosen the folder, the temporary name and the final name
 * (export/disk-sink.ts); here the file is decoded whole, written to the temporary name created
 * exclusively (O_CREAT|O_EXCL|O_NOFOLLOW: never through a symlink, never over a file), and renamed
 * into place, so no reader sees half a file and a failure leaves nothing behind.
 */
import { closeSync, constants, lstatSync, openSync, renameSync, unlinkSync, writeSync } from 'node:fs';
import { runBlockPlan, type BlockPlan, type RangeReader, type Scratch } from './block-plan.js';

/** O_NOFOLLOW does not exist on Windows (0 there): the temporary name is fresh anyway. */
export const CREATE_NEW = constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | (constants.O_NOFOLLOW ?? 0);

export interface WriteTarget {
  /** A fresh temporary name in the output folder. */
  temp: string;
  /** Where the file goes. */
  target: string;
  /**
   * Rename only when nothing is at `target` (the outcome is 'exists' otherwise, with the temporary
   * file left for the main thread to settle); false: replace whatever is there.
   */
  checkTarget: boolean;
}

/** 'exists': written to `temp` only; 'cancelled': nothing left on disk. */
export type WriteOutcome = 'written' | 'exists' | 'cancelled';

export function writePlannedFile(plan: BlockPlan, to: WriteTarget, reader: RangeReader, scratch: Scratch, stop: () => boolean): WriteOutcome {
  const data = runBlockPlan(plan, reader, scratch, stop);
  if (data === null) return 'cancelled';
  const fd = openSync(to.temp, CREATE_NEW, 0o644);
  try {
    try {
      for (let done = 0; done < data.length;) done += writeSync(fd, data, done, data.length - done);
    } finally {
      closeSync(fd);
    }
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

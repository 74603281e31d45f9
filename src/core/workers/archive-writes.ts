/**
 * The one way an archive has workers write its files (export; see file-write.ts): the archive
 * plans them into a job (IoStoreContainer and PakArchive.planWrites), writeBatches runs it. Export
 * plans many archives into one job itself; these run one archive's files on their own.
 */
import { writeBatches, type PlannedBatch } from './block-plan.js';
import type { WriteOutcome, WriteResult, WriteTarget } from './file-write.js';
import { WriteJobBuilder } from './packed-writes.js';

/** An archive whose files workers can read, decode and write, their bytes never coming to this thread. */
export interface WorkerWritable {
  readonly name: string;
  /** True when planWrites can be called (the archive reads through a worker pool). */
  readonly writesInWorkers: boolean;
  /** File `refs[i]` to `to[i]`, planned into `job`; one result slot per file. */
  planWrites(refs: readonly number[], to: readonly WriteTarget[], job: WriteJobBuilder): PlannedBatch | Promise<PlannedBatch>;
}

/**
 * Workers write file `refs[i]` to `to[i]`, many in one job. One result per file: a failure is that
 * file's own, as the archive's read reports it.
 */
export async function writeFilesInWorkers(archive: WorkerWritable, refs: readonly number[], to: readonly WriteTarget[],
  signal?: AbortSignal): Promise<WriteResult[]> {
  const job = new WriteJobBuilder();
  const [results] = await writeBatches(job, [await archive.planWrites(refs, to, job)], signal);
  return results!;
}

/** writeFilesInWorkers for one file: its outcome, or its failure thrown. */
export async function writeFileInWorkers(archive: WorkerWritable, ref: number, to: WriteTarget, signal?: AbortSignal): Promise<WriteOutcome> {
  const [r] = await writeFilesInWorkers(archive, [ref], [to], signal);
  if (typeof r !== 'string') throw r;
  return r;
}

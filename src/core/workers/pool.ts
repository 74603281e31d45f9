/**
 * Worker threads (threads.ts) that read, decrypt and decompress blocks, write exported files and hash
 * chunks, so big reads do not stall the UI or the CLI.
 *
 * - readPlan/writePacked: the worker reads the stored bytes from the file itself (block-plan.ts),
 *   so the main thread only describes the blocks; one buffer per read comes back, or none at all
 *   when the workers write the files (many files per job, and a big job shared by every thread,
 *   each claiming files from it: an export's small files cost this thread a message per batch and
 *   thread, not per file).
 * - decode: blocks already in memory (nested containers, tests) are packed into one buffer and moved.
 *
 * Small jobs travel together (task-batcher.ts); a big read is split across the threads. A job that
 * fails (corrupt data, a crashed decoder, a worker that died) rejects its caller only; a dead
 * worker is replaced and later calls work.
 */
import { existsSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { fileURLToPath, pathToFileURL } from 'node:url';
import type { HashCheck } from '../archive.js';
import type { AesParams } from '../crypto/aes.js';
import { checkChunkHash, contentDigest } from '../hash/chunk-hash.js';
import { jobIndexOf, runBlockJobs, tagJobIndex, type BlockDecoder, type BlockJob } from './block-job.js';
import { isStoredCodec, planBlockCount, splitPlan, type BlockPlan, type PlanRunner } from './block-plan.js';
import type { WriteResult } from './file-write.js';
import { packedBytes, packWrites, unpackWrite, type PackedWrites } from './packed-writes.js';
import { TaskBatcher } from './task-batcher.js';
import { WorkerThreads } from './threads.js';
import { keepHeapHeadroom } from './heap-headroom.js';
import { asError } from '../errors.js';
import type { DecodedImage } from '../assets/texture/types.js';
import { checkDecodable, sliceBytes } from '../assets/texture/decode/index.js';
import type { SpanReply, SpanTask } from '../search/extract.js';
import type { Pcm } from '../assets/sound/types.js';
import { FileFlag, reviveError, type DigestTask, type HashTask, type ImageReply, type ImageTask, type SoundReply, type SoundTask, type PoolTask, type RegistryReply, type RegistryTask, type TaskJob, type TaskReply, type WireJob, type WireWriteFailure } from './wire.js';
import type { RegistryAssetFact } from '../asset-registry/facts.js';

export interface WorkerPool extends BlockDecoder, PlanRunner {
  readonly threads: number;
  /** checkChunkHash in a worker; `data` is copied, never detached. */
  hash(data: Uint8Array, stored: Uint8Array): Promise<HashCheck>;
  /** contentDigest (BLAKE3 as hex) in a worker, for telling contents apart; `data` is copied, never detached. */
  digest(data: Uint8Array): Promise<string>;
  /**
   * decodePixels (assets/texture/decode) on every thread at once, each decoding bands of the
   * image straight into one shared image (wire.ts ImageTask). `data` is read, never detached
   * (copied into shared memory first unless it is there already). The image's arrays are on a
   * SharedArrayBuffer. Errors come back with their class (FormatError, DecodeError,
   * UnsupportedPixelFormatError); those of the format and size are thrown before any thread starts.
   */
  decodeImage(pixelFormat: string, data: Uint8Array, width: number, height: number, signal?: AbortSignal): Promise<DecodedImage>;
  /**
   * decodeSoundPayload (assets/sound/decode) in a worker: `data`'s buffer is moved there
   * (detached here), the PCM moves back. Errors come back with their class (FormatError).
   */
  decodeSound(info: Omit<SoundTask, 'data'>, data: Uint8Array, signal?: AbortSignal): Promise<Pcm>;
  /**
   * The asset registry file `path` parsed in a worker (asset-registry/facts.ts): its assets'
   * class and tags. `data` is copied, never detached. Errors come back with their class (FormatError).
   */
  registryFacts(path: string, data: Uint8Array): Promise<RegistryAssetFact[]>;
  /**
   * A search index's span task (search/extract.ts) in a worker: the span read through its plan
   * and each Zen package in it parsed for its names, exports, imports and strings.
   */
  searchSpan(task: SpanTask): Promise<SpanReply>;
  /**
   * Starts every thread now (a thread's first task otherwise waits for it to start, load its
   * code and set up its codecs: about 0.3 s, more on a busy machine). Resolves once they are ready.
   */
  warm(): Promise<void>;
  destroy(): Promise<void>;
}

export interface WorkerPoolOptions {
  /** Default: os.availableParallelism(), at most 4. */
  threads?: number;
  /** The bundled worker entry; default: see resolveWorkerFile. */
  workerFile?: string;
}

/** A call decoding more than this much is split across threads (one part per thread at least). */
const SPLIT_BYTES = 1024 * 1024;
/** Parts of a split read are at most this big: the read's memory in flight stays bounded. */
const PART_BYTES = 4 * 1024 * 1024;
/** Output bytes one task carries at most (a job bigger than that goes alone). */
const TASK_BUDGET_BYTES = 1024 * 1024;
/** Tasks out per thread: one running, one waiting at the worker for when it finishes. */
const TASKS_PER_THREAD = 2;
/**
 * A second task goes to a busy worker only once this many jobs wait: with fewer, the round trip
 * would cost more than the worker's short wait for them to come together.
 */
const AHEAD_JOBS = 4;
/** What a job costs beyond its bytes, counted against the budget; a written file costs more (open, rename). */
const JOB_COST_BYTES = 4 * 1024;
const WRITE_COST_BYTES = 32 * 1024;
/** A write job of this many files or more is shared by every thread (runWrites). */
const SHARE_FILES = 8;
/** Hashing less than this inline is cheaper than the trip to a worker. */
const HASH_INLINE_BELOW = 64 * 1024;
/**
 * Pixels of one band of an image the threads claim one after the other (decodeImage): small
 * enough that a thread the machine keeps waiting leaves the rest to the others, big enough that
 * claiming costs nothing (a 4096-wide image: 64 rows, 1 MiB of pixels).
 */
const BAND_PIXELS = 256 * 1024;
/**
 * Idle workers stop after this long; the next task starts one again (0.3 s or so with its
 * codecs). Long enough to stay ready while someone looks at an install.
 */
const IDLE_TIMEOUT_MS = 5 * 60_000;

/**
 * A pool of `threads` worker threads (default: the cores, at most 4). Process-wide side effect:
 * the first pool made on the main thread starts keepHeapHeadroom (heap-headroom.ts), which sets
 * V8's --heap-growing-percent for the whole process (its workers included) and keeps adjusting it
 * after each mark-compact; close() does not undo it, and it keeps no timer or handle alive.
 */
export function createWorkerPool(opts: WorkerPoolOptions = {}): WorkerPool {
  const threads = opts.threads ?? Math.min(4, availableParallelism());
  if (!Number.isInteger(threads) || threads < 1) throw new RangeError(`a worker pool needs 1 or more threads, not ${threads}`);
  // The outputs the workers send streaming into this thread would otherwise keep its collector busy.
  keepHeapHeadroom();
  // Errors of a worker outside its tasks (they reject the tasks it had, too).
  const pool = new WorkerThreads(resolveWorkerFile(opts.workerFile), threads, TASKS_PER_THREAD, IDLE_TIMEOUT_MS,
    (e: unknown) => console.warn('block decoder worker:', e));
  const batcher = new TaskBatcher(
    (task: PoolTask, transfer: ArrayBuffer[]) => pool.run<TaskReply>(task, 'default', transfer),
    threads,
    threads * TASKS_PER_THREAD,
    TASK_BUDGET_BYTES,
    AHEAD_JOBS,
  );

  /** A read job's value is its output: only a cancelled job answers null, and a cancelled read has been rejected already. */
  function readPart(plan: BlockPlan, signal?: AbortSignal): Promise<Uint8Array> {
    return batcher.submit({ kind: 'read', plan }, plan.size + JOB_COST_BYTES, signal ? { signal } : undefined) as Promise<Uint8Array>;
  }

  /**
   * Write job `packed`; `flags` (FileFlag each) carry over from an attempt a dead worker cut
   * short. A job of SHARE_FILES files or more goes to every thread at once, each claiming files
   * as it goes (file-write.ts), so they finish together however the files' sizes fall. What
   * became of each file is in `flags`; only failures come back in the replies. Only the packed
   * job is kept while it runs (a retry takes its files from it).
   */
  async function runPacked(packed: PackedWrites, flags: Int32Array, signal?: AbortSignal, kib?: Int32Array): Promise<WriteResult[]> {
    const count = packed.count;
    if (count === 0) return [];
    const bytes = packedBytes(packed) + count * WRITE_COST_BYTES;
    const sharers = count >= SHARE_FILES ? threads : 1;
    const job: TaskJob = {
      kind: 'write', files: packed, fileFlags: flags, ...(kib ? { fileKiB: kib } : {}),
      ...(sharers > 1 ? { claim: { next: new Int32Array(new SharedArrayBuffer(4)), sharers } } : {}),
    };
    const settled = await Promise.allSettled(Array.from({ length: sharers }, () =>
      batcher.submit(job, bytes / sharers, { settleInWorker: true, ...(signal ? { signal } : {}) })));
    const results = new Array<WriteResult | undefined>(count).fill(undefined);
    let failure: unknown;
    for (const s of settled) {
      if (s.status === 'rejected') failure ??= s.reason;
      else if (s.value !== null) for (const f of s.value as WireWriteFailure[]) results[f.file] = writeError(f);
    }
    const done = (i: number): WriteResult | null => {
      const flag = Atomics.load(flags, i);
      return flag === FileFlag.Written ? 'written' : flag === FileFlag.Exists ? 'exists' : null;
    };
    if (signal?.aborted) return results.map((r, i) => r ?? done(i) ?? 'cancelled');
    if (failure === undefined) return results.map((r, i) => r ?? done(i) ?? new Error('block decoder worker left a file unwritten'));
    if (count === 1) return [results[0] ?? done(0) ?? asError(failure)];
    // A worker died on this job: each file it left goes again on its own, one after the other
    // (a task waiting at a worker dies with it), so only the one that kills it fails.
    const retried: WriteResult[] = [];
    for (const [i, r] of results.entries()) {
      const known = r ?? done(i);
      if (known !== null) {
        retried.push(known);
        continue;
      }
      const own = new Int32Array(new SharedArrayBuffer(4));
      own[0] = Atomics.load(flags, i);
      retried.push((await runPacked(packWrites([unpackWrite(packed, i)]), own, signal))[0]!);
    }
    return retried;
  }

  async function readSplit(plan: BlockPlan, signal?: AbortSignal): Promise<Uint8Array> {
    const partBytes = Math.min(PART_BYTES, Math.max(SPLIT_BYTES, Math.ceil(plan.size / threads)));
    const { parts, starts } = splitPlan(plan, partBytes);
    if (parts.length === 1) return readPart(plan, signal);
    // Each part is copied into place as it arrives, so only the parts in flight are held twice.
    const out = new Uint8Array(plan.size);
    const settled = await Promise.allSettled(parts.map((part, i) => readPart(part, signal).then((d) => { out.set(d, starts[i]); })));
    let firstBlock = 0;
    for (const [i, s] of settled.entries()) {
      if (s.status === 'rejected') {
        if (signal?.aborted) throw signal.reason;
        throw tagJobIndex(s.reason, firstBlock + (jobIndexOf(s.reason) ?? 0));
      }
      firstBlock += planBlockCount(parts[i]!);
    }
    return out;
  }

  return {
    threads,

    async decode(jobs, signal) {
      signal?.throwIfAborted();
      // Stored, unencrypted blocks need no CPU: the trip to a worker would only copy them.
      if (jobs.every(isStoredPlain)) return runBlockJobs(jobs, signal);
      const parts = splitJobs(jobs, threads);
      const settled = await Promise.allSettled(parts.map((p) =>
        batcher.submit({ kind: 'decode', blocks: p.jobs.map(wireJob) }, p.bytes + JOB_COST_BYTES, {
          input: p.jobs.map((j) => j.data), ...(signal ? { signal } : {}),
        })));
      const results: Uint8Array[] = [];
      for (const [i, s] of settled.entries()) {
        if (s.status === 'rejected') {
          if (signal?.aborted) throw signal.reason;
          throw tagJobIndex(s.reason, parts[i]!.first + (jobIndexOf(s.reason) ?? 0));
        }
        if (!Array.isArray(s.value)) throw signal?.reason ?? new Error('block decoder worker skipped a decode');
        for (const out of s.value as Uint8Array[]) results.push(out);
      }
      return results;
    },

    readPlan(plan, signal) {
      if (signal?.aborted) return Promise.reject(signal.reason);
      // Most reads are one block or a few: no split, no wrapper.
      return plan.size <= SPLIT_BYTES ? readPart(plan, signal) : readSplit(plan, signal);
    },

    writePacked(job, signal, watch) {
      if (watch && (watch.flags.length < job.count || watch.kib.length < job.count)) {
        throw new RangeError(`a write job of ${job.count} files needs as many flags and counters`);
      }
      return runPacked(job, watch?.flags ?? new Int32Array(new SharedArrayBuffer(4 * Math.max(1, job.count))), signal, watch?.kib);
    },

    async hash(data, stored) {
      if (data.length < HASH_INLINE_BELOW) return checkChunkHash(stored, data);
      const copy = data.slice();
      const task: HashTask = { data: copy, stored: stored.slice() };
      try {
        return await pool.run<HashCheck>(task, 'hash', [copy.buffer]);
      } catch (e) {
        throw new Error(`hash worker failed: ${(e as Error).message ?? e}`);
      }
    },

    async digest(data) {
      if (data.length < HASH_INLINE_BELOW) return contentDigest(data);
      const copy = data.slice();
      try {
        return await pool.run<string>({ data: copy } satisfies DigestTask, 'digest', [copy.buffer]);
      } catch (e) {
        throw new Error(`digest worker failed: ${(e as Error).message ?? e}`);
      }
    },

    decodeImage(pixelFormat, data, width, height, signal) {
      signal?.throwIfAborted();
      const info = checkDecodable(pixelFormat, data, width, height);
      const rowBytes = sliceBytes(pixelFormat, width, info.blockHeight);
      const blockRows = Math.ceil(height / info.blockHeight);
      const bandBlockRows = Math.max(1, Math.floor(BAND_PIXELS / (width * info.blockHeight)));
      const bands = Math.ceil(blockRows / bandBlockRows);
      const pixels = width * height * 4;
      const task: ImageTask = {
        pixelFormat, data: shared(data.subarray(0, blockRows * rowBytes)), width, height,
        bandRows: bandBlockRows * info.blockHeight, bandBytes: bandBlockRows * rowBytes, bands,
        next: new Int32Array(new SharedArrayBuffer(4)),
        rgba: new Uint8Array(new SharedArrayBuffer(pixels)),
        ...(info.hdr ? { float: new Float32Array(new SharedArrayBuffer(pixels * 4)) } : {}),
      };
      const image: DecodedImage = { width, height, rgba: task.rgba, ...(task.float ? { float: task.float } : {}) };
      return new Promise((resolve, reject) => {
        let decoded = 0, settled = false;
        const fail = (e: unknown): void => {
          if (settled) return;
          settled = true;
          // The threads still at it stop after their band.
          Atomics.store(task.next, 0, bands);
          signal?.removeEventListener('abort', onAbort);
          reject(e);
        };
        const onAbort = (): void => fail(signal!.reason);
        signal?.addEventListener('abort', onAbort, { once: true });
        // No signal to the threads: a band runs to its end, then the others find none left to claim.
        for (let t = Math.min(threads, bands); t > 0; t--) {
          pool.run<ImageReply>(task, 'decodeImage').then((reply) => {
            if (!reply.ok) return fail(reviveError(reply.error));
            decoded += reply.bands;
            // Every band is decoded once the replies count them all: a thread that started late
            // (busy with other work) finds none left and is not waited for.
            if (decoded === bands && !settled) {
              settled = true;
              signal?.removeEventListener('abort', onAbort);
              resolve(image);
            }
          }, (e: unknown) => fail(new Error(`texture decoder worker failed: ${(e as Error).message ?? e}`)));
        }
      });
    },

    async decodeSound(info, data, signal) {
      signal?.throwIfAborted();
      const task: SoundTask = { name: info.name, format: info.format, sampleRate: info.sampleRate, channels: info.channels, samples: info.samples, data, ...(info.partial ? { partial: true } : {}), ...(info.maxSeconds !== undefined ? { maxSeconds: info.maxSeconds } : {}) };
      // A cancelled decode runs to its end in the worker and is dropped here.
      const reply = await pool.run<SoundReply>(task, 'decodeSound', [data.buffer as ArrayBuffer]);
      signal?.throwIfAborted();
      if (!reply.ok) throw reviveError(reply.error);
      return { sampleRate: reply.sampleRate, channels: reply.channels, samples: reply.samples, ...(reply.errors ? { errors: reply.errors } : {}) };
    },

    async registryFacts(path, data) {
      const copy = data.slice();
      const reply = await pool.run<RegistryReply>({ path, data: copy } satisfies RegistryTask, 'registryFacts', [copy.buffer]);
      if (!reply.ok) throw reviveError(reply.error);
      return reply.facts;
    },

    searchSpan(task) {
      // No signal: a span runs to its end; the caller stops sending instead.
      return pool.run<SpanReply>(task, 'searchExtract');
    },

    async warm() {
      // One task per thread at once: each goes to a new thread (threads.ts: idle, else new, else least busy).
      await Promise.all(Array.from({ length: threads }, () => pool.run(null, 'warm')));
    },

    destroy: () => pool.destroy(),
  };
}

/**
 * Where the bundled worker is: the option; else $PAKSCOPE_WORKER; else worker.mjs or worker.js
 * beside this module (out/cli/pakscope.mjs, out/main/index.js); else <project>/out/cli/worker.mjs,
 * for code running from the TypeScript sources (tests).
 */
export function resolveWorkerFile(option?: string): string {
  const explicit = option ?? process.env['PAKSCOPE_WORKER'];
  const candidates = explicit
    ? [explicit]
    : ['./worker.mjs', './worker.js', '../../../out/cli/worker.mjs'].map((rel) => fileURLToPath(new URL(rel, import.meta.url)));
  const found = candidates.find((c) => existsSync(c));
  if (!found) {
    throw new Error(`the block decoder worker is not built (looked for ${candidates.join(', ')}); run npm run build:cli`);
  }
  return found;
}

/** `data` itself when it is in shared memory, else a copy there (every thread reads it). */
function shared(data: Uint8Array): Uint8Array {
  if (data.buffer instanceof SharedArrayBuffer) return data;
  const copy = new Uint8Array(new SharedArrayBuffer(data.length));
  copy.set(data);
  return copy;
}

/** A failed file's error as the worker saw it, tagged with its failing block. */
function writeError(f: WireWriteFailure): Error {
  const error = reviveError(f.error);
  return (f.index === undefined ? error : tagJobIndex(error, f.index)) as Error;
}

function isStoredPlain(job: BlockJob): boolean {
  return !job.aes && isStoredCodec(job.codec);
}

/**
 * Contiguous runs of jobs with about equal output, one per thread at most, none under
 * SPLIT_BYTES: a big call uses every thread, a small one stays one job.
 */
function splitJobs(jobs: BlockJob[], threads: number): { first: number; jobs: BlockJob[]; bytes: number }[] {
  const total = jobs.reduce((n, j) => n + j.uncompressedSize, 0);
  const count = Math.max(1, Math.min(threads, Math.floor(total / SPLIT_BYTES)));
  const parts: { first: number; jobs: BlockJob[]; bytes: number }[] = [];
  let first = 0;
  let done = 0;
  let partBytes = 0;
  jobs.forEach((job, i) => {
    done += job.uncompressedSize;
    partBytes += job.uncompressedSize;
    // Part k closes once k/count of the output is in; the last closes with the last job.
    if (done >= (total * (parts.length + 1)) / count || i === jobs.length - 1) {
      parts.push({ first, jobs: jobs.slice(first, i + 1), bytes: partBytes });
      first = i + 1;
      partBytes = 0;
    }
  });
  return parts;
}

/** A job as it crosses; its place in the task's input is set when the task is packed. */
function wireJob(j: BlockJob): WireJob {
  return {
    start: 0,
    length: j.data.length,
    codec: j.codec,
    compressedSize: j.compressedSize,
    uncompressedSize: j.uncompressedSize,
    ...(j.aes ? { aes: ownAesParams(j.aes) } : {}),
  };
}

/** Keys and IVs are often views into a whole TOC; cloning a view sends its entire buffer. */
function ownAesParams(p: AesParams): AesParams {
  return p.mode === 'ecb'
    ? { mode: 'ecb', key: p.key.slice() }
    : { mode: 'ctr', key: p.key.slice(), iv: p.iv.slice(), ...(p.blockIndex !== undefined ? { blockIndex: p.blockIndex } : {}) };
}

/**
 * Worker threads (piscina) that decrypt and decompress blocks and hash chunks, so big reads do
 * not stall the UI or the CLI. One decode() call travels as one task (or, when it is large, as
 * one task per thread); stored bytes are packed into one buffer and moved, results are moved back.
 * A job that fails (corrupt data, a crashed decoder, a worker that died) rejects that call only;
 * piscina replaces a dead worker and later calls work.
 */
import { existsSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { Piscina } from 'piscina';
import type { HashCheck } from '../archive.js';
import type { AesParams } from '../crypto/aes.js';
import { DecodeError, KeyError, UnsupportedCodecError } from '../errors.js';
import { checkChunkHash } from '../hash/chunk-hash.js';
import { jobIndexOf, runBlockJobs, tagJobIndex, type BlockDecoder, type BlockJob } from './block-job.js';
import type { DecodeReply, DecodeTask, HashTask, WireError, WireJob } from './worker.js';

export interface WorkerPool extends BlockDecoder {
  readonly threads: number;
  /** checkChunkHash in a worker; `data` is copied, never detached. */
  hash(data: Uint8Array, stored: Uint8Array): Promise<HashCheck>;
  destroy(): Promise<void>;
}

export interface WorkerPoolOptions {
  /** Default: os.availableParallelism(), at most 4. */
  threads?: number;
  /** The bundled worker entry; default: see resolveWorkerFile. */
  workerFile?: string;
}

/** A call decoding more than this much is split across threads (one task per thread at most). */
const SPLIT_BYTES = 1024 * 1024;
/** Hashing less than this inline is cheaper than the trip to a worker. */
const HASH_INLINE_BELOW = 64 * 1024;
/** Idle workers stop after this long; the next task starts one again (about 30 ms). */
const IDLE_TIMEOUT_MS = 60_000;

export function createWorkerPool(opts: WorkerPoolOptions = {}): WorkerPool {
  const threads = opts.threads ?? Math.min(4, availableParallelism());
  if (!Number.isInteger(threads) || threads < 1) throw new RangeError(`a worker pool needs 1 or more threads, not ${threads}`);
  const piscina = new Piscina({
    filename: pathToFileURL(resolveWorkerFile(opts.workerFile)).href,
    minThreads: 0,
    maxThreads: threads,
    idleTimeout: IDLE_TIMEOUT_MS,
  });
  // Errors of a worker between tasks; a task's own errors reject its run(). Without a listener
  // the EventEmitter would throw them in this thread.
  piscina.on('error', (e: unknown) => console.warn('block decoder worker:', e));

  async function runDecodeTask(jobs: BlockJob[], signal?: AbortSignal): Promise<Uint8Array[]> {
    const { task, transfer } = packJobs(jobs);
    let reply: DecodeReply;
    try {
      reply = (await piscina.run(task, { transferList: transfer, ...(signal ? { signal } : {}) })) as DecodeReply;
    } catch (e) {
      signal?.throwIfAborted();
      throw new Error(`block decoder worker failed: ${(e as Error).message ?? e}`);
    }
    if (!reply.ok) throw tagJobIndex(reviveError(reply.error), reply.jobIndex);
    return reply.outputs;
  }

  return {
    threads,

    async decode(jobs, signal) {
      signal?.throwIfAborted();
      // Stored, unencrypted blocks need no CPU: the trip to a worker would only copy them.
      if (jobs.every(isStoredPlain)) return runBlockJobs(jobs, signal);
      const parts = splitJobs(jobs, threads);
      const settled = await Promise.allSettled(parts.map((p) => runDecodeTask(p.jobs, signal)));
      const results: Uint8Array[] = [];
      for (const [i, s] of settled.entries()) {
        if (s.status === 'rejected') {
          throw tagJobIndex(s.reason, parts[i]!.first + (jobIndexOf(s.reason) ?? 0));
        }
        for (const out of s.value) results.push(out);
      }
      return results;
    },

    async hash(data, stored) {
      if (data.length < HASH_INLINE_BELOW) return checkChunkHash(stored, data);
      const copy = data.slice();
      const task: HashTask = { data: copy, stored: stored.slice() };
      try {
        return (await piscina.run(task, { name: 'hash', transferList: [copy.buffer] })) as HashCheck;
      } catch (e) {
        throw new Error(`hash worker failed: ${(e as Error).message ?? e}`);
      }
    },

    destroy: () => piscina.destroy(),
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

function isStoredPlain(job: BlockJob): boolean {
  return !job.aes && (job.codec === '' || job.codec.toLowerCase() === 'none');
}

/**
 * Contiguous runs of jobs with about equal output, one per thread at most, none under
 * SPLIT_BYTES: a big read uses every thread, a small one stays one task.
 */
function splitJobs(jobs: BlockJob[], threads: number): { first: number; jobs: BlockJob[] }[] {
  const total = jobs.reduce((n, j) => n + j.uncompressedSize, 0);
  const count = Math.max(1, Math.min(threads, Math.floor(total / SPLIT_BYTES)));
  const parts: { first: number; jobs: BlockJob[] }[] = [];
  let first = 0;
  let done = 0;
  jobs.forEach((job, i) => {
    done += job.uncompressedSize;
    // Part k closes once k/count of the output is in; the last closes with the last job.
    if (done >= (total * (parts.length + 1)) / count || i === jobs.length - 1) {
      parts.push({ first, jobs: jobs.slice(first, i + 1) });
      first = i + 1;
    }
  });
  return parts;
}

/** One fresh buffer holding every job's stored bytes, so only those bytes cross, once. */
function packJobs(jobs: BlockJob[]): { task: DecodeTask; transfer: ArrayBuffer[] } {
  const input = new ArrayBuffer(jobs.reduce((n, j) => n + j.data.length, 0));
  const bytes = new Uint8Array(input);
  let pos = 0;
  const wire = jobs.map((j): WireJob => {
    bytes.set(j.data, pos);
    const w: WireJob = {
      start: pos,
      length: j.data.length,
      codec: j.codec,
      compressedSize: j.compressedSize,
      uncompressedSize: j.uncompressedSize,
      ...(j.aes ? { aes: ownAesParams(j.aes) } : {}),
    };
    pos += j.data.length;
    return w;
  });
  return { task: { input, jobs: wire }, transfer: [input] };
}

/** Keys and IVs are often views into a whole TOC; cloning a view sends its entire buffer. */
function ownAesParams(p: AesParams): AesParams {
  return p.mode === 'ecb'
    ? { mode: 'ecb', key: p.key.slice() }
    : { mode: 'ctr', key: p.key.slice(), iv: p.iv.slice(), ...(p.blockIndex !== undefined ? { blockIndex: p.blockIndex } : {}) };
}

function reviveError(w: WireError): Error {
  let e: Error;
  if (w.name === 'DecodeError' && w.method !== undefined) e = new DecodeError(w.method, '');
  else if (w.name === 'UnsupportedCodecError' && w.codec !== undefined) e = new UnsupportedCodecError(w.codec);
  else if (w.name === 'KeyError') e = new KeyError(w.message);
  else e = new Error(w.message);
  e.message = w.message;
  return e;
}

/**
 * A unit of CPU work on stored bytes: decrypt (optional), then decompress one block. Jobs run in
 * the worker pool (pool.ts) or, for tests and tiny reads, inline on the calling thread; both go
 * through runBlockJob so the result is the same.
 */
import { getCodec, whenCodecsReady } from '../codecs/registry.js';
import { aesDecrypt, type AesParams } from '../crypto/aes.js';
import { DecodeError } from '../errors.js';

export interface BlockJob {
  /** Stored bytes: the compressed size, or its 16-byte aligned size when encrypted. */
  data: Uint8Array;
  /** Codec name as the container names it ("None", "Zlib", "Oodle", ...). */
  codec: string;
  compressedSize: number;
  uncompressedSize: number;
  aes?: AesParams;
}

/** The decoded block: exactly uncompressedSize bytes. A stored, unencrypted block is a view of job.data. */
export function runBlockJob(job: BlockJob): Uint8Array {
  let data = job.data;
  if (job.aes) data = aesDecrypt(data, job.aes);
  if (data.length < job.compressedSize) {
    throw new DecodeError(job.codec, `block holds ${data.length} bytes but its compressed size is ${job.compressedSize}`);
  }
  data = data.subarray(0, job.compressedSize);
  return getCodec(job.codec).decode(data, job.uncompressedSize);
}

/** Runs jobs in order on this thread; a failure is tagged with its job's index (jobIndexOf). */
export async function runBlockJobs(jobs: readonly BlockJob[], signal?: AbortSignal): Promise<Uint8Array[]> {
  await whenCodecsReady();
  return jobs.map((job, i) => {
    signal?.throwIfAborted();
    try {
      return runBlockJob(job);
    } catch (e) {
      throw tagJobIndex(e, i);
    }
  });
}

/**
 * Decodes many blocks; the pool and the inline decoder both implement it. The results are in job
 * order. decode() rejects with the first failing job's own error (DecodeError,
 * UnsupportedCodecError, ...), tagged with that job's index, or with signal.reason when aborted.
 */
export interface BlockDecoder {
  decode(jobs: BlockJob[], signal?: AbortSignal): Promise<Uint8Array[]>;
}

export const inlineDecoder: BlockDecoder = {
  decode: runBlockJobs,
};

const JOB_INDEX = Symbol('jobIndex');

/** Which job of a decode() call failed, when `e` came from one. */
export function jobIndexOf(e: unknown): number | undefined {
  return e instanceof Error ? (e as Error & { [JOB_INDEX]?: number })[JOB_INDEX] : undefined;
}

export function tagJobIndex(e: unknown, index: number): unknown {
  if (e instanceof Error) Object.defineProperty(e, JOB_INDEX, { value: index, configurable: true });
  return e;
}

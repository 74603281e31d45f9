/**
 * A unit of CPU work on stored bytes: decrypt (optional), then decompress one block. Jobs run in
 * the worker pool (pool.ts) or, for tests and tiny reads, inline on the calling thread; both go
 * through runBlockJob so the result is the same.
 */
import { getCodec } from '../codecs/registry.js';
import { aesDecrypt, type AesParams } from '../crypto/aes.js';

export interface BlockJob {
  /** Stored bytes: the compressed size, or its 16-byte aligned size when encrypted. */
  data: Uint8Array;
  /** Codec name as the container names it ("None", "Zlib", "Oodle", ...). */
  codec: string;
  compressedSize: number;
  uncompressedSize: number;
  aes?: AesParams;
}

export function runBlockJob(job: BlockJob): Uint8Array {
  let data = job.data;
  if (job.aes) data = aesDecrypt(data, job.aes);
  if (data.length < job.compressedSize) {
    throw new Error(`block holds ${data.length} bytes but its compressed size is ${job.compressedSize}`);
  }
  data = data.subarray(0, job.compressedSize);
  return getCodec(job.codec).decode(data, job.uncompressedSize);
}

/** Decodes many blocks; the pool and the inline decoder both implement it. */
export interface BlockDecoder {
  decode(jobs: BlockJob[], signal?: AbortSignal): Promise<Uint8Array[]>;
}

export const inlineDecoder: BlockDecoder = {
  async decode(jobs, signal) {
    return jobs.map((j) => {
      signal?.throwIfAborted();
      return runBlockJob(j);
    });
  },
};

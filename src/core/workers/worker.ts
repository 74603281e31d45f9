/**
 * The worker-thread entry of the block decoder pool (pool.ts), bundled to out/cli/worker.mjs and
 * out/main/worker.js. Piscina calls the default export with a DecodeTask, and `hash` by name.
 *
 * Handlers never throw: a failing job comes back as a reply naming it, because an Error thrown
 * across the thread boundary loses its class and fields (UnsupportedCodecError.codec, ...).
 */
import { move, transferableSymbol, valueSymbol } from 'piscina';
import type { HashCheck } from '../archive.js';
import { whenCodecsReady } from '../codecs/registry.js';
import type { AesParams } from '../crypto/aes.js';
import { checkChunkHash } from '../hash/chunk-hash.js';
import { jobIndexOf, runBlockJobs, type BlockJob } from './block-job.js';

/** A BlockJob whose stored bytes are [start, start + length) of the task's input buffer. */
export interface WireJob {
  start: number;
  length: number;
  codec: string;
  compressedSize: number;
  uncompressedSize: number;
  aes?: AesParams;
}

/** Every job's stored bytes packed into one buffer, transferred to the worker. */
export interface DecodeTask {
  input: ArrayBuffer;
  jobs: WireJob[];
}

/** An error as it crosses threads: enough to rebuild its class on the other side. */
export interface WireError {
  name: string;
  message: string;
  /** UnsupportedCodecError.codec */
  codec?: string;
  /** DecodeError.method */
  method?: string;
}

export type DecodeReply =
  | { ok: true; outputs: Uint8Array[] }
  | { ok: false; jobIndex: number; error: WireError };

export interface HashTask {
  data: Uint8Array;
  stored: Uint8Array;
}

export default async function decode(task: DecodeTask): Promise<unknown> {
  const jobs: BlockJob[] = task.jobs.map(({ start, length, ...rest }) => ({
    ...rest,
    data: new Uint8Array(task.input, start, length),
  }));
  try {
    return moveOutputs(await runBlockJobs(jobs));
  } catch (e) {
    // A crashed Oodle decoder is being replaced: let that finish before this thread takes more work.
    await whenCodecsReady();
    const reply: DecodeReply = { ok: false, jobIndex: jobIndexOf(e) ?? 0, error: toWireError(e) };
    return reply;
  }
}

export async function hash(task: HashTask): Promise<HashCheck> {
  return checkChunkHash(task.stored, task.data);
}

/**
 * Sends the outputs back without copying them again: a buffer an output owns whole is moved;
 * the others (stored blocks, which are views of the input, and zlib's slightly larger buffers)
 * are copied once into buffers of their own.
 */
function moveOutputs(outputs: Uint8Array[]): unknown {
  const owned = outputs.map((o) =>
    o.byteOffset === 0 && o.byteLength === o.buffer.byteLength && o.buffer instanceof ArrayBuffer ? o : o.slice());
  const reply: DecodeReply = { ok: true, outputs: owned };
  return move({
    get [transferableSymbol]() { return [...new Set(owned.map((o) => o.buffer))]; },
    get [valueSymbol]() { return reply; },
  });
}

function toWireError(e: unknown): WireError {
  if (!(e instanceof Error)) return { name: 'Error', message: String(e) };
  const { codec, method } = e as Error & { codec?: unknown; method?: unknown };
  return {
    name: e.name,
    message: e.message,
    ...(typeof codec === 'string' ? { codec } : {}),
    ...(typeof method === 'string' ? { method } : {}),
  };
}

/**
 * What crosses between the pool (main thread) and its workers: one task carries many jobs (the
 * pool batches small ones, task-batcher.ts), each job gets its own reply, so one failing job fails
 * only its caller. Errors cross as WireError and are rebuilt with their class and fields.
 */
import type { RegistryAssetFact } from '../asset-registry/facts.js';
import type { AesParams } from '../crypto/aes.js';
import { DecodeError, FormatError, KeyError, UnsupportedCodecError, UnsupportedPixelFormatError } from '../errors.js';
import { ShortBlockError, type BlockPlan } from './block-plan.js';
import type { Claim } from './file-write.js';
import type { PackedWrites } from './packed-writes.js';

/**
 * A worker handler's answer whose buffers move to the main thread instead of being copied:
 * threads.ts unwraps it and posts `value` with `transfer` in the transfer list.
 */
export const TRANSFER = Symbol.for('pakscope.worker.transfer');
export interface Moved<T> { [TRANSFER]: ArrayBufferLike[]; value: T }
export function moved<T>(value: T, transfer: ArrayBufferLike[]): Moved<T> {
  return { [TRANSFER]: transfer, value };
}

/** A BlockJob whose stored bytes are [start, start + length) of the task's input buffer. */
export interface WireJob {
  start: number;
  length: number;
  codec: string;
  compressedSize: number;
  uncompressedSize: number;
  aes?: AesParams;
}

export type TaskJob =
  /** Blocks in memory (BlockDecoder.decode): one output per block. */
  | { kind: 'decode'; blocks: WireJob[] }
  /** Blocks in files: the plan's output. */
  | { kind: 'read'; plan: BlockPlan }
  /**
   * Files, each read from its blocks and written by the worker, in order. `fileFlags` (one
   * FileFlag per file, shared) say how far each got, so a retry after the worker died neither
   * writes a file twice nor trips over what the dead one left. With `claim`, the same job goes
   * to several threads at once, and each writes the files it claims (file-write.ts). `fileKiB`
   * (shared): the KiB of each file written so far, for files written in pieces (progress).
   */
  | { kind: 'write'; files: PackedWrites; fileFlags: Int32Array; fileKiB?: Int32Array; claim?: Claim };

export interface PoolTask {
  /** The decode jobs' stored bytes, packed. */
  input?: ArrayBuffer;
  jobs: TaskJob[];
  /** One JobFlag per job on a SharedArrayBuffer (absent when no job can be cancelled or writes). */
  flags?: Int32Array;
}

/** A job's state in PoolTask.flags, shared by both threads. */
export const JobFlag = {
  Pending: 0,
  /** Set by the caller: skip or stop the job. */
  Cancelled: 1,
} as const;

/** A write job's file's state in its fileFlags, set by the worker. */
export const FileFlag = {
  Pending: 0,
  /** Being written at its final name / at its temporary name (a dead worker's leftovers are there). */
  AtTarget: 1,
  AtTemp: 2,
  /** Done: in place, or left at its temporary name for the caller to settle. */
  Written: 3,
  Exists: 4,
} as const;

/**
 * A file of a write job that failed: its index in the job, why, and (`index`) the plan's block
 * that failed, when one did. What became of the others is in the job's fileFlags.
 */
export interface WireWriteFailure { file: number; error: WireError; index: number | undefined }

export type JobValue = Uint8Array[] | Uint8Array | WireWriteFailure[] | null;

/** `value` null: skipped, the job was cancelled. `index`: which block failed. */
export type JobReply = { ok: true; value: JobValue } | { ok: false; index: number; error: WireError };

export interface TaskReply { replies: JobReply[] }

export interface DigestTask {
  data: Uint8Array;
}

export interface HashTask {
  data: Uint8Array;
  stored: Uint8Array;
}

/**
 * One 2D image decoded by every thread at once (WorkerPool.decodeImage), straight into shared
 * memory: the image is cut into bands of `bandRows` pixel rows (whole rows of blocks), and each
 * thread given the task claims the next band (`next[0]`, shared) until none is left, so a thread
 * the machine keeps waiting takes fewer. Band k's stored bytes start at k x bandBytes of `data`,
 * its pixels at row k x bandRows of `rgba` (and `float`, for HDR formats).
 */
export interface ImageTask {
  pixelFormat: string;
  data: Uint8Array;
  width: number;
  height: number;
  bandRows: number;
  bandBytes: number;
  bands: number;
  next: Int32Array;
  rgba: Uint8Array;
  float?: Float32Array;
}

/** How many bands this thread decoded, or why one did not decode (the others then stop claiming). */
export type ImageReply = { ok: true; bands: number } | { ok: false; error: WireError };

/** A sound's stored payload to decode (WorkerPool.decodeSound): its facts and bytes, moved to the worker. */
export interface SoundTask {
  name: string;
  format: string;
  sampleRate: number;
  channels: number;
  samples: number;
  data: Uint8Array;
  /** The first chunks only (decodeSoundPayload's partial and maxSeconds). */
  partial?: boolean;
  maxSeconds?: number;
}

/** The decoded 16-bit PCM (its buffer moved back), or why it did not decode. */
export type SoundReply =
  | { ok: true; sampleRate: number; channels: number; samples: Int16Array; errors?: string[] }
  | { ok: false; error: WireError };

/** An asset registry file's bytes to parse (WorkerPool.registryFacts), moved to the worker. */
export interface RegistryTask {
  path: string;
  data: Uint8Array;
}

/** The registry's assets, or why it did not read. */
export type RegistryReply = { ok: true; facts: RegistryAssetFact[] } | { ok: false; error: WireError };

/** An error as it crosses threads: enough to rebuild its class on the other side. */
export interface WireError {
  name: string;
  message: string;
  /** UnsupportedCodecError.codec */
  codec?: string;
  /** DecodeError.method */
  method?: string;
  /** FormatError */
  file?: string;
  structure?: string;
  offset?: number;
  /** UnsupportedPixelFormatError */
  pixelFormat?: string;
  /** ShortBlockError */
  decodedLength?: number;
  /** System errors (ENOSPC, EEXIST, ...) */
  code?: string;
  errno?: number;
  syscall?: string;
  path?: string;
}

export function toWireError(e: unknown): WireError {
  if (!(e instanceof Error)) return { name: 'Error', message: String(e) };
  const w: WireError = { name: e.name, message: e.message };
  const x = e as Error & Record<string, unknown>;
  for (const k of ['codec', 'method', 'file', 'structure', 'code', 'syscall', 'path', 'pixelFormat'] as const) {
    if (typeof x[k] === 'string') w[k] = x[k] as string;
  }
  for (const k of ['offset', 'decodedLength', 'errno'] as const) {
    if (typeof x[k] === 'number') w[k] = x[k] as number;
  }
  return w;
}

export function reviveError(w: WireError): Error {
  let e: Error;
  if (w.name === 'DecodeError' && w.method !== undefined) e = new DecodeError(w.method, '');
  else if (w.name === 'UnsupportedCodecError' && w.codec !== undefined) e = new UnsupportedCodecError(w.codec);
  else if (w.name === 'FormatError' && w.file !== undefined && w.structure !== undefined && w.offset !== undefined) {
    e = new FormatError(w.file, w.structure, w.offset, '');
  } else if (w.name === 'ShortBlockError' && w.decodedLength !== undefined) e = new ShortBlockError(w.decodedLength);
  else if (w.name === 'KeyError') e = new KeyError(w.message);
  else if (w.name === 'UnsupportedPixelFormatError' && w.pixelFormat !== undefined) e = new UnsupportedPixelFormatError(w.pixelFormat, true);
  else {
    e = new Error(w.message);
    if (w.name !== 'Error') e.name = w.name;
  }
  e.message = w.message;
  const sys = e as NodeJS.ErrnoException;
  if (w.code !== undefined) sys.code = w.code;
  if (w.errno !== undefined) sys.errno = w.errno;
  if (w.syscall !== undefined) sys.syscall = w.syscall;
  if (w.path !== undefined) sys.path = w.path;
  return e;
}

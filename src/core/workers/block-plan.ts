/**
 * A BlockPlan says where the stored blocks of one output lie in plain files and how each becomes
 * bytes of it: read, decrypt, decompress, then copy bytes [skip, skip + take) of the decoded block
 * to `at` in the output. The main thread builds plans from a TOC or a pak entry (it checks every
 * range against the file sizes first); workers run them (runBlockPlan), so stored bytes never pass
 * through the main thread and one buffer per output comes back.
 */
import { getCodec } from '../codecs/registry.js';
import { aesDecrypt, type AesParams } from '../crypto/aes.js';
import { DecodeError } from '../errors.js';
import { tagJobIndex } from './block-job.js';
import type { WriteResult } from './file-write.js';
import type { PackedWrites, WriteJobBuilder } from './packed-writes.js';

export interface BlockPlan {
  /** Files the stored bytes are in (opened read-only, by the worker). */
  files: string[];
  /** Codec names, indexed by the blocks' `codec` field. */
  codecs: string[];
  /** Bytes of the output. */
  size: number;
  /**
   * PLAN_STRIDE numbers per block, in the order of PlanField. A plain array where plans are made
   * (a typed array of this size would cost the main thread an off-heap buffer per read); a view
   * into a packed write job's table (packed-writes.ts) in a worker.
   */
  blocks: number[] | Float64Array;
  /** The AES-256 key of the blocks flagged encrypted. */
  key?: Uint8Array;
  /** AES-CTR: 12 bytes per IV, indexed by the blocks' `iv` field. Absent: ECB. */
  ctrIvs?: Uint8Array;
}

/** Where each number of a block sits in BlockPlan.blocks. */
export const PlanField = {
  /** Index into `files`. */
  file: 0,
  /** Byte offset of the stored bytes in the file. */
  offset: 1,
  /** Bytes to read: the compressed size, padded to the AES block when encrypted. */
  stored: 2,
  /** Bytes the codec gets (after decryption). */
  compressed: 3,
  uncompressed: 4,
  /** Index into `codecs`. */
  codec: 5,
  /** 1 = encrypted. */
  encrypted: 6,
  /** AES-CTR: index into `ctrIvs`. */
  iv: 7,
  /** AES-CTR: the counter of the first 16-byte block of the stored bytes. */
  ctrBlock: 8,
  /** Where the taken bytes go in the output. */
  at: 9,
  /** Decoded bytes skipped before the taken ones. */
  skip: 10,
  take: 11,
} as const;
export const PLAN_STRIDE = 12;

export interface PlanBlock {
  file: number;
  offset: number;
  stored: number;
  compressed: number;
  uncompressed: number;
  codec: number;
  encrypted: boolean;
  iv?: number;
  ctrBlock?: number;
  at: number;
  skip: number;
  take: number;
}

/** Appends block `b` to a plan's block table (main thread). */
export function addPlanBlock(table: number[], b: PlanBlock): void {
  table.push(b.file, b.offset, b.stored, b.compressed, b.uncompressed, b.codec, b.encrypted ? 1 : 0,
    b.iv ?? -1, b.ctrBlock ?? 0, b.at, b.skip, b.take);
}

/**
 * Where a plan's blocks go as they are planned: a read's own PlanTable, or a write job
 * (WriteJobBuilder). `block` takes the fields of PlanField, in order; `addIvs` the AES-CTR IVs.
 */
export interface PlanSink {
  block(file: number, offset: number, stored: number, compressed: number, uncompressed: number, codec: number, encrypted: number,
    iv: number, ctrBlock: number, at: number, skip: number, take: number): void;
  addIvs(ivs: Uint8Array): void;
}

/** The block table (and IVs) of one plan. */
export class PlanTable implements PlanSink {
  readonly blocks: number[] = [];
  ivs: Uint8Array | undefined;
  private ivAt = 0;

  /** `blockCount`: blocks the plan will have (room for their IVs). */
  constructor(private readonly blockCount: number) {}

  block(file: number, offset: number, stored: number, compressed: number, uncompressed: number, codec: number, encrypted: number,
    iv: number, ctrBlock: number, at: number, skip: number, take: number): void {
    this.blocks.push(file, offset, stored, compressed, uncompressed, codec, encrypted, iv, ctrBlock, at, skip, take);
  }

  addIvs(ivs: Uint8Array): void {
    this.ivs ??= new Uint8Array(ivs.length * this.blockCount);
    this.ivs.set(ivs, this.ivAt);
    this.ivAt += ivs.length;
  }
}

export function planBlockCount(plan: BlockPlan): number {
  return plan.blocks.length / PLAN_STRIDE;
}

/**
 * Plans of at most about `maxBytes` output each, covering `plan`'s output in order, so a big read
 * spreads over the threads; `starts` are where each part's output begins. A plan that fits is
 * returned as it is.
 */
export function splitPlan(plan: BlockPlan, maxBytes: number): { parts: BlockPlan[]; starts: number[] } {
  const n = planBlockCount(plan);
  if (plan.size <= maxBytes || n <= 1) return { parts: [plan], starts: [0] };
  const parts: BlockPlan[] = [];
  const starts: number[] = [];
  let first = 0;
  while (first < n) {
    const start = plan.blocks[first * PLAN_STRIDE + PlanField.at]!;
    let end = first;
    let bytes = 0;
    while (end < n && (end === first || bytes + plan.blocks[end * PLAN_STRIDE + PlanField.take]! <= maxBytes)) {
      bytes += plan.blocks[end * PLAN_STRIDE + PlanField.take]!;
      end++;
    }
    const blocks = plan.blocks.slice(first * PLAN_STRIDE, end * PLAN_STRIDE);
    for (let i = 0; i < end - first; i++) blocks[i * PLAN_STRIDE + PlanField.at] = blocks[i * PLAN_STRIDE + PlanField.at]! - start;
    parts.push({ ...plan, blocks, size: bytes });
    starts.push(start);
    first = end;
  }
  return { parts, starts };
}

/** A block decoded to fewer bytes than the plan takes from it; the plan's owner names the structure. */
export class ShortBlockError extends Error {
  constructor(readonly decodedLength: number) {
    super(`block holds ${decodedLength} bytes`);
    this.name = 'ShortBlockError';
  }
}

/** Positional reads of whole ranges (ReadOnlyFiles, file-cache.ts). */
export interface RangeReader {
  /**
   * Exactly `length` bytes of `file` at `offset`: read into `into` (from 0), or a view of bytes
   * read ahead (readAhead), good until the next readAhead. A short file is a FormatError.
   */
  read(file: string, offset: number, length: number, into: Uint8Array): Uint8Array;
  /** Reads `length` bytes of `file` at `offset` in one go, for the reads of them that follow; false when it could not. */
  readAhead?(file: string, offset: number, length: number): boolean;
}

/**
 * Runs a plan: the output, `plan.size` bytes. A failure is the block's own error (DecodeError,
 * UnsupportedCodecError, FormatError of a read, ShortBlockError) tagged with its block index
 * (jobIndexOf). `stop` is asked between blocks; when it says true the run ends with null. With
 * `reuseOutput` the output may be the thread's scratch output (Scratch.output), good only until
 * the next run: for a caller that writes it out at once.
 */
export function runBlockPlan(plan: BlockPlan, reader: RangeReader, scratch: Scratch, stop?: () => boolean, reuseOutput = false): Uint8Array | null {
  const n = planBlockCount(plan);
  const b = plan.blocks;
  const one = n === 1 ? singleBlockOutput(plan, reader, scratch, reuseOutput) : undefined;
  if (one !== undefined) return one;
  const out = reuseOutput ? scratch.output(plan.size) : new Uint8Array(plan.size);
  let i = 0;
  while (i < n) {
    if (stop?.()) return null;
    // Neighbouring blocks of one file are read in one go.
    // `| 0`: a table's numbers are doubles, and an array indexed by a double is looked up by its string.
    const file = b[i * PLAN_STRIDE + PlanField.file]! | 0;
    const runStart = b[i * PLAN_STRIDE + PlanField.offset]!;
    let runEnd = runStart + b[i * PLAN_STRIDE + PlanField.stored]!;
    let e = i + 1;
    while (e < n && b[e * PLAN_STRIDE + PlanField.file] === file && b[e * PLAN_STRIDE + PlanField.offset] === runEnd &&
           runEnd - runStart < RUN_BYTES) {
      runEnd += b[e * PLAN_STRIDE + PlanField.stored]!;
      e++;
    }
    let bytes: Uint8Array;
    try {
      bytes = reader.read(plan.files[file]!, runStart, runEnd - runStart, scratch.get(runEnd - runStart));
    } catch (err) {
      throw tagJobIndex(err, i);
    }
    for (let k = i; k < e; k++) {
      const o = k * PLAN_STRIDE;
      const from = b[o + PlanField.offset]! - runStart;
      const skip = b[o + PlanField.skip]!, take = b[o + PlanField.take]!, at = b[o + PlanField.at]!;
      // A block taken whole is decoded in place where its codec can; the byte after it is the next
      // block's (written later) or, in the scratch output, spare.
      const dest = skip === 0 && take === b[o + PlanField.uncompressed]! ? out.subarray(at, at + take) : undefined;
      // A block's first bytes only: decoded no further where the codec can stop early.
      const prefix = !dest && skip === 0 ? out.subarray(at, at + take) : undefined;
      const room = at + take < plan.size || reuseOutput;
      const decoded = decodeBlock(plan, k, bytes.subarray(from, from + b[o + PlanField.stored]!), dest, room, prefix);
      if (decoded !== dest && decoded !== prefix) out.set(decoded.subarray(skip, skip + take), at);
    }
    i = e;
  }
  return out;
}

/** Stored bytes read at once at most (blocks beyond start another read). */
const RUN_BYTES = 4 * 1024 * 1024;

/**
 * The common case of a chunk in one block taken whole: decoded straight into the output where the
 * codec can, else the codec's own buffer is the output (Oodle), unless it is a view into the read
 * buffer (stored blocks), then it is copied once. Undefined: not that case.
 */
function singleBlockOutput(plan: BlockPlan, reader: RangeReader, scratch: Scratch, reuseOutput: boolean): Uint8Array | undefined {
  const b = plan.blocks;
  if (b[PlanField.at] !== 0 || b[PlanField.skip] !== 0 || b[PlanField.take] !== plan.size) return undefined;
  const stored = b[PlanField.stored]!;
  let bytes: Uint8Array;
  try {
    bytes = reader.read(plan.files[b[PlanField.file]! | 0]!, b[PlanField.offset]!, stored, scratch.get(stored));
  } catch (err) {
    throw tagJobIndex(err, 0);
  }
  const whole = b[PlanField.uncompressed] === plan.size;
  // The block's first bytes only (a header): decoded no further where the codec can stop early.
  const prefix = !whole && decodesPrefix(plan.codecs[b[PlanField.codec]! | 0]!);
  const out = whole || prefix ? (reuseOutput ? scratch.output(plan.size) : new Uint8Array(plan.size)) : undefined;
  const decoded = decodeBlock(plan, 0, bytes, whole ? out : undefined, reuseOutput, prefix ? out : undefined);
  if (out && decoded === out) return out;
  const view = decoded.subarray(0, plan.size);
  if (view.buffer !== bytes.buffer) return view;
  if (out) {
    out.set(view);
    return out;
  }
  // new Uint8Array(view) copies; a Buffer's slice() would not.
  return new Uint8Array(view);
}

/**
 * Block `k` decoded, as the inline path decodes it (runBlockJob): decrypt, cut to the compressed
 * size, decompress. A stored, unencrypted block may hold more than its declared size (cut) or
 * less (fine while the plan takes no more than it holds). `dest` (the block's uncompressed size)
 * is where a codec that can decodes into (`room`: the byte after it may be overwritten); the
 * result is `dest` when it did. `prefix`: the plan takes the block's first bytes only, this many;
 * a codec that can stop early decodes just those into it, and the result is `prefix`.
 */
function decodeBlock(plan: BlockPlan, k: number, stored: Uint8Array, dest?: Uint8Array, room = false, prefix?: Uint8Array): Uint8Array {
  const o = k * PLAN_STRIDE;
  const b = plan.blocks;
  const codec = plan.codecs[b[o + PlanField.codec]! | 0]!;
  const encrypted = b[o + PlanField.encrypted] === 1;
  const uncompressed = b[o + PlanField.uncompressed]!;
  let decoded: Uint8Array;
  try {
    if (!encrypted && isStoredCodec(codec)) {
      decoded = stored.subarray(0, Math.min(stored.length, uncompressed));
    } else {
      let data = stored;
      if (encrypted) data = aesDecrypt(data, aesParams(plan, k));
      if (data.length < b[o + PlanField.compressed]!) {
        throw new DecodeError(codec, `block holds ${data.length} bytes but its compressed size is ${b[o + PlanField.compressed]}`);
      }
      data = data.subarray(0, b[o + PlanField.compressed]!);
      const c = getCodec(codec);
      if (dest && c.decodeInto) {
        c.decodeInto(data, dest, room);
        decoded = dest;
      } else if (prefix && c.decodePrefix && prefix.length <= uncompressed) {
        c.decodePrefix(data, prefix);
        decoded = prefix;
      } else {
        decoded = c.decode(data, uncompressed);
        if (isStoredCodec(codec)) decoded = decoded.subarray(0, Math.min(decoded.length, uncompressed));
      }
    }
    if (decoded.length < b[o + PlanField.skip]! + b[o + PlanField.take]!) throw new ShortBlockError(decoded.length);
  } catch (err) {
    throw tagJobIndex(err, k);
  }
  return decoded;
}

function aesParams(plan: BlockPlan, k: number): AesParams {
  if (!plan.key) throw new DecodeError('AES', 'the plan has an encrypted block but no key');
  if (!plan.ctrIvs) return { mode: 'ecb', key: plan.key };
  const iv = plan.blocks[k * PLAN_STRIDE + PlanField.iv]!;
  return { mode: 'ctr', key: plan.key, iv: plan.ctrIvs.subarray(iv * 12, iv * 12 + 12), blockIndex: plan.blocks[k * PLAN_STRIDE + PlanField.ctrBlock]! };
}

/**
 * Whether the (compressed) codec can decode a block's first bytes only (Codec.decodePrefix).
 * False for stored blocks and for an unknown codec (its read names it, tagged with the block).
 */
export function decodesPrefix(codec: string): boolean {
  if (isStoredCodec(codec)) return false;
  try {
    return getCodec(codec).decodePrefix !== undefined;
  } catch {
    return false;
  }
}

export function isStoredCodec(codec: string): boolean {
  // Asked per block: the usual spellings need no lowercased copy.
  if (codec === '' || codec === 'None') return true;
  return codec.length === 4 && codec.toLowerCase() === 'none';
}

/** Reusable buffers per thread: stored bytes are decoded and copied out before the next read. */
export class Scratch {
  private buf: Uint8Array = new Uint8Array(0);
  private out: Uint8Array = new Uint8Array(0);

  /** A buffer of at least `size` bytes for stored bytes. */
  get(size: number): Uint8Array {
    if (this.buf.length < size) this.buf = grown(this.buf, size);
    return this.buf;
  }

  /**
   * Exactly `size` bytes for an output written out before the next run (runBlockPlan's
   * reuseOutput), with at least one spare byte after them for a codec to use.
   */
  output(size: number): Uint8Array {
    if (this.out.length <= size) this.out = grown(this.out, size + 1);
    return this.out.subarray(0, size);
  }
}

function grown(old: Uint8Array, size: number): Uint8Array {
  return new Uint8Array(Math.max(size, Math.min(2 * old.length, 8 * 1024 * 1024)));
}

/**
 * Runs plans in worker threads (the worker pool). Archives use it, when their decoder has it, to
 * have whole reads done off the main thread: `readPlan` resolves with the output (failures are
 * the block's error tagged with its index in the plan, jobIndexOf; an aborted read rejects with
 * the signal's reason at once). `writePacked` has a write job's files written (file-write.ts) and resolves with
 * one result per file, never rejecting: an aborted write is 'cancelled' once the worker stopped.
 * With `watch`, the caller can see files finish while the job runs (see WriteWatch).
 */
export interface PlanRunner {
  readPlan(plan: BlockPlan, signal?: AbortSignal): Promise<Uint8Array>;
  writePacked(job: PackedWrites, signal?: AbortSignal, watch?: WriteWatch): Promise<WriteResult[]>;
}

/**
 * A write job's shared arrays the caller made (one Int32 per file, on SharedArrayBuffers, all 0),
 * to watch the job while it runs: `flags`, each file's FileFlag (Written, Exists once done); `kib`,
 * the KiB of each file written so far, for a file written in pieces.
 */
export interface WriteWatch {
  flags: Int32Array;
  kib: Int32Array;
}

/**
 * Files of one archive planned into a write job (IoStoreContainer.planChunkWrites,
 * PakArchive.planEntryWrites). Several archives plan into one job (writeBatches runs it), so an
 * export whose folders mix containers still sends few, big jobs.
 */
export interface PlannedBatch {
  runner: PlanRunner;
  /** Per file asked for: its index in the job, or why it could not be planned. */
  slots: (number | Error)[];
  /** The result of file i (of those asked for) from the worker's: its error named as its archive names it; may try again (another key). */
  settle(i: number, result: WriteResult, signal?: AbortSignal): WriteResult | Promise<WriteResult>;
}

/**
 * Runs the job the batches planned into (they share one runner); per batch, one result per file
 * asked for. `watch`: see PlanRunner.writePacked (a file's numbers are at its slot).
 */
export async function writeBatches(job: WriteJobBuilder, batches: readonly PlannedBatch[], signal?: AbortSignal,
  watch?: WriteWatch): Promise<WriteResult[][]> {
  const runner = batches[0]?.runner;
  if (!runner) return [];
  if (batches.some((b) => b.runner !== runner)) throw new Error('write batches of different worker pools cannot go in one job');
  const written = job.files > 0 ? await runner.writePacked(job.build(), signal, watch) : [];
  return Promise.all(batches.map((b) => {
    const results = b.slots.map((slot, i) => (typeof slot === 'number' ? b.settle(i, written[slot]!, signal) : slot));
    // Most settle at once: no promise per file then.
    return results.some((r) => r instanceof Promise) ? Promise.all(results) : (results as WriteResult[]);
  }));
}

export function planRunnerOf(decoder: unknown): PlanRunner | undefined {
  const d = decoder as Partial<PlanRunner> | undefined;
  return d && typeof d.readPlan === 'function' && typeof d.writePacked === 'function' ? (d as PlanRunner) : undefined;
}

/**
 * One plan producing the outputs of `parts` side by side, each at its `at` in the joined output
 * (`size` bytes): many small reads become one job (the search index reads packages so).
 */
export function joinPlans(parts: readonly { plan: BlockPlan; at: number }[], size: number): BlockPlan {
  const files: string[] = [];
  const blocks: number[] = [];
  const ivs: Uint8Array[] = [];
  let ivCount = 0;
  let key: Uint8Array | undefined;
  for (const { plan, at } of parts) {
    if (plan.codecs !== parts[0]!.plan.codecs) throw new RangeError('joined plans must share their codec list');
    key ??= plan.key;
    const fileIndex = plan.files.map((f) => {
      let i = files.indexOf(f);
      if (i < 0) i = files.push(f) - 1;
      return i;
    });
    const n = planBlockCount(plan);
    for (let k = 0; k < n; k++) {
      const o = k * PLAN_STRIDE;
      for (let f = 0; f < PLAN_STRIDE; f++) {
        const v = plan.blocks[o + f]!;
        blocks.push(f === PlanField.file ? fileIndex[v]! : f === PlanField.at ? v + at : f === PlanField.iv && v >= 0 && plan.ctrIvs ? v + ivCount : v);
      }
    }
    if (plan.ctrIvs) {
      ivs.push(plan.ctrIvs);
      ivCount += plan.ctrIvs.length / 12;
    }
  }
  const joined: BlockPlan = { files, codecs: parts[0]?.plan.codecs ?? [], size, blocks };
  if (key) joined.key = key;
  if (ivs.length > 0) {
    const all = new Uint8Array(ivCount * 12);
    let o = 0;
    for (const iv of ivs) {
      all.set(iv, o);
      o += iv.length;
    }
    joined.ctrIvs = all;
  }
  return joined;
}

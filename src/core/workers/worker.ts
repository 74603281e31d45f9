/**
 * The worker-thread entry of the block decoder pool (pool.ts), bundled to out/cli/worker.mjs and
 * out/main/worker.js. Each pool thread (threads.ts) calls the default export with a PoolTask (many
 * jobs, see wire.ts), and the other exports (`hash`, `warm`, `decodeImage`, ...) by name.
 *
 * Jobs never throw: each comes back as its own reply, a failing one naming its block, because one
 * task carries the jobs of many callers and an Error thrown across the thread boundary loses its
 * class and fields (UnsupportedCodecError.codec, ...).
 */
import type { HashCheck } from '../archive.js';
import { whenCodecsReady } from '../codecs/registry.js';
import { checkChunkHash, contentDigest } from '../hash/chunk-hash.js';
import { jobIndexOf, runBlockJob, tagJobIndex, type BlockJob } from './block-job.js';
import { runBlockPlan, Scratch } from './block-plan.js';
import { ReadOnlyFiles } from './file-cache.js';
import { writePlannedFiles } from './file-write.js';
import { unpackWrite } from './packed-writes.js';
import { decodePixels } from '../assets/texture/decode/index.js';
import { threadId } from 'node:worker_threads';
import { runSpanTask, type SpanReply, type SpanTask } from '../search/extract.js';
import { StringTables } from '../search/span-facts.js';
import { decodeSoundPayload } from '../assets/sound/decode.js';
import { registryAssetFacts } from '../asset-registry/facts.js';
import { JobFlag, moved, toWireError, type DigestTask, type HashTask, type ImageReply, type ImageTask, type SoundReply, type SoundTask, type JobReply, type JobValue, type PoolTask, type RegistryReply, type RegistryTask, type TaskJob, type TaskReply, type WireWriteFailure } from './wire.js';

export type { HashTask, ImageTask, SoundTask, PoolTask, TaskReply, WireError, WireJob } from './wire.js';
// Test workers (test/workers/pool.test.ts) take write jobs apart as this one does.
export { packWrites, unpackWrite } from './packed-writes.js';

/** Files unused this long are closed (checked after each task and by a timer while idle). */
const FILE_IDLE_MS = 10_000;

const files = new ReadOnlyFiles(64, FILE_IDLE_MS);
const scratch = new Scratch();
const searchStrings = new StringTables(`thread ${threadId}`);
let idleTimer: ReturnType<typeof setTimeout> | undefined;

export default async function runTask(task: PoolTask): Promise<unknown> {
  await whenCodecsReady();
  const replies: JobReply[] = [];
  for (let j = 0; j < task.jobs.length; j++) {
    const flags = task.flags;
    const stop = flags ? (): boolean => Atomics.load(flags, j) === JobFlag.Cancelled : never;
    if (stop()) {
      replies.push({ ok: true, value: null });
      continue;
    }
    try {
      replies.push({ ok: true, value: runJob(task, task.jobs[j]!, stop) });
    } catch (e) {
      // A crashed Oodle decoder is being replaced: let that finish before the next job.
      await whenCodecsReady();
      replies.push({ ok: false, index: jobIndexOf(e) ?? 0, error: toWireError(e) });
    }
  }
  closeIdleFilesLater();
  return moveReplies(task, replies);
}

const never = (): boolean => false;

/** Nothing but getting the thread ready (the pool's warm()): its modules loaded, its codecs set up. */
export async function warm(): Promise<void> {
  await whenCodecsReady();
}

export async function hash(task: HashTask): Promise<HashCheck> {
  return checkChunkHash(task.stored, task.data);
}

export function digest(task: DigestTask): Promise<string> {
  return contentDigest(task.data);
}

/** A search index's span of Zen packages (WorkerPool.searchSpan): read and parsed here, their facts back. */
export async function searchExtract(task: SpanTask): Promise<unknown> {
  await whenCodecsReady();
  try {
    const reply = runSpanTask(task, files, scratch, searchStrings.for(task.build));
    // Its arrays move to the main thread, not copied (each has a buffer of its own).
    const transfer = [reply.ints.buffer, reply.starts.buffer, reply.refs.buffer, reply.textLengths.buffer, reply.textHashes.buffer, reply.keyLengths.buffer, reply.keyHashes.buffer];
    return moved(reply, transfer);
  } catch (e) {
    // Strings may have gone into the table without reaching the main thread.
    searchStrings.spoil(task.build);
    throw e;
  } finally {
    closeIdleFilesLater();
  }
}

/** Bands of one texture image (WorkerPool.decodeImage, see ImageTask), decoded into its shared pixels. */
export function decodeImage(task: ImageTask): ImageReply {
  const { width, height, bandRows, bandBytes, bands, next, rgba, float } = task;
  let done = 0;
  try {
    for (let k = Atomics.add(next, 0, 1); k < bands; k = Atomics.add(next, 0, 1)) {
      const y0 = k * bandRows, h = Math.min(bandRows, height - y0);
      const at = y0 * width * 4, end = (y0 + h) * width * 4;
      decodePixels(task.pixelFormat, task.data.subarray(k * bandBytes), width, h,
        { rgba: rgba.subarray(at, end), ...(float ? { float: float.subarray(at, end) } : {}) });
      done++;
    }
    return { ok: true, bands: done };
  } catch (e) {
    // The other threads stop claiming: the image has failed.
    Atomics.store(next, 0, bands);
    return { ok: false, error: toWireError(e) };
  }
}

/** An asset registry file (WorkerPool.registryFacts): parsed here, its assets' facts back (the error as a value). */
export function registryFacts(task: RegistryTask): RegistryReply {
  try {
    return { ok: true, facts: registryAssetFacts(task.data, task.path) };
  } catch (e) {
    return { ok: false, error: toWireError(e) };
  }
}

/** One sound's payload (WorkerPool.decodeSound): its PCM moves back, or the error comes back as a value. */
export async function decodeSound(task: SoundTask): Promise<unknown> {
  let reply: SoundReply;
  const transfer: ArrayBuffer[] = [];
  try {
    const pcm = await decodeSoundPayload(task, task.data, task.partial ? { partial: true, ...(task.maxSeconds !== undefined ? { maxSeconds: task.maxSeconds } : {}) } : {});
    const samples = pcm.samples.byteOffset === 0 && pcm.samples.byteLength === pcm.samples.buffer.byteLength ? pcm.samples : pcm.samples.slice();
    transfer.push(samples.buffer as ArrayBuffer);
    reply = { ok: true, sampleRate: pcm.sampleRate, channels: pcm.channels, samples, ...(pcm.errors ? { errors: pcm.errors } : {}) };
  } catch (e) {
    reply = { ok: false, error: toWireError(e) };
  }
  return moved(reply, transfer);
}

function runJob(task: PoolTask, job: TaskJob, stop: () => boolean): JobValue {
  switch (job.kind) {
    case 'decode':
      return job.blocks.map(({ start, length, ...rest }, i) => {
        const block: BlockJob = { ...rest, data: new Uint8Array(task.input!, start, length) };
        try {
          return runBlockJob(block);
        } catch (e) {
          throw tagJobIndex(e, i);
        }
      });
    case 'read':
      return runBlockPlan(job.plan, files, scratch, stop);
    case 'write': {
      // The outcomes are in the job's file flags; only failures come back.
      const failed: WireWriteFailure[] = [];
      writePlannedFiles(job.files.count, (i) => unpackWrite(job.files, i), job.fileFlags, files, scratch, stop, job.claim, job.fileKiB).forEach((r, file) => {
        if (r !== null && typeof r !== 'string') failed.push({ file, error: toWireError(r.error), index: r.index });
      });
      return failed;
    }
  }
}

function closeIdleFilesLater(): void {
  files.closeIdle();
  if (idleTimer || files.openCount === 0) return;
  idleTimer = setTimeout(() => {
    idleTimer = undefined;
    if (files.closeIdle() > 0) closeIdleFilesLater();
  }, FILE_IDLE_MS + 100);
  idleTimer.unref();
}

/**
 * Sends the outputs back without copying them again where that is safe: a buffer an output owns
 * whole is moved, and so is zlib's own output buffer (one byte longer than the output); anything
 * else (a view into the task's input, Node's shared pool of small buffers) is copied once first.
 */
function moveReplies(task: PoolTask, replies: JobReply[]): unknown {
  const transfer = new Set<ArrayBuffer>();
  const own = (o: Uint8Array): Uint8Array => {
    const out = movable(o) && !transfer.has(o.buffer as ArrayBuffer) ? o : new Uint8Array(o);
    transfer.add(out.buffer as ArrayBuffer);
    return out;
  };
  for (const [j, r] of replies.entries()) {
    if (!r.ok || r.value === null || task.jobs[j]!.kind === 'write') continue;
    r.value = Array.isArray(r.value) ? (r.value as Uint8Array[]).map(own) : own(r.value as Uint8Array);
  }
  const reply: TaskReply = { replies };
  return moved(reply, [...transfer]);
}

/** Node never pools buffers this big, so one with a few bytes of slack is its codec's own. */
const UNPOOLED_BYTES = 4096;
const MAX_SLACK = 64;

function movable(o: Uint8Array): boolean {
  if (!(o.buffer instanceof ArrayBuffer) || o.byteOffset !== 0) return false;
  const slack = o.buffer.byteLength - o.byteLength;
  return slack === 0 || (o.byteLength > UNPOOLED_BYTES && slack <= MAX_SLACK);
}

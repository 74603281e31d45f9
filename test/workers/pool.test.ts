/**
 * The worker pool against the bundled worker: the same bytes as inline decoding on real blocks,
 * errors that keep their class, recovery after a decoder crash and after a worker dies,
 * cancellation, and two threads that really run at once.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { deflateSync } from 'node:zlib';
import { corpus, CUE58_AES_KEY } from '../support/corpus.js';
import { parseAesKey } from '../../src/core/crypto/keys.js';
import { DecodeError, UnsupportedCodecError, isInputError } from '../../src/core/errors.js';
import { checkChunkHash } from '../../src/core/hash/chunk-hash.js';
import { jobIndexOf, runBlockJobs, type BlockJob } from '../../src/core/workers/block-job.js';
import { addPlanBlock, type BlockPlan } from '../../src/core/workers/block-plan.js';
import type { WriteTarget } from '../../src/core/workers/file-write.js';
import { packWrites } from '../../src/core/workers/packed-writes.js';
import { openIoStoreContainer } from '../../src/core/iostore/container.js';
import { createWorkerPool, resolveWorkerFile, type WorkerPool } from '../../src/core/workers/pool.js';
import { chunkJobs, loadContainer, type RealContainer } from '../codecs/real-chunks.js';
import { oodleTrapBlock } from '../codecs/oodle-trap-block.js';
import { ensureWorkerBundle } from './worker-bundle.js';

const CUE58 = 'cue58/IoStore/Tagged';
let bundle: string;
let tmp: string;
/** For the tests that need no fresh or special worker. */
let shared: WorkerPool;
const pools: WorkerPool[] = [];
const newPool = (opts: Parameters<typeof createWorkerPool>[0]): WorkerPool => {
  const p = createWorkerPool(opts);
  pools.push(p);
  return p;
};

/**
 * A worker file for pool mechanics: jobs with codec "crash" kill the worker thread; jobs with
 * codec "barrier" block their thread until a barrier job of another thread shows up (each leaves a
 * marker file in the folder its data names), at most as many tenths of a second as their first
 * data byte says, and answer 1 when they met one; everything else goes to the real worker.
 * Blocking is the point: a second barrier task on the same thread cannot start meanwhile.
 */
function writeTestWorker(): string {
  const file = join(tmp, 'test-worker.mjs');
  if (existsSync(file)) return file;
  writeFileSync(file, `
import runTask, { hash, packWrites, unpackWrite } from ${JSON.stringify(pathToFileURL(bundle).href)};
import { readdirSync, writeFileSync } from 'node:fs';
import { threadId } from 'node:worker_threads';
export { hash };
const sleep = new Int32Array(new SharedArrayBuffer(4));
export default async function (task) {
  const first = task.jobs[0];
  // Write jobs file by file (sharing the job's flags); a plan with codec "crash" kills the thread.
  if (first?.kind === 'write') {
    const replies = [];
    for (const job of task.jobs) {
      const failed = [];
      // A shared job's files are claimed one at a time from its counter, as the threads sharing it do.
      let next = 0;
      const take = () => (job.claim ? Atomics.add(job.claim.next, 0, 1) : next++);
      for (let i = take(); i < job.files.count; i = take()) {
        const file = unpackWrite(job.files, i);
        if (file.plan.codecs[0] === 'crash') process.exit(3);
        const one = { jobs: [{ kind: 'write', files: packWrites([file]), fileFlags: new Int32Array(job.fileFlags.buffer, 4 * i, 1) }] };
        for (const f of (await runTask(one)).replies[0].value) failed.push({ ...f, file: i });
      }
      replies.push({ ok: true, value: failed });
    }
    return { replies };
  }
  const block = first?.kind === 'decode' ? first.blocks[0] : undefined;
  if (block?.codec === 'crash') process.exit(3);
  if (block?.codec !== 'barrier') return runTask(task);
  // Barrier jobs one after the other, as the real worker runs a task's jobs.
  const replies = task.jobs.map((job) => {
    const b = job.blocks[0];
    const data = new Uint8Array(task.input, b.start, b.length);
    const dir = new TextDecoder().decode(data.subarray(1));
    writeFileSync(dir + '/' + threadId + '-' + Math.random(), '');
    const until = Date.now() + 100 * data[0];
    let met = false;
    while (!met && Date.now() < until) {
      met = readdirSync(dir).some((n) => !n.startsWith(threadId + '-'));
      Atomics.wait(sleep, 0, 0, 5);
    }
    return { ok: true, value: [Uint8Array.of(met ? 1 : 0)] };
  });
  return { replies };
}
`);
  return file;
}

const job = (codec: string, data = new Uint8Array(16)): BlockJob =>
  ({ data, codec, compressedSize: data.length, uncompressedSize: data.length });
/** A barrier job that gives up after `tenths` tenths of a second; `dir` is where the pair meets. */
const barrier = (tenths: number, dir: string): BlockJob => job('barrier', Uint8Array.from([tenths, ...Buffer.from(dir)]));
const meetingDir = (): string => mkdtempSync(join(tmp, 'barrier-'));
const zlibJob = (text: string): BlockJob => {
  const data = deflateSync(text);
  return { data, codec: 'Zlib', compressedSize: data.length, uncompressedSize: Buffer.byteLength(text) };
};

function allJobs(c: RealContainer): BlockJob[] {
  const jobs: BlockJob[] = [];
  for (let e = 0; e < c.toc.header.entryCount; e++) jobs.push(...chunkJobs(c, e).jobs);
  return jobs;
}

const sameBytes = (a: Uint8Array[], b: Uint8Array[]): boolean =>
  a.length === b.length && a.every((x, i) => Buffer.from(x).equals(b[i]!));

beforeAll(() => {
  bundle = ensureWorkerBundle();
  tmp = mkdtempSync(join(tmpdir(), 'pakscope-pool-'));
  shared = newPool({ threads: 2 });
});

afterAll(async () => {
  await Promise.all(pools.map((p) => p.destroy()));
  rmSync(tmp, { recursive: true, force: true });
});

/** A source file in a fresh folder, and plans of 5 stored bytes of it to files in that folder. */
function fiveByteFiles(prefix: string, content: string): {
  dir: string; src: string; plan: (at: number, codec?: string) => BlockPlan; to: (name: string) => WriteTarget;
} {
  const dir = mkdtempSync(join(tmp, prefix));
  const src = join(dir, 'src.bin');
  writeFileSync(src, Buffer.from(content));
  const plan = (at: number, codec = 'None'): BlockPlan => {
    const blocks: number[] = [];
    addPlanBlock(blocks, { file: 0, offset: at, stored: 5, compressed: 5, uncompressed: 5, codec: 0, encrypted: false, at: 0, skip: 0, take: 5 });
    return { files: [src], codecs: [codec], size: 5, blocks };
  };
  const to = (name: string): WriteTarget => ({ temp: join(dir, `${name}.partial`), target: join(dir, name), checkTarget: true });
  return { dir, src, plan, to };
}

describe('worker pool', () => {
  it('finds the bundled worker, and says where it looked when it is missing', () => {
    expect(resolveWorkerFile()).toBe(bundle);
    expect(resolveWorkerFile(bundle)).toBe(bundle);
    expect(() => resolveWorkerFile(join(tmp, 'nope.mjs'))).toThrow(/not built \(looked for .*nope\.mjs\); run npm run build:cli/);
  });

  it('decodes real Zlib and encrypted Oodle chunks to the same bytes as inline decoding', async () => {
    const pool = shared;
    expect(pool.threads).toBe(2);
    const containers = [
      loadContainer(corpus(`${CUE58}/Zlib/CUE4ParseFixtures-Minimal-Zlib-Windows.utoc`)),
      loadContainer(corpus(`${CUE58}/OodleEncrypted/CUE4ParseFixtures-Minimal-OodleEncrypted-Windows.utoc`), parseAesKey(CUE58_AES_KEY)),
    ];
    let compared = 0;
    for (const c of containers) {
      const perChunk = [...Array(c.toc.header.entryCount).keys()].map((e) => chunkJobs(c, e).jobs);
      const pooled = await Promise.all(perChunk.map((jobs) => pool.decode(jobs)));
      for (const [i, jobs] of perChunk.entries()) {
        expect(sameBytes(pooled[i]!, await runBlockJobs(jobs)), `chunk ${i}`).toBe(true);
        compared += jobs.length;
      }
    }
    expect(compared).toBeGreaterThan(250);
  });

  it('splits one large call across the threads and keeps the job order', async () => {
    const pool = shared;
    const jobs = allJobs(loadContainer(corpus(`${CUE58}/Oodle/CUE4ParseFixtures-Minimal-Oodle-Windows.utoc`)));
    const total = jobs.reduce((n, j) => n + j.uncompressedSize, 0);
    expect(total).toBeGreaterThan(2 * 1024 * 1024); // above the split threshold for two threads
    expect(sameBytes(await pool.decode(jobs), await runBlockJobs(jobs))).toBe(true);
  });

  it('hashes in a worker with the same result as checkChunkHash', async () => {
    const pool = shared;
    const data = new Uint8Array(200_000).map((_, i) => (i * 7) & 0xff);
    const stored = (await checkChunkHash(new Uint8Array(20), data)).actual.BLAKE3!;
    const check = await pool.hash(data, Uint8Array.from(Buffer.from(stored, 'hex')));
    expect(check).toMatchObject({ ok: true, algorithm: 'BLAKE3', expected: stored });
    expect(data.length).toBe(200_000); // copied to the worker, not detached
  });

  it('digests in a worker: BLAKE3 of a real chunk, whose first 20 bytes are the hash the engine stored for it', async () => {
    const c = await openIoStoreContainer(corpus(`${CUE58}/Uncompressed/CUE4ParseFixtures-Minimal-Uncompressed-Windows.utoc`));
    try {
      const big = c.files().find((f) => f.size > 200_000)!;
      const data = await c.read(big.ref);
      const digest = await shared.digest(data);
      expect(digest).toHaveLength(64);
      expect(digest.slice(0, 40)).toBe(c.storage(big.ref).storedHash);
      expect(data.length).toBe(big.size); // copied to the worker, not detached
    } finally {
      await c.close();
    }
  });

  it('rejects a job whose Oodle block crashes the decoder, keeping its class and index, then decodes the next', async () => {
    const pool = newPool({ threads: 1 }); // a fresh worker: the trap block traps for certain
    const trap = oodleTrapBlock();
    const jobs = [job('None'), { data: trap.block, codec: 'Oodle', compressedSize: trap.block.length, uncompressedSize: trap.size }];
    const err = await pool.decode(jobs).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(DecodeError);
    expect((err as DecodeError).method).toBe('Oodle (Leviathan)');
    expect((err as Error).message).toMatch(/block crashed the decoder \(memory access out of bounds\)/);
    expect(jobIndexOf(err)).toBe(1);
    expect(isInputError(err)).toBe(true);

    const text = new TextEncoder().encode('after the crash '.repeat(4096));
    const [out] = await pool.decode([{ data: deflateSync(text), codec: 'Zlib', compressedSize: deflateSync(text).length, uncompressedSize: text.length }]);
    expect(Buffer.from(out!).equals(text)).toBe(true);
  });

  it('revives UnsupportedCodecError with its codec', async () => {
    const pool = shared;
    const err = await pool.decode([zlibJob('x'), job('Brotli')]).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(UnsupportedCodecError);
    expect((err as UnsupportedCodecError).codec).toBe('Brotli');
    expect(jobIndexOf(err)).toBe(1);
  });

  it('rejects only the job whose worker died; the next job gets a new worker', async () => {
    const pool = newPool({ threads: 1, workerFile: writeTestWorker() });
    await expect(pool.decode([job('crash')])).rejects.toThrow(/^block decoder worker failed: /);
    const [out] = await pool.decode([zlibJob('new worker')]);
    expect(Buffer.from(out!).toString()).toBe('new worker');
  });

  it('when a worker dies running a batch, only the job that killed it fails; the others are sent again', async () => {
    const pool = newPool({ threads: 1, workerFile: writeTestWorker() });
    // Submitted together on one thread: one task carries all four.
    const results = await Promise.allSettled([job('crash'), zlibJob('one'), zlibJob('two'), zlibJob('three')].map((j) => pool.decode([j])));
    expect(results[0]).toMatchObject({ status: 'rejected', reason: { message: expect.stringMatching(/^block decoder worker failed: /) } });
    expect(results.slice(1).map((r) => (r.status === 'fulfilled' ? Buffer.from(r.value[0]!).toString() : r.reason))).toEqual(['one', 'two', 'three']);
  });

  it('when a worker dies in a write job, files it wrote are not written again and only the file that killed it fails', async () => {
    const pool = newPool({ threads: 1, workerFile: writeTestWorker() });
    const { dir, plan, to } = fiveByteFiles('writes-', '0123456789abcdefghij');
    const files = [plan(0), plan(5), plan(10, 'crash'), plan(15)].map((p, i) => ({ plan: p, to: to(`f${i}`) }));
    // f0 and f1 are written before the worker dies: the retry finds them done (O_EXCL would refuse to write them again).
    const results = await pool.writePacked(packWrites(files));
    expect(results.slice(0, 2)).toEqual(['written', 'written']);
    expect(results[2]).toBeInstanceOf(Error);
    expect((results[2] as Error).message).toMatch(/^block decoder worker failed: /);
    expect(results[3]).toBe('written');
    expect(['f0', 'f1', 'f3'].map((n) => readFileSync(join(dir, n), 'utf8'))).toEqual(['01234', '56789', 'fghij']);
    expect(existsSync(join(dir, 'f2')) || readdirSync(dir).some((n) => n.endsWith('.partial'))).toBe(false);
  });

  it('shares a big write job between its threads; when one dies, only the file that killed it fails and none is written twice', async () => {
    const pool = newPool({ threads: 2, workerFile: writeTestWorker() });
    const { dir, src, plan, to } = fiveByteFiles('shared-writes-', 'abcdefghijklmnopqrstuvwxyz0123456789ABCDEFGHIJKLMNOPQRSTUVWX');
    // Twelve files: over SHARE_FILES, so both threads take files from the one job.
    const files = Array.from({ length: 12 }, (_, i) => ({ plan: plan(5 * i, i === 7 ? 'crash' : 'None'), to: to(`f${i}`) }));
    const results = await pool.writePacked(packWrites(files));
    expect(results.map((r) => (typeof r === 'string' ? r : r.message))).toEqual(results.map((_, i) => (i === 7 ? expect.stringMatching(/^block decoder worker failed: /) : 'written')));
    expect((results[7] as Error).message).toMatch(/^block decoder worker failed: /);
    const source = readFileSync(src, 'latin1');
    for (let i = 0; i < 12; i++) {
      if (i !== 7) expect(readFileSync(join(dir, `f${i}`), 'latin1')).toBe(source.slice(5 * i, 5 * i + 5));
    }
    expect(readdirSync(dir).sort()).toEqual(['src.bin', ...Array.from({ length: 12 }, (_, i) => `f${i}`).filter((n) => n !== 'f7')].sort());
  });

  it('runs two tasks on two threads at the same time (and one thread cannot)', async () => {
    const file = writeTestWorker();
    const two = newPool({ threads: 2, workerFile: file });
    const pair = meetingDir();
    const met = await Promise.all([two.decode([barrier(50, pair)]), two.decode([barrier(50, pair)])]);
    expect(met.map(([m]) => m![0])).toEqual([1, 1]);
    const one = newPool({ threads: 1, workerFile: file });
    const lone = meetingDir();
    const alone = await Promise.all([one.decode([barrier(3, lone)]), one.decode([barrier(3, lone)])]);
    expect(alone.map(([m]) => m![0])).toEqual([0, 0]);
  });

  it('cancels through AbortSignal, before and during a task, and keeps working', async () => {
    const pool = newPool({ threads: 1, workerFile: writeTestWorker() });
    const reason = new Error('user closed the tab');
    await expect(pool.decode([zlibJob('never sent')], AbortSignal.abort(reason))).rejects.toBe(reason);
    const controller = new AbortController();
    const running = pool.decode([barrier(20, meetingDir())], controller.signal); // waits 2 s for a partner
    setTimeout(() => controller.abort(reason), 100);
    const started = Date.now();
    await expect(running).rejects.toBe(reason);
    expect(Date.now() - started).toBeLessThan(1500);
    const [out] = await pool.decode([zlibJob('still here')]);
    expect(Buffer.from(out!).toString()).toBe('still here');
  });

  it('starts its threads when warmed, and works on after', async () => {
    const pool = newPool({ threads: 2 });
    await expect(pool.warm()).resolves.toBeUndefined();
    const [out] = await pool.decode([zlibJob('after warm')]);
    expect(Buffer.from(out!).toString()).toBe('after warm');
  });

  it('returns stored, unencrypted blocks without a trip to a worker', async () => {
    const pool = shared;
    const data = Uint8Array.of(1, 2, 3, 4);
    const [out] = await pool.decode([job('None', data)]);
    expect(out!.buffer).toBe(data.buffer);
  });
});

/**
 * `npx tsx bench/transport-cost.ts [--threads 2] [--passes 11] [--codec Zlib] [--manifest ...]`: what
 * the way of a read to a worker and back costs, apart from the work done there, per thread. The
 * same chunks as bench/read-cost.ts (BulkData of the codec's unencrypted containers, shuffled,
 * 24 MiB, 4 x T reads in flight) read with readChunk, answered by bench/probes/blank-worker.mjs (a
 * fresh zeroed output of the chunk's size per read, nothing read or decoded), CPU µs per 64 KiB
 * block, min / q1 / median (mean) over the passes:
 * - pool: the app's worker pool (createWorkerPool: task-batcher.ts over threads.ts) with the blank worker;
 * - plain: the same TaskBatcher over bare worker_threads Workers of this script's own, one message
 *   per task each way and no bookkeeping at all (no thread start or stop, no ref/unref, no error
 *   handling): the floor a channel of this kind can reach;
 * - ring: no TaskBatcher and no message to the workers: each read written as [id, size] into a
 *   shared request ring per thread, the thread woken with Atomics.notify only while it waits
 *   (Atomics.waitAsync), its answers one message per batch of reads it found (a prototype of the
 *   design bench/README.md discusses, with none of the app's error handling).
 * `--order pool,ring,plain,...` says which run and in what order (default pool,ring,plain twice).
 * Not part of `npm run bench`: a diagnostic for bench/README.md's "Where the time of a read goes".
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';
import { openIoStoreContainer, IoStoreContainer } from '../src/core/iostore/container.js';
import { createWorkerPool } from '../src/core/workers/pool.js';
import { PLAN_STRIDE, type BlockPlan, type PlanRunner } from '../src/core/workers/block-plan.js';
import { TaskBatcher } from '../src/core/workers/task-batcher.js';
import type { PoolTask, TaskReply } from '../src/core/workers/wire.js';
import { openInstall } from '../src/core/install/install.js';
import { KeyRing } from '../src/core/crypto/keys.js';
import { Rng } from './rng.js';

const argv = process.argv.slice(2);
const opt = (name: string): string | undefined => { const i = argv.indexOf(`--${name}`); return i >= 0 ? argv[i + 1] : undefined; };
const threads = Number(opt('threads') ?? 2);
const passes = Number(opt('passes') ?? 11);
const codec = opt('codec') ?? 'Zlib';
const BUDGET = 24 * 2 ** 20;
const BLANK = fileURLToPath(new URL('./probes/blank-worker.mjs', import.meta.url));

interface Manifest { root: string; aesKeyArg: string; params: { packages: number }; containers: { utocPath: string; codec: string; encrypted: boolean }[] }
function findManifest(): string {
  const given = opt('manifest');
  if (given) return given;
  let best: { path: string; time: number } | undefined;
  for (const d of readdirSync(tmpdir()).filter((n) => n.startsWith('pakscope-bench-'))) {
    const path = join(tmpdir(), d, 'manifest.json');
    try {
      const m = JSON.parse(readFileSync(path, 'utf8')) as Manifest;
      const time = statSync(path).mtimeMs;
      if (m.params.packages <= 25_000 && (!best || time > best.time)) best = { path, time };
    } catch { /* not an install */ }
  }
  if (best) return best.path;
  throw new Error('no quick bench install in the temp dir: run `npx tsx bench/generate-install.ts --quick` first, or pass --manifest');
}
const manifest = JSON.parse(readFileSync(findManifest(), 'utf8')) as Manifest;

function threadCpu(): Map<string, number> {
  const m = new Map<string, number>();
  for (const t of readdirSync('/proc/self/task')) {
    try { m.set(t, Number(readFileSync(`/proc/self/task/${t}/schedstat`, 'utf8').split(' ')[0])); } catch { /* ended */ }
  }
  return m;
}
const MAIN = String(process.pid);
function stats(v: number[]): string {
  const s = [...v].sort((x, y) => x - y);
  const mean = s.reduce((a, b) => a + b, 0) / s.length;
  return `${s[0]!.toFixed(1)} / ${s[s.length >> 2]!.toFixed(1)} / ${s[s.length >> 1]!.toFixed(1)} (${mean.toFixed(1)})`;
}

/** The TaskBatcher of createWorkerPool (its constants) over plain Workers, the least busy first. */
function plainPool(n: number): { runner: PlanRunner & { decode(): Promise<never[]> }; close(): Promise<void> } {
  const workers = Array.from({ length: n }, () => ({
    w: new Worker(BLANK, { env: { ...process.env, PAKSCOPE_BLANK_PLAIN: '1' } }),
    busy: 0,
  }));
  const pending = new Map<number, (r: TaskReply) => void>();
  let nextId = 0;
  for (const x of workers) {
    x.w.on('message', ({ id, reply }: { id: number; reply: TaskReply }) => {
      x.busy--;
      const done = pending.get(id)!;
      pending.delete(id);
      done(reply);
    });
  }
  const run = (task: PoolTask, transfer: ArrayBuffer[]): Promise<TaskReply> => {
    let best = workers[0]!;
    for (const x of workers) if (x.busy < best.busy) best = x;
    best.busy++;
    const id = nextId++;
    return new Promise((resolve) => {
      pending.set(id, resolve);
      best.w.postMessage({ id, task }, transfer);
    });
  };
  const batcher = new TaskBatcher(run, n, n * 2, 1024 * 1024, 4);
  return {
    runner: {
      readPlan: (plan: BlockPlan) => batcher.submit({ kind: 'read', plan }, plan.size + 4096) as Promise<Uint8Array>,
      writePacked: async () => [],
      decode: async () => [],
    },
    close: async () => { await Promise.all(workers.map((x) => x.w.terminate())); },
  };
}

/**
 * Reads through a shared request ring per thread (blank-worker.mjs): each read written there as
 * [id, size], the thread woken with Atomics.notify only while it waits, its answers one message
 * per batch of reads it found; reads go to the thread with the fewest open. No TaskBatcher.
 */
function ringPool(n: number): { runner: PlanRunner & { decode(): Promise<never[]> }; close(): Promise<void> } {
  const SLOTS = 1024;
  const rings = Array.from({ length: n }, () => {
    const ring = new Int32Array(new SharedArrayBuffer(4 * (2 + 2 * SLOTS)));
    const w = new Worker(BLANK, { env: { ...process.env, PAKSCOPE_BLANK_RING: '1' } });
    w.postMessage(ring);
    return { ring, w, open: 0 };
  });
  const pending = new Map<number, (out: Uint8Array) => void>();
  let nextId = 0;
  for (const r of rings) {
    r.w.on('message', ({ ids, outs }: { ids: number[]; outs: Uint8Array[] }) => {
      r.open -= ids.length;
      ids.forEach((id, i) => { const done = pending.get(id)!; pending.delete(id); done(outs[i]!); });
    });
  }
  return {
    runner: {
      readPlan: (plan: BlockPlan) => new Promise<Uint8Array>((resolve) => {
        let r = rings[0]!;
        for (const x of rings) if (x.open < r.open) r = x;
        const id = nextId++;
        pending.set(id, resolve);
        r.open++;
        const written = r.ring[0]!;
        const at = 2 + 2 * (written % SLOTS);
        r.ring[at] = id;
        r.ring[at + 1] = plan.size;
        Atomics.store(r.ring, 0, written + 1);
        if (Atomics.load(r.ring, 1) === 1) Atomics.notify(r.ring, 0);
      }),
      writePacked: async () => [],
      decode: async () => [],
    },
    close: async () => { await Promise.all(rings.map((x) => x.w.terminate())); },
  };
}

const held = argv.includes('--install-open') ? await openInstall([manifest.root], { keys: KeyRing.fromArgs([manifest.aesKeyArg]) }) : undefined;
void held;
const utocs = manifest.containers.filter((c) => c.codec === codec && !c.encrypted).map((c) => c.utocPath);
const picks: { path: string; ref: number; size: number }[] = [];
for (const path of utocs) {
  const c = await openIoStoreContainer(path);
  for (const f of c.files()) if (f.chunkType === 'BulkData') picks.push({ path, ref: f.ref, size: f.size });
  await c.close();
}
const rng = new Rng(7);
for (let i = picks.length - 1; i > 0; i--) { const j = rng.int(i + 1); [picks[i], picks[j]] = [picks[j]!, picks[i]!]; }
let bytes = 0;
const chosen = picks.filter((p) => (bytes < BUDGET ? ((bytes += p.size), true) : false));
let blocks = 0;
{
  const counter = { readPlan: async (p: BlockPlan) => { blocks += p.blocks.length / PLAN_STRIDE; return new Uint8Array(p.size); }, writePacked: async () => [], decode: async () => [] };
  const cs = new Map<string, IoStoreContainer>();
  for (const path of utocs) cs.set(path, await openIoStoreContainer(path, { decoder: counter as never }));
  for (const p of chosen) await cs.get(p.path)!.readChunk(p.ref);
  await Promise.all([...cs.values()].map((c) => c.close()));
}
console.log(`${codec}: ${chosen.length} chunks, ${blocks} blocks, ${(bytes / 2 ** 20).toFixed(0)} MiB, ${threads} threads; CPU µs per block, min / q1 / median (mean) of ${passes} passes`);

async function measure(name: string, decoder: unknown, workers: string[]): Promise<void> {
  const containers = new Map<string, IoStoreContainer>();
  for (const path of utocs) containers.set(path, await openIoStoreContainer(path, { decoder: decoder as never }));
  const pass = async (): Promise<void> => {
    let next = 0;
    await Promise.all(Array.from({ length: 4 * threads }, async () => {
      while (next < chosen.length) {
        const p = chosen[next++]!;
        if ((await containers.get(p.path)!.readChunk(p.ref)).length !== p.size) throw new Error(`chunk ${p.ref}: wrong size`);
      }
    }));
  };
  await pass();
  const parts: number[][] = [[], [], []];
  for (let r = 0; r < passes; r++) {
    const a = threadCpu();
    await pass();
    const b = threadCpu();
    const v = [0, 0, 0];
    for (const [t, x] of b) v[t === MAIN ? 0 : workers.includes(t) ? 1 : 2]! += (x - (a.get(t) ?? 0)) / 1000 / blocks;
    v.forEach((x, i) => parts[i]!.push(x));
  }
  console.log(`  ${name.padEnd(6)} main ${stats(parts[0]!)}, workers ${stats(parts[1]!)}, rest ${stats(parts[2]!)}`);
  await Promise.all([...containers.values()].map((c) => c.close()));
}

const order = (opt('order') ?? 'pool,ring,plain,pool,ring,plain').split(',');
for (const kind of order) {
  const before = new Set(threadCpu().keys());
  if (kind === 'pool') {
    const pool = createWorkerPool({ threads, workerFile: BLANK });
    await pool.warm();
    await measure('pool', pool, [...threadCpu().keys()].filter((t) => !before.has(t)));
    await pool.destroy();
  } else if (kind === 'ring') {
    const ring = ringPool(threads);
    await new Promise((r) => setTimeout(r, 300));
    await measure('ring', ring.runner, [...threadCpu().keys()].filter((t) => !before.has(t)));
    await ring.close();
  } else {
    const plain = plainPool(threads);
    await new Promise((r) => setTimeout(r, 300));
    await measure('plain', plain.runner, [...threadCpu().keys()].filter((t) => !before.has(t)));
    await plain.close();
  }
}

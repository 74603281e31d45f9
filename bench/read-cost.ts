/**
 * `npx tsx bench/read-cost.ts [--threads 1,2] [--passes 15] [--codecs Zlib,Oodle,LZ4] [--extract]
 * [--manifest <install>/manifest.json]`: where the CPU time of a read goes, per thread, on the
 * cached bench install (the quick one unless --manifest says otherwise). Not part of `npm run bench`:
 * a diagnostic for bench/README.md's "Where the time of a read goes".
 *
 * Wall time on this project's shared machine moves by a factor of 3 from pass to pass; CPU time per
 * thread (/proc/self/task/<tid>/schedstat: time on a core, whatever else the machine runs) moves
 * far less, and its minimum over passes is what the code costs when nothing else gets in the way.
 * So every figure is CPU µs per 64 KiB block (per file for the export), min / lower quartile /
 * median over the passes:
 * - app: readChunk of the same .ubulk chunks as the decode probe picks them (BulkData of every
 *   unencrypted container of the codec, shuffled, 24 MiB), through a pool of T threads, 4 x T reads
 *   in flight; split into this (main) thread, the pool's workers, and the rest (V8's GC helpers,
 *   libuv's threads);
 * - on this thread alone, no pool: the raw baseline (bench/probes/raw-decoders.ts) into a reused
 *   buffer; the pread of the stored bytes alone; runBlockPlan (what a worker runs per read) into a
 *   reused output and into a new one per chunk.
 * - --extract: extractFiles of 16 MiB of whole folders of the Zlib containers into tmpfs, per file
 *   (main, workers, rest), beside the raw baseline on the same blocks and the filesystem's own
 *   cost of making such files (open O_EXCL, write, close; nothing decoded).
 */
import { closeSync, constants, mkdirSync, openSync, readdirSync, readFileSync, rmSync, statSync, writeSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { PerformanceObserver, constants as perfConstants } from 'node:perf_hooks';
import { join } from 'node:path';
import { openIoStoreContainer, IoStoreContainer } from '../src/core/iostore/container.js';
import { createWorkerPool } from '../src/core/workers/pool.js';
import { PLAN_STRIDE, PlanField, runBlockPlan, Scratch, type BlockPlan, type PlanRunner } from '../src/core/workers/block-plan.js';
import { ReadOnlyFiles } from '../src/core/workers/file-cache.js';
import { whenCodecsReady } from '../src/core/codecs/registry.js';
import { extractFiles } from '../src/core/export/extract.js';
import { openInstall } from '../src/core/install/install.js';
import { KeyRing } from '../src/core/crypto/keys.js';
import { rawDecoder, type RawCodec } from './probes/raw-decoders.js';
import { loadBlocks, type ChunkRef } from './probes/raw-blocks.js';
import { Rng } from './rng.js';
import { WORKER_FILE } from './build-probes.js';

const argv = process.argv.slice(2);
const opt = (name: string): string | undefined => { const i = argv.indexOf(`--${name}`); return i >= 0 ? argv[i + 1] : undefined; };
const threadCounts = (opt('threads') ?? '1,2').split(',').map(Number);
const passes = Number(opt('passes') ?? 15);
const codecs = (opt('codecs') ?? 'Zlib,Oodle,LZ4').split(',') as RawCodec[];
const BUDGET = 24 * 2 ** 20;

interface Manifest { root: string; aesKeyArg: string; params: { packages: number }; containers: { utocPath: string; codec: string; encrypted: boolean }[] }
function findManifest(): string {
  const given = opt('manifest');
  if (given) return given;
  // The newest quick install (the generator's version is in the folder's name).
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

/** CPU ns of each thread of this process. */
function threadCpu(): Map<string, number> {
  const m = new Map<string, number>();
  for (const t of readdirSync('/proc/self/task')) {
    try { m.set(t, Number(readFileSync(`/proc/self/task/${t}/schedstat`, 'utf8').split(' ')[0])); } catch { /* ended */ }
  }
  return m;
}
const ownCpu = (): number => Number(readFileSync('/proc/thread-self/schedstat', 'utf8').split(' ')[0]);
const MAIN = String(process.pid);
/** The main thread's mark-compacts so far (perf_hooks' gc entries). */
let markCompacts = 0;
new PerformanceObserver((list) => {
  for (const e of list.getEntries()) if ((e as { detail?: { kind?: number } }).detail?.kind === perfConstants.NODE_PERFORMANCE_GC_MAJOR) markCompacts++;
}).observe({ entryTypes: ['gc'] });

/** CPU µs per unit of main, the given threads, and the rest, over one run of `fn`. */
async function split(workers: readonly string[], units: number, fn: () => Promise<unknown>): Promise<[number, number, number]> {
  const a = threadCpu();
  await fn();
  const b = threadCpu();
  const r: [number, number, number] = [0, 0, 0];
  for (const [t, v] of b) r[t === MAIN ? 0 : workers.includes(t) ? 1 : 2] += (v - (a.get(t) ?? 0)) / 1000 / units;
  return r;
}

function stats(v: number[]): string {
  const s = [...v].sort((x, y) => x - y);
  return `${s[0]!.toFixed(0)} / ${s[s.length >> 2]!.toFixed(0)} / ${s[s.length >> 1]!.toFixed(0)}`;
}

/** Starts a pool and tells its worker threads apart from the rest (threads that appear with it). */
async function startPool(threads: number) {
  const before = new Set(threadCpu().keys());
  const pool = createWorkerPool({ threads, workerFile: WORKER_FILE });
  await pool.warm();
  return { pool, workers: [...threadCpu().keys()].filter((t) => !before.has(t)) };
}

async function readCosts(codec: RawCodec): Promise<void> {
  const utocs = manifest.containers.filter((c) => c.codec === codec && !c.encrypted).map((c) => c.utocPath);
  // The chunks and their plans, as a worker gets them (a pool that only records them).
  const plans: BlockPlan[] = [];
  const recorder: PlanRunner & { decode(): Promise<never[]> } = {
    readPlan: async (p) => { plans.push(p); return new Uint8Array(p.size); },
    writePacked: async () => [],
    decode: async () => [],
  };
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
  const recording = new Map<string, IoStoreContainer>();
  for (const path of utocs) recording.set(path, await openIoStoreContainer(path, { decoder: recorder as never }));
  for (const p of chosen) await recording.get(p.path)!.readChunk(p.ref);
  await Promise.all([...recording.values()].map((c) => c.close()));
  const blocks = plans.reduce((n, p) => n + p.blocks.length / PLAN_STRIDE, 0);
  console.log(`${codec}: ${chosen.length} chunks, ${blocks} blocks, ${(bytes / 2 ** 20).toFixed(0)} MiB; CPU µs per block, min / q1 / median of ${passes} passes`);

  // This thread alone.
  await whenCodecsReady();
  const files = new ReadOnlyFiles();
  const stored: { data: Uint8Array; size: number }[] = [];
  for (const p of plans) {
    for (let o = 0; o < p.blocks.length; o += PLAN_STRIDE) {
      const d = new Uint8Array(p.blocks[o + PlanField.stored]!);
      files.readInto(p.files[p.blocks[o + PlanField.file]!]!, p.blocks[o + PlanField.offset]!, d.length, d);
      stored.push({ data: d.subarray(0, p.blocks[o + PlanField.compressed]!), size: p.blocks[o + PlanField.uncompressed]! });
    }
  }
  const raw = await rawDecoder(codec);
  const out = new Uint8Array(Math.max(...stored.map((s) => s.size)));
  const scratch = new Scratch();
  const kept: Uint8Array[] = [];
  const alone: [string, () => void][] = [
    ['raw baseline (reused output)', () => { for (const s of stored) raw(s.data, out, s.size); }],
    ['pread of the stored bytes', () => {
      for (const p of plans) for (let o = 0; o < p.blocks.length; o += PLAN_STRIDE) {
        files.readInto(p.files[p.blocks[o + PlanField.file]!]!, p.blocks[o + PlanField.offset]!, p.blocks[o + PlanField.stored]!, scratch.get(p.blocks[o + PlanField.stored]!));
      }
    }],
    ['runBlockPlan, reused output', () => { for (const p of plans) runBlockPlan(p, files, scratch, undefined, true); }],
    ['runBlockPlan, new output per chunk', () => {
      for (const p of plans) { kept.push(runBlockPlan(p, files, scratch)!); if (kept.length > 16) kept.shift(); }
    }],
  ];
  const times = alone.map(() => [] as number[]);
  for (let r = 0; r < passes; r++) {
    alone.forEach(([, fn], i) => { const c0 = ownCpu(); fn(); times[i]!.push((ownCpu() - c0) / 1000 / blocks); });
  }
  alone.forEach(([name], i) => console.log(`  ${name.padEnd(36)} ${stats(times[i]!)}`));
  files.closeAll();

  for (const threads of threadCounts) {
    const { pool, workers } = await startPool(threads);
    const containers = new Map<string, IoStoreContainer>();
    for (const path of utocs) containers.set(path, await openIoStoreContainer(path, { decoder: pool }));
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
    const marks0 = markCompacts;
    for (let r = 0; r < passes; r++) (await split(workers, blocks, pass)).forEach((v, i) => parts[i]!.push(v));
    await new Promise((r) => setTimeout(r, 50));
    console.log(`  app, ${threads} thread${threads > 1 ? 's' : ''}: main ${stats(parts[0]!)}, workers ${stats(parts[1]!)}, rest ${stats(parts[2]!)}; ` +
      `${markCompacts - marks0} mark-compacts in ${passes} passes, heap ${(process.memoryUsage().heapUsed / 2 ** 20).toFixed(0)} MB`);
    await Promise.all([...containers.values()].map((c) => c.close()));
    await pool.destroy();
  }
}

async function exportCosts(): Promise<void> {
  const shm = '/dev/shm';
  const { pool, workers } = await startPool(2);
  const install = await openInstall([manifest.root], { keys: KeyRing.fromArgs([manifest.aesKeyArg]), decoder: pool });
  const zlib = new Set(manifest.containers.filter((c) => c.codec === 'Zlib' && !c.encrypted).map((c) => c.utocPath));
  // Whole leaf folders of the Zlib containers, as the extract probe picks them.
  const folders = new Map<string, ChunkRef[] | null>();
  const parents = new Set<string>();
  for (const f of install.files()) {
    const dir = f.path.slice(0, f.path.lastIndexOf('/'));
    parents.add(dir.slice(0, dir.lastIndexOf('/')));
    const a = f.providers[0]!.archive;
    const list = folders.get(dir);
    if (!(a instanceof IoStoreContainer && zlib.has(a.path))) folders.set(dir, null);
    else if (list !== null) (list ?? folders.set(dir, []).get(dir)!).push({ utocPath: a.path, ref: f.providers[0]!.file.ref, size: f.size });
  }
  const leaves = [...folders.entries()].filter((e): e is [string, ChunkRef[]] => e[1] !== null && !parents.has(e[0]));
  const rng = new Rng(7);
  for (let i = leaves.length - 1; i > 0; i--) { const j = rng.int(i + 1); [leaves[i], leaves[j]] = [leaves[j]!, leaves[i]!]; }
  const paths: string[] = [];
  const sizes: number[] = [];
  const refs: ChunkRef[] = [];
  let bytes = 0;
  for (const [dir, files] of leaves) {
    if (bytes >= 16 * 2 ** 20) break;
    paths.push(dir);
    for (const f of files) { sizes.push(f.size); refs.push(f); bytes += f.size; }
  }
  // The raw baseline on the same blocks, on this thread.
  const tocs = new Map(install.archives.filter((a): a is IoStoreContainer => a instanceof IoStoreContainer).map((a) => [a.path, a.toc]));
  const { input, blocks } = await loadBlocks('Zlib', refs, (p) => tocs.get(p)!);
  const raw = await rawDecoder('Zlib');
  const out = new Uint8Array(Math.max(...blocks.map((b) => b[2]!)));
  const rawTimes: number[] = [];
  for (let r = 0; r < passes; r++) {
    const c0 = ownCpu();
    for (const [at, size, plain] of blocks) raw(input.subarray(at!, at! + size!), out, plain!);
    rawTimes.push((ownCpu() - c0) / 1000 / sizes.length);
  }
  const base = join(shm, `pakscope-read-cost-${process.pid}`);
  console.log(`export: ${paths.length} folders, ${sizes.length} files, ${(bytes / 2 ** 20).toFixed(0)} MiB into tmpfs; CPU µs per file, min / q1 / median of ${passes} passes`);
  const parts: number[][] = [[], [], []];
  for (let r = -2; r < passes; r++) {
    rmSync(base, { recursive: true, force: true });
    const v = await split(workers, sizes.length, () => extractFiles(install, paths, { out: base, conflict: 'overwrite', companions: false }));
    if (r >= 0) v.forEach((x, i) => parts[i]!.push(x));
  }
  console.log(`  raw baseline on the same blocks (${blocks.length}), this thread: ${stats(rawTimes)}`);
  console.log(`  extractFiles: main ${stats(parts[0]!)}, workers ${stats(parts[1]!)}, rest ${stats(parts[2]!)}`);
  // The filesystem alone: as many files of the same sizes made in fresh folders, nothing decoded.
  const data = new Uint8Array(Math.max(...sizes)).fill(7);
  const fs: number[][] = [[], [], []];
  for (let r = 0; r < passes; r++) {
    rmSync(base, { recursive: true, force: true });
    mkdirSync(base, { recursive: true });
    const fds: number[] = [];
    let c = ownCpu();
    for (let i = 0; i < sizes.length; i++) fds.push(openSync(join(base, `f${i}.bin`), constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL, 0o644));
    let d = ownCpu(); fs[0]!.push((d - c) / 1000 / sizes.length); c = d;
    fds.forEach((fd, i) => writeSync(fd, data, 0, sizes[i]!));
    d = ownCpu(); fs[1]!.push((d - c) / 1000 / sizes.length); c = d;
    for (const fd of fds) closeSync(fd);
    d = ownCpu(); fs[2]!.push((d - c) / 1000 / sizes.length);
  }
  rmSync(base, { recursive: true, force: true });
  console.log(`  the filesystem alone: create ${stats(fs[0]!)}, write ${stats(fs[1]!)}, close ${stats(fs[2]!)}`);
  await install.close();
  await pool.destroy();
}

// --install-open: the app's state when it reads (the install opened and kept, as the app and the CLI hold it).
const held = argv.includes('--install-open') ? await openInstall([manifest.root], { keys: KeyRing.fromArgs([manifest.aesKeyArg]) }) : undefined;
if (held) console.log(`install open: heap ${(process.memoryUsage().heapUsed / 2 ** 20).toFixed(0)} MB used`);
for (const codec of codecs) await readCosts(codec);
if (argv.includes('--extract')) await exportCosts();

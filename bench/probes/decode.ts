/**
 * Probe: decoding through the app against the raw decoder, on the same blocks, in this process,
 * with the same number of threads.
 *
 * For each codec, BulkData chunks of the containers using it are picked (seeded) up to a byte
 * budget. App: the containers opened with a worker pool of T threads, every chunk read with
 * readChunk (up to 4 x T reads in flight, as an exporter keeps the pool busy). Raw: the same
 * chunks' stored blocks loaded into memory beforehand and split over T plain worker_threads
 * running the raw decoder (raw-decode-worker.ts). Passes alternate app, raw, app, raw ... after a
 * warm-up pass of each; the median pass counts. Rates are decoded bytes per second.
 *
 * Also the pool alone: the same blocks, already in memory, handed to the pool's decode() one
 * chunk per call (as readChunk hands them), so the pool's own cost shows apart from the reads.
 */
import { constants as perfConstants, PerformanceObserver } from 'node:perf_hooks';
import { openIoStoreContainer, type IoStoreContainer } from '../../src/core/iostore/container.js';
import { pickContainerKey } from '../../src/core/iostore/container-key.js';
import { KeyRing } from '../../src/core/crypto/keys.js';
import type { BlockJob } from '../../src/core/workers/block-job.js';
import { createWorkerPool, type WorkerPool } from '../../src/core/workers/pool.js';
import { Rng } from '../rng.js';
import { emitResult, median, probeArgs, progress, threadCpu } from './probe-io.js';
import { loadBlocks, rawPass, startRawWorkers, type ChunkRef } from './raw-blocks.js';
import type { RawCodec } from './raw-decode-worker.js';

export interface DecodeArgs {
  containers: { utocPath: string; codec: string; encrypted: boolean }[];
  /** The encrypted container's key ("GUID:KEY"): its chunks are in the ratios too. */
  aesKeyArg?: string;
  workerFile: string;
  rawWorkerFile: string;
  /** Uncompressed bytes per codec. */
  budgetBytes: number;
  threads: number[];
  reps: number;
  seed: number;
}

export interface CodecRates {
  codec: RawCodec;
  chunks: number;
  blocks: number;
  bytes: number;
  compressedBytes: number;
  /** threads → MiB/s */
  app: Record<number, number>;
  raw: Record<number, number>;
  /** The pool's decode() on blocks in memory. */
  pool: Record<number, number>;
  /**
   * threads → CPU seconds of this process (all its threads) per pass, median: what the work costs
   * whatever else the machine runs, where wall time also counts waiting for a core.
   */
  appCpu: Record<number, number>;
  rawCpu: Record<number, number>;
  /**
   * threads → the app's CPU µs per block by thread, medians over the passes: this (main) thread,
   * the pool's workers, and the rest of the process (V8's GC helper threads, libuv's). Absent
   * where there is no /proc.
   */
  appThreadCpu?: Record<number, ThreadCpu>;
  /**
   * threads → the main thread's mark-compacts during an app pass (perf_hooks 'gc' entries of kind
   * major), medians over the passes: how many, and their pauses' ms in all (their concurrent
   * marking on the helper threads is in appThreadCpu's rest).
   */
  appMarkCompacts?: Record<number, { count: number; ms: number }>;
  /** threads → every pass's seconds */
  appPasses: Record<number, number[]>;
  rawPasses: Record<number, number[]>;
}

export interface DecodeResult { codecs: CodecRates[] }

/** CPU µs per block. */
export interface ThreadCpu { main: number; workers: number; rest: number }

type Pick = ChunkRef;

const args = probeArgs<DecodeArgs>();
const CODECS: RawCodec[] = ['Zlib', 'Oodle', 'LZ4'];
const keys = args.aesKeyArg ? KeyRing.fromArgs([args.aesKeyArg]) : undefined;
/** Each encrypted container's key, for decrypting the raw side's blocks. */
const containerKeys = new Map<string, Uint8Array>();

/** BulkData chunks of this codec's containers, shuffled, up to the budget. */
async function pickChunks(codec: RawCodec): Promise<{ picks: Pick[]; tocs: Map<string, IoStoreContainer> }> {
  const tocs = new Map<string, IoStoreContainer>();
  const all: Pick[] = [];
  for (const c of args.containers.filter((x) => x.codec === codec && (!x.encrypted || keys))) {
    const container = await openIoStoreContainer(c.utocPath, keys ? { keys } : {});
    tocs.set(c.utocPath, container);
    if (c.encrypted) {
      const k = pickContainerKey(container.toc, keys);
      if ('locked' in k) throw new Error(`${c.utocPath}: ${k.locked}`);
      containerKeys.set(c.utocPath, k.key);
    }
    for (const f of container.files()) if (f.chunkType === 'BulkData') all.push({ utocPath: c.utocPath, ref: f.ref, size: f.size });
  }
  const rng = new Rng(args.seed);
  for (let i = all.length - 1; i > 0; i--) {
    const j = rng.int(i + 1);
    [all[i], all[j]] = [all[j]!, all[i]!];
  }
  const picks: Pick[] = [];
  let bytes = 0;
  for (const p of all) {
    if (bytes >= args.budgetBytes) break;
    picks.push(p);
    bytes += p.size;
  }
  return { picks, tocs };
}

async function appPass(containers: Map<string, IoStoreContainer>, picks: Pick[], inFlight: number): Promise<number> {
  let next = 0;
  let bytes = 0;
  const t0 = performance.now();
  const lane = async (): Promise<void> => {
    while (next < picks.length) {
      const p = picks[next++]!;
      const data = await containers.get(p.utocPath)!.readChunk(p.ref);
      if (data.length !== p.size) throw new Error(`chunk ${p.ref} of ${p.utocPath}: ${data.length} bytes, expected ${p.size}`);
      bytes += data.length;
    }
  };
  await Promise.all(Array.from({ length: inFlight }, lane));
  return (performance.now() - t0) / 1000;
}

/** The pool's decode() over in-memory blocks, one call per chunk, 4 x T calls in flight. */
async function poolPass(pool: WorkerPool, chunks: BlockJob[][], bytes: number, inFlight: number): Promise<number> {
  let next = 0;
  let decoded = 0;
  const t0 = performance.now();
  const lane = async (): Promise<void> => {
    while (next < chunks.length) {
      for (const out of await pool.decode(chunks[next++]!)) decoded += out.length;
    }
  };
  await Promise.all(Array.from({ length: inFlight }, lane));
  if (decoded !== bytes) throw new Error(`pool decoded ${decoded} bytes, expected ${bytes}`);
  return (performance.now() - t0) / 1000;
}

/** The main thread's mark-compacts (perf_hooks 'gc' entries of kind major), as they come. */
const majorGcs: { startTime: number; duration: number }[] = [];
const gcObserver = new PerformanceObserver((list) => {
  for (const e of list.getEntries()) {
    if ((e as { detail?: { kind?: number } }).detail?.kind === perfConstants.NODE_PERFORMANCE_GC_MAJOR) majorGcs.push({ startTime: e.startTime, duration: e.duration });
  }
});
gcObserver.observe({ entryTypes: ['gc'] });

const results: CodecRates[] = [];
for (const codec of CODECS) {
  const { picks, tocs } = await pickChunks(codec);
  if (picks.length === 0) continue;
  const { input, blocks, chunkStarts } = await loadBlocks(codec, picks, (path) => tocs.get(path)!.toc, (path) => containerKeys.get(path));
  const jobs: BlockJob[][] = chunkStarts.map((first, i) => blocks.slice(first, chunkStarts[i + 1] ?? blocks.length).map(([at, size, plain]) => ({
    data: input.subarray(at!, at! + size!), codec, compressedSize: size!, uncompressedSize: plain!,
  })));
  const bytes = blocks.reduce((n, b) => n + b[2]!, 0);
  const rates: CodecRates = {
    codec, chunks: picks.length, blocks: blocks.length, bytes, compressedBytes: input.length,
    app: {}, raw: {}, pool: {}, appCpu: {}, rawCpu: {}, appPasses: {}, rawPasses: {},
  };
  for (const threads of args.threads) {
    const before = new Set(threadCpu().keys());
    const pool = createWorkerPool({ threads, workerFile: args.workerFile });
    await pool.warm();
    const poolThreads = [...threadCpu().keys()].filter((t) => !before.has(t));
    const containers = new Map<string, IoStoreContainer>();
    for (const path of tocs.keys()) containers.set(path, await openIoStoreContainer(path, { decoder: pool, ...(keys ? { keys } : {}) }));
    const workers = await startRawWorkers(args.rawWorkerFile, codec, input, blocks, threads);
    const appTimes: number[] = [];
    const rawTimes: number[] = [];
    const poolTimes: number[] = [];
    const appCpu: number[] = [];
    const rawCpu: number[] = [];
    const split: ThreadCpu[] = [];
    const appWindows: [number, number][] = [];
    const cpuOf = async (pass: () => Promise<number>, into: number[], byThread?: ThreadCpu[]): Promise<number> => {
      const t0 = byThread ? threadCpu() : undefined;
      const c0 = process.cpuUsage();
      const seconds = await pass();
      const c = process.cpuUsage(c0);
      into.push((c.user + c.system) / 1e6);
      if (t0 && t0.size > 0) {
        const cpu: ThreadCpu = { main: 0, workers: 0, rest: 0 };
        for (const [t, ns] of threadCpu()) {
          const us = (ns - (t0.get(t) ?? 0)) / 1000 / blocks.length;
          if (t === String(process.pid)) cpu.main += us; else if (poolThreads.includes(t)) cpu.workers += us; else cpu.rest += us;
        }
        byThread!.push(cpu);
      }
      return seconds;
    };
    await appPass(containers, picks, 4 * threads); // warm-up: workers started, JIT, page cache
    await rawPass(workers, bytes);
    await poolPass(pool, jobs, bytes, 4 * threads);
    for (let r = 0; r < args.reps; r++) {
      const w0 = performance.now();
      appTimes.push(await cpuOf(() => appPass(containers, picks, 4 * threads), appCpu, split));
      appWindows.push([w0, performance.now()]);
      rawTimes.push(await cpuOf(() => rawPass(workers, bytes), rawCpu));
      poolTimes.push(await poolPass(pool, jobs, bytes, 4 * threads));
    }
    rates.pool[threads] = bytes / median(poolTimes) / 2 ** 20;
    rates.appCpu[threads] = median(appCpu);
    if (split.length > 0) {
      (rates.appThreadCpu ??= {})[threads] = {
        main: median(split.map((x) => x.main)), workers: median(split.map((x) => x.workers)), rest: median(split.map((x) => x.rest)),
      };
    }
    // Entries come in after their GC; by now those of the app passes have.
    await new Promise((r) => setTimeout(r, 50));
    const marks = appWindows.map(([a, b]) => majorGcs.filter((g) => g.startTime >= a && g.startTime < b));
    (rates.appMarkCompacts ??= {})[threads] = {
      count: median(marks.map((m) => m.length)), ms: median(marks.map((m) => m.reduce((n, g) => n + g.duration, 0))),
    };
    rates.rawCpu[threads] = median(rawCpu);
    rates.appPasses[threads] = appTimes;
    rates.rawPasses[threads] = rawTimes;
    rates.app[threads] = bytes / median(appTimes) / 2 ** 20;
    rates.raw[threads] = bytes / median(rawTimes) / 2 ** 20;
    progress(`${codec} x${threads}: app ${rates.app[threads]!.toFixed(0)} MiB/s, pool ${rates.pool[threads]!.toFixed(0)} MiB/s, raw ${rates.raw[threads]!.toFixed(0)} MiB/s ` +
      `(${(bytes / 2 ** 20).toFixed(0)} MiB in ${blocks.length} blocks)`);
    await Promise.all(workers.map((w) => w.terminate()));
    await Promise.all([...containers.values()].map((c) => c.close()));
    await pool.destroy();
  }
  await Promise.all([...tocs.values()].map((c) => c.close()));
  results.push(rates);
}
gcObserver.disconnect();
emitResult({ codecs: results } satisfies DecodeResult);

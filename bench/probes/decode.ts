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
 */
import { open } from 'node:fs/promises';
import { Worker } from 'node:worker_threads';
import { openIoStoreContainer, partitionPath, type IoStoreContainer } from '../../src/core/iostore/container.js';
import { blockRange } from '../../src/core/iostore/toc.js';
import { createWorkerPool } from '../../src/core/workers/pool.js';
import { Rng } from '../rng.js';
import { emitResult, median, probeArgs, progress } from './probe-io.js';
import type { RawCodec, RawLoad, RawReply } from './raw-decode-worker.js';

export interface DecodeArgs {
  containers: { utocPath: string; codec: string; encrypted: boolean }[];
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
  /** threads → MB/s (10^6 bytes) */
  app: Record<number, number>;
  raw: Record<number, number>;
  /** threads → every pass's seconds */
  appPasses: Record<number, number[]>;
  rawPasses: Record<number, number[]>;
}

export interface DecodeResult { codecs: CodecRates[] }

interface Pick { utocPath: string; ref: number; size: number }

const args = probeArgs<DecodeArgs>();
const CODECS: RawCodec[] = ['Zlib', 'Oodle', 'LZ4'];

/** BulkData chunks of this codec's containers, shuffled, up to the budget. */
async function pickChunks(codec: RawCodec): Promise<{ picks: Pick[]; tocs: Map<string, IoStoreContainer> }> {
  const tocs = new Map<string, IoStoreContainer>();
  const all: Pick[] = [];
  for (const c of args.containers.filter((x) => x.codec === codec && !x.encrypted)) {
    const container = await openIoStoreContainer(c.utocPath);
    tocs.set(c.utocPath, container);
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

/** The stored blocks of the picked chunks, read straight from the .ucas files. */
async function loadBlocks(codec: RawCodec, picks: Pick[], tocs: Map<string, IoStoreContainer>): Promise<{ input: Uint8Array; blocks: number[][] }> {
  const blocks: number[][] = []; // [offset in input, compressed, uncompressed]
  const parts: Uint8Array[] = [];
  let at = 0;
  for (const p of picks) {
    const toc = tocs.get(p.utocPath)!.toc;
    const [b0, b1] = blockRange(toc, toc.chunkOffsets[p.ref]!, toc.chunkLengths[p.ref]!);
    const fh = await open(partitionPath(p.utocPath, 0), 'r');
    try {
      for (let b = b0; b < b1; b++) {
        if (toc.methodNames[toc.blockMethods[b]!] !== codec) throw new Error(`${p.utocPath} block ${b} is not ${codec}`);
        const size = toc.blockCompressedSizes[b]!;
        const buf = new Uint8Array(size);
        await fh.read(buf, 0, size, toc.blockOffsets[b]!);
        parts.push(buf);
        blocks.push([at, size, toc.blockUncompressedSizes[b]!]);
        at += size;
      }
    } finally {
      await fh.close();
    }
  }
  return { input: Buffer.concat(parts), blocks };
}

/** T raw workers, each holding an equal share (by decoded bytes) of the blocks. */
async function startRawWorkers(codec: RawCodec, input: Uint8Array, blocks: number[][], threads: number): Promise<Worker[]> {
  const total = blocks.reduce((n, b) => n + b[2]!, 0);
  const shares: number[][][] = Array.from({ length: threads }, () => []);
  let done = 0;
  for (const b of blocks) {
    shares[Math.min(threads - 1, Math.floor((done * threads) / total))]!.push(b);
    done += b[2]!;
  }
  return Promise.all(shares.map(async (share) => {
    const w = new Worker(args.rawWorkerFile);
    const parts = share.map(([at, size]) => input.subarray(at!, at! + size!));
    const own = new Uint8Array(Buffer.concat(parts));
    const desc: number[] = [];
    let pos = 0;
    for (const [, size, plain] of share) { desc.push(pos, size!, plain!); pos += size!; }
    const msg: RawLoad = { type: 'load', codec, input: own, blocks: Float64Array.from(desc) };
    const reply = once(w);
    w.postMessage(msg, [own.buffer as ArrayBuffer]);
    const r = await reply;
    if (r.type !== 'loaded') throw new Error(`raw worker: ${JSON.stringify(r)}`);
    return w;
  }));
}

function once(w: Worker): Promise<RawReply> {
  return new Promise((resolve, reject) => {
    w.once('message', resolve);
    w.once('error', reject);
  });
}

async function rawPass(workers: Worker[], expectBytes: number): Promise<number> {
  const t0 = performance.now();
  const replies = await Promise.all(workers.map((w) => { const r = once(w); w.postMessage({ type: 'run' }); return r; }));
  const seconds = (performance.now() - t0) / 1000;
  let bytes = 0;
  for (const r of replies) {
    if (r.type !== 'done') throw new Error(`raw worker: ${JSON.stringify(r)}`);
    bytes += r.bytes;
  }
  if (bytes !== expectBytes) throw new Error(`raw pass decoded ${bytes} bytes, expected ${expectBytes}`);
  return seconds;
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

const results: CodecRates[] = [];
for (const codec of CODECS) {
  const { picks, tocs } = await pickChunks(codec);
  if (picks.length === 0) continue;
  const { input, blocks } = await loadBlocks(codec, picks, tocs);
  const bytes = blocks.reduce((n, b) => n + b[2]!, 0);
  const rates: CodecRates = {
    codec, chunks: picks.length, blocks: blocks.length, bytes, compressedBytes: input.length,
    app: {}, raw: {}, appPasses: {}, rawPasses: {},
  };
  for (const threads of args.threads) {
    const pool = createWorkerPool({ threads, workerFile: args.workerFile });
    const containers = new Map<string, IoStoreContainer>();
    for (const path of tocs.keys()) containers.set(path, await openIoStoreContainer(path, { decoder: pool }));
    const workers = await startRawWorkers(codec, input, blocks, threads);
    const appTimes: number[] = [];
    const rawTimes: number[] = [];
    await appPass(containers, picks, 4 * threads); // warm-up: workers started, JIT, page cache
    await rawPass(workers, bytes);
    for (let r = 0; r < args.reps; r++) {
      appTimes.push(await appPass(containers, picks, 4 * threads));
      rawTimes.push(await rawPass(workers, bytes));
    }
    rates.appPasses[threads] = appTimes;
    rates.rawPasses[threads] = rawTimes;
    rates.app[threads] = bytes / median(appTimes) / 1e6;
    rates.raw[threads] = bytes / median(rawTimes) / 1e6;
    progress(`${codec} x${threads}: app ${rates.app[threads]!.toFixed(0)} MB/s, raw ${rates.raw[threads]!.toFixed(0)} MB/s ` +
      `(${(bytes / 2 ** 20).toFixed(0)} MiB in ${blocks.length} blocks)`);
    await Promise.all(workers.map((w) => w.terminate()));
    await Promise.all([...containers.values()].map((c) => c.close()));
    await pool.destroy();
  }
  await Promise.all([...tocs.values()].map((c) => c.close()));
  results.push(rates);
}
emitResult({ codecs: results } satisfies DecodeResult);

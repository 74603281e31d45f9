/**
 * Measures extraction against the floor it can approach: extracting every file of a Zlib
 * container to disk (extractFiles through the worker pool) vs inflating the same blocks with
 * node:zlib in the same number of worker threads and doing nothing else. Not a test; run it:
 *
 *   node --import tsx test/export/bench-extract.ts [threads] [MiB]
 *
 * Prints both times and the ratios (inflate / extract; 1.0 = extraction costs nothing beyond
 * inflating), by wall time and by CPU time of all threads. Each is the best of `rounds`
 * interleaved runs: on a shared machine wall times swing with the load. bench/ may call
 * runExtractBench() instead.
 */
import { openSync, readSync, closeSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import { join } from 'node:path';
import { Worker } from 'node:worker_threads';
import { extractFiles } from '../../src/core/export/index.js';
import { openInstall } from '../../src/core/install/install.js';
import { partitionPath } from '../../src/core/iostore/container-blocks.js';
import { IoStoreContainer } from '../../src/core/iostore/container.js';
import { createWorkerPool } from '../../src/core/workers/pool.js';
import { compressibleBytes, randomBytesSeeded } from '../fixtures/test-data.js';
import { makeTempDir, removeTempDirs, writeContainer } from '../fixtures/toc-writer.js';
import { ensureWorkerBundle } from '../workers/worker-bundle.js';

export interface ExtractBenchResult {
  threads: number;
  files: number;
  bytes: number;
  /** Best wall time of the rounds. */
  inflateSeconds: number;
  extractSeconds: number;
  /** Best CPU time (user + system, every thread of the process) of the rounds. */
  inflateCpuSeconds: number;
  extractCpuSeconds: number;
  /** inflateSeconds / extractSeconds. */
  ratio: number;
  /** inflateCpuSeconds / extractCpuSeconds. */
  cpuRatio: number;
}

/** Inflates blocks [from, to) of the list in one worker, reading them from the .ucas itself. */
const INFLATE_WORKER = `
const { workerData, parentPort } = require('node:worker_threads');
const { openSync, readSync, closeSync } = require('node:fs');
const { inflateSync } = require('node:zlib');
const { path, blocks } = workerData;
const fd = openSync(path, 'r');
let out = 0;
for (const [offset, stored, size] of blocks) {
  const buf = Buffer.allocUnsafe(stored);
  readSync(fd, buf, 0, stored, offset);
  out += inflateSync(buf, { maxOutputLength: Math.max(1, size), chunkSize: Math.max(64, size + 1) }).length;
}
closeSync(fd);
parentPort.postMessage(out);
`;

const cpuSeconds = (c: NodeJS.CpuUsage): number => (c.user + c.system) / 1e6;

async function inflateAll(ucas: string, blocks: [number, number, number][], threads: number): Promise<number> {
  const per = Math.ceil(blocks.length / threads);
  const parts = Array.from({ length: threads }, (_, i) => blocks.slice(i * per, (i + 1) * per));
  const outs = await Promise.all(parts.map((part) => new Promise<number>((resolve, reject) => {
    const w = new Worker(INFLATE_WORKER, { eval: true, workerData: { path: ucas, blocks: part } });
    w.once('message', (n: number) => resolve(n));
    w.once('error', reject);
  })));
  return outs.reduce((a, b) => a + b, 0);
}

/** Writes a Zlib container of `mib` MiB in files of 16 KiB to 2 MiB, then times both. */
export async function runExtractBench(threads = 2, mib = 128, rounds = 5): Promise<ExtractBenchResult> {
  const files: { path: string; bytes: Uint8Array; chunkType: string }[] = [];
  let total = 0;
  for (let i = 0; total < mib * 1024 * 1024; i++) {
    const size = [16, 48, 120, 300, 700, 2048][i % 6]! * 1024 + (i % 97);
    // Mostly compressible (like package data), some noise (like compressed textures).
    const bytes = i % 5 === 4 ? randomBytesSeeded(size, i) : compressibleBytes(size, i);
    files.push({ path: `Game/Content/F${i % 17}/file${i}.bin`, bytes, chunkType: 'BulkData' });
    total += size;
  }
  const c = await writeContainer(files, { version: 8, codec: 'Zlib' });
  const pool = createWorkerPool({ threads, workerFile: ensureWorkerBundle() });
  try {
    const install = await openInstall([c.utocPath], { decoder: pool });
    const container = install.archives[0] as IoStoreContainer;
    const toc = container.toc;
    const blocks: [number, number, number][] = [];
    for (let b = 0; b < toc.blockMethods.length; b++) blocks.push([toc.blockOffsets[b]!, toc.blockCompressedSizes[b]!, toc.blockUncompressedSizes[b]!]);
    const ucas = partitionPath(c.utocPath, 0);
    // Warm the page cache and the workers, so both runs read from memory.
    const fd = openSync(ucas, 'r');
    const warm = Buffer.allocUnsafe(1 << 20);
    for (let at = 0; readSync(fd, warm, 0, warm.length, at) > 0; at += warm.length);
    closeSync(fd);

    const best = { inflate: Infinity, extract: Infinity, inflateCpu: Infinity, extractCpu: Infinity };
    let summary: Awaited<ReturnType<typeof extractFiles>> | undefined;
    const outDir = join(await makeTempDir(), 'out');
    // One extraction first: starts the pool's workers and warms the JIT, as a real run's first seconds would.
    await extractFiles(install, { paths: [files[0]!.path] }, { out: outDir });
    for (let round = 0; round < rounds; round++) {
      await rm(outDir, { recursive: true, force: true });
      let t = performance.now();
      let cpu = process.cpuUsage();
      const inflated = await inflateAll(ucas, blocks, threads);
      best.inflate = Math.min(best.inflate, (performance.now() - t) / 1000);
      best.inflateCpu = Math.min(best.inflateCpu, cpuSeconds(process.cpuUsage(cpu)));

      t = performance.now();
      cpu = process.cpuUsage();
      summary = await extractFiles(install, {}, { out: outDir, concurrency: threads * 4 });
      best.extract = Math.min(best.extract, (performance.now() - t) / 1000);
      best.extractCpu = Math.min(best.extractCpu, cpuSeconds(process.cpuUsage(cpu)));
      if (summary.failed.length > 0 || summary.bytes !== inflated) {
        throw new Error(`extraction wrote ${summary.bytes} bytes, inflate ${inflated}; failed: ${JSON.stringify(summary.failed.slice(0, 3))}`);
      }
    }
    await install.close();
    await rm(outDir, { recursive: true, force: true });
    return {
      threads, files: summary!.files, bytes: summary!.bytes,
      inflateSeconds: best.inflate, extractSeconds: best.extract, inflateCpuSeconds: best.inflateCpu, extractCpuSeconds: best.extractCpu,
      ratio: best.inflate / best.extract, cpuRatio: best.inflateCpu / best.extractCpu,
    };
  } finally {
    await pool.destroy();
    await removeTempDirs();
  }
}

if (process.argv[1] && import.meta.url.endsWith(process.argv[1].replace(/\\/g, '/').split('/').pop()!)) {
  const r = await runExtractBench(Number(process.argv[2] ?? 2), Number(process.argv[3] ?? 128), Number(process.argv[4] ?? 5));
  const mb = r.bytes / 1024 / 1024;
  console.log(`${r.files} files, ${mb.toFixed(0)} MiB, ${r.threads} threads, best of ${process.argv[4] ?? 5}`);
  console.log(`  node:zlib inflate only: ${r.inflateSeconds.toFixed(2)} s (${(mb / r.inflateSeconds).toFixed(0)} MiB/s), CPU ${r.inflateCpuSeconds.toFixed(2)} s`);
  console.log(`  extractFiles to disk:   ${r.extractSeconds.toFixed(2)} s (${(mb / r.extractSeconds).toFixed(0)} MiB/s), CPU ${r.extractCpuSeconds.toFixed(2)} s`);
  console.log(`  ratio ${r.ratio.toFixed(2)} by wall time, ${r.cpuRatio.toFixed(2)} by CPU time`);
}

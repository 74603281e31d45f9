/**
 * Probe: extraction of Zlib containers to disk through the project's exporter (extractFiles,
 * src/core/export: the install's worker pool reads, decodes and writes the files, in batches all
 * its threads share) against raw inflate of the same blocks in the same number of plain
 * worker_threads.
 * Whole leaf folders whose files all come from the unencrypted Zlib containers are picked
 * (seeded) up to a byte budget and given to the exporter as folder paths, as a user selects
 * folders in the tree; each pass writes them to a new, empty folder; passes alternate exporter
 * (into tmpfs when there is one) and raw, after a warm-up of each.
 */
import { once } from 'node:events';
import { setTimeout as sleep } from 'node:timers/promises';
import { closeSync, constants, mkdirSync, openSync, rmSync, writeSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import { Worker } from 'node:worker_threads';
import { join } from 'node:path';
import { KeyRing } from '../../src/core/crypto/keys.js';
import { extractFiles } from '../../src/core/export/extract.js';
import { openInstall } from '../../src/core/install/install.js';
import { IoStoreContainer } from '../../src/core/iostore/container.js';
import { createWorkerPool } from '../../src/core/workers/pool.js';
import { Rng } from '../rng.js';
import { emitResult, median, probeArgs, progress, threadCpu } from './probe-io.js';
import { loadBlocks, rawPass, startRawWorkers, type ChunkRef } from './raw-blocks.js';

export interface ExtractArgs {
  root: string;
  aesKeyArg: string;
  workerFile: string;
  rawWorkerFile: string;
  /** The unencrypted Zlib containers' .utoc paths. */
  zlibContainers: string[];
  budgetBytes: number;
  threads: number;
  reps: number;
  seed: number;
  outDir: string;
  /** A folder on tmpfs for the same export without the disk's file creation, when the machine has one. */
  memOutDir?: string;
}

export interface ExtractResult {
  folders: number;
  files: number;
  bytes: number;
  threads: number;
  /** MiB/s */
  extractRate: number;
  rawRate: number;
  extractPasses: number[];
  rawPasses: number[];
  /** The same export into memOutDir (MiB/s), when given. */
  memRate?: number;
  memPasses?: number[];
  /**
   * The median over passes of the export's rate into memOutDir over the rate of the raw pass
   * right after it: each pair runs within a second, so the machine's speed, which drifts by
   * 10 to 20 % over a run on a shared virtual machine, is nearly the same for both.
   */
  memPairedRatio?: number;
  /**
   * CPU µs per file, medians over the tmpfs passes (Linux): the export's, by thread (this one, the
   * pool's workers, the rest: V8's GC helpers, libuv's); the raw side's (all its threads); and the
   * filesystem's alone, on this thread: as many files of the same sizes created (O_EXCL), written
   * and closed in an empty tmpfs folder, nothing decoded: what any export of these files pays.
   */
  perFile?: { main: number; workers: number; rest: number; raw: number; filesystem: number };
}

const args = probeArgs<ExtractArgs>();
const threadsBefore = new Set(threadCpu().keys());
const pool = createWorkerPool({ threads: args.threads, workerFile: args.workerFile });
await pool.warm();
const poolThreads = [...threadCpu().keys()].filter((t) => !threadsBefore.has(t));
const install = await openInstall([args.root], { keys: KeyRing.fromArgs([args.aesKeyArg]), decoder: pool });

const wanted = new Set(args.zlibContainers);
type Candidate = ChunkRef & { path: string };
/** Leaf folders (no subfolder) → their files; a folder with a file from elsewhere is left out. */
const folders = new Map<string, Candidate[] | null>();
const parents = new Set<string>();
for (const f of install.files()) {
  const dir = f.path.slice(0, f.path.lastIndexOf('/'));
  parents.add(dir.slice(0, dir.lastIndexOf('/')));
  const { archive, file } = f.providers[0]!;
  const inZlib = archive instanceof IoStoreContainer && wanted.has(archive.path);
  const list = folders.get(dir);
  if (!inZlib) folders.set(dir, null);
  else if (list !== null) {
    const entry = { path: f.path, utocPath: archive.path, ref: file.ref, size: f.size };
    if (list) list.push(entry); else folders.set(dir, [entry]);
  }
}
const leaves = [...folders.entries()].filter((e): e is [string, Candidate[]] => e[1] !== null && !parents.has(e[0]));
const rng = new Rng(args.seed);
for (let i = leaves.length - 1; i > 0; i--) {
  const j = rng.int(i + 1);
  [leaves[i], leaves[j]] = [leaves[j]!, leaves[i]!];
}
const picks: Candidate[] = [];
const paths: string[] = [];
let bytes = 0;
for (const [dir, files] of leaves) {
  if (bytes >= args.budgetBytes) break;
  paths.push(dir);
  picks.push(...files);
  bytes += files.reduce((n, f) => n + f.size, 0);
}
const tocs = new Map(install.archives.filter((a): a is IoStoreContainer => a instanceof IoStoreContainer).map((a) => [a.path, a.toc]));
const { input, blocks } = await loadBlocks('Zlib', picks, (p) => tocs.get(p)!);
const workers = await startRawWorkers(args.rawWorkerFile, 'Zlib', input, blocks, args.threads);
await rm(args.outDir, { recursive: true, force: true });

/**
 * Each pass writes to a folder of its own. On the disk, all are removed at the end: removing the
 * last pass's files right before the next would time the filesystem skipping its just-freed inodes
 * (ext4 does not reuse an inode for a minute after it is freed), which no single export meets. In
 * tmpfs, the last pass's files are removed before the next (untimed): there, files piling up pass
 * after pass (66 MiB a pass) made creating new ones up to twice as slow after a few passes on this
 * project's machine, which no single export meets either. The disk passes come after the others, so that the disk's
 * writing back of their files does not run during them.
 */
let pass = 0;
async function extractPass(base = args.outDir): Promise<number> {
  const out = join(base, `pass-${pass++}`);
  const t0 = performance.now();
  const summary = await extractFiles(install, paths, { out, conflict: 'overwrite', companions: false });
  const seconds = (performance.now() - t0) / 1000;
  if (summary.files !== picks.length || summary.failed.length > 0 || summary.bytes !== bytes) {
    throw new Error(`extract wrote ${summary.files} of ${picks.length} files (${summary.bytes} of ${bytes} bytes); failed: ${JSON.stringify(summary.failed.slice(0, 3))}`);
  }
  return seconds;
}

/**
 * Removes folders in a thread of its own, so that the garbage of removing thousands of files (a
 * Stats object each) is not this thread's to collect during the next timed pass.
 */
const remover = new Worker(`const { parentPort } = require('node:worker_threads');
const { rmSync } = require('node:fs');
parentPort.on('message', (dir) => { rmSync(dir, { recursive: true, force: true }); parentPort.postMessage(dir); });`, { eval: true });
async function removeApart(dir: string): Promise<void> {
  const done = once(remover, 'message');
  remover.postMessage(dir);
  await done;
}

const exportSplit: { main: number; workers: number; rest: number }[] = [];
const rawCpuPerFile: number[] = [];

/** The export into tmpfs, once the previous one's files are gone; its CPU per file by thread noted. */
async function memoryPass(): Promise<number> {
  await removeApart(args.memOutDir!);
  await quiet();
  const t0 = threadCpu();
  const seconds = await extractPass(args.memOutDir);
  if (t0.size > 0) {
    const cpu = { main: 0, workers: 0, rest: 0 };
    for (const [t, ns] of threadCpu()) {
      const us = (ns - (t0.get(t) ?? 0)) / 1000 / picks.length;
      if (t === String(process.pid)) cpu.main += us; else if (poolThreads.includes(t)) cpu.workers += us; else cpu.rest += us;
    }
    exportSplit.push(cpu);
  }
  return seconds;
}

/** This thread's CPU ns (Linux), or NaN. */
function ownCpu(): number {
  return threadCpu().get(String(process.pid)) ?? NaN;
}

/** The filesystem's own cost per file (see ExtractResult.perFile), median of 5 rounds, in µs. */
function filesystemPerFile(dir: string): number {
  const data = new Uint8Array(Math.max(...picks.map((p) => p.size)));
  const rounds: number[] = [];
  for (let r = 0; r < 5; r++) {
    rmSync(dir, { recursive: true, force: true });
    mkdirSync(dir, { recursive: true });
    const c0 = ownCpu();
    picks.forEach((p, i) => {
      const fd = openSync(join(dir, `${i}.bin`), constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL, 0o644);
      try {
        writeSync(fd, data, 0, p.size);
      } finally {
        closeSync(fd);
      }
    });
    rounds.push((ownCpu() - c0) / 1000 / picks.length);
  }
  rmSync(dir, { recursive: true, force: true });
  return median(rounds);
}

/**
 * A pause before each timed pass, either side's: what the step before left to finish (the kernel
 * freeing a removed folder's inodes, a collector finishing the last pass's garbage) finishes
 * then, not during the pass. Without it the export, which came right after the removal of the
 * last pass's 2,300 files, paid for some of that removal: 0.05 to 0.08 of the ratio here.
 */
const QUIET_MS = 200;
function quiet(): Promise<void> {
  return sleep(QUIET_MS);
}

async function quietRawPass(): Promise<number> {
  await quiet();
  const c0 = process.cpuUsage();
  const seconds = await rawPass(workers, bytes);
  const c = process.cpuUsage(c0);
  rawCpuPerFile.push((c.user + c.system) / picks.length);
  return seconds;
}

const extractPasses: number[] = [];
const rawPasses: number[] = [];
const memPasses: number[] = [];
// Warm-ups, then the timed passes: the raw side is at its pace from its second pass; exports
// still speed up over their first five here (the JIT and the collector settling).
await rawPass(workers, bytes);
await rawPass(workers, bytes);
if (args.memOutDir) {
  for (let w = 0; w < 5; w++) await memoryPass();
  exportSplit.length = 0;
  for (let r = 0; r < args.reps; r++) {
    memPasses.push(await memoryPass());
    rawPasses.push(await quietRawPass());
  }
}
await extractPass();
for (let r = 0; r < args.reps; r++) {
  await quiet();
  extractPasses.push(await extractPass());
  if (!args.memOutDir) rawPasses.push(await quietRawPass());
}
const filesystemUs = args.memOutDir && exportSplit.length > 0 ? filesystemPerFile(join(args.memOutDir, 'filesystem-alone')) : undefined;
await rm(args.outDir, { recursive: true, force: true });
if (args.memOutDir) await rm(args.memOutDir, { recursive: true, force: true });
const result: ExtractResult = {
  folders: paths.length,
  files: picks.length,
  bytes,
  threads: args.threads,
  extractRate: bytes / median(extractPasses) / 2 ** 20,
  rawRate: bytes / median(rawPasses) / 2 ** 20,
  extractPasses,
  rawPasses,
  ...(args.memOutDir ? {
    memRate: bytes / median(memPasses) / 2 ** 20, memPasses,
    memPairedRatio: median(memPasses.map((m, i) => rawPasses[i]! / m)),
  } : {}),
  ...(filesystemUs !== undefined ? {
    perFile: {
      main: median(exportSplit.map((x) => x.main)), workers: median(exportSplit.map((x) => x.workers)), rest: median(exportSplit.map((x) => x.rest)),
      raw: median(rawCpuPerFile.slice(0, args.reps)), filesystem: filesystemUs,
    },
  } : {}),
};
progress(`extract x${args.threads}: ${result.extractRate.toFixed(0)} MiB/s, raw inflate ${result.rawRate.toFixed(0)} MiB/s (${picks.length} files, ${(bytes / 2 ** 20).toFixed(0)} MiB)`);
emitResult(result);
await Promise.all([...workers, remover].map((w) => w.terminate()));
await install.close();
await pool.destroy();

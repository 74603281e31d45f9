/**
 * Probe: opens the whole install as the CLI and the host do (a worker pool made first, the AES key
 * given) and times openInstall(...) until listDir('') returns: every TOC read, every directory
 * index parsed, the merged tree built. Reports the process's peak RSS (workers are threads of this
 * process, so they count) from process.resourceUsage().maxRSS, plus RSS sampled every 5 ms.
 */
import { KeyRing } from '../../src/core/crypto/keys.js';
import { openInstall } from '../../src/core/install/install.js';
import { createWorkerPool } from '../../src/core/workers/pool.js';
import { emitResult, probeArgs } from './probe-io.js';

export interface OpenIndexArgs { root: string; aesKeyArg: string; workerFile: string }
export interface OpenIndexResult {
  seconds: number;
  files: number;
  topLevel: string[];
  problems: string[];
  containers: number;
  maxRssMb: number;
  sampledPeakRssMb: number;
  rssBeforeMb: number;
  heapUsedAfterMb: number;
}

const args = probeArgs<OpenIndexArgs>();
const pool = createWorkerPool({ workerFile: args.workerFile });
const keys = KeyRing.fromArgs([args.aesKeyArg]);
const mb = (b: number): number => b / 2 ** 20;
const rssBeforeMb = mb(process.memoryUsage.rss());
let sampledPeak = rssBeforeMb;
const timer = setInterval(() => { sampledPeak = Math.max(sampledPeak, mb(process.memoryUsage.rss())); }, 5);

const t0 = performance.now();
const install = await openInstall([args.root], { keys, decoder: pool });
const top = install.listDir('');
const seconds = (performance.now() - t0) / 1000;
clearInterval(timer);
sampledPeak = Math.max(sampledPeak, mb(process.memoryUsage.rss()));

const result: OpenIndexResult = {
  seconds,
  files: install.fileCount,
  topLevel: top.map((e) => `${e.name} (${e.fileCount})`),
  problems: install.problems.map((p) => `${p.path}: ${p.message}`),
  containers: install.archives.length,
  maxRssMb: process.resourceUsage().maxRSS / 1024,
  sampledPeakRssMb: sampledPeak,
  rssBeforeMb,
  heapUsedAfterMb: mb(process.memoryUsage().heapUsed),
};
emitResult(result);
await install.close();
await pool.destroy();

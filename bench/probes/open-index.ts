/**
 * Probe: opens the whole install as the CLI and the host do (a worker pool made first, the AES key
 * given) and times openInstall(...) until listDir('') returns: every TOC read, every directory
 * index parsed, the merged tree built. Reports the process's own peak RSS (workers are threads of
 * this process, so they count) from VmHWM (peakRssMb), plus RSS sampled every 5 ms.
 *
 * With `stages`, the same process then goes on as a user's session would and reads its peak after
 * each step: the whole dependency graph built (buildDependencyGraph, kept), then an export of
 * `exportBytes` of files to a folder in the temp dir (extractFiles). Each peak includes the steps
 * before it: the figure is the session's.
 */
import { KeyRing } from '../../src/core/crypto/keys.js';
import { openInstall } from '../../src/core/install/install.js';
import { rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { extractFiles } from '../../src/core/export/extract.js';
import { buildDependencyGraph } from '../../src/core/graph/build-graph.js';
import { createWorkerPool } from '../../src/core/workers/pool.js';
import { emitResult, peakRssMb, probeArgs, progress } from './probe-io.js';

export interface OpenIndexArgs { root: string; aesKeyArg: string; workerFile: string; stages?: { exportBytes: number } }
/** Peaks (MiB) after the later steps of a session; an error instead when a step failed. */
export interface SessionPeaks {
  graphPeakMb: number | null;
  graphError?: string;
  exportPeakMb: number | null;
  exportError?: string;
  exportFiles: number;
  exportMiB: number;
}
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
  stages?: SessionPeaks;
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
  maxRssMb: peakRssMb(),
  sampledPeakRssMb: sampledPeak,
  rssBeforeMb,
  heapUsedAfterMb: mb(process.memoryUsage().heapUsed),
};
if (args.stages) result.stages = await sessionPeaks(args.stages.exportBytes);
emitResult(result);
await install.close();
await pool.destroy();

async function sessionPeaks(exportBytes: number): Promise<SessionPeaks> {
  const out: SessionPeaks = { graphPeakMb: null, exportPeakMb: null, exportFiles: 0, exportMiB: 0 };
  let graph: unknown;
  try {
    graph = await buildDependencyGraph(install);
    out.graphPeakMb = peakRssMb();
  } catch (e) {
    out.graphError = e instanceof Error ? e.message : String(e);
  }
  // Files in tree order up to the budget (whichever containers hold them).
  const paths: string[] = [];
  let bytes = 0;
  for (const f of install.files()) {
    if (bytes >= exportBytes) break;
    paths.push(f.path);
    bytes += f.size;
  }
  const dir = join(tmpdir(), `pakscope-bench-peak-${process.pid}`);
  try {
    const summary = await extractFiles(install, paths, { out: dir, conflict: 'overwrite', companions: false });
    if (summary.failed.length > 0) throw new Error(`${summary.failed.length} files failed: ${summary.failed[0]!.path}: ${summary.failed[0]!.error}`);
    out.exportPeakMb = peakRssMb();
    out.exportFiles = summary.files;
    out.exportMiB = summary.bytes / 2 ** 20;
  } catch (e) {
    out.exportError = e instanceof Error ? e.message : String(e);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
  progress(`session peaks: ${JSON.stringify(out)}`);
  void graph; // kept alive through the export, as the app keeps it
  return out;
}

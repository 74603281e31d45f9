/**
 * Probe: comparing two builds (src/core/diff) as the app does after "Compare with…": the shown
 * install is open; the timed part opens the other (the copy with 1 % of the chunks changed,
 * bench/changed-copy.ts) and compares the two through the stored chunk hashes. Checks that
 * exactly the changed chunks that have a path are reported, and that nothing was read.
 */
import { KeyRing } from '../../src/core/crypto/keys.js';
import { checkComparable } from '../../src/core/diff/comparable.js';
import { compareInstalls } from '../../src/core/diff/compare-installs.js';
import { openInstall } from '../../src/core/install/install.js';
import { createWorkerPool } from '../../src/core/workers/pool.js';
import { emitResult, probeArgs } from './probe-io.js';

export interface DiffArgs { root: string; copyRoot: string; changed: Record<string, number[]>; aesKeyArg: string; workerFile: string }
export interface DiffResult {
  seconds: number;
  /** This process's CPU time over the same span (threads included): what a busy machine does not change. */
  cpuSeconds: number;
  openSeconds: number;
  compareSeconds: number;
  files: number;
  changed: number;
  expectedChanged: number;
  wrong: number;
  added: number;
  removed: number;
  unchanged: number;
  filesRead: number;
  byStoredHash: number;
}

const args = probeArgs<DiffArgs>();
const pool = createWorkerPool({ workerFile: args.workerFile });
const keys = KeyRing.fromArgs([args.aesKeyArg]);
await pool.warm();
const shown = await openInstall([args.root], { keys, decoder: pool });
shown.listDir('');

const cpu0 = process.cpuUsage();
const t0 = performance.now();
const other = await openInstall([args.copyRoot], { keys, decoder: pool });
const t1 = performance.now();
await checkComparable(shown, other);
const d = await compareInstalls(shown, other, { digest: (b) => pool.digest(b) });
const t2 = performance.now();
const cpu = process.cpuUsage(cpu0);

// The paths of the changed entries, from the copy's own containers.
const expected = new Set<string>();
for (const a of other.archives) {
  const entries = new Set(args.changed[a.path] ?? []);
  if (entries.size === 0) continue;
  for (const f of a.files()) if (entries.has(f.ref)) expected.add(f.path.replace(/^\/+/, ''));
}
const reported = new Set(d.changed.map((c) => c.path));
const wrong = [...reported].filter((p) => !expected.has(p)).length + [...expected].filter((p) => !reported.has(p)).length;

emitResult({
  seconds: (t2 - t0) / 1000,
  cpuSeconds: (cpu.user + cpu.system) / 1e6,
  openSeconds: (t1 - t0) / 1000,
  compareSeconds: (t2 - t1) / 1000,
  files: other.fileCount,
  changed: d.changed.length,
  expectedChanged: expected.size,
  wrong,
  added: d.added.length,
  removed: d.removed.length,
  unchanged: d.unchanged,
  filesRead: d.stats.filesRead,
  byStoredHash: d.stats.byStoredHash,
} satisfies DiffResult);
await Promise.all([shown.close(), other.close()]);
await pool.destroy();

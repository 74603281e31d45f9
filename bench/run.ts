/**
 * `npm run bench [-- --quick]`: generates (or reuses) the synthetic install, measures every target
 * in child processes running the bundled code, prints a table, and writes bench/results.json and
 * bench/results.md (the latest run) plus results-full.* or results-quick.* (per mode, so a quick
 * run does not replace the full figures). See bench/README.md.
 *
 * Options: --quick; --only a,b (target groups: open, packages, decode, extract, scroll, textures, preview, diff, search, mesh: the
 * others are taken from the latest results of the same mode and install, when there are some);
 * --regenerate (rebuild the cached install).
 */
import { existsSync } from 'node:fs';
import { readFile, rename, writeFile } from 'node:fs/promises';
import { availableParallelism, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { buildProbes, probeFile, PROJECT_ROOT, WORKER_FILE } from './build-probes.js';
import { changedCopy } from './changed-copy.js';
import { FULL_PARAMS, generateInstall, QUICK_PARAMS, type InstallManifest } from './generate-install.js';
import { measureMesh } from './measure-mesh.js';
import { measureScroll, type ScrollResult } from './measure-scroll.js';
import { runProbe } from './probe-runner.js';
import { measureTextureDecode } from './texture-decode.js';
import type { DecodeResult } from './probes/decode.js';
import type { DiffResult } from './probes/diff.js';
import type { SearchResult } from './probes/search.js';
import type { ExtractResult } from './probes/extract.js';
import type { OpenIndexResult } from './probes/open-index.js';
import type { PackagesResult } from './probes/packages.js';
import type { TexturePreviewResult } from './probes/texture-preview.js';
import { median, percentile } from './probes/probe-io.js';
import { RAW_BASELINE } from './probes/raw-decoders.js';
import {
  describeMachine, formatMarkdown, formatTable, targetResult, validateResults, type BenchResults, type TargetName, type TargetResult,
} from './results.js';

const argv = process.argv.slice(2);
const quick = argv.includes('--quick');
const onlyArg = argv.find((a) => a.startsWith('--only='))?.slice(7) ?? (argv.includes('--only') ? argv[argv.indexOf('--only') + 1] : undefined);
const only = onlyArg ? new Set(onlyArg.split(',')) : undefined;
const wants = (group: string): boolean => !only || only.has(group);

/** How much each measurement does, per mode. */
const PLAN = quick
  ? { openRuns: 3, viewSamples: 150, decodeMiB: 24, decodeReps: 7, extractMiB: 16, extractReps: 7, scrollSeconds: 3, textureRounds: 3, textureReps: 3, sessionExportMiB: 64, orbitFrames: 20 }
  : { openRuns: 3, viewSamples: 300, decodeMiB: 128, decodeReps: 7, extractMiB: 64, extractReps: 21, scrollSeconds: 5, textureRounds: 7, textureReps: 5, sessionExportMiB: 256, orbitFrames: 40 };
/** The worker pool's default size on this machine (createWorkerPool: availableParallelism, at most 4). */
const POOL_THREADS = Math.min(4, availableParallelism());
const SEED = 7;

const log = (line: string): void => { process.stderr.write(`${line}\n`); };
const probeLog = (line: string): void => log(`    ${line}`);
const errorText = (e: unknown): string => (e instanceof Error ? e.message.split('\n')[0]! : String(e));
const r2 = (v: number): string => v.toFixed(2);

async function measureOpen(m: InstallManifest, details: Record<string, unknown>): Promise<TargetResult[]> {
  const runs: OpenIndexResult[] = [];
  for (let i = 0; i < PLAN.openRuns; i++) {
    // The last run goes on to build the graph and export, for the session's peaks (after the timed open).
    const stages = i === PLAN.openRuns - 1 ? { exportBytes: PLAN.sessionExportMiB * 2 ** 20 } : undefined;
    runs.push(await runProbe<OpenIndexResult>('open-index',
      { root: m.root, aesKeyArg: m.aesKeyArg, workerFile: WORKER_FILE, ...(stages ? { stages } : {}) }, { onProgress: probeLog }));
    log(`  open ${i + 1}: ${r2(runs[i]!.seconds)} s, peak RSS ${runs[i]!.maxRssMb.toFixed(0)} MB`);
  }
  details['open'] = runs;
  const bad = runs.find((r) => r.files !== m.files || r.problems.length > 0);
  const check = bad ? `; WRONG: ${bad.files} files of ${m.files}, problems: ${bad.problems.slice(0, 2).join('; ')}` : '';
  const seconds = runs.map((r) => r.seconds);
  const rss = runs.map((r) => r.maxRssMb);
  const st = runs.at(-1)!.stages;
  const session = !st ? '' : `; the same process then: whole dependency graph built ${st.graphPeakMb !== null ? `${st.graphPeakMb.toFixed(0)} MB` : `FAILED (${st.graphError})`}, ` +
    `then with the graph kept an export of ${st.exportFiles.toLocaleString('en-US')} files (${st.exportMiB.toFixed(0)} MiB, the first in tree order) to the temp dir ` +
    `${st.exportPeakMb !== null ? `${st.exportPeakMb.toFixed(0)} MB` : `FAILED (${st.exportError})`} (peaks so far in the session)`;
  return [
    targetResult('open_index_s', median(seconds),
      `median of ${runs.length} runs in fresh processes (${seconds.map(r2).join(', ')} s); ${runs[0]!.containers} containers, ` +
      `${m.files.toLocaleString('en-US')} files, warm page cache${check}`, bad ? false : undefined),
    targetResult('peak_rss_mb', Math.max(...rss),
      `the opening process's own peak (VmHWM), highest of ${runs.length} runs; Node and the bundle alone take ${runs[0]!.rssBeforeMb.toFixed(0)} MB, ` +
      `JS heap after ${runs[0]!.heapUsedAfterMb.toFixed(0)} MB${session}`),
  ];
}

async function measurePackages(m: InstallManifest, details: Record<string, unknown>): Promise<TargetResult[]> {
  const p = await runProbe<PackagesResult>('packages',
    { root: m.root, aesKeyArg: m.aesKeyArg, workerFile: WORKER_FILE, samples: PLAN.viewSamples, seed: SEED }, { onProgress: probeLog });
  details['packages'] = p;
  const bare = `parseContainerHeader x${p.headers} + two Maps: ${r2(p.bareSeconds)} s (read ${r2(p.bareReadSeconds)}, parse ${r2(p.bareParseSeconds)}, maps ${r2(p.bareMapSeconds)})`;
  // A graph module that throws fails the target: no other figure is judged in its place.
  const graph = p.graphSeconds !== null
    ? targetResult('graph_s', p.graphSeconds,
      `src/core/graph buildDependencyGraph(install): ${p.graphCounts?.packages.toLocaleString('en-US')} packages, ` +
      `${p.graphCounts?.edges.toLocaleString('en-US')} edges, both directions; for reference ${bare}`)
    : targetResult('graph_s', null, `the graph module failed (${p.graphError}); for reference ${bare}`);
  // The figure a user waits for is the app's whole path; the stripped path is in the note.
  const stripped = `the stripped path (chunk read, parseZenPackage, resolvePackage only): median ${r2(p.viewMedianMs)} ms ` +
    `(read ${r2(p.viewReadMedianMs)} + parse ${r2(p.viewParseMedianMs)} + resolve ${r2(p.viewResolveMedianMs)}), p95 ${r2(p.viewP95Ms)} ms, max ${r2(p.viewMaxMs)} ms`;
  const view = p.appOpenMedianMs !== null
    ? targetResult('package_view_ms', p.appOpenMedianMs,
      `the app's whole path, InstallPackages.open (imported packages' headers read too, PackageModel built), median of ${p.viewSamples} random packages, ` +
      `p95 ${r2(p.appOpenP95Ms!)} ms; ${stripped}`)
    : targetResult('package_view_ms', null, `InstallPackages.open failed: ${p.appOpenError}; ${stripped}`);
  return [graph, view];
}

async function measureDecode(m: InstallManifest, details: Record<string, unknown>): Promise<TargetResult[]> {
  const threads = POOL_THREADS > 1 ? [1, POOL_THREADS] : [1];
  const d = await runProbe<DecodeResult>('decode', {
    containers: m.containers.map((c) => ({ utocPath: c.utocPath, codec: c.codec, encrypted: c.encrypted })), aesKeyArg: m.aesKeyArg,
    workerFile: WORKER_FILE, rawWorkerFile: probeFile('raw-decode-worker'),
    budgetBytes: PLAN.decodeMiB * 2 ** 20, threads, reps: PLAN.decodeReps, seed: SEED,
  }, { onProgress: probeLog });
  details['decode'] = d;
  const T = threads.at(-1)!;
  const out: TargetResult[] = [];
  const aes = (codec: string): string => (m.containers.some((c) => c.codec === codec && c.encrypted)
    ? ' (the AES container\'s chunks among them: the app decrypts them, the raw side and the pool\'s decode() get them decrypted)' : '');
  for (const [codec, name] of [['Zlib', 'decode_ratio_zlib'], ['Oodle', 'decode_ratio_oodle'], ['LZ4', 'decode_ratio_lz4']] as const) {
    const raw = RAW_BASELINE[codec];
    const c = d.codecs.find((x) => x.codec === codec);
    if (!c) { out.push(targetResult(name, null, `no ${codec} blocks in the install`)); continue; }
    // Each app pass against the raw pass right after it: the machine's speed (2 cores shared with
    // other work) drifts less within a pair than over the run.
    const pairs = (t: number): number[] => c.appPasses[t]!.map((a, i) => c.rawPasses[t]![i]! / a);
    const spread = (v: number[]): string => `${r2(Math.min(...v))} to ${r2(Math.max(...v))}`;
    const one = `${r2(median(pairs(1)))} at 1 thread (pairs ${spread(pairs(1))}; medians ${c.app[1]!.toFixed(0)} vs ${c.raw[1]!.toFixed(0)} MiB/s)`;
    const pool = `the pool's decode() alone on the same blocks in memory: ${c.pool[T]!.toFixed(0)} MiB/s (${r2(c.pool[T]! / c.raw[T]!)} of raw)`;
    const split = c.appThreadCpu?.[T];
    const perBlock = split
      ? `; per block, app: this thread ${split.main.toFixed(0)} µs, the pool's workers ${split.workers.toFixed(0)} µs, the rest (V8's GC helpers, libuv) ${split.rest.toFixed(0)} µs; raw ${(c.rawCpu[T]! * 1e6 / c.blocks).toFixed(0)} µs`
      : '';
    const mc = c.appMarkCompacts?.[T];
    const marks = mc ? `; the main thread's mark-compacts per app pass ${mc.count} (${mc.ms.toFixed(0)} ms of pauses)` : '';
    const cpu = `CPU time per pass: app ${r2(c.appCpu[T]!)} s, raw ${r2(c.rawCpu[T]!)} s (raw/app ${r2(c.rawCpu[T]! / c.appCpu[T]!)})${perBlock}${marks}`;
    out.push(targetResult(name, median(pairs(T)),
      `median of ${PLAN.decodeReps} pairs of an app pass (readChunk through a ${T}-thread pool) and the raw pass right after it (${raw} in ${T} worker_threads), ` +
      `pairs ${spread(pairs(T))}, lowest quartile ${r2(percentile(pairs(T), 25))}; medians ${c.app[T]!.toFixed(0)} vs ${c.raw[T]!.toFixed(0)} MiB/s (${r2(c.app[T]! / c.raw[T]!)}); ` +
      `${(c.bytes / 2 ** 20).toFixed(0)} MiB in ${c.blocks} blocks of ${c.chunks} .ubulk chunks${aes(codec)}; ${one}; ${pool}; ${cpu}`));
  }
  // Scaling: all three codecs' blocks together, app and raw, two threads against one.
  if (T === 1) {
    out.push(targetResult('worker_scaling', null, 'this machine has one core: nothing to scale to'));
    return out;
  }
  const time = (side: 'app' | 'raw', t: number): number => d.codecs.reduce((s, c) => s + c.bytes / 2 ** 20 / c[side][t]!, 0);
  const appScale = time('app', 1) / time('app', T);
  const rawScale = time('raw', 1) / time('raw', T);
  const appVsRaw = time('raw', T) / time('app', T);
  const met = appScale >= 1.7 || (rawScale < 1.7 && appVsRaw >= 0.9);
  out.push(targetResult('worker_scaling', appScale,
    `app ${T} threads vs 1: ${r2(appScale)}x; the raw decoders in plain worker_threads scale ${r2(rawScale)}x here; ` +
    `app at ${T} threads is ${r2(appVsRaw)} of raw at ${T} (met if app >= 1.7x, or raw < 1.7x and app >= 0.9 of raw); all three codecs' blocks`, met));
  return out;
}

/** Linux's tmpfs, for the export's figure without the disk. */
const MEMORY_DIR = '/dev/shm';

async function measureExtract(m: InstallManifest, details: Record<string, unknown>): Promise<TargetResult[]> {
  if (!existsSync(join(PROJECT_ROOT, 'src', 'core', 'export', 'extract.ts'))) {
    return [targetResult('extract_ratio_zlib', null, 'exporter not implemented'), targetResult('extract_disk_ratio_zlib', null, 'exporter not implemented')];
  }
  const zlib = m.containers.filter((c) => c.codec === 'Zlib' && !c.encrypted).map((c) => c.utocPath);
  const e = await runProbe<ExtractResult>('extract', {
    root: m.root, aesKeyArg: m.aesKeyArg, workerFile: WORKER_FILE, rawWorkerFile: probeFile('raw-decode-worker'),
    zlibContainers: zlib, budgetBytes: PLAN.extractMiB * 2 ** 20, threads: POOL_THREADS, reps: PLAN.extractReps, seed: SEED,
    outDir: join(tmpdir(), `pakscope-bench-extract-${process.pid}`),
    ...(existsSync(MEMORY_DIR) ? { memOutDir: join(MEMORY_DIR, `pakscope-bench-extract-${process.pid}`) } : {}),
  }, { onProgress: probeLog, timeoutMs: 1_800_000 });
  details['extract'] = e;
  const files = `${e.folders} folders (${e.files.toLocaleString('en-US')} files, ${(e.bytes / 2 ** 20).toFixed(0)} MiB) of ${zlib.length} Zlib containers, median of ${PLAN.extractReps}`;
  const raw = `${RAW_BASELINE.Zlib} in ${e.threads} worker_threads ${e.rawRate.toFixed(0)} MiB/s`;
  const disk = `extractFiles to a folder in the temp dir ${e.extractRate.toFixed(0)} MiB/s (${r2(e.extractRate / e.rawRate)} of raw)`;
  // The export a user gets: into a real folder on disk. What it loses against tmpfs is the disk's
  // file creation and writing (the tmpfs line beside it is the same export without them).
  const diskLine = targetResult('extract_disk_ratio_zlib', e.extractRate / e.rawRate,
    `${disk} vs ${raw} (ratio of the medians); ${files}` +
    (e.memRate !== undefined ? `; the same export into tmpfs runs at ${r2(e.memRate / e.rawRate)} of raw: the rest is the disk's file creation and writing` : ''));
  if (e.memRate === undefined) return [targetResult('extract_ratio_zlib', null, `no tmpfs (${MEMORY_DIR}) on this machine: only the disk line is measured`), diskLine];
  // The target is taken in memory: the raw side has no disk either, and a disk's file creation
  // cost here depends on its history (ext4 without a journal scans the inodes freed in the last
  // minutes on every create), which the temp-dir figure beside it shows.
  // Each export pass is compared with the raw pass right after it (memPairedRatio): the
  // machine's speed drifts less within a pair than over the run.
  const pairs = e.memPasses!.map((m, i) => e.rawPasses[i]! / m);
  const f = e.perFile;
  const perFile = f
    ? `; CPU µs a file (medians): the export's this thread ${f.main.toFixed(0)}, the pool's workers ${f.workers.toFixed(0)}, the rest (V8's GC helpers, libuv) ${f.rest.toFixed(0)}; ` +
      `the raw side's ${f.raw.toFixed(0)}; the filesystem's alone (files of these sizes created, written and closed in tmpfs, nothing decoded) ${f.filesystem.toFixed(0)}, ` +
      `so an export doing nothing but the raw decode and the writing would reach ${r2(f.raw / (f.raw + f.filesystem))} of raw`
    : '';
  return [targetResult('extract_ratio_zlib', e.memPairedRatio!,
    `median of ${PLAN.extractReps} pairs of an extractFiles pass to a folder in ${MEMORY_DIR} (tmpfs: files created and written, in memory; each pass into an empty tmpfs) ` +
    `and the raw pass right after it (lowest quartile of the pairs ${r2(percentile(pairs, 25))}); medians ${e.memRate.toFixed(0)} MiB/s vs ${raw} (${r2(e.memRate / e.rawRate)}); ${files}; ` +
    `the export into a real folder on disk is extract_disk_ratio_zlib${perFile}`), diskLine];
}

async function measureTexturePreview(_m: InstallManifest, details: Record<string, unknown>): Promise<TargetResult[]> {
  const fixtures = join(PROJECT_ROOT, '..', 'shared', 'corpus', 'cue58', 'IoStore', 'Tagged', 'Uncompressed');
  if (!existsSync(fixtures)) return [targetResult('texture_preview_ms', null, `the cue58 fixtures (${fixtures}) are not there: the BC7 blocks come from T_BC7`)];
  const t = await runProbe<TexturePreviewResult>('texture-preview', { workerFile: WORKER_FILE, fixtures, reps: quick ? 3 : 7 }, { onProgress: probeLog });
  details['texturePreview'] = t;
  const spread = `${Math.min(...t.runsMs).toFixed(0)} to ${Math.max(...t.runsMs).toFixed(0)} ms`;
  const known = (v: (number | null)[]): number[] => v.filter((x): x is number => x !== null);
  const cpu = `CPU per preview ${median(t.cpuMs).toFixed(0)} ms (main thread ${median(known(t.mainCpuMs)).toFixed(0)} ms, the rest the workers)` +
    (known(t.waitMs).length ? `, its threads waiting for a core ${median(known(t.waitMs)).toFixed(0)} ms (the machine's load)` : '');
  return [targetResult('texture_preview_ms', t.medianMs,
    `backend decodeForView, median of ${t.runsMs.length} (${spread}) on ${t.threads} threads: reading the 16 MiB mip from the .ubulk ` +
    `${t.readMs.toFixed(0)} ms, then the threads decoding bands into one shared image; ${cpu}; the same mip on one thread takes ` +
    `${t.oneThreadMs.toFixed(0)} ms; the package header's parse is package_view_ms`)];
}

async function measureScrollTarget(m: InstallManifest, details: Record<string, unknown>): Promise<TargetResult[]> {
  const s: ScrollResult = await measureScroll({
    root: m.root, aesKeyArg: m.aesKeyArg, expectedRows: m.files + m.folders, expectedFiles: m.files,
    scrollSeconds: PLAN.scrollSeconds, pixelsPerFrame: 220, log,
  });
  details['scroll'] = s;
  const rowsNote = s.rows === m.files + m.folders ? '' : `; only ${s.rows} of ${m.files + m.folders} rows could be expanded`;
  return [targetResult('scroll_frame_ms', s.p95FrameMs,
    `${s.rows.toLocaleString('en-US')} rows (${s.expandedFolders.toLocaleString('en-US')} folders opened in ${s.expandSeconds.toFixed(0)} s), ` +
    `10 rows per frame for ${PLAN.scrollSeconds} s: median ${r2(s.medianFrameMs)} ms, max ${r2(s.maxFrameMs)} ms over ${s.frames} frames; ` +
    `${s.droppedFrames} frame(s) dropped (rAF interval median ${r2(s.frameIntervalMs)} ms)${rowsNote}`,
    s.p95FrameMs <= 8 && s.droppedFrames === 0 && rowsNote === '')];
}

async function measureSearch(m: InstallManifest, details: Record<string, unknown>): Promise<TargetResult[]> {
  const s = await runProbe<SearchResult>('search', { root: m.root, aesKeyArg: m.aesKeyArg, workerFile: WORKER_FILE }, { onProgress: probeLog });
  details['search'] = s;
  const count = (n: number): string => n.toLocaleString('en-US');
  return [
    targetResult('treemap_ms', s.treemapMs,
      `SizeMap.layoutAll: ${count(s.files)} files and ${count(s.folders)} folders in 1920x1080, median of 5 (${s.treemapRunsMs.map((t) => t.toFixed(0)).join(', ')} ms)`),
    targetResult('search_index_s', s.indexSeconds,
      `buildSearchIndex (strings left out) on ${s.threads} worker threads: ${count(s.indexedFiles)} files, ${count(s.hits)} hits, ${count(s.texts)} distinct texts, ${s.problems} files not read; ` +
      `CPU ${s.indexCpuS.toFixed(2)} s in all (workers and V8's helpers included), ${s.indexMainCpuS.toFixed(2)} s of it on the main thread`),
    targetResult('search_ms', s.searchMedianMs,
      `median of ${s.queries.length} queries, max ${s.searchMaxMs.toFixed(1)} ms (${s.queries.map((q) => `${q.text}: ${count(q.hits)}`).join(', ')})`),
  ];
}

async function measureDiff(m: InstallManifest, details: Record<string, unknown>): Promise<TargetResult[]> {
  const copy = await changedCopy(m);
  const d = await runProbe<DiffResult>('diff',
    { root: m.root, copyRoot: copy.root, changed: copy.changed, aesKeyArg: m.aesKeyArg, workerFile: WORKER_FILE }, { onProgress: probeLog });
  details['diff'] = d;
  const right = d.wrong === 0 && d.added === 0 && d.removed === 0 && d.filesRead === 0 && d.changed + d.unchanged === d.files;
  return [targetResult('diff_s', d.seconds,
    `the copy opened (${r2(d.openSeconds)} s) and compared (${r2(d.compareSeconds)} s) with the open install, ${r2(d.cpuSeconds)} s of CPU: ${d.files.toLocaleString('en-US')} files, ` +
    `${d.changed.toLocaleString('en-US')} changed (1 % of the chunks, those with a path: ${d.expectedChanged.toLocaleString('en-US')}), ${d.unchanged.toLocaleString('en-US')} unchanged, ` +
    `${d.byStoredHash.toLocaleString('en-US')} by stored hash, ${d.filesRead} files read${right ? '' : `; WRONG: ${d.wrong} misreported, ${d.added} added, ${d.removed} removed`}`,
    right ? undefined : false)];
}

async function measureMeshTarget(_m: InstallManifest, details: Record<string, unknown>): Promise<TargetResult[]> {
  const r = await measureMesh({ side: 708, opens: 3, orbitFrames: PLAN.orbitFrames, workerFile: WORKER_FILE, log });
  details['mesh'] = r;
  const o = r.open;
  const spread = (v: number[]): string => `${Math.min(...v).toFixed(0)} to ${Math.max(...v).toFixed(0)} ms`;
  return [
    targetResult('mesh_open_ms', o.openMs,
      `${r.triangles.toLocaleString('en-US')} triangles, ${o.vertices.toLocaleString('en-US')} vertices (a synthetic grid in place of SM_Fixture's mesh); ` +
      `median of ${r.opens.length} (${spread(r.opens.map((x) => x.openMs))}): openPackage ${o.packageMs.toFixed(0)} ms, meshInfo ${o.infoMs.toFixed(0)} ms, ` +
      `meshGeometry ${o.geometryMs.toFixed(0)} ms (${(o.geometryBytes / 2 ** 20).toFixed(1)} MiB, one binary frame), scene built ${o.buildMs.toFixed(0)} ms, ` +
      `first render call ${o.firstFrameMs.toFixed(0)} ms (the buffers' upload), the rest three.js loading and the page`),
    targetResult('mesh_orbit_frame_ms', r.orbitP95Ms,
      `${r.orbitFrames} frames, a drag step each: median ${r2(r.orbitMedianMs)} ms, max ${r2(r.orbitMaxMs)} ms of main-thread work; ` +
      `three.js's render call median ${r2(r.renderMedianMs)} ms, max ${r2(r.renderMaxMs)} ms; SwiftShader takes ${(r.wallPerFrameMs / 1000).toFixed(1)} s a frame on the wall`),
  ];
}

const GROUPS: [string, TargetName[], (m: InstallManifest, d: Record<string, unknown>) => Promise<TargetResult[]>][] = [
  ['open', ['open_index_s', 'peak_rss_mb'], measureOpen],
  ['packages', ['graph_s', 'package_view_ms'], measurePackages],
  ['decode', ['decode_ratio_zlib', 'decode_ratio_oodle', 'decode_ratio_lz4', 'worker_scaling'], measureDecode],
  ['extract', ['extract_ratio_zlib', 'extract_disk_ratio_zlib'], measureExtract],
  ['scroll', ['scroll_frame_ms'], measureScrollTarget],
  ['textures', ['texture_decode_ratio_bc1', 'texture_decode_ratio_bc7'],
    (_m, d) => measureTextureDecode({ rounds: PLAN.textureRounds, reps: PLAN.textureReps }, log, d)],
  ['preview', ['texture_preview_ms'], measureTexturePreview],
  ['diff', ['diff_s'], measureDiff],
  ['search', ['treemap_ms', 'search_index_s', 'search_ms'], measureSearch],
  ['mesh', ['mesh_open_ms', 'mesh_orbit_frame_ms'], measureMeshTarget],
];

async function writeAtomically(path: string, text: string): Promise<void> {
  await writeFile(`${path}.tmp`, text);
  await rename(`${path}.tmp`, path);
}

const started = performance.now();
const loadBefore = loadavg()[0]!;
const params = quick ? QUICK_PARAMS : FULL_PARAMS;
const manifest = await generateInstall(params, { force: argv.includes('--regenerate'), log });
log(`install: ${manifest.root} (${manifest.files.toLocaleString('en-US')} files, ${(manifest.bytes / 2 ** 30).toFixed(2)} GiB)`);
await buildProbes();

const here = join(PROJECT_ROOT, 'bench');
const mode = quick ? 'quick' : 'full';
/** With --only: the latest results of this mode on this install, for the groups not measured now. */
async function previousResults(): Promise<BenchResults | undefined> {
  const path = join(here, `results-${mode}.json`);
  if (!only || !existsSync(path)) return undefined;
  const prev = JSON.parse(await readFile(path, 'utf8')) as BenchResults;
  // Targets may be missing from an older file (targets added since): those rows are measured now
  // or reported as not measured; any other problem means the file is not trusted.
  const problems = validateResults(prev).filter((p) => !/^target \w+ appears 0 times$/.test(p));
  return problems.length === 0 && prev.install.path === manifest.root ? prev : undefined;
}
const previous = await previousResults();

const details: Record<string, unknown> = { ...(previous?.details ?? {}) };
const targets: TargetResult[] = [];
for (const [group, names, measure] of GROUPS) {
  if (!wants(group)) {
    const kept = names.map((n) => previous?.targets.find((t) => t.name === n));
    if (kept.every((t) => t !== undefined)) {
      log(`${group}: kept from the run of ${previous!.date}`);
      // Each carried row keeps the date it was measured (an earlier --only run may have carried it already).
      targets.push(...(kept as TargetResult[]).map((t) => ({ ...t, measured: t.measured ?? previous!.date })));
    } else {
      targets.push(...names.map((n) => targetResult(n, null, `not measured in this run (--only ${onlyArg})`)));
    }
    continue;
  }
  log(`measuring ${group} ...`);
  const t0 = performance.now();
  try {
    targets.push(...await measure(manifest, details));
  } catch (e) {
    log(`  ${group} failed: ${e instanceof Error ? e.stack ?? e.message : String(e)}`);
    targets.push(...names.map((n) => targetResult(n, null, `measurement failed: ${errorText(e)}`)));
  }
  log(`  (${((performance.now() - t0) / 1000).toFixed(0)} s)`);
}

const codecs: Record<string, number> = {};
for (const c of manifest.containers) codecs[c.codec] = (codecs[c.codec] ?? 0) + 1;
const results: BenchResults = {
  mode,
  date: new Date().toISOString().slice(0, 10),
  machine: describeMachine(),
  install: {
    packages: manifest.packages,
    files: manifest.files,
    folders: manifest.folders,
    containers: manifest.containers.length,
    codecs,
    encryptedContainers: manifest.containers.filter((c) => c.encrypted).length,
    gib: Number((manifest.bytes / 2 ** 30).toFixed(2)),
    importedPackagesPerPackage: Number((manifest.importedPackages / manifest.packages).toFixed(2)),
    path: manifest.root,
  },
  targets,
  details: { ...details, ...(previous ? { merged: { measuredNow: [...only!], restFrom: previous.date } } : {}), loadAverage: { start: Number(loadBefore.toFixed(1)), end: Number(loadavg()[0]!.toFixed(1)) }, benchSeconds: Math.round((performance.now() - started) / 1000), generateSeconds: Math.round(manifest.generateSeconds) },
};
const problems = validateResults(results);
if (problems.length) throw new Error(`results do not have the promised shape: ${problems.join('; ')}`);
if (only && !previous) {
  // A partial run with nothing to complete it prints its figures but leaves the results files alone.
  process.stdout.write(`\n${formatTable(results)}\n\n(--only without earlier ${mode} results: results files not written)\n`);
  process.exit(0);
}
const json = `${JSON.stringify(results, null, 2)}\n`;
const md = formatMarkdown(results);
await writeAtomically(join(here, 'results.json'), json);
await writeAtomically(join(here, 'results.md'), md);
await writeAtomically(join(here, `results-${results.mode}.json`), json);
await writeAtomically(join(here, `results-${results.mode}.md`), md);
process.stdout.write(`\n${formatTable(results)}\n\nwritten: bench/results.json, bench/results.md (and results-${results.mode}.*) in ${((performance.now() - started) / 1000).toFixed(0)} s\n`);

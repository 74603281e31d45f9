/**
 * Probe: the dependency graph and the package view.
 *
 * graph: the project's graph module, buildDependencyGraph(install) (src/core/graph): every
 * container header read through its container and parsed, the package → imported packages
 * adjacency and its reverse built, packages named. For reference the probe also times the bare
 * way: parseContainerHeader over every header plus two Maps built here.
 *
 * package view: for a seeded sample of packages, the ExportBundleData chunk read through its
 * container (worker pool), parsed with parseZenPackage (store entry from the container header)
 * and resolved with resolvePackage (script objects from global.utoc, loaded once beforehand).
 * For reference, the app's whole path too: InstallPackages.open (src/core/package), which also
 * reads the imported packages' headers to name their objects and builds the PackageModel.
 */
import { KeyRing } from '../../src/core/crypto/keys.js';
import { zenLayoutFor } from '../../src/core/engine-versions.js';
import { openInstall } from '../../src/core/install/install.js';
import { IoStoreContainer } from '../../src/core/iostore/container.js';
import { findStoreEntry, parseContainerHeader, type ContainerHeader } from '../../src/core/iostore/container-header.js';
import { buildDependencyGraph } from '../../src/core/graph/build-graph.js';
import { InstallPackages } from '../../src/core/package/open-package.js';
import { createWorkerPool } from '../../src/core/workers/pool.js';
import { resolvePackage } from '../../src/core/zen/resolve.js';
import { parseScriptObjects } from '../../src/core/zen/script-objects.js';
import { parseZenPackage } from '../../src/core/zen/zen-package.js';
import { Rng } from '../rng.js';
import { emitResult, median, percentile, probeArgs, progress } from './probe-io.js';

export interface PackagesArgs { root: string; aesKeyArg: string; workerFile: string; samples: number; seed: number }
export interface PackagesResult {
  /** buildDependencyGraph(install), or null when the module failed (graphError). */
  graphSeconds: number | null;
  graphError?: string;
  graphCounts?: { packages: number; referencedOnly: number; edges: number; named: number };
  graphProblems?: string[];
  /** The bare way: headers read + parsed + two Maps. */
  bareSeconds: number;
  /** Of which reading (and decoding) the header chunks. */
  bareReadSeconds: number;
  bareParseSeconds: number;
  bareMapSeconds: number;
  headers: number;
  packages: number;
  edges: number;
  packagesImportedByOthers: number;
  /** InstallPackages.open: the app's package view path (imported headers read too, cached). */
  appOpenMedianMs: number | null;
  appOpenP95Ms: number | null;
  appOpenError?: string;
  viewMedianMs: number;
  viewP95Ms: number;
  viewMaxMs: number;
  viewSamples: number;
  /** Median of the parts, to see where the time goes. */
  viewReadMedianMs: number;
  viewParseMedianMs: number;
  viewResolveMedianMs: number;
  unresolvedClasses: number;
  samplePackage: { name: string; exports: number; imports: number; firstExportClass?: string };
}

const args = probeArgs<PackagesArgs>();
const pool = createWorkerPool({ workerFile: args.workerFile });
const install = await openInstall([args.root], { keys: KeyRing.fromArgs([args.aesKeyArg]), decoder: pool });
// As the app does once an install is open (backend.ts): its worker threads start while the user
// looks at the tree, before any graph or package view is asked for.
await pool.warm();
const containers = install.archives.filter((a): a is IoStoreContainer => a instanceof IoStoreContainer);

// ---- graph: the project's module ----
let graphSeconds: number | null = null;
let graphError: string | undefined;
let graphCounts: PackagesResult['graphCounts'];
let graphProblems: string[] | undefined;
try {
  const g0 = performance.now();
  const graph = await buildDependencyGraph(install);
  graphSeconds = (performance.now() - g0) / 1000;
  graphCounts = graph.counts();
  graphProblems = graph.problems.slice(0, 5);
  progress(`graph module: ${JSON.stringify(graphCounts)} in ${graphSeconds.toFixed(2)} s`);
} catch (e) {
  graphError = e instanceof Error ? e.message : String(e);
}

// ---- graph: the bare way ----
let readMs = 0;
let parseMs = 0;
const t0 = performance.now();
const headers = new Map<IoStoreContainer, ContainerHeader>();
for (const c of containers) {
  for (const entry of c.entriesOfType('ContainerHeader')) {
    const r0 = performance.now();
    const bytes = await c.readChunk(entry);
    const r1 = performance.now();
    headers.set(c, parseContainerHeader(bytes, c.path));
    readMs += r1 - r0;
    parseMs += performance.now() - r1;
  }
}
const m0 = performance.now();
const imports = new Map<string, string[]>();
const importedBy = new Map<string, string[]>();
let edges = 0;
for (const h of headers.values()) {
  h.packageIds.forEach((id, i) => {
    const list = h.storeEntries[i]!.importedPackages;
    imports.set(id, list);
    for (const target of list) {
      const back = importedBy.get(target);
      if (back) back.push(id); else importedBy.set(target, [id]);
    }
    edges += list.length;
  });
}
const bareSeconds = (performance.now() - t0) / 1000;
const mapMs = performance.now() - m0;
progress(`bare graph: ${headers.size} headers, ${imports.size} packages, ${edges} edges in ${bareSeconds.toFixed(2)} s`);

// ---- package view ----
const global = containers.find((c) => c.entriesOfType('ScriptObjects').length > 0);
const scriptObjects = global
  ? parseScriptObjects(await global.readChunk(global.entriesOfType('ScriptObjects')[0]!), global.path) : undefined;
const candidates: { c: IoStoreContainer; ref: number; path: string; chunkId: string }[] = [];
for (const c of containers) {
  for (const f of c.files()) if (f.chunkType === 'ExportBundleData') candidates.push({ c, ref: f.ref, path: f.path, chunkId: f.chunkId! });
}
const rng = new Rng(args.seed);
const warmup = 20;
const picks = Array.from({ length: args.samples + warmup }, () => candidates[rng.int(candidates.length)]!);
/** The package id is the chunk id's first 8 bytes, little-endian. */
const packageIdOf = (chunkIdHex: string): string => chunkIdHex.slice(0, 16).match(/../g)!.reverse().join('');
const total: number[] = [];
const reads: number[] = [];
const parses: number[] = [];
const resolves: number[] = [];
let unresolvedClasses = 0;
let sample: PackagesResult['samplePackage'] | undefined;
for (const [i, p] of picks.entries()) {
  const header = headers.get(p.c)!;
  const layout = zenLayoutFor({ containerHeaderVersion: header.version, tocVersion: p.c.toc.header.version });
  const a = performance.now();
  const bytes = await p.c.read(p.ref);
  const b = performance.now();
  const pkg = parseZenPackage(bytes, p.path, { layout, storeEntry: findStoreEntry(header, packageIdOf(p.chunkId)) });
  const c = performance.now();
  const resolved = resolvePackage(pkg, { scriptObjects });
  const d = performance.now();
  if (i < warmup) continue;
  total.push(d - a);
  reads.push(b - a);
  parses.push(c - b);
  resolves.push(d - c);
  unresolvedClasses += resolved.exports.filter((e) => !e.classPath || e.classPath.includes('?')).length;
  sample ??= { name: pkg.name, exports: pkg.exports.length, imports: pkg.imports.length, firstExportClass: resolved.exports[0]?.classPath };
}

// ---- the app's package view path: the package_view_ms target ----
let appOpenMedianMs: number | null = null;
let appOpenP95Ms: number | null = null;
let appOpenError: string | undefined;
try {
  const packages = new InstallPackages(install);
  void packages.index; // built once per install, before the first package opens
  await packages.scriptObjects();
  const times: number[] = [];
  for (const [i, p] of picks.entries()) {
    const a = performance.now();
    await packages.open(p.path);
    if (i >= warmup) times.push(performance.now() - a);
  }
  appOpenMedianMs = median(times);
  appOpenP95Ms = percentile(times, 95);
  await packages.close();
} catch (e) {
  appOpenError = e instanceof Error ? e.message : String(e);
}

const result: PackagesResult = {
  graphSeconds,
  ...(graphError !== undefined ? { graphError } : {}),
  ...(graphCounts ? { graphCounts } : {}),
  ...(graphProblems ? { graphProblems } : {}),
  bareSeconds,
  bareReadSeconds: readMs / 1000,
  bareParseSeconds: parseMs / 1000,
  bareMapSeconds: mapMs / 1000,
  appOpenMedianMs,
  appOpenP95Ms,
  ...(appOpenError !== undefined ? { appOpenError } : {}),
  headers: headers.size,
  packages: imports.size,
  edges,
  packagesImportedByOthers: importedBy.size,
  viewMedianMs: median(total),
  viewP95Ms: percentile(total, 95),
  viewMaxMs: Math.max(...total),
  viewSamples: total.length,
  viewReadMedianMs: median(reads),
  viewParseMedianMs: median(parses),
  viewResolveMedianMs: median(resolves),
  unresolvedClasses,
  samplePackage: sample!,
};
emitResult(result);
await install.close();
await pool.destroy();

/**
 * Probe: the size map and the search index on the bench install. treemap_ms: the whole merged
 * tree laid out (SizeMap.layoutAll: every folder and file, squarified, from the tree's typed
 * arrays), median of 5 after one untimed run. search_index_s: buildSearchIndex over every
 * package's name map, exports, imports and path (strings left out, as the target says), in the
 * worker pool. search_ms: queries against the built index (substring, case-insensitive, every
 * kind), median over a set of words.
 */
import { KeyRing } from '../../src/core/crypto/keys.js';
import { openInstall } from '../../src/core/install/install.js';
import { SizeMap } from '../../src/core/install/size-map.js';
import { buildSearchIndex } from '../../src/core/search/index.js';
import { createWorkerPool } from '../../src/core/workers/pool.js';
import { emitResult, median, probeArgs, progress, threadCpu } from './probe-io.js';

export interface SearchArgs { root: string; aesKeyArg: string; workerFile: string }
export interface SearchResult {
  files: number;
  folders: number;
  treemapMs: number;
  treemapRunsMs: number[];
  indexSeconds: number;
  indexedFiles: number;
  hits: number;
  texts: number;
  problems: number;
  threads: number;
  /** CPU seconds of the build: the whole process's (workers and V8's helper threads included) and this thread's. */
  indexCpuS: number;
  indexMainCpuS: number;
  searchMedianMs: number;
  searchMaxMs: number;
  queries: { text: string; hits: number; ms: number }[];
}

const args = probeArgs<SearchArgs>();
const pool = createWorkerPool({ workerFile: args.workerFile });
const keys = KeyRing.fromArgs([args.aesKeyArg]);
await pool.warm();
const install = await openInstall([args.root], { keys, decoder: pool });
install.listDir('');

const tree = install.treeArrays();
const map = new SizeMap(tree);
map.layoutAll(1920, 1080);
const treemapRunsMs: number[] = [];
for (let i = 0; i < 5; i++) {
  const t = performance.now();
  map.layoutAll(1920, 1080);
  treemapRunsMs.push(performance.now() - t);
}
progress(`treemap: ${treemapRunsMs.map((t) => t.toFixed(0)).join(', ')} ms`);

const mainTid = String(process.pid);
const cpu0 = process.cpuUsage(), main0 = threadCpu().get(mainTid) ?? 0;
const t0 = performance.now();
const index = await buildSearchIndex(install, { pool, strings: false });
const indexSeconds = (performance.now() - t0) / 1000;
const cpu = process.cpuUsage(cpu0);
const indexCpuS = (cpu.user + cpu.system) / 1e6;
const indexMainCpuS = ((threadCpu().get(mainTid) ?? 0) - main0) / 1e9;
progress(`index CPU: ${indexCpuS.toFixed(2)} s in all, ${indexMainCpuS.toFixed(2)} s on the main thread`);
progress(`index: ${indexSeconds.toFixed(2)} s, ${index.hitCount} hits, ${index.textCount} texts, ${index.data.problems.length} problems`);

const words = ['Texture2D', 'T_Rock', 'MainGrid_L0', 'Niagara', 'BP_', 'skeleton', '/Script/Engine.StaticMesh', 'Cell_X', 'zzzz-nothing', 'Material'];
const queries: { text: string; hits: number; ms: number }[] = [];
for (const text of words) {
  const t = performance.now();
  let hits = 0;
  for (const _ of index.search({ text, limit: 10_000 })) hits++;
  queries.push({ text, hits, ms: performance.now() - t });
}
progress(`queries: ${queries.map((q) => `${q.text} ${q.hits} in ${q.ms.toFixed(1)} ms`).join('; ')}`);

const result: SearchResult = {
  files: tree.fileCount, folders: tree.folderCount, treemapMs: median(treemapRunsMs), treemapRunsMs,
  indexSeconds, indexCpuS, indexMainCpuS, indexedFiles: index.fileCount, hits: index.hitCount, texts: index.textCount, problems: index.data.problems.length, threads: pool.threads,
  searchMedianMs: median(queries.map((q) => q.ms)), searchMaxMs: Math.max(...queries.map((q) => q.ms)), queries,
};
await install.close();
await pool.destroy();
emitResult(result);

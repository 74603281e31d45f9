/**
 * How fast the dependency graph builds and answers at game scale: 250,000 packages importing ten
 * each (a few packages imported by many, as engine content is; 5% of imports outside the
 * install), as the store entries of a container header give them. Also times the container
 * header parse of the same graph (written with bench/container-header-writer.ts) and naming
 * 250,000 packages by FPackageId. Not a test: run `npx tsx bench/dependency-graph.ts`.
 */
import { DependencyGraphBuilder } from '../src/core/graph/graph-builder.js';
import { hexWords, packageIdFromName } from '../src/core/hash/cityhash64.js';
import { parseContainerHeader } from '../src/core/iostore/container-header.js';
import { writeContainerHeader } from './container-header-writer.js';

const PACKAGES = Number(process.argv[2] ?? 250_000);
const IMPORTS = 10;

/** xorshift32: the same graph every run. */
let seed = 0x2545f491;
function next(): number {
  seed ^= seed << 13; seed >>>= 0;
  seed ^= seed >>> 17;
  seed ^= seed << 5; seed >>>= 0;
  return seed;
}

/**
 * Wall time and this process's CPU time since `start` (taken with now()). On a shared machine the
 * CPU time is the steadier number: wall time includes waiting for a core.
 */
function ms(start: { wall: number; cpu: NodeJS.CpuUsage }): string {
  const cpu = process.cpuUsage(start.cpu);
  return `${(performance.now() - start.wall).toFixed(0)} ms wall, ${((cpu.user + cpu.system) / 1000).toFixed(0)} ms CPU`;
}
const now = (): { wall: number; cpu: NodeJS.CpuUsage } => ({ wall: performance.now(), cpu: process.cpuUsage() });

const ids = Array.from({ length: PACKAGES }, () => hexWords(next(), next()));
const outside = Array.from({ length: PACKAGES / 20 }, () => hexWords(next(), next()));
/** Skewed toward low indices: package 0 is imported by many, the tail by few. */
const pick = (): string => {
  if (next() % 20 === 0) return outside[next() % outside.length]!;
  const r = (next() % 1_000_000) / 1_000_000;
  return ids[Math.floor(PACKAGES * r * r * r)]!;
};
const imports = ids.map(() => Array.from({ length: IMPORTS }, pick));

const mem0 = process.memoryUsage().heapUsed;
let t = now();
const b = new DependencyGraphBuilder();
for (let i = 0; i < PACKAGES; i++) b.addPackage(ids[i]!, imports[i]!);
const g = b.build();
const buildTime = ms(t);
const mem1 = process.memoryUsage().heapUsed;
console.log(`build from store entries: ${PACKAGES} packages x ${IMPORTS} imports: ${buildTime}, ~${((mem1 - mem0) / 2 ** 20).toFixed(0)} MiB heap`);
console.log('counts', g.counts());

t = now();
const top = g.mostReferenced(20);
console.log(`mostReferenced(20): ${ms(t)}; top ${top[0]!.id} imported by ${top[0]!.count}`);
t = now();
const deps = g.dependencies(ids[PACKAGES - 1]!, 3);
console.log(`dependencies(depth 3): ${deps.length} packages in ${ms(t)}`);
t = now();
const all = g.dependencies(ids[PACKAGES - 1]!, Infinity);
console.log(`dependencies(all): ${all.length} packages in ${ms(t)}`);
t = now();
const refs = g.referencers(top[0]!.id, 2);
console.log(`referencers(depth 2) of the most imported: ${refs.length} packages in ${ms(t)}`);
t = now();
let found = 0;
for (let i = 0; i < 20; i++) if (g.shortestPath(ids[PACKAGES - 1 - i]!, ids[i]!)) found++;
console.log(`20 shortestPath: ${found} found in ${ms(t)}`);

const header = writeContainerHeader('0123456789abcdef', ids.map((id, i) => ({ packageId: id, importedPackages: imports[i]!, shaderMapHashes: [] })));
t = now();
const parsed = parseContainerHeader(header, 'synthetic');
const parseTime = ms(t);
t = now();
const b2 = new DependencyGraphBuilder();
parsed.packageIds.forEach((id, i) => b2.addPackage(id, parsed.storeEntries[i]!.importedPackages));
b2.build();
console.log(`container header (${(header.length / 2 ** 20).toFixed(1)} MiB): parse ${parseTime}, graph from it ${ms(t)}`);

t = now();
for (let i = 0; i < PACKAGES; i++) packageIdFromName(`/Game/Content/Folder${i % 500}/Sub${i % 37}/Asset_${i}`);
console.log(`packageIdFromName x ${PACKAGES}: ${ms(t)}`);

/**
 * The dependency graph of an install, from what the install stores:
 *
 * - IoStore: every container header's store entries list each package's imported package ids,
 *   so the whole graph comes without parsing a package. Containers are read winner first (patch
 *   over base), and the first copy of a package id is the one kept.
 * - Classic packages (.uasset/.umap in paks or loose folders, UE1/2 packages) have no header
 *   like that: their import maps are read instead (the package imports: entries of class
 *   Package without an outer; /Script packages left out, as IoStore headers leave them out).
 *   This reads every such package's header and is optional (opts.classicPackages).
 *
 * Names: the install's paths through the game path mapping (package/package-index.ts); names
 * the classic import maps give; ids nothing names stay 16 hex digits.
 */
import { packageIdFromName } from '../hash/cityhash64.js';
import type { Install } from '../install/install.js';
import { compareByPriority } from '../install/priority.js';
import { parseContainerImports, type PackageImportTable } from '../iostore/container-header.js';
import { IoStoreContainer } from '../iostore/container.js';
import { parseClassicPackageModel } from '../package-model.js';
import { withoutExtension } from '../package/package-files.js';
import type { InstallPackages } from '../package/open-package.js';
import { PackageIndex, type IndexedPackage } from '../package/package-index.js';
import { DependencyGraph } from './dependency-graph.js';
import { DependencyGraphBuilder } from './graph-builder.js';

export interface BuildGraphOptions {
  /**
   * Also read the import maps of classic packages (pak and loose files) the container headers do
   * not cover (default true). Costs one header read per such package.
   */
  classicPackages?: boolean;
  /** The install's package index, when the caller has built it already. */
  index?: PackageIndex;
  signal?: AbortSignal;
  onProgress?: (p: { phase: 'headers' | 'packages'; done: number; total: number }) => void;
}

/** Classic packages read at once. */
const READ_CONCURRENCY = 4;
/** Container header chunks read (and decoded, on the worker pool) ahead of the one being parsed. */
const HEADER_READ_AHEAD = 32;

type HeaderRead = { bytes: Uint8Array } | { error: unknown } | undefined;

/** The container's header chunk, or why it did not read; undefined when it has none. Never rejects. */
function readHeader(c: IoStoreContainer, signal: AbortSignal | undefined): Promise<HeaderRead> {
  const entry = c.entriesOfType('ContainerHeader')[0];
  if (entry === undefined) return Promise.resolve(undefined);
  return c.readChunk(entry, signal).then((bytes) => ({ bytes }), (error: unknown) => ({ error }));
}

export async function buildDependencyGraph(install: Install, opts: BuildGraphOptions = {}): Promise<DependencyGraph> {
  const builder = new DependencyGraphBuilder();
  const containers = install.archives
    .filter((a): a is IoStoreContainer => a instanceof IoStoreContainer && a.status.state !== 'locked')
    .sort(compareByPriority);
  // The first headers are read while the index is built: the worker pool reads and decodes them
  // meanwhile, as the index gives the event loop a turn now and then.
  const reads: (Promise<HeaderRead> | undefined)[] = [];
  const readAhead = (i: number): void => { if (i < containers.length) reads[i] = readHeader(containers[i]!, opts.signal); };
  for (let i = 0; i < HEADER_READ_AHEAD; i++) readAhead(i);
  await new Promise<void>((resolve) => setImmediate(resolve));
  const index = opts.index ?? await PackageIndex.buildAsync(install, opts.signal);

  // Every table first, so the builder is sized once for all of them.
  const tables: PackageImportTable[] = [];
  for (let i = 0; i < containers.length; i++) {
    opts.signal?.throwIfAborted();
    readAhead(i + HEADER_READ_AHEAD);
    const read = await reads[i];
    reads[i] = undefined;
    try {
      if (read !== undefined && 'error' in read) throw read.error;
      if (read !== undefined) {
        const header = parseContainerImports(read.bytes, `${containers[i]!.path} (container header)`);
        // An optional segment adds its package where the main segment does not hold it.
        tables.push(header.main, header.optionalSegment);
      }
    } catch (e) {
      if (opts.signal?.aborted) throw e;
      builder.addProblem(e instanceof Error ? e.message : String(e));
    }
    opts.onProgress?.({ phase: 'headers', done: i + 1, total: containers.length });
  }
  builder.reserve(tables.reduce((n, t) => n + t.count, 0), tables.reduce((n, t) => n + t.importCounts.reduce((a, b) => a + b, 0), 0));
  for (const t of tables) builder.numberPackages(t.ids);
  for (const t of tables) addImportTable(builder, t);
  tables.length = 0;

  // Every package of the index named, by its number in the index: the names are made when asked
  // for (no string, object or id string per IoStore package here).
  builder.setNameSource((i) => index.nameAt(i));
  const classic: IndexedPackage[] = [];
  for (let i = 0; i < index.size; i++) {
    builder.setNameRefWords(index.idHighAt(i), index.idLowAt(i), i);
    if (index.kindAt(i) !== 'zen') classic.push(index.at(i));
  }

  if (opts.classicPackages ?? true) {
    await readClassicImports(install, classic.filter((p) => !builder.holds(p.id)), builder, opts);
  }
  return builder.build();
}

/** Adds each package of a container header segment with the packages it imports. */
function addImportTable(builder: DependencyGraphBuilder, t: PackageImportTable): void {
  for (let i = 0; i < t.count; i++) builder.addPackageIds(t.ids[2 * i]!, t.ids[2 * i + 1]!, t.importData, t.importOffsets[i]!, t.importCounts[i]!);
}

/** Adds each classic package with the packages its import map names. */
async function readClassicImports(install: Install, packages: IndexedPackage[], builder: DependencyGraphBuilder, opts: BuildGraphOptions): Promise<void> {
  let next = 0, done = 0;
  const readOne = async (p: IndexedPackage): Promise<void> => {
    const { archive, file } = p.file.providers[0]!;
    try {
      const bytes = await archive.read(file.ref, opts.signal);
      const uexp = p.kind === 'uasset' ? install.file(`${withoutExtension(p.file.path)}.uexp`) : undefined;
      const model = parseClassicPackageModel(bytes, p.file.path, {
        ...(uexp ? { uexpSize: uexp.size } : {}),
        ...(p.kind === 'uasset' ? { packageName: p.name } : {}),
      });
      const imported: string[] = [];
      for (const i of model.imports) {
        if (i.outer !== null || i.class !== 'Package' || i.path.startsWith('/Script/')) continue;
        const id = packageIdFromName(i.path);
        builder.setName(id, i.path);
        imported.push(id);
      }
      builder.addPackage(p.id, imported);
    } catch (e) {
      if (opts.signal?.aborted) throw e;
      // One package that does not read costs its edges, not the graph.
      builder.addProblem(e instanceof Error ? e.message : String(e));
      builder.addPackage(p.id, []); // held, its imports unknown
    }
  };
  const worker = async (): Promise<void> => {
    while (next < packages.length) {
      opts.signal?.throwIfAborted();
      await readOne(packages[next++]!);
      opts.onProgress?.({ phase: 'packages', done: ++done, total: packages.length });
    }
  };
  await Promise.all(Array.from({ length: Math.min(READ_CONCURRENCY, packages.length) }, worker));
}

/**
 * Names packages the install does not hold from the headers of packages importing them: UE5.3+
 * Zen packages list the names of the packages they import. Reads one importing package's header
 * per id asked about (the cheapest way to name the /Engine packages a mod container needs).
 */
export async function nameImportedPackages(graph: DependencyGraph, packages: InstallPackages, ids: Iterable<string>): Promise<void> {
  for (const id of ids) {
    if (graph.nameOf(id) !== undefined) continue;
    for (const importer of graph.importersOf(id)) {
      const pkg = await packages.zenHeader(importer);
      const at = pkg ? pkg.importedPackageIds.indexOf(id) : -1;
      const name = at >= 0 ? pkg!.importedPackageNames[at] : undefined;
      if (name === undefined || packageIdFromName(name) !== id) continue;
      // Fill in every name this header gives, not just the one asked for.
      pkg!.importedPackageIds.forEach((other, i) => {
        const n = pkg!.importedPackageNames[i];
        if (n !== undefined && packageIdFromName(n) === other) graph.nameUnnamed(other, n);
      });
      break;
    }
  }
}

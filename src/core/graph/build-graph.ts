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
import { parseContainerHeader } from '../iostore/container-header.js';
import { IoStoreContainer } from '../iostore/container.js';
import { parseClassicPackageModel } from '../package-model.js';
import { withoutExtension } from '../package/package-files.js';
import type { InstallPackages } from '../package/open-package.js';
import { PackageIndex, type IndexedPackage } from '../package/package-index.js';
import { DependencyGraph, DependencyGraphBuilder } from './dependency-graph.js';

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

export async function buildDependencyGraph(install: Install, opts: BuildGraphOptions = {}): Promise<DependencyGraph> {
  const builder = new DependencyGraphBuilder();
  const index = opts.index ?? PackageIndex.build(install);

  const containers = install.archives
    .filter((a): a is IoStoreContainer => a instanceof IoStoreContainer && a.status.state !== 'locked')
    .sort(compareByPriority);
  let done = 0;
  for (const c of containers) {
    opts.signal?.throwIfAborted();
    const entry = c.entriesOfType('ContainerHeader')[0];
    if (entry !== undefined) {
      try {
        const header = parseContainerHeader(await c.readChunk(entry, opts.signal), `${c.path} (container header)`);
        header.packageIds.forEach((id, i) => builder.addPackage(id, header.storeEntries[i]!.importedPackages));
        // An optional segment adds its package where the main segment does not hold it.
        header.optionalSegmentPackageIds.forEach((id, i) => builder.addPackage(id, header.optionalSegmentStoreEntries[i]!.importedPackages));
      } catch (e) {
        if (opts.signal?.aborted) throw e;
        builder.addProblem(e instanceof Error ? e.message : String(e));
      }
    }
    opts.onProgress?.({ phase: 'headers', done: ++done, total: containers.length });
  }

  for (const p of index.packages()) builder.setName(p.id, p.name);

  if (opts.classicPackages ?? true) {
    const classic = [...index.packages()].filter((p) => p.kind !== 'zen' && !builder.holds(p.id));
    await readClassicImports(install, classic, builder, opts);
  }
  return builder.build();
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

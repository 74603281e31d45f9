/**
 * UE4.26-4.27 Zen packages (and UE4.25, read the same way): FPackageSummary (64 B), separate
 * names and hashes buffers, export bundles, graph data.
 */
import type { BinaryReader } from '../io/binary-reader.js';
import { readNamePairs } from './name-batch.js';
import { MappedNameType, mappedNameText, readMappedName } from './object-index.js';
import { checkBundleCoverage, readLegacyBundles, readLegacyGraph } from './graph-data.js';
import { EXPORT_ENTRY_SIZE, TableLayout, checkReferences, readExports, readObjectRefs } from './package-tables.js';
import type { ZenPackage } from './types.js';
import type { ZenPackageContext } from './zen-package.js';

/** FPackageSummary is 64 bytes. */
const SUMMARY_SIZE = 64;

/** UE4.26/27: FPackageSummary and the tables after it. */
export function readUE4Package(r: BinaryReader, pkg: ZenPackage, ctx: ZenPackageContext): void {
  r.struct('package summary');
  const name = readMappedName(r);
  const sourceName = readMappedName(r);
  pkg.packageFlags = r.u32();
  pkg.cookedHeaderSize = r.u32();
  const fields = ['names offset', 'names size', 'name hashes offset', 'name hashes size', 'import map offset',
    'export map offset', 'export bundles offset', 'graph data offset', 'graph data size'];
  const v: number[] = [];
  for (const f of fields) {
    const at = r.pos;
    const x = r.i32();
    if (x < 0) throw r.error(`${f} ${x} is negative`, at);
    v.push(x);
  }
  r.skip(4);
  const [namesOffset, namesSize, hashesOffset, hashesSize, importMapOffset, exportMapOffset, bundlesOffset, graphOffset, graphSize] = v as [number, number, number, number, number, number, number, number, number];
  pkg.headerSize = graphOffset + graphSize;
  if (pkg.headerSize > r.length) throw r.error(`header size ${pkg.headerSize} (graph data end) exceeds the ${r.length} bytes available`, 52);
  const order = [SUMMARY_SIZE, namesOffset, namesOffset + namesSize, hashesOffset, hashesOffset + hashesSize,
    importMapOffset, exportMapOffset, bundlesOffset, graphOffset, pkg.headerSize];
  for (let i = 1; i < order.length; i++) {
    if (order[i]! < order[i - 1]!) throw r.error(`package summary offsets are out of order (${order.join(', ')})`, 24);
  }
  const layout = new TableLayout(r, 'package summary');
  layout.add('package summary', 0, SUMMARY_SIZE);
  layout.add('names', namesOffset, namesSize);
  layout.add('name hashes', hashesOffset, hashesSize);
  pkg.names = readNamePairs(r.slice(namesOffset, namesSize, 'names'), r.slice(hashesOffset, hashesSize, 'name hashes'),
    { verifyHashes: ctx.verifyNameHashes, warnings: pkg.warnings });
  r.struct('package summary');
  pkg.name = mappedNameText(r, name, pkg.names, 'package', 0, MappedNameType.Package);
  pkg.sourceName = mappedNameText(r, sourceName, pkg.names, 'source package', 8, MappedNameType.Package);

  const importCount = layout.table('import map', importMapOffset, exportMapOffset, 8, 40);
  r.seek(importMapOffset).struct('import map');
  pkg.imports = readObjectRefs(r, importCount, true);
  const exportCount = layout.table('export map', exportMapOffset, bundlesOffset, EXPORT_ENTRY_SIZE, 44);
  r.seek(exportMapOffset);
  pkg.exports = readExports(r, exportCount, pkg.names, true);

  const slots = layout.table('export bundles', bundlesOffset, graphOffset, 8, 48);
  r.seek(bundlesOffset).struct('export bundles');
  const bundles = readLegacyBundles(r, slots, exportCount);
  pkg.exportBundleHeaders = bundles.headers;
  pkg.exportBundleEntries = bundles.entries;
  checkBundleCoverage(r, bundles.entries, exportCount, bundlesOffset);
  if (ctx.storeEntry?.exportBundleCount !== undefined && ctx.storeEntry.exportBundleCount !== bundles.headers.length) {
    throw r.error(`${bundles.headers.length} export bundles, but the store entry says ${ctx.storeEntry.exportBundleCount}`, bundlesOffset);
  }

  layout.add('graph data', graphOffset, graphSize);
  const graph = r.slice(graphOffset, graphSize, 'graph data');
  pkg.legacyPackageArcs = readLegacyGraph(graph, bundles.headers.length);
  if (graph.remaining !== 0) throw graph.error(`${graph.remaining} bytes left after the graph data`);
  pkg.importedPackageIds = ctx.storeEntry?.importedPackages ?? pkg.legacyPackageArcs.map((p) => p.packageId);
  pkg.regions = layout.regions;
  checkReferences(r, pkg, importMapOffset);
}


/**
 * The load-order tables of a Zen package: export bundles, graph data (UE4.26-5.2) and dependency
 * bundles (UE5.3+).
 */
import type { BinaryReader } from '../io/binary-reader.js';
import { readHex64 } from './object-index.js';
import type {
  DependencyBundleHeader, ExportBundleEntry, ExportBundleHeader, ExportCommand, GraphData, LegacyPackageArcs,
} from './types.js';

function command(r: BinaryReader, v: number, at: number): ExportCommand {
  if (v === 0) return 'create';
  if (v === 1) return 'serialize';
  throw r.error(`export command ${v} is neither Create (0) nor Serialize (1)`, at);
}

/** `count` FExportBundleEntry {u32 export index, u32 command}, each export index checked. */
export function readBundleEntries(r: BinaryReader, count: number, exportCount: number): ExportBundleEntry[] {
  r.checkCount(count, 8, 'export bundle entry count');
  const out: ExportBundleEntry[] = new Array(count);
  for (let i = 0; i < count; i++) {
    const at = r.pos;
    const exportIndex = r.u32();
    if (exportIndex >= exportCount) throw r.error(`export bundle entry ${i} names export ${exportIndex} of ${exportCount}`, at);
    out[i] = { exportIndex, command: command(r, r.u32(), at + 4) };
  }
  return out;
}

/** Every export must be created once and serialized once. */
export function checkBundleCoverage(r: BinaryReader, entries: ExportBundleEntry[], exportCount: number, at: number): void {
  const seen = new Uint8Array(exportCount);
  for (const e of entries) {
    const bit = e.command === 'create' ? 1 : 2;
    if (seen[e.exportIndex]! & bit) throw r.error(`export ${e.exportIndex} has two ${e.command} commands`, at);
    seen[e.exportIndex]! |= bit;
  }
  const missing = seen.findIndex((s) => s !== 3);
  if (missing >= 0) throw r.error(`export ${missing} lacks a ${seen[missing]! & 1 ? 'serialize' : 'create'} command`, at);
}

/**
 * UE4.26/27: bundle headers {u32 first entry, u32 entry count} and then the entries, together
 * filling `slots` 8-byte slots. Headers are read until their entry counts account for every
 * remaining slot, as the engine lays them out.
 */
export function readLegacyBundles(r: BinaryReader, slots: number, exportCount: number): { headers: ExportBundleHeader[]; entries: ExportBundleEntry[] } {
  const headers: ExportBundleHeader[] = [];
  let entrySlots = slots;
  let covered = 0;
  while (covered < entrySlots) {
    const at = r.pos;
    entrySlots--; // this slot holds a header
    const firstEntryIndex = r.u32();
    const entryCount = r.u32();
    if (firstEntryIndex !== covered) {
      throw r.error(`export bundle ${headers.length} starts at entry ${firstEntryIndex}, expected ${covered}`, at);
    }
    covered += entryCount;
    headers.push({ firstEntryIndex, entryCount });
  }
  if (covered !== entrySlots) {
    throw r.error(`${headers.length} export bundles hold ${covered} entries but ${entrySlots} slots remain for them`);
  }
  return { headers, entries: readBundleEntries(r, entrySlots, exportCount) };
}

/** UE4.26/27 graph data: i32 package count; per package u64 id, i32 arc count, arcs {i32 from, i32 to}. */
export function readLegacyGraph(r: BinaryReader, bundleCount: number): LegacyPackageArcs[] {
  const n = r.count(12, 'referenced package count');
  const out: LegacyPackageArcs[] = [];
  for (let i = 0; i < n; i++) {
    const packageId = readHex64(r);
    const arcCount = r.count(8, 'dependency arc count');
    const arcs: LegacyPackageArcs['arcs'] = new Array(arcCount);
    for (let k = 0; k < arcCount; k++) {
      const at = r.pos;
      const fromExportBundle = r.i32();
      const toExportBundle = r.i32();
      if (fromExportBundle < 0 || toExportBundle < 0 || toExportBundle >= bundleCount) {
        throw r.error(`dependency arc ${fromExportBundle} → ${toExportBundle} names a bundle outside this package's ${bundleCount}`, at);
      }
      arcs[k] = { fromExportBundle, toExportBundle };
    }
    out.push({ packageId, arcs });
  }
  return out;
}

/**
 * UE5.0-5.2 graph data: the export bundle headers {u64 serial offset, u32 first, u32 count} (as
 * many as the bundles need to cover `entryCount` entries, or `bundleCount` from the store entry),
 * internal arcs, then one array of external arcs per imported package up to the header's end.
 */
export function readGraphData(r: BinaryReader, entryCount: number, bundleCount: number | undefined, importedPackageCount: number | undefined):
  { headers: ExportBundleHeader[]; graph: GraphData } {
  const headers: ExportBundleHeader[] = [];
  let covered = 0;
  while (bundleCount !== undefined ? headers.length < bundleCount : covered < entryCount) {
    const at = r.pos;
    const serialOffset = r.u64n('bundle serial offset');
    const firstEntryIndex = r.u32();
    const count = r.u32();
    if (firstEntryIndex !== covered || covered + count > entryCount) {
      throw r.error(`export bundle ${headers.length} covers entries ${firstEntryIndex}..${firstEntryIndex + count} of ${entryCount}, expected to start at ${covered}`, at);
    }
    covered += count;
    headers.push({ serialOffset, firstEntryIndex, entryCount: count });
  }
  if (covered !== entryCount) throw r.error(`${headers.length} export bundles cover ${covered} of ${entryCount} entries`);

  const arcCount = r.count(8, 'internal arc count');
  const internalArcs: GraphData['internalArcs'] = [];
  for (let i = 0; i < arcCount; i++) {
    const at = r.pos;
    const fromExportBundle = r.i32();
    const toExportBundle = r.i32();
    if (fromExportBundle < 0 || fromExportBundle >= headers.length || toExportBundle < 0 || toExportBundle >= headers.length) {
      throw r.error(`internal arc ${fromExportBundle} → ${toExportBundle} names a bundle outside the ${headers.length}`, at);
    }
    internalArcs.push({ fromExportBundle, toExportBundle });
  }
  const externalArcs: GraphData['externalArcs'] = [];
  while (importedPackageCount !== undefined ? externalArcs.length < importedPackageCount : r.remaining > 0) {
    const n = r.count(9, 'external arc count');
    const list: GraphData['externalArcs'][number] = [];
    for (let i = 0; i < n; i++) {
      const at = r.pos;
      const fromImport = r.i32();
      const fromCommand = command(r, r.u8(), at + 4);
      const toExportBundle = r.i32();
      if (fromImport < 0 || toExportBundle < 0 || toExportBundle >= headers.length) {
        throw r.error(`external arc from import ${fromImport} to bundle ${toExportBundle} is out of range`, at);
      }
      list.push({ fromImport, fromCommand, toExportBundle });
    }
    externalArcs.push(list);
  }
  return { headers, graph: { internalArcs, externalArcs } };
}

/** UE5.3+ FDependencyBundleHeader: i32 first entry, u32 counts[create/serialize][create/serialize]. */
export function readDependencyHeaders(r: BinaryReader, count: number, entryCount: number): DependencyBundleHeader[] {
  r.checkCount(count, 20, 'dependency bundle header count');
  const out: DependencyBundleHeader[] = new Array(count);
  for (let i = 0; i < count; i++) {
    const at = r.pos;
    const firstEntryIndex = r.i32();
    const h: DependencyBundleHeader = {
      firstEntryIndex,
      createBeforeCreate: r.u32(),
      serializeBeforeCreate: r.u32(),
      createBeforeSerialize: r.u32(),
      serializeBeforeSerialize: r.u32(),
    };
    const total = h.createBeforeCreate + h.serializeBeforeCreate + h.createBeforeSerialize + h.serializeBeforeSerialize;
    if (total > 0 && (firstEntryIndex < 0 || firstEntryIndex + total > entryCount)) {
      throw r.error(`dependency bundle ${i} spans entries ${firstEntryIndex}..${firstEntryIndex + total} of ${entryCount}`, at);
    }
    out[i] = h;
  }
  return out;
}

/** UE5.3+ FDependencyBundleEntry: an FPackageIndex into this package's imports (< 0) or exports (> 0). */
export function readDependencyEntries(r: BinaryReader, count: number, importCount: number, exportCount: number): number[] {
  r.checkCount(count, 4, 'dependency bundle entry count');
  const out: number[] = new Array(count);
  for (let i = 0; i < count; i++) {
    const at = r.pos;
    const v = r.i32();
    if (v === 0 || (v > 0 && v > exportCount) || (v < 0 && -v > importCount)) {
      throw r.error(`dependency entry ${i} is package index ${v}, outside ${importCount} imports and ${exportCount} exports`, at);
    }
    out[i] = v;
  }
  return out;
}

/**
 * World Partition in a persistent map: the World Partition object (bCooked), its runtime hash
 * (UWorldPartitionRuntimeHashSet's partitions and their grid layers, or the older
 * UWorldPartitionRuntimeSpatialHash's StreamingGrids) with each grid's cell size and loading
 * range, the streaming data listing the cells, and the data layer instances the map's
 * WorldDataLayers holds. The cells themselves are read by read.ts; this module also names the
 * grid a cell belongs to where its cell data does not. Everything is read from property values:
 * a value of another type becomes a note (Reader), a reference to an export the package lacks too.
 * In an install, the DataLayerAssets the data layer instances name are read for their type and colour.
 */
import { packageOfObjectPath } from '../../package/object-path.js';
import type { InstallPackages } from '../../package/open-package.js';
import { fields, isEntryList, valuesOf } from '../../properties/fields.js';
import { installPackageProperties } from '../../properties/open.js';
import type { ExportProperties, PropertyValue } from '../../properties/types.js';
import type { NativeLevelObject } from './native.js';
import { ZERO } from './transform.js';
import type { Reader } from './values.js';
import type { ConvertOptions } from '../registry.js';

export interface DataLayerReadOptions extends Pick<ConvertOptions, 'mappings' | 'engine' | 'signal'> {}
import type { DataLayer, LevelAsset, LinearColor, PartitionGrid, PartitionStreamingData, WorldPartitionInfo } from './types.js';

/** More data layer assets than this are not read. */
const MAX_DATA_LAYER_ASSETS = 1024;
/** A grid or streaming data list longer than this is a bad package, not a map. */
const MAX_LIST = 1 << 16;

const nativeOf = (e: ExportProperties): NativeLevelObject => (e.native ?? {}) as NativeLevelObject;

/** "EDataLayerType::Runtime" -> "Runtime". */
export const enumValue = (v: string): string => v.slice(v.lastIndexOf(':') + 1);

/** An FLinearColor or FColor value, undefined when it is not one. */
export function colorOf(v: PropertyValue | undefined): LinearColor | undefined {
  const f = fields(v);
  if (!f || !['R', 'G', 'B', 'A'].every((k) => typeof f[k] === 'number')) return undefined;
  return { r: f['R'] as number, g: f['G'] as number, b: f['B'] as number, a: f['A'] as number };
}

const list = (rd: Reader, v: PropertyValue | undefined, what: string): PropertyValue[] => {
  if (v === undefined || (Array.isArray(v) && v.length === 0)) return [];
  if (!Array.isArray(v) || isEntryList(v)) {
    rd.notes.push(`${what} is not an array: ignored`);
    return [];
  }
  if (v.length > MAX_LIST) {
    rd.notes.push(`${what} has ${v.length} entries: only the first ${MAX_LIST} are read`);
    return (v as PropertyValue[]).slice(0, MAX_LIST);
  }
  return v as PropertyValue[];
};

const refs = (rd: Reader, v: PropertyValue | undefined, what: string): string[] =>
  list(rd, v, what).map((x, i) => rd.str(x, `${what}[${i}]`)).filter((x): x is string => typeof x === 'string');

/**
 * A DataLayerAsset's (or a private data layer instance's) type, load filter and debug colour. The
 * cook leaves out a value at its default: LoadFilter None; a type not stored is left unsaid.
 */
export function dataLayerSettings(e: ExportProperties): Pick<DataLayer, 'type' | 'loadFilter' | 'debugColor'> {
  const v = valuesOf(e.properties);
  const type = typeof v['DataLayerType'] === 'string' ? enumValue(v['DataLayerType']) : undefined;
  const filter = typeof v['LoadFilter'] === 'string' ? enumValue(v['LoadFilter']) : 'None';
  const color = colorOf(v['DebugColor']);
  return { ...(type ? { type } : {}), loadFilter: filter, ...(color ? { debugColor: color } : {}) };
}

/** Data layer instances (DataLayerInstanceWithAsset and the others) among the package's exports. */
function readDataLayers(rd: Reader, exports: readonly ExportProperties[], pathOf: (e: ExportProperties) => string): DataLayer[] {
  const out: DataLayer[] = [];
  for (const e of exports) {
    if (!/DataLayerInstance/.test(e.class)) continue;
    const v = valuesOf(e.properties);
    const asset = rd.str(v['DataLayerAsset'], `${e.name}.DataLayerAsset`) ?? null;
    const state = typeof v['InitialRuntimeState'] === 'string' ? enumValue(v['InitialRuntimeState']) : undefined;
    out.push({
      name: e.name, path: pathOf(e), class: e.class, asset,
      ...(asset ? {} : dataLayerSettings(e)),
      ...(state ? { initialRuntimeState: state } : {}),
      visible: v['bIsVisible'] !== false,
    });
  }
  return out;
}

function gridOfLayer(rd: Reader, e: ExportProperties, path: string, partition: string, spatiallyLoaded: boolean): PartitionGrid {
  const v = valuesOf(e.properties);
  const name = rd.str(v['Name'], `${e.name}.Name`) ?? e.name;
  const color = colorOf(v['DebugColor']);
  const num = (k: string) => rd.num(v[k], `${e.name}.${k}`);
  const cellSize = num('CellSize');
  const loadingRange = num('LoadingRange');
  const hlodIndex = num('HLODIndex');
  return {
    name, class: e.class, path, partition, spatiallyLoaded,
    ...(cellSize !== undefined ? { cellSize } : {}),
    ...(loadingRange !== undefined ? { loadingRange } : {}),
    ...(hlodIndex !== undefined ? { hlodIndex } : {}),
    ...(typeof v['BoundsMethod'] === 'string' ? { boundsMethod: enumValue(v['BoundsMethod']) } : {}),
    clientOnlyVisible: v['bClientOnlyVisible'] === true,
    ...(color ? { debugColor: color } : {}),
  };
}

/** UWorldPartitionRuntimeHashSet: each runtime partition's main layer and HLOD layers, as grids. */
function hashSetGrids(rd: Reader, hash: ExportProperties, byPath: Map<string, ExportProperties>): PartitionGrid[] {
  const grids: PartitionGrid[] = [];
  const v = valuesOf(hash.properties);
  list(rd, v['RuntimePartitions'], `${hash.name}.RuntimePartitions`).forEach((p, i) => {
    const f = fields(p);
    if (!f) {
      rd.notes.push(`${hash.name}.RuntimePartitions[${i}] is not a struct: ignored`);
      return;
    }
    const partition = rd.str(f['Name'], `RuntimePartitions[${i}].Name`) ?? `#${i}`;
    const layers: { path: string | null | undefined; spatial: boolean }[] = [{ path: rd.str(f['MainLayer'], `RuntimePartitions[${i}].MainLayer`), spatial: true }];
    list(rd, f['HLODSetups'], `RuntimePartitions[${i}].HLODSetups`).forEach((h, k) => {
      const hf = fields(h);
      if (hf) layers.push({ path: rd.str(hf['PartitionLayer'], `RuntimePartitions[${i}].HLODSetups[${k}].PartitionLayer`), spatial: hf['bIsSpatiallyLoaded'] === true });
    });
    for (const layer of layers) {
      if (!layer.path) continue;
      const e = byPath.get(layer.path);
      if (!e) {
        rd.notes.push(`runtime partition ${partition}: its layer ${layer.path} is not among the package's exports`);
        continue;
      }
      grids.push(gridOfLayer(rd, e, layer.path, partition, layer.spatial));
    }
  });
  return grids;
}

/** UWorldPartitionRuntimeSpatialHash (UE5.0 to 5.2): StreamingGrids, structs holding their settings. */
function spatialHashGrids(rd: Reader, hash: ExportProperties): PartitionGrid[] {
  const v = valuesOf(hash.properties);
  const grids: PartitionGrid[] = [];
  list(rd, v['StreamingGrids'], `${hash.name}.StreamingGrids`).forEach((g, i) => {
    const f = fields(g);
    if (!f) return;
    const what = `${hash.name}.StreamingGrids[${i}]`;
    const name = rd.str(f['GridName'], `${what}.GridName`) ?? `#${i}`;
    const cellSize = rd.num(f['CellSize'], `${what}.CellSize`);
    const loadingRange = rd.num(f['LoadingRange'], `${what}.LoadingRange`);
    const color = colorOf(f['DebugColor']);
    grids.push({
      name, class: 'SpatialHashStreamingGrid', path: null, partition: name, spatiallyLoaded: true,
      ...(cellSize !== undefined ? { cellSize } : {}),
      ...(loadingRange !== undefined ? { loadingRange } : {}),
      ...(f['Origin'] !== undefined ? { origin: rd.vec(f['Origin'], `${what}.Origin`, ZERO) } : {}),
      clientOnlyVisible: f['bClientOnlyVisible'] === true,
      ...(color ? { debugColor: color } : {}),
    });
  });
  return grids;
}

function streamingData(rd: Reader, hash: ExportProperties): PartitionStreamingData[] {
  const v = valuesOf(hash.properties);
  return list(rd, v['RuntimeStreamingData'], `${hash.name}.RuntimeStreamingData`).flatMap((d, i) => {
    const f = fields(d);
    if (!f) return [];
    const what = `${hash.name}.RuntimeStreamingData[${i}]`;
    const range = rd.num(f['LoadingRange'], `${what}.LoadingRange`);
    return [{
      name: rd.str(f['Name'], `${what}.Name`) ?? `#${i}`,
      ...(range !== undefined ? { loadingRange: range } : {}),
      spatialCells: refs(rd, f['SpatiallyLoadedCells'], `${what}.SpatiallyLoadedCells`),
      nonSpatialCells: refs(rd, f['NonSpatiallyLoadedCells'], `${what}.NonSpatiallyLoadedCells`),
    }];
  });
}

/** The package's World Partition, null when it has none. */
export function readWorldPartition(rd: Reader, exports: readonly ExportProperties[], byPath: Map<string, ExportProperties>, pathOf: (e: ExportProperties) => string): WorldPartitionInfo | null {
  const wp = exports.find((e) => e.class === 'WorldPartition');
  if (!wp) return null;
  const native = nativeOf(wp).worldPartition;
  const hashPath = rd.str(valuesOf(wp.properties)['RuntimeHash'], `${wp.name}.RuntimeHash`) ?? null;
  const hash = hashPath ? byPath.get(hashPath) : undefined;
  if (hashPath && !hash) rd.notes.push(`World Partition: its runtime hash ${hashPath} is not among the package's exports`);
  return {
    path: pathOf(wp),
    cooked: native?.cooked ?? null,
    streamingPolicy: native?.streamingPolicy ?? null,
    runtimeHash: hash ? {
      path: hashPath!,
      class: hash.class,
      grids: hash.class.endsWith('SpatialHash') ? spatialHashGrids(rd, hash) : hashSetGrids(rd, hash, byPath),
      streamingData: streamingData(rd, hash),
    } : null,
    dataLayers: readDataLayers(rd, exports, pathOf),
  };
}

const propsOptions = (opts: DataLayerReadOptions) => ({
  ...(opts.mappings ? { mappings: opts.mappings } : {}),
  ...(opts.engine !== undefined ? { engine: opts.engine } : {}),
});

/** A DataLayerAsset read from the install: its type, load filter and debug colour. */
export async function readDataLayerAsset(packages: InstallPackages, objectPath: string, opts: DataLayerReadOptions = {}): Promise<Pick<DataLayer, 'type' | 'loadFilter' | 'debugColor'> & { class: string }> {
  const opened = await installPackageProperties(packages, packageOfObjectPath(objectPath), propsOptions(opts));
  const name = objectPath.slice(objectPath.lastIndexOf('.') + 1);
  const e = opened.properties.exports.find((x) => x.name === name) ?? opened.properties.exports.find((x) => /DataLayer/.test(x.class));
  if (!e) throw new Error(`${objectPath}: no such export in its package`);
  return { class: e.class, ...dataLayerSettings(e) };
}

/** Fills in each data layer instance's type, load filter and colour from its asset, where the install holds it. */
export async function resolveDataLayers(packages: InstallPackages, level: LevelAsset, opts: DataLayerReadOptions = {}): Promise<void> {
  const layers = (level.partition?.dataLayers ?? []).filter((d) => d.asset).slice(0, MAX_DATA_LAYER_ASSETS);
  for (const d of layers) {
    opts.signal?.throwIfAborted();
    try {
      const a = await readDataLayerAsset(packages, d.asset!, opts);
      Object.assign(d, { ...(a.type ? { type: a.type } : {}), loadFilter: a.loadFilter, ...(a.debugColor ? { debugColor: a.debugColor } : {}) });
    } catch (e) {
      level.notes.push(`data layer ${d.name}: its asset ${d.asset} does not read: ${(e as Error).message}`);
    }
  }
}


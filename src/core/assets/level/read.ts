/**
 * Reading a World package (.umap) into a LevelAsset: the World's PersistentLevel, its actors
 * (ULevel's Actors), each actor's components (the exports inside it) with their relative
 * transforms composed up the attach chain, static meshes and their instances, the streaming
 * levels the World names and the World Partition cells. Missing exports, attach loops and
 * properties of an unexpected type become notes; what reads still shows.
 */
import { FormatError } from '../../errors.js';
import { packageOfObjectPath } from '../../package/object-path.js';
import { installPackageProperties, packageFileProperties } from '../../properties/open.js';
import { fields, isEntryList, valuesOf } from '../../properties/fields.js';
import type { ExportProperties, PackageProperties, PropertyValue } from '../../properties/types.js';
import type { AssetSource, ConvertOptions } from '../registry.js';
import { isInstancedMeshClass, levelNativeReader, type NativeLevelObject } from './native.js';
import { Reader } from './values.js';
import { readAttachSockets, socketKey } from './sockets.js';
import { colorOf, readWorldPartition, resolveDataLayers } from './partition.js';
import { IDENTITY, ONE, ZERO, compose, matrixToPlacement, placement, type Placement, type Vec3 } from './transform.js';
import type { LevelActor, LevelAsset, LevelComponent, LevelCounts, PartitionCell, StreamingLevel } from './types.js';

/** Export classes this kind reads. */
export const LEVEL_CLASSES = ['World'] as const;

/** Attach chains deeper than this are a loop the path check missed, or a bad package. */
export const MAX_ATTACH_DEPTH = 128;

export interface LevelReadOptions extends Pick<ConvertOptions, 'mappings' | 'engine' | 'signal'> {}

/** "a.b:c.d" -> "a.b:c": the outer of an export path. */
const outerOf = (path: string): string => {
  const cut = Math.max(path.lastIndexOf('.'), path.lastIndexOf(':'));
  return cut > 0 ? path.slice(0, cut) : '';
};

const nativeOf = (e: ExportProperties): NativeLevelObject => (e.native ?? {}) as NativeLevelObject;

async function openPackage(source: AssetSource, opts: LevelReadOptions) {
  const o = {
    ...(opts.mappings ? { mappings: opts.mappings } : {}),
    ...(opts.engine !== undefined ? { engine: opts.engine } : {}),
    nativeData: levelNativeReader,
  };
  return 'file' in source ? packageFileProperties(source.file, o) : installPackageProperties(source.packages, source.ref, o);
}

/**
 * Export `exportIndex` of `source` (or its World) as a level. In an install, a component attached
 * to a socket of a static mesh component is placed at that socket (read from the mesh's package).
 */
export async function readLevel(source: AssetSource, exportIndex: number | undefined, opts: LevelReadOptions = {}): Promise<LevelAsset> {
  const opened = await openPackage(source, opts);
  opts.signal?.throwIfAborted();
  const level = levelOfPackage(opened.properties, opened.path, exportIndex, opened.warnings, opts.signal);
  if ('packages' in source) {
    const found = await readAttachSockets(source.packages, level, opts);
    level.notes.push(...found.notes);
    if (found.sockets.size > 0) placeLevel(level, (mesh, socket) => found.sockets.get(socketKey(mesh, socket)));
    await resolveDataLayers(source.packages, level, opts);
  }
  return level;
}

/** Places `level`'s components again, through `sockets` (the notes of the first placing stand). */
export function placeLevel(level: LevelAsset, sockets: SocketLookup): void {
  const components = new Map<string, { comp: LevelComponent }>();
  for (const a of level.actors) for (const comp of a.components) components.set(comp.path, { comp });
  placeComponents(new Reader(), components, sockets);
}

/**
 * The level of a package's exports read with levelNativeReader: export `exportIndex` (or the
 * World). `file` names the package in errors; `warnings` start the notes.
 */
export function levelOfPackage(pkg: PackageProperties, file: string, exportIndex: number | undefined, warnings: readonly string[] = [], signal?: AbortSignal): LevelAsset {
  const exports = pkg.exports;
  const opened = { properties: pkg, warnings };
  const world = exportIndex !== undefined ? exports[exportIndex] : exports.find((e) => e.class === 'World');
  if (!world) {
    if (exportIndex !== undefined) throw new FormatError(file, 'export map', 0, `no export ${exportIndex} (the package has ${exports.length})`);
    throw new FormatError(file, 'export map', 0, `no World (its exports are ${exports.map((e) => `${e.name}: ${e.class}`).join(', ') || 'none'})`);
  }
  if (world.class !== 'World') throw new FormatError(file, `export ${world.index} "${world.name}"`, 0, `a ${world.class}, not a World`);
  // The World's own stream may be empty (and so read without a schema): its level's and actors' are not.
  if (exports.some((e) => e.encoding === 'unversioned' && e.notes?.some((n) => n.includes('mappings')))) {
    throw new FormatError(file, `export ${world.index} "${world.name}"`, 0, 'the package is unversioned: the game\'s mappings (.usmap) are needed to read its level');
  }

  const rd = new Reader();
  rd.notes.push(...opened.warnings);
  for (const e of exports) {
    if (e.error) rd.notes.push(`${e.name} (${e.class}): its properties stop early: ${e.error}`);
    const n = nativeOf(e);
    if (n.error) rd.notes.push(`${e.name} (${e.class}): ${n.error}`);
  }
  const byPath = new Map<string, ExportProperties>();
  for (const e of exports) {
    const p = nativeOf(e).path;
    if (p) byPath.set(p, e);
  }
  const pathOf = (e: ExportProperties): string => nativeOf(e).path ?? `${opened.properties.package}.${e.name}`;

  // The persistent level: the World's pointer, else the export named so.
  const nw = nativeOf(world).world;
  const levelPath = nw?.persistentLevel ?? (exports.find((e) => e.class === 'Level' && e.name === 'PersistentLevel') ? pathOf(exports.find((e) => e.class === 'Level' && e.name === 'PersistentLevel')!) : null);
  const level = levelPath ? byPath.get(levelPath) ?? exports.find((e) => e.class === 'Level' && pathOf(e) === levelPath) : undefined;
  if (levelPath && !level) rd.notes.push(`the persistent level ${levelPath} is not among the package's exports`);
  if (!levelPath) rd.notes.push('the World names no persistent level');
  const levelValues = level ? valuesOf(level.properties) : {};
  const partitioned = levelValues['bIsPartitioned'] === true;

  // Actors: the level's list, else every export directly inside the level that is not a component.
  let actorPaths: string[];
  const listed = level ? nativeOf(level).actors : undefined;
  if (listed) actorPaths = listed.filter((p): p is string => p !== null);
  else {
    if (level) rd.notes.push('the level\'s actor list does not read: its actors are the exports inside it');
    actorPaths = level ? exports.filter((e) => outerOf(pathOf(e)) === levelPath && !e.class.endsWith('Component') && e.class !== 'Model').map(pathOf) : [];
  }

  const components = new Map<string, { comp: LevelComponent; actor: string }>();
  const actors: LevelActor[] = [];
  for (const actorPath of actorPaths) {
    signal?.throwIfAborted();
    const e = byPath.get(actorPath);
    if (!e) {
      rd.notes.push(`actor ${actorPath} is not among the package's exports`);
      continue;
    }
    const v = valuesOf(e.properties);
    const label = rd.str(v['ActorLabel'], `${e.name}.ActorLabel`);
    const actor: LevelActor = {
      name: e.name, path: actorPath, class: e.class,
      ...(label ? { label } : {}),
      rootComponent: rd.str(v['RootComponent'], `${e.name}.RootComponent`) ?? null,
      parentActor: null,
      components: [],
    };
    for (const c of exports) {
      const cp = pathOf(c);
      if (outerOf(cp) !== actorPath || !isComponent(c, actor.rootComponent, cp)) continue;
      const comp = readComponent(rd, c, cp);
      actor.components.push(comp);
      components.set(cp, { comp, actor: actorPath });
    }
    actors.push(actor);
  }

  placeComponents(rd, components);
  for (const a of actors) {
    const root = a.rootComponent ? components.get(a.rootComponent)?.comp : undefined;
    const parent = root?.attachParent ? components.get(root.attachParent)?.actor : undefined;
    if (parent && parent !== a.path) a.parentActor = parent;
  }

  const cellLevels = new Set<string>();
  const cells = readCells(rd, exports, byPath, pathOf, cellLevels);
  const partition = readWorldPartition(rd, exports, byPath, pathOf);
  // A cell whose data names no grid is in the grid whose streaming data lists it.
  for (const d of partition?.runtimeHash?.streamingData ?? []) {
    const listed = new Set([...d.spatialCells, ...d.nonSpatialCells]);
    for (const c of cells) if (c.grid === undefined && listed.has(c.path)) c.grid = d.name;
  }
  const streamingLevels = readStreamingLevels(rd, exports, byPath, pathOf, nw?.streamingLevels ?? [], cellLevels);

  return {
    package: opened.properties.package,
    world: world.name,
    persistentLevel: levelPath,
    partitioned,
    actors,
    streamingLevels,
    cells,
    partition,
    counts: countLevel(actors),
    notes: rd.notes,
  };
}

/** Components: exports inside an actor whose class says so, and its root whatever its class. */
const isComponent = (e: ExportProperties, root: string | null, path: string): boolean => e.class.endsWith('Component') || path === root;

function readComponent(rd: Reader, e: ExportProperties, path: string): LevelComponent {
  const v = valuesOf(e.properties);
  const what = `${e.name}`;
  const relative = placement(
    rd.vec(v['RelativeLocation'], `${what}.RelativeLocation`, ZERO),
    rd.rot(v['RelativeRotation'], `${what}.RelativeRotation`),
    rd.vec(v['RelativeScale3D'], `${what}.RelativeScale3D`, ONE),
  );
  const socket = rd.str(v['AttachSocketName'], `${what}.AttachSocketName`);
  const comp: LevelComponent = {
    name: e.name, path, class: e.class,
    attachParent: rd.str(v['AttachParent'], `${what}.AttachParent`) ?? null,
    ...(socket && socket !== 'None' ? { attachSocket: socket } : {}),
    relative,
    world: relative,
  };
  if ('StaticMesh' in v || /StaticMeshComponent$/.test(e.class)) {
    comp.staticMesh = rd.str(v['StaticMesh'], `${what}.StaticMesh`) ?? null;
    const overrides = v['OverrideMaterials'];
    if (Array.isArray(overrides)) comp.materials = overrides.map((m, i) => rd.str(m as PropertyValue, `${what}.OverrideMaterials[${i}]`) ?? null);
    else if (overrides !== undefined) rd.notes.push(`${what}.OverrideMaterials is not an array: ignored`);
  }
  if (isInstancedMeshClass(e.class)) {
    const n = nativeOf(e).instances;
    const floats = rd.num(v['NumCustomDataFloats'], `${what}.NumCustomDataFloats`) ?? 0;
    comp.instances = {
      count: n?.matrices.length ?? 0,
      transforms: (n?.matrices ?? []).map(matrixToPlacement),
      customDataFloats: floats,
      customData: n?.customData ?? [],
    };
  }
  if (e.class.endsWith('LightComponent')) {
    const intensity = rd.num(v['Intensity'], `${what}.Intensity`);
    const c = fields(v['LightColor']);
    const color = c && ['R', 'G', 'B', 'A'].every((k) => typeof c[k] === 'number') ? { r: c['R'] as number, g: c['G'] as number, b: c['B'] as number, a: c['A'] as number } : undefined;
    comp.light = { ...(intensity !== undefined ? { intensity } : {}), ...(color ? { color } : {}) };
  }
  return comp;
}

/** A socket's placement in its mesh (the static mesh's object path), undefined where not known. */
export type SocketLookup = (mesh: string, socket: string) => Placement | undefined;

/**
 * Each component's world placement: its relative one composed up its attach parents (through
 * the socket it is attached to, where `sockets` knows the parent's mesh's), loops and overlong
 * chains cut with a note.
 */
function placeComponents(rd: Reader, components: Map<string, { comp: LevelComponent }>, sockets?: SocketLookup): void {
  const done = new Map<string, Placement>();
  const missing = new Set<string>();
  const place = (path: string): Placement => {
    const known = done.get(path);
    if (known) return known;
    // Walk up to the first placed component (or the top), then place back down.
    const chain: LevelComponent[] = [];
    const seen = new Set<string>();
    let at: string | null = path;
    let base: Placement = IDENTITY;
    while (at !== null) {
      const placed = done.get(at);
      if (placed) {
        base = placed;
        break;
      }
      const c: LevelComponent | undefined = components.get(at)?.comp;
      if (!c) {
        if (!missing.has(at)) {
          missing.add(at);
          rd.notes.push(`attach parent ${at} is not a component of the level: what hangs under it is placed from the origin`);
        }
        break;
      }
      if (seen.has(at) || chain.length >= MAX_ATTACH_DEPTH) {
        rd.notes.push(seen.has(at) ? `attach loop at ${c.path}: the loop is placed from the origin` : `attach chain deeper than ${MAX_ATTACH_DEPTH} at ${c.path}: cut there`);
        break;
      }
      seen.add(at);
      chain.push(c);
      at = c.attachParent;
    }
    for (let i = chain.length - 1; i >= 0; i--) {
      const c = chain[i]!;
      // USceneComponent::GetSocketTransform: a static mesh's socket is placed in its component's space.
      const parentMesh = c.attachSocket && c.attachParent ? components.get(c.attachParent)?.comp.staticMesh : undefined;
      const socket = parentMesh && sockets ? sockets(parentMesh, c.attachSocket!) : undefined;
      if (socket) base = compose(socket, base);
      base = compose(c.relative, base);
      c.world = base;
      done.set(c.path, base);
    }
    return done.get(path) ?? IDENTITY;
  };
  for (const path of components.keys()) place(path);
}

function readStreamingLevels(rd: Reader, exports: readonly ExportProperties[], byPath: Map<string, ExportProperties>, pathOf: (e: ExportProperties) => string, named: readonly (string | null)[], cellLevels: Set<string>): StreamingLevel[] {
  const list = named.filter((p): p is string => p !== null);
  // Streaming levels the World does not list (a World Partition's cells name theirs) are still levels it streams.
  for (const e of exports) if (/LevelStreaming/.test(e.class) && !/(Policy|Cell)$/.test(e.class) && !list.includes(pathOf(e)) && !cellLevels.has(pathOf(e))) list.push(pathOf(e));
  const out: StreamingLevel[] = [];
  for (const path of list) {
    const e = byPath.get(path);
    if (!e) {
      rd.notes.push(`streaming level ${path} is not among the package's exports`);
      continue;
    }
    out.push(streamingLevel(rd, e, path));
  }
  return out;
}

function streamingLevel(rd: Reader, e: ExportProperties, path: string): StreamingLevel {
  const v = valuesOf(e.properties);
  const worldAsset = rd.str(v['WorldAsset'], `${e.name}.WorldAsset`) ?? null;
  const toLoad = rd.str(v['PackageNameToLoad'], `${e.name}.PackageNameToLoad`);
  return {
    name: e.name, path, class: e.class, worldAsset,
    package: toLoad && toLoad !== 'None' ? toLoad : worldAsset ? packageOfObjectPath(worldAsset) : null,
    transform: rd.transform(v['LevelTransform'], `${e.name}.LevelTransform`),
  };
}

function readCells(rd: Reader, exports: readonly ExportProperties[], byPath: Map<string, ExportProperties>, pathOf: (e: ExportProperties) => string, cellLevels: Set<string>): PartitionCell[] {
  const out: PartitionCell[] = [];
  for (const e of exports) {
    if (!/^WorldPartitionRuntime.*Cell$/.test(e.class)) continue;
    const v = valuesOf(e.properties);
    const streamingPath = rd.str(v['LevelStreaming'], `${e.name}.LevelStreaming`) ?? null;
    const streaming = streamingPath ? byPath.get(streamingPath) : undefined;
    if (streamingPath && !streaming) rd.notes.push(`cell ${e.name}: its level streaming ${streamingPath} is not among the package's exports`);
    if (streamingPath) cellLevels.add(streamingPath);
    const streamed = streaming ? streamingLevel(rd, streaming, streamingPath!) : undefined;
    const dataPath = rd.str(v['RuntimeCellData'], `${e.name}.RuntimeCellData`);
    const data = dataPath ? byPath.get(dataPath) : undefined;
    const dv = data ? valuesOf(data.properties) : {};
    const grid = rd.str(dv['GridName'], `${e.name} cell data GridName`);
    const bounds = boxOf(rd, dv['ContentBounds'], `${e.name} ContentBounds`);
    const cellBounds = boxOf(rd, dv['CellBounds'], `${e.name} CellBounds`);
    const color = colorOf(v['CellDebugColor']);
    const layers = fields(v['DataLayers']);
    const names = layers?.['DataLayers'];
    const dataLayers = Array.isArray(names) && !isEntryList(names)
      ? (names as PropertyValue[]).map((n, i) => rd.str(n, `${e.name}.DataLayers[${i}]`)).filter((n): n is string => !!n && n !== 'None')
      : [];
    const level = rd.num(dv['HierarchicalLevel'], `${e.name} cell data HierarchicalLevel`);
    const priority = rd.num(dv['Priority'], `${e.name} cell data Priority`);
    out.push({
      name: e.name, path: pathOf(e), class: e.class,
      spatiallyLoaded: v['bIsSpatiallyLoaded'] === true,
      ...(grid ? { grid } : {}),
      levelStreaming: streamingPath,
      package: streamed?.package ?? null,
      worldAsset: streamed?.worldAsset ?? null,
      ...(bounds ? { contentBounds: bounds } : {}),
      ...(cellBounds ? { cellBounds } : {}),
      ...(color ? { debugColor: color } : {}),
      dataLayers,
      ...(level !== undefined ? { hierarchicalLevel: level } : {}),
      ...(priority !== undefined ? { priority } : {}),
    });
  }
  return out;
}

/** An FBox (Min, Max; IsValid false: none), undefined where absent or not valid. */
function boxOf(rd: Reader, v: PropertyValue | undefined, what: string): { min: Vec3; max: Vec3 } | undefined {
  const f = fields(v);
  if (!f || f['Min'] === undefined || f['Max'] === undefined || f['IsValid'] === false) return undefined;
  return { min: rd.vec(f['Min'], `${what}.Min`, ZERO), max: rd.vec(f['Max'], `${what}.Max`, ZERO) };
}

export function countLevel(actors: readonly LevelActor[]): LevelCounts {
  const byClass: Record<string, number> = {};
  let components = 0, meshComponents = 0, instances = 0, lights = 0;
  const meshes = new Set<string>();
  for (const a of actors) {
    byClass[a.class] = (byClass[a.class] ?? 0) + 1;
    for (const c of a.components) {
      components++;
      if (c.staticMesh !== undefined) {
        meshComponents++;
        if (c.staticMesh) meshes.add(c.staticMesh);
      }
      instances += c.instances?.count ?? 0;
      if (c.light) lights++;
    }
  }
  return { actors: actors.length, actorsByClass: byClass, components, meshComponents, meshes: meshes.size, instances, lights };
}

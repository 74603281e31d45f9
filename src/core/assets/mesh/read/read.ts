/**
 * The mesh readers' entry: opens the package as the texture and sound readers do (its exports'
 * bytes and properties, bulk data in every form), picks the mesh export and hands it to the reader
 * of its class. Materials, sockets and the stored bounds come from properties (tagged, or
 * unversioned with the game's mappings); the geometry from the native data after them.
 */
import { FormatError } from '../../../errors.js';
import { propertiesNotRead } from './not-read.js';
import type { InstallPackages } from '../../../package/open-package.js';
import type { PropertyValue } from '../../../properties/types.js';
import { scriptImportIndex } from '../../../zen/object-index.js';
import { readBulkPayload } from '../../texture/read/bulk-data.js';
import {
  fileTextureSource, installTextureSource, type SourceExport, type TextureReadOptions as PackageReadOptions, type TextureSource as PackageSource,
} from '../../texture/read/package-source.js';
import { memoryPayload } from '../../texture/read/payload.js';
import { propertiesRead } from '../../texture/read/texture-serialize.js';
import type { Mesh, MeshBone, MeshLod, MeshMaterial, MeshSocket, MeshVirtualBone, MorphTarget, MorphTargetLod } from '../types.js';
import { boundsOf, entriesOf, objectName, prop, str, vec3 } from './properties.js';
import { readMorphTargetExport } from './morph-target.js';
import { readSkeletalBuffers, type SkeletalLod } from './skeletal-buffers.js';
import { findSkeletalMeshNative, readSkeletalMeshAny } from './skeletal-mesh.js';
import { findSkeletonNative, readSkeletonAnyRelease } from './skeleton.js';
import { BinaryReader } from '../../../io/binary-reader.js';
import { readFNameOf } from '../../../uasset/names.js';
import { findStaticMeshNative, readStaticMeshAnyRelease, readStreamedStaticLod, type StaticLodBuffers } from './static-mesh.js';
import { geometryCacheOf } from './geometry-cache.js';
import { geometryCollectionOf } from './geometry-collection.js';
import { physicsAssetOf } from './physics-asset.js';
import { OLDEST_MESH_RELEASE, candidateReleases, releaseLabel } from './versions.js';

export const MESH_CLASSES: readonly string[] = ['StaticMesh', 'SkeletalMesh', 'Skeleton', 'GeometryCache', 'PhysicsAsset', 'GeometryCollection'];

/** Script paths of the classes a Zen package may name only by hash (mesh classes and the exports they own). */
const SCRIPT_CLASSES = [
  ...['StaticMesh', 'SkeletalMesh', 'Skeleton', 'StaticMeshSocket', 'SkeletalMeshSocket', 'MorphTarget', 'PhysicsAsset', 'SkeletalBodySetup', 'BodySetup', 'PhysicsConstraintTemplate'].map((c) => `/Script/Engine.${c}`),
  '/Script/GeometryCollectionEngine.GeometryCollection',
  ...['GeometryCache', 'GeometryCacheTrackStreamable', 'GeometryCacheCodecRaw', 'GeometryCacheCodecV1'].map((c) => `/Script/GeometryCache.${c}`),
];
export type MeshReadOptions = PackageReadOptions;

let classByHash: Map<string, string> | undefined;
/** The class name of an export, also when a Zen package names it only by script import hash. */
export function meshClassName(cls: string): string {
  const m = /\?0x([0-9a-f]{16})$/.exec(cls);
  if (!m) return cls;
  classByHash ??= new Map(SCRIPT_CLASSES.map((c) => [scriptImportIndex(c), c.slice(c.lastIndexOf('.') + 1)]));
  return classByHash.get(m[1]!) ?? cls;
}

export async function readInstallMesh(packages: InstallPackages, ref: string, opts: MeshReadOptions = {}): Promise<Mesh> {
  return meshOf(await installTextureSource(packages, ref, opts), opts);
}

export async function readMeshFile(path: string, opts: MeshReadOptions = {}): Promise<Mesh> {
  return meshOf(await fileTextureSource(path, opts), opts);
}

function pickExport(source: PackageSource, opts: MeshReadOptions): SourceExport {
  for (const e of source.exports) e.class = meshClassName(e.class);
  if (opts.exportIndex !== undefined) {
    const e = source.exports[opts.exportIndex];
    if (!e) throw new FormatError(source.path, 'export map', 0, `no export ${opts.exportIndex} (the package has ${source.exports.length})`);
    if (!MESH_CLASSES.includes(e.class)) throw new FormatError(source.path, `export ${e.index} "${e.name}"`, e.base, `a ${e.class}, not a mesh class PakScope reads (${MESH_CLASSES.join(', ')})`);
    return e;
  }
  const e = source.exports.find((x) => MESH_CLASSES.includes(x.class));
  if (!e) throw new FormatError(source.path, 'export map', 0, `no mesh export (its exports are ${source.exports.map((x) => `${x.name}: ${x.class}`).join(', ') || 'none'})`);
  return e;
}

/** The releases to try for a package, newest first; a clear error when it is older than the readers know. */
export function releasesOf(source: PackageSource, exp: SourceExport): number[] {
  const releases = candidateReleases(source.ue4, source.ue5, source.engine, source.engineCandidates).filter((r) => r >= OLDEST_MESH_RELEASE);
  if (releases.length === 0) {
    throw new FormatError(exp.file, `${exp.class} "${exp.name}"`, exp.base,
      `the package's versions (UE4 ${source.ue4}, UE5 ${source.ue5}) are not of a release from 4.14 on that PakScope reads meshes of; name the release with --engine`);
  }
  return releases;
}

/** The mesh export of an opened package (the entry points above; tests build sources directly). */
export async function meshOf(source: PackageSource, opts: MeshReadOptions): Promise<Mesh> {
  const exp = pickExport(source, opts);
  if (exp.class === 'StaticMesh') return staticMeshOf(source, exp, opts);
  if (exp.class === 'Skeleton') return skeletonOf(source, exp);
  if (exp.class === 'SkeletalMesh') return skeletalMeshOf(source, exp, opts);
  if (exp.class === 'PhysicsAsset') return physicsAssetOf(source, exp);
  if (exp.class === 'GeometryCollection') return geometryCollectionOf(source, exp, releasesOf(source, exp)[0]!);
  if (exp.class === 'GeometryCache') return geometryCacheOf(source, exp, releasesOf(source, exp)[0]!, opts.signal);
  throw new FormatError(exp.file, `${exp.class} "${exp.name}"`, exp.base, `${exp.class} is not read yet`);
}

/** A StaticMeshSocket or SkeletalMeshSocket export as a socket. */
export function socketOf(e: SourceExport): MeshSocket {
  const p = e.properties.properties;
  return {
    name: str(prop(p, 'SocketName')) ?? e.name,
    bone: ((b) => (b === undefined || b === 'None' ? '' : b))(str(prop(p, 'BoneName'))),
    location: vec3(prop(p, 'RelativeLocation'), ['X', 'Y', 'Z'], [0, 0, 0]),
    rotation: vec3(prop(p, 'RelativeRotation'), ['Pitch', 'Yaw', 'Roll'], [0, 0, 0]),
    scale: vec3(prop(p, 'RelativeScale'), ['X', 'Y', 'Z'], [1, 1, 1]),
  };
}

/** The material slots of StaticMaterials / Materials (FStaticMaterial, FSkeletalMaterial). */
export function materialsOf(exp: SourceExport, propertyName: string): MeshMaterial[] {
  const list = prop(exp.properties.properties, propertyName);
  if (!Array.isArray(list)) return [];
  return list.map((m) => {
    const e = entriesOf(m as PropertyValue) ?? [];
    const material = str(prop(e, 'MaterialInterface')) ?? '';
    const slot = str(prop(e, 'MaterialSlotName'));
    return { name: slot !== undefined && slot !== 'None' ? slot : material ? objectName(material) : '', material };
  });
}

/** Slots the sections name that the properties did not list: placeholders, so every section has one. */
export function fillMaterials(materials: MeshMaterial[], lods: readonly MeshLod[], notes: string[]): void {
  const used = Math.max(-1, ...lods.flatMap((l) => l.sections.map((s) => s.materialIndex))) + 1;
  if (used > materials.length) {
    if (materials.length > 0) notes.push(`the sections name ${used} material slots, the properties list ${materials.length}`);
    for (let i = materials.length; i < used; i++) materials.push({ name: `Material_${i}`, material: '' });
  }
}

export function propertyNote(exp: SourceExport): string | undefined {
  if (propertiesRead(exp)) return undefined;
  return exp.properties.error
    ? `the properties do not read (${exp.properties.error}): material slots and sockets are unnamed`
    : 'the properties were not read (unversioned, without the game\'s mappings): material slots and sockets are unnamed';
}

async function staticMeshOf(source: PackageSource, exp: SourceExport, opts: MeshReadOptions): Promise<Mesh> {
  const releases = releasesOf(source, exp);
  const notes = [...source.warnings];
  const pNote = propertyNote(exp);
  let native;
  if (pNote === undefined) {
    native = readStaticMeshAnyRelease(exp, source, exp.properties.propertyStart + exp.properties.propertyBytes, releases);
  } else {
    notes.push(pNote);
    native = findStaticMeshNative(exp, source, releases);
    if (!native) {
      throw notFound(exp, 'mesh');
    }
  }
  const files = { ...source.files, inline: memoryPayload(exp.file, exp.bytes) };
  const lods: MeshLod[] = [];
  for (const [i, raw] of native.lods.entries()) {
    let b: StaticLodBuffers | undefined;
    if (raw.buffers && 'bulk' in raw.buffers) {
      const payload = await readBulkPayload(raw.buffers.bulk, files, `static mesh LOD ${i}`, opts.signal);
      b = readStreamedStaticLod(payload, exp.file, native.release, raw.sections, i);
    } else b = raw.buffers;
    if (!b) {
      notes.push(`LOD ${i} is not in the cooked data (cooked out or stripped)`);
      continue;
    }
    lods.push({
      vertexCount: b.positions.length / 3, positions: b.positions,
      ...(b.normals ? { normals: b.normals } : {}), ...(b.tangents ? { tangents: b.tangents } : {}),
      uvs: b.uvs, ...(b.colors ? { colors: b.colors } : {}), indices: b.indices,
      sections: raw.sections.map((s) => ({ materialIndex: s.materialIndex, firstIndex: s.firstIndex, triangles: s.triangles })),
    });
  }
  if (native.nanite) {
    notes.push(lods.some((l) => l.vertexCount > 0)
      ? 'a Nanite mesh: shown is its fallback mesh (the Nanite clusters are not read)'
      : 'a Nanite mesh with no fallback mesh: its geometry is only in Nanite clusters, which PakScope does not read');
  } else if (lods.length === 0) notes.push('the mesh has no LOD with geometry');
  const materials = materialsOf(exp, 'StaticMaterials');
  fillMaterials(materials, lods, notes);
  const sockets: MeshSocket[] = [];
  for (const index of native.sockets) {
    const e = index > 0 ? source.exports[index - 1] : undefined;
    if (e) sockets.push(socketOf(e));
    else notes.push(`socket object ${index} is not an export of the package (not read)`);
  }
  const bounds = boundsOf(prop(exp.properties.properties, 'ExtendedBounds'));
  return {
    class: exp.class, name: exp.name, ...(bounds ? { bounds } : {}), materials, sockets, notes, lods, bones: [], morphTargets: [],
  };
}

/**
 * The sockets a `Sockets` property lists (object paths of socket exports of the package); when
 * the properties were not read, every socket export of the package.
 */
export function socketsOf(source: PackageSource, exp: SourceExport, notes: string[]): MeshSocket[] {
  const isSocket = (e: SourceExport): boolean => e.class === 'SkeletalMeshSocket' || e.class === 'StaticMeshSocket';
  if (!propertiesRead(exp)) return source.exports.filter(isSocket).map(socketOf);
  const list = prop(exp.properties.properties, 'Sockets');
  if (!Array.isArray(list)) return [];
  const out: MeshSocket[] = [];
  for (const path of list) {
    if (typeof path !== 'string') continue;
    const e = source.exports.find((x) => isSocket(x) && x.name === objectName(path));
    if (e) out.push(socketOf(e));
    else notes.push(`socket ${path} is not in the package (not read)`);
  }
  return out;
}

/** The VirtualBones property: FVirtualBone structs. */
export function virtualBonesOf(exp: SourceExport): MeshVirtualBone[] {
  const list = prop(exp.properties.properties, 'VirtualBones');
  if (!Array.isArray(list)) return [];
  return list.flatMap((v) => {
    const e = entriesOf(v as PropertyValue);
    if (!e) return [];
    return [{ name: str(prop(e, 'VirtualBoneName')) ?? '', source: str(prop(e, 'SourceBoneName')) ?? '', target: str(prop(e, 'TargetBoneName')) ?? '' }];
  });
}

function skeletonOf(source: PackageSource, exp: SourceExport): Mesh {
  const releases = releasesOf(source, exp);
  const notes = [...source.warnings];
  const pNote = propertyNote(exp);
  let bones: MeshBone[] | undefined;
  if (pNote === undefined) bones = readSkeletonAnyRelease(exp, source, exp.properties.propertyStart + exp.properties.propertyBytes, releases);
  else {
    notes.push(pNote.replace('material slots and sockets are unnamed', 'virtual bones are not known; every socket of the package is listed'));
    bones = findSkeletonNative(exp, source, releases);
    if (!bones) throw notFound(exp, 'skeleton');
  }
  const virtualBones = virtualBonesOf(exp);
  return {
    class: exp.class, name: exp.name, materials: [], sockets: socketsOf(source, exp, notes), notes, lods: [], bones, morphTargets: [],
    ...(virtualBones.length > 0 ? { virtualBones } : {}),
  };
}

function notFound(exp: SourceExport, what: string): FormatError {
  return propertiesNotRead(exp, `the ${what} data cannot be found`,
    `unversioned properties: the ${what} data was not found without the game's mappings (.usmap); pass them`);
}

async function skeletalMeshOf(source: PackageSource, exp: SourceExport, opts: MeshReadOptions): Promise<Mesh> {
  const releases = releasesOf(source, exp);
  const notes = [...source.warnings];
  const pNote = propertyNote(exp);
  const props = exp.properties.properties;
  let native;
  if (pNote === undefined) {
    const colors = prop(props, 'bHasVertexColors') === true;
    native = readSkeletalMeshAny(exp, source, exp.properties.propertyStart + exp.properties.propertyBytes, releases, [colors]);
  } else {
    notes.push(pNote.replace('material slots and sockets are unnamed', 'morph targets and sockets are not known'));
    native = findSkeletalMeshNative(exp, source, releases);
    if (!native) throw notFound(exp, 'skeletal mesh');
  }
  const files = { ...source.files, inline: memoryPayload(exp.file, exp.bytes) };
  const lods: MeshLod[] = [];
  const lodMorphs: (MorphTargetLod[] | undefined)[] = [];
  for (const [i, raw] of native.lods.entries()) {
    let lod: SkeletalLod | undefined;
    if (raw.data && 'bulk' in raw.data) {
      const payload = await readBulkPayload(raw.data.bulk, files, `skeletal mesh LOD ${i}`, opts.signal);
      const r = new BinaryReader(payload, exp.file, 0);
      lod = readSkeletalBuffers(r, native.release, native.hasColors, raw.sections, i, (x) => readFNameOf(x, source.names));
    } else lod = raw.data;
    if (!lod) notes.push(`LOD ${i} is not in the cooked data (cooked out or stripped)`);
    else {
      const { morphs, skipped, ...meshLod } = lod;
      for (const what of skipped ?? []) notes.push(`LOD ${i}: ${what}`);
      lods.push(meshLod);
      lodMorphs.push(morphs);
    }
  }
  if (lods.length === 0) notes.push('the mesh has no LOD with geometry');
  const listed = materialsOf(exp, 'Materials');
  const materials = listed.length > 0 ? listed : native.slots.map((x) => {
    const material = objectPathOf(source, x.material);
    return { name: x.name !== 'None' ? x.name : material ? objectName(material) : '', material };
  });
  fillMaterials(materials, lods, notes);
  const morphList = prop(props, 'MorphTargets');
  // The MorphTargets property (read also when a later property fails), else the package's MorphTarget exports.
  const morphNames = Array.isArray(morphList)
    ? morphList.filter((x): x is string => typeof x === 'string').map(objectName)
    : source.exports.filter((e) => e.class === 'MorphTarget').map((e) => e.name);
  const empty = (): MorphTargetLod => ({ vertices: new Uint32Array(0), positionDeltas: new Float32Array(0), normalDeltas: new Float32Array(0) });
  let morphTargets: MorphTarget[] = morphNames.map((name, m) => ({ name, lods: lodMorphs.map((l) => l?.[m] ?? empty()) }));
  const counts = lodMorphs.filter((l) => l !== undefined).map((l) => l!.length);
  if (counts.some((n) => n !== morphNames.length)) notes.push(`the LODs' morph buffers hold ${counts.join(', ')} morph targets, the mesh lists ${morphNames.length}`);
  if (morphTargets.length > 0 && counts.length === 0) {
    // No GPU morph buffers (UE4, or a UE5 cook for mobile): the deltas the MorphTarget exports keep.
    const own = morphTargetsOf(source, morphNames, lods, native.release, notes);
    if (own) morphTargets = own;
    else notes.push('no morph target deltas are cooked in the LODs or the morph targets: the targets are listed by name only');
  }
  return {
    class: exp.class, name: exp.name, bounds: native.bounds, materials, sockets: socketsOf(source, exp, notes), notes, lods, bones: native.bones, morphTargets,
  };
}

/** Each named morph target's own deltas per LOD (MorphTarget exports of the package); undefined when none keeps any. */
function morphTargetsOf(source: PackageSource, names: readonly string[], lods: readonly MeshLod[], release: number, notes: string[]): MorphTarget[] | undefined {
  let found = false;
  const out = names.map((name) => {
    const e = source.exports.find((x) => x.class === 'MorphTarget' && x.name === name);
    let deltas: MorphTargetLod[] | undefined;
    if (e && propertiesRead(e)) {
      const read = readMorphTargetExport(e, e.properties.propertyStart + e.properties.propertyBytes, release);
      deltas = read.lods;
      if (read.unread > 0) notes.push(`morph target ${name}: ${read.unread} bytes after its deltas not read (the layout may differ from UE${releaseLabel(release)}'s)`);
    } else if (e) notes.push(`morph target ${name}: its properties were not read, so its deltas cannot be found`);
    found ||= deltas !== undefined;
    return {
      name,
      lods: lods.map((lod, i) => {
        const d = deltas?.[i];
        if (!d) return { vertices: new Uint32Array(0), positionDeltas: new Float32Array(0), normalDeltas: new Float32Array(0) };
        const bad = d.vertices.findIndex((v) => v >= lod.vertexCount);
        if (bad >= 0) throw new FormatError(e!.file, `MorphTarget "${name}"`, e!.base, `LOD ${i}: delta ${bad} moves vertex ${d.vertices[bad]}, past the LOD's ${lod.vertexCount} vertices`);
        return d;
      }),
    };
  });
  return found ? out : undefined;
}

/** The object an FPackageIndex names: an import's path, or an export of this package; "" for null or unknown. */
export function objectPathOf(source: PackageSource, index: number): string {
  if (index < 0) return source.importPaths?.[-index - 1] ?? '';
  const e = index > 0 ? source.exports[index - 1] : undefined;
  return e ? `${source.packageName}.${e.name}` : '';
}

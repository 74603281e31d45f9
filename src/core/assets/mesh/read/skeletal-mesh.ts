/**
 * The native data of a cooked USkeletalMesh (4.24 and later, the "new cooked format"), after its
 * property stream:
 *
 *   UObject: bHasGuid (bool32) and the object's FGuid when set
 *   FStripDataFlags; ImportedBounds (FBoxSphereBounds); TArray<FSkeletalMaterial> (the material,
 *     the slot name, [4.22+ bSerializeImportedMaterialSlotName and that name], UV channel data,
 *     [5.6+ the overlay material]); FReferenceSkeleton (reference-skeleton.ts); bCooked (bool32)
 *   TArray of FSkeletalMeshLODRenderData: FStripDataFlags; bIsLODCookedOut, bInlined (bool32);
 *     RequiredBones; the render sections (FSkelMeshSection); ActiveBoneIndices; the buffers' size;
 *     then the buffers (below) inline, or in an FByteBulkData (always from 5.8) followed by the
 *     buffers' metadata.
 *   The buffers: FStripDataFlags; the index buffer (FMultisizeIndexContainer: 16 or 32 bits);
 *     FPositionVertexBuffer; FStaticMeshVertexBuffer; FSkinWeightVertexBuffer; FColorVertexBuffer
 *     when the mesh has vertex colours (the bHasVertexColors property); ... (cloth, skin weight
 *     profiles, ray tracing, compressed morph targets, vertex attributes, half edges: stepped over).
 *
 * Skin weights: 4 or 8 influences of 8- or 16-bit bone indices and weights per vertex (or, 4.25+,
 * a variable count per vertex through a lookup table); the indices are into the vertex's
 * section's bone map and are mapped to skeleton bones here.
 */
import { FormatError } from '../../../errors.js';
import { BinaryReader } from '../../../io/binary-reader.js';
import { readFNameOf } from '../../../uasset/names.js';
import { type BulkDataRef, readBulkData } from '../../texture/read/bulk-data.js';
import type { SourceExport, TextureSource as PackageSource } from '../../texture/read/package-source.js';
import type { MeshBone, MeshLod, MeshSection, MorphTargetLod } from '../types.js';
import { readMorphBuffers } from './morph-buffers.js';
import {
  avStripped, bulkArrayHeader, checkIndices, editorStripped, readBoxSphereBounds, readColors, readPositions, readStaticVertexBuffer,
  readStripFlags, skipArray, skipBulkArray, vertexCount,
} from './buffers.js';
import { readReferenceSkeleton } from './reference-skeleton.js';
import { Release } from './versions.js';

export interface SkeletalSection extends MeshSection {
  baseVertex: number;
  vertices: number;
  boneMap: Uint16Array;
  cloth: boolean;
}

export interface SkeletalLodRaw {
  sections: SkeletalSection[];
  /** The LOD read inline, or where a streamed LOD's buffers are; undefined: cooked out or stripped. */
  data?: SkeletalLod | { bulk: BulkDataRef };
}

export interface SkeletalMeshNative {
  release: number;
  bones: MeshBone[];
  /** Slot names of the native FSkeletalMaterial array, with the material's package index. */
  slots: { name: string; material: number }[];
  lods: SkeletalLodRaw[];
  bounds: { origin: [number, number, number]; extent: [number, number, number]; radius: number };
}

const MAX_LODS = 16;
const MAX_SECTIONS = 1 << 16;
/** Most influences a vertex can have (MAX_TOTAL_INFLUENCES is 12 in UE5). */
const MAX_INFLUENCES = 12;

function readSection(r: BinaryReader, release: number): SkeletalSection {
  const strip = readStripFlags(r);
  const at = r.pos;
  const materialIndex = r.i16();
  const firstIndex = r.i32();
  const triangles = r.i32();
  r.bool32(); // bRecomputeTangent
  if (release >= Release.RecomputeTangentMask) r.u8();
  r.bool32(); // bCastShadow
  if (release >= Release.SkeletalUE5) r.bool32(); // bVisibleInRayTracing
  const baseVertex = r.u32();
  let cloth = false;
  if (release >= Release.SkeletalUE5) {
    const lods = r.count(4, 'cloth mapping LODs');
    for (let i = 0; i < lods; i++) cloth = skipArray(r, 64, 'cloth mapping data') > 0 || cloth;
  } else cloth = skipArray(r, 64, 'cloth mapping data') > 0;
  const boneCount = r.count(2, 'bone map');
  const boneMap = new Uint16Array(boneCount);
  for (let i = 0; i < boneCount; i++) boneMap[i] = r.u16();
  const vertices = r.i32();
  const packed = r.u32();
  const influences = release >= Release.SkeletalBulkAlways ? packed & 0x7fffffff : packed;
  r.i16(); // CorrespondClothAssetIndex
  r.skip(20); // FClothingSectionData: asset GUID, LOD index
  if (release < Release.NewCookedStaticLod || (strip.klass & 1) === 0) {
    skipArray(r, 4, 'duplicated vertex data');
    skipArray(r, 8, 'duplicated vertex index data');
  }
  r.bool32(); // bDisabled
  if (materialIndex < 0 || firstIndex < 0 || triangles < 0 || vertices < 0 || influences > MAX_INFLUENCES) {
    throw r.error(`render section: material ${materialIndex}, first index ${firstIndex}, ${triangles} triangles, ${vertices} vertices, ${influences} influences`, at);
  }
  return { materialIndex, firstIndex, triangles, baseVertex, vertices, boneMap, cloth };
}

interface SkinWeights { influences: number; joints: Uint16Array; weights: Float32Array }

/** FSkinWeightVertexBuffer as stored: per vertex the section-local bone indices and weights. */
function readSkinWeights(r: BinaryReader, release: number, vertices: number): SkinWeights | undefined {
  r.struct('skin weight buffer');
  const strip = readStripFlags(r);
  const at = r.pos;
  if (release < Release.UnlimitedBoneInfluences) {
    const extra = r.bool32();
    r.u32(); // stride
    const n = vertexCount(r, 'skin weight buffer');
    if (n !== vertices) throw r.error(`the skin weight buffer has ${n} vertices, the position buffer ${vertices}`, at);
    if (avStripped(strip)) return undefined;
    const k = extra ? 8 : 4;
    const { count } = bulkArrayHeader(r, 'skin weights', k * 2);
    if (count !== n) throw r.error(`the skin weight buffer holds ${count} vertices but says ${n}`, at);
    const out = { influences: k, joints: new Uint16Array(n * k), weights: new Float32Array(n * k) };
    for (let i = 0; i < n; i++) {
      for (let j = 0; j < k; j++) out.joints[i * k + j] = r.u8();
      for (let j = 0; j < k; j++) out.weights[i * k + j] = r.u8() / 255;
    }
    return out;
  }
  const variable = r.bool32();
  const maxInfluences = r.u32();
  const numBones = r.u32();
  const n = vertexCount(r, 'skin weight buffer');
  const index16 = r.bool32();
  const weight16 = release >= Release.SkinWeight16 ? r.bool32() : false;
  if (maxInfluences === 0 || maxInfluences > MAX_INFLUENCES) throw r.error(`${maxInfluences} influences per vertex (at most ${MAX_INFLUENCES})`, at + 4);
  if (n !== vertices) throw r.error(`the skin weight buffer has ${n} vertices, the position buffer ${vertices}`, at + 12);
  let data: BinaryReader | undefined;
  if (!avStripped(strip)) {
    const { size, count } = bulkArrayHeader(r, 'skin weights', 1);
    data = r.sub(size * count, 'skin weights');
  }
  const lookupStrip = readStripFlags(r);
  r.i32(); // NumVertices of the lookup table
  let lookup: Uint32Array | undefined;
  if (!avStripped(lookupStrip)) {
    const { count } = bulkArrayHeader(r, 'skin weight lookup', 4);
    lookup = new Uint32Array(count);
    for (let i = 0; i < count; i++) lookup[i] = r.u32();
  }
  if (!data) return undefined;
  void numBones;
  const k = maxInfluences > 4 ? 8 : 4;
  const out = { influences: k, joints: new Uint16Array(n * k), weights: new Float32Array(n * k) };
  const ib = index16 ? 2 : 1;
  const wb = weight16 ? 2 : 1;
  const wmax = weight16 ? 65535 : 255;
  if (variable && lookup?.length !== n) throw data.error(`the skin weight lookup has ${lookup?.length ?? 0} entries for ${n} vertices`, 0);
  for (let i = 0; i < n; i++) {
    let m = maxInfluences;
    if (variable) {
      data.seek(lookup![i]! >>> 8);
      m = lookup![i]! & 0xff;
      if (m > MAX_INFLUENCES) throw data.error(`vertex ${i} has ${m} influences`, data.pos);
    }
    if (m <= k) {
      for (let j = 0; j < m; j++) out.joints[i * k + j] = ib === 2 ? data.u16() : data.u8();
      for (let j = 0; j < m; j++) out.weights[i * k + j] = (wb === 2 ? data.u16() : data.u8()) / wmax;
      continue;
    }
    const idx: number[] = [];
    const w: number[] = [];
    for (let j = 0; j < m; j++) idx.push(ib === 2 ? data.u16() : data.u8());
    for (let j = 0; j < m; j++) w.push((wb === 2 ? data.u16() : data.u8()) / wmax);
    // More influences than 8: keep the 8 heaviest (the model holds at most 8).
    const order = idx.map((_, j) => j).sort((a, b) => w[b]! - w[a]!).slice(0, k);
    order.forEach((j, slot) => { out.joints[i * k + slot] = idx[j]!; out.weights[i * k + slot] = w[j]!; });
  }
  return out;
}

/** FMultisizeIndexContainer: a u8 index size (2 or 4), then the indices as a bulk array. */
function readMultisizeIndices(r: BinaryReader, what: string): Uint32Array {
  const at = r.pos;
  const size = r.u8();
  if (size !== 2 && size !== 4) throw r.error(`${what}: index size ${size}, not 2 or 4`, at);
  const { count } = bulkArrayHeader(r, what, size);
  const out = new Uint32Array(count);
  for (let i = 0; i < count; i++) out[i] = size === 2 ? r.u16() : r.u32();
  return out;
}

/** The LOD's buffers (FSkeletalMeshLODRenderData::SerializeStreamedData), inline or from a payload. */
/** A LOD as read, with the deltas of its GPU morph target buffers when it has them. */
export type SkeletalLod = MeshLod & { morphs?: MorphTargetLod[] };

export function readSkeletalBuffers(r: BinaryReader, release: number, hasColors: boolean, sections: readonly SkeletalSection[], lod: number): SkeletalLod {
  r.struct(`skeletal mesh LOD ${lod} buffers`);
  const strip = readStripFlags(r);
  const indexAt = r.pos;
  const indices = readMultisizeIndices(r, 'index buffer');
  const positions = readPositions(r);
  const vertices = positions.length / 3;
  const streams = readStaticVertexBuffer(r, release, vertices);
  const skin = readSkinWeights(r, release, vertices);
  r.struct(`skeletal mesh LOD ${lod} buffers`);
  const colors = hasColors ? readColors(r, vertices) : undefined;
  if (release < Release.NoAdjacency && (strip.klass & 1) === 0) readMultisizeIndices(r, 'adjacency index buffer');
  if (sections.some((s) => s.cloth)) throw r.error('a section with cloth: its cloth vertex buffer is not read');
  const profiles = r.count(8, 'skin weight profiles');
  if (profiles !== 0) throw r.error(`${profiles} skin weight profiles (not read)`, r.pos - 4);
  if (release >= Release.SkeletalRayTracing) {
    if (release >= Release.SourceMeshBounds) {
      r.skip(24);
      skipBulkArray(r, 'ray tracing geometry');
    } else skipArray(r, 1, 'ray tracing geometry');
  }
  const morphs = release >= Release.SkeletalUE5 && r.bool32() ? readMorphBuffers(r, vertices) : undefined;
  if (release >= Release.SkeletalVertexAttributes) {
    const n = r.count(24, 'vertex attributes');
    if (n !== 0) throw r.error(`${n} vertex attribute buffers (not read)`, r.pos - 4);
  }
  if (release >= Release.SkeletalHalfEdges) {
    const s = readStripFlags(r);
    if ((s.klass & 1) === 0) {
      skipArray(r, 4, 'half-edge vertex data');
      skipArray(r, 4, 'half-edge twin data');
    }
  }
  if (indices.length % 3 !== 0) throw r.error(`the index buffer holds ${indices.length} indices, not whole triangles`, indexAt);
  checkIndices(r, indices, vertices, 'index buffer', indexAt);
  const out: MeshLod = {
    vertexCount: vertices, positions, ...(streams.normals ? { normals: streams.normals, tangents: streams.tangents! } : {}), uvs: streams.uvs,
    ...(colors ? { colors } : {}), indices,
    sections: sections.map((s) => ({ materialIndex: s.materialIndex, firstIndex: s.firstIndex, triangles: s.triangles, boneMap: s.boneMap })),
  };
  for (const [i, s] of sections.entries()) {
    if (s.firstIndex + s.triangles * 3 > indices.length) throw r.error(`LOD ${lod} section ${i}: ${s.triangles} triangles from index ${s.firstIndex} run past the ${indices.length} indices`, indexAt);
    if (s.baseVertex + s.vertices > vertices) throw r.error(`LOD ${lod} section ${i}: vertices ${s.baseVertex} to ${s.baseVertex + s.vertices} run past the ${vertices} vertices`, indexAt);
  }
  if (skin) out.skin = mapJoints(r, skin, sections, lod);
  return morphs ? Object.assign(out, { morphs }) : out;
}

/** Section-local bone indices -> skeleton bones through each vertex's section's bone map; weights summing to 1. */
function mapJoints(r: BinaryReader, skin: SkinWeights, sections: readonly SkeletalSection[], lod: number): SkinWeights {
  const k = skin.influences;
  for (const [si, s] of sections.entries()) {
    for (let v = s.baseVertex; v < s.baseVertex + s.vertices; v++) {
      let sum = 0;
      for (let j = 0; j < k; j++) {
        const w = skin.weights[v * k + j]!;
        if (w === 0) { skin.joints[v * k + j] = 0; continue; }
        const local = skin.joints[v * k + j]!;
        const bone = s.boneMap[local];
        if (bone === undefined) throw r.error(`LOD ${lod} section ${si}: vertex ${v} names bone ${local} of the section's ${s.boneMap.length}`);
        skin.joints[v * k + j] = bone;
        sum += w;
      }
      if (sum > 0) for (let j = 0; j < k; j++) skin.weights[v * k + j]! /= sum;
    }
  }
  return skin;
}

function readLod(r: BinaryReader, source: PackageSource, release: number, hasColors: boolean, index: number): SkeletalLodRaw {
  r.struct(`skeletal mesh LOD ${index}`);
  const strip = readStripFlags(r);
  const cookedOut = r.bool32();
  const inlined = r.bool32();
  skipArray(r, 2, 'required bones');
  if (avStripped(strip) || cookedOut) return { sections: [] };
  const sectionCount = r.count(20, 'render sections');
  if (sectionCount > MAX_SECTIONS) throw r.error(`${sectionCount} render sections`, r.pos - 4);
  const sections = Array.from({ length: sectionCount }, () => readSection(r, release));
  skipArray(r, 2, 'active bone indices');
  r.u32(); // the buffers' size
  const metadata = (): void => {
    // What the buffers' headers hold, kept beside a streamed payload.
    let n = 5 + (release < Release.NoAdjacency && (strip.klass & 1) === 0 ? 5 : 0) + 16 + 8 + 8;
    n += release < Release.UnlimitedBoneInfluences ? 12 : 16 + 4 + (release >= Release.SkinWeight16 ? 4 : 0) + 4;
    r.skip(n);
    const profiles = r.count(8, 'skin weight profile names');
    r.skip(profiles * 8);
    if (release >= Release.SourceMeshBounds) r.skip(24);
  };
  if (release >= Release.SkeletalBulkAlways || !inlined) {
    const bulk = readBulkData(r, source.bulk);
    if (bulk.elementCount === 0) return { sections };
    metadata();
    return { sections, data: { bulk } };
  }
  return { sections, data: readSkeletalBuffers(r, release, hasColors, sections, index) };
}

export function readSkeletalMeshNative(exp: SourceExport, source: PackageSource, start: number, release: number, hasColors: boolean): SkeletalMeshNative {
  const r = new BinaryReader(exp.bytes, exp.file, exp.base).struct(`${exp.class} "${exp.name}" native data`);
  if (release < Release.NewCookedSkeletalLod) {
    throw r.error(`skeletal meshes cooked before UE4.24 (this package is UE${Math.floor(release / 100)}.${release % 100}) are not read`, start);
  }
  r.seek(start);
  if (r.bool32()) r.skip(16);
  const stripAt = r.pos;
  const strip = readStripFlags(r);
  const bounds = readBoxSphereBounds(r, release);
  const slotCount = r.count(12, 'materials');
  const slots: SkeletalMeshNative['slots'] = [];
  for (let i = 0; i < slotCount; i++) {
    const material = r.i32();
    const name = readFNameOf(r, source.names);
    if (release >= Release.SkeletalMaterialStripping && r.bool32()) readFNameOf(r, source.names);
    r.bool32(); // UV channel data: bInitialized
    r.bool32(); // bOverrideDensities
    r.skip(16); // LocalUVDensities
    if (release >= Release.SkeletalOverlayMaterial) r.i32();
    slots.push({ name, material });
  }
  const bones = readReferenceSkeleton(r, source.names, release);
  if (!editorStripped(strip)) throw r.error('an uncooked skeletal mesh: its geometry is editor source data, which PakScope does not read', stripAt);
  const cookedAt = r.pos;
  if (!r.bool32()) throw r.error('the skeletal mesh says it is not cooked', cookedAt);
  const lodAt = r.pos;
  const lodCount = r.count(8, 'LODs');
  if (lodCount > MAX_LODS) throw r.error(`${lodCount} LODs (at most ${MAX_LODS})`, lodAt);
  const lods: SkeletalLodRaw[] = [];
  for (let i = 0; i < lodCount; i++) lods.push(readLod(r, source, release, hasColors, i));
  return { release, bones, slots, lods, bounds };
}

/** Each candidate release, and (without properties) with and without vertex colours, in turn. */
export function readSkeletalMeshAny(exp: SourceExport, source: PackageSource, start: number, releases: readonly number[], colors: readonly boolean[]): SkeletalMeshNative & { hasColors: boolean } {
  let first: unknown;
  for (const release of releases) {
    for (const hasColors of colors) {
      try {
        return { ...readSkeletalMeshNative(exp, source, start, release, hasColors), hasColors };
      } catch (e) {
        if (!(e instanceof FormatError)) throw e;
        first ??= e;
      }
    }
  }
  throw first;
}

const SCAN_LIMIT = 1 << 20;

/** The native data when the property stream cannot be read: the first offset that reads. */
export function findSkeletalMeshNative(exp: SourceExport, source: PackageSource, releases: readonly number[]): (SkeletalMeshNative & { hasColors: boolean }) | undefined {
  const b = exp.bytes;
  const v = new DataView(b.buffer, b.byteOffset, b.byteLength);
  for (let p = 0; p + 12 <= Math.min(b.length, SCAN_LIMIT); p++) {
    const guid = v.getUint32(p, true);
    if (guid > 1) continue;
    const s = p + (guid ? 20 : 4);
    if (s + 2 > b.length || (b[s]! & 1) === 0) continue;
    try {
      return readSkeletalMeshAny(exp, source, p, releases, [true, false]);
    } catch (e) {
      if (!(e instanceof FormatError)) throw e;
    }
  }
  return undefined;
}

/**
 * The parts of a cooked skeletal LOD that every layout from UE4.19 on shares: the render section
 * (FSkelMeshRenderSection), the skin weight buffer, the multi-size index buffer, the buffers of
 * FSkeletalMeshLODRenderData::SerializeStreamedData (4.24+), and the buffers a LOD may carry that
 * PakScope steps over (cloth, skin weight profiles, vertex attributes), each named in the LOD's
 * `skipped` so the facts say what was not shown.
 *
 * Skin weights: 4 or 8 influences of 8- or 16-bit bone indices and weights per vertex (or, 4.25+,
 * a variable count per vertex through a lookup table); the indices are into the vertex's
 * section's bone map and are mapped to skeleton bones here.
 */
import type { BinaryReader } from '../../../io/binary-reader.js';
import type { MeshLod, MeshSection, MorphTargetLod } from '../types.js';
import {
  avStripped, bulkArrayHeader, checkIndices, readColors, readPositions, readStaticVertexBuffer, readStripFlags, skipArray, skipBulkArray,
  vertexCount, type VertexStreams,
} from './buffers.js';
import { readMorphBuffers } from './morph-buffers.js';
import { Release } from './versions.js';

export interface SkeletalSection extends MeshSection {
  baseVertex: number;
  vertices: number;
  boneMap: Uint16Array;
  cloth: boolean;
  /** bDisabled: the engine does not draw it (UE4 sets it on a section its cloth section replaces). */
  disabled?: boolean;
}

/** A LOD as read, with the deltas of its GPU morph target buffers and what was stepped over. */
export type SkeletalLod = MeshLod & { morphs?: MorphTargetLod[]; skipped?: string[] };

/** Most influences a vertex can have (MAX_TOTAL_INFLUENCES is 12 in UE5). */
export const MAX_INFLUENCES = 12;

/** FSkelMeshRenderSection (4.19+). */
export function readRenderSection(r: BinaryReader, release: number): SkeletalSection {
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
  const boneMap = readBoneMap(r);
  const vertices = r.i32();
  const packed = r.u32();
  const influences = release >= Release.SkeletalBulkAlways ? packed & 0x7fffffff : packed;
  r.i16(); // CorrespondClothAssetIndex
  r.skip(20); // FClothingSectionData: asset GUID, LOD index
  if (release < Release.NewCookedStaticLod || (strip.klass & 1) === 0) {
    skipArray(r, 4, 'duplicated vertex data');
    skipArray(r, 8, 'duplicated vertex index data');
  }
  const disabled = r.bool32();
  checkSection(r, at, materialIndex, firstIndex, triangles, vertices, influences);
  return { materialIndex, firstIndex, triangles, baseVertex, vertices, boneMap, cloth, ...(disabled ? { disabled } : {}) };
}

export function readBoneMap(r: BinaryReader): Uint16Array {
  const boneCount = r.count(2, 'bone map');
  const boneMap = new Uint16Array(boneCount);
  for (let i = 0; i < boneCount; i++) boneMap[i] = r.u16();
  return boneMap;
}

export function checkSection(r: BinaryReader, at: number, materialIndex: number, firstIndex: number, triangles: number, vertices: number, influences: number): void {
  if (materialIndex < 0 || firstIndex < 0 || triangles < 0 || vertices < 0 || influences > MAX_INFLUENCES) {
    throw r.error(`render section: material ${materialIndex}, first index ${firstIndex}, ${triangles} triangles, ${vertices} vertices, ${influences} influences`, at);
  }
}

export interface SkinWeights { influences: number; joints: Uint16Array; weights: Float32Array }

/** `n` vertices of `k` influences stored as k bone bytes then k weight bytes each (the 4.14-4.24 layout). */
export function readFixedInfluences(block: Uint8Array, stride: number, offset: number, n: number, k: number, out: SkinWeights): void {
  for (let i = 0; i < n; i++) {
    const at = i * stride + offset;
    for (let j = 0; j < k; j++) {
      out.joints[i * k + j] = block[at + j]!;
      out.weights[i * k + j] = block[at + k + j]! / 255;
    }
  }
}

/** FSkinWeightVertexBuffer as stored (4.15+): per vertex the section-local bone indices and weights. */
export function readSkinWeights(r: BinaryReader, release: number, vertices: number): SkinWeights | undefined {
  const structure = r.structure;
  r.struct('skin weight buffer');
  const strip = readStripFlags(r);
  const at = r.pos;
  if (release < Release.UnlimitedBoneInfluences) {
    const extra = r.bool32();
    if (release >= Release.NewCookedSkeletalLod) r.u32(); // Stride (4.24 only)
    const n = vertexCount(r, 'skin weight buffer');
    if (n !== vertices) throw r.error(`the skin weight buffer has ${n} vertices, the position buffer ${vertices}`, at);
    r.struct(structure);
    if (avStripped(strip)) return undefined;
    const k = extra ? 8 : 4;
    const { count } = bulkArrayHeader(r, 'skin weights', k * 2);
    if (count !== n) throw r.error(`the skin weight buffer holds ${count} vertices but says ${n}`, at);
    const out = { influences: k, joints: new Uint16Array(n * k), weights: new Float32Array(n * k) };
    readFixedInfluences(r.bytesView(n * k * 2), k * 2, 0, n, k, out);
    return out;
  }
  const variable = r.bool32();
  const maxInfluences = r.u32();
  r.u32(); // NumBones
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
  r.struct(structure);
  if (!data) return undefined;
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

/**
 * FMultisizeIndexContainer: a u8 index size, then the indices as a bulk array. The size byte may
 * be 0 (UE4 adjacency buffers): the engine then reads 32-bit indices; the bulk array's element
 * size says which.
 */
export function readMultisizeIndices(r: BinaryReader, what: string): Uint32Array {
  const at = r.pos;
  const stated = r.u8();
  if (stated !== 0 && stated !== 2 && stated !== 4) throw r.error(`${what}: index size ${stated}, not 2 or 4`, at);
  const { size, count } = bulkArrayHeader(r, what, stated === 0 ? 4 : stated);
  const block = r.bytesView(count * size);
  const v = new DataView(block.buffer, block.byteOffset, block.byteLength);
  const out = new Uint32Array(count);
  for (let i = 0; i < count; i++) out[i] = size === 2 ? v.getUint16(i * 2, true) : v.getUint32(i * 4, true);
  return out;
}

/** FSkeletalMeshVertexClothBuffer: stepped over (the simulation's mapping is not shown). */
export function skipClothBuffer(r: BinaryReader, release: number): string {
  const strip = readStripFlags(r);
  if (avStripped(strip)) return 'its cloth vertex buffer is stripped';
  skipBulkArray(r, 'cloth vertex buffer');
  if (release >= Release.CompactClothBuffer) {
    const n = skipArray(r, 8, 'cloth index mapping');
    if (release >= Release.SkeletalUE5) r.skip(n * 4); // the mapping's LOD bias per entry
  }
  return 'cloth simulation data not read (the mesh is shown without it)';
}

/** FSkinWeightProfilesData: name -> FRuntimeSkinWeightProfileData, stepped over; the profile names. */
export function skipSkinWeightProfiles(r: BinaryReader, release: number, names: (r: BinaryReader) => string): string[] {
  const count = r.count(8 + 12, 'skin weight profiles');
  const out: string[] = [];
  for (let i = 0; i < count; i++) {
    out.push(names(r));
    if (release < Release.SkinWeightProfileLayout) {
      skipArray(r, 8, 'skin weight profile overrides');
      skipArray(r, 2, 'skin weight profile weights');
    } else {
      skipArray(r, 1, 'skin weight profile bone indices');
      skipArray(r, 1, 'skin weight profile bone weights');
      r.u8(); // NumWeightsPerVertex
    }
    skipArray(r, 8, 'skin weight profile vertex map');
  }
  return out;
}

/**
 * FSkeletalMeshAttributeVertexBuffer (5.3+): ComponentCount (i32), PixelFormat, ComponentStride
 * (i32), then the values: Stride (i32) and a bulk array of bytes. The pixel format is an enum the
 * engine declares with a uint8 base; both its widths are tried, the one whose strides agree (the
 * component stride 1, 2 or 4 bytes, the stride that times the component count) wins.
 */
function skipVertexAttribute(r: BinaryReader, vertices: number): void {
  const at = r.pos;
  const components = r.i32();
  if (components < 1 || components > 4) throw r.error(`vertex attribute: ${components} components (1 to 4)`, at);
  for (const formatBytes of [1, 4]) {
    r.seek(at + 4);
    r.skip(formatBytes);
    const componentStride = r.i32();
    const stride = r.i32();
    if ([1, 2, 4].includes(componentStride) && stride === componentStride * components) {
      const { size, count } = bulkArrayHeader(r, 'vertex attribute values', 1);
      if (size * count !== stride * vertices) throw r.error(`vertex attribute values: ${size * count} bytes for ${vertices} vertices of ${stride}`, at);
      r.skip(size * count);
      return;
    }
  }
  throw r.error('vertex attribute: its component and vertex strides do not agree', at);
}

/** The LOD's buffers (FSkeletalMeshLODRenderData::SerializeStreamedData, 4.24+), inline or from a payload. */
export function readSkeletalBuffers(r: BinaryReader, release: number, hasColors: boolean, sections: readonly SkeletalSection[], lod: number,
  names: (r: BinaryReader) => string): SkeletalLod {
  r.struct(`skeletal mesh LOD ${lod} buffers`);
  const strip = readStripFlags(r);
  const indexAt = r.pos;
  const indices = readMultisizeIndices(r, 'index buffer');
  const positions = readPositions(r);
  const vertices = positions.length / 3;
  const streams = readStaticVertexBuffer(r, release, vertices);
  const skin = readSkinWeights(r, release, vertices);
  const cloth = sections.some((s) => s.cloth);
  const colors = hasColors ? readColors(r, vertices, cloth) : undefined;
  if (release < Release.NoAdjacency && (strip.klass & 1) === 0) readMultisizeIndices(r, 'adjacency index buffer');
  const skipped: string[] = [];
  if (cloth) skipped.push(skipClothBuffer(r, release));
  const profiles = skipSkinWeightProfiles(r, release, names);
  if (profiles.length > 0) skipped.push(`skin weight profiles ${profiles.join(', ')} not read (the default weights are shown)`);
  if (release >= Release.SkeletalRayTracing) {
    if (release >= Release.SourceMeshBounds) {
      r.skip(24);
      skipBulkArray(r, 'ray tracing geometry');
    } else skipArray(r, 1, 'ray tracing geometry');
  }
  const morphs = release >= Release.SkeletalUE5 && r.bool32() ? readMorphBuffers(r, vertices) : undefined;
  if (release >= Release.SkeletalVertexAttributes) {
    const n = r.count(8 + 16 + 8, 'vertex attributes');
    const attributes = Array.from({ length: n }, () => { const name = names(r); skipVertexAttribute(r, vertices); return name; });
    if (n > 0) skipped.push(`vertex attributes ${attributes.join(', ')} not read`);
  }
  if (release >= Release.SkeletalHalfEdges) {
    const s = readStripFlags(r);
    if ((s.klass & 1) === 0) {
      skipArray(r, 4, 'half-edge vertex data');
      skipArray(r, 4, 'half-edge twin data');
    }
  }
  const out = finishLod(r, { positions, streams, indices, indexAt, sections, lod, ...(colors ? { colors } : {}), ...(skin ? { skin } : {}) });
  if (skipped.length > 0) out.skipped = skipped;
  return morphs ? Object.assign(out, { morphs }) : out;
}

/** The LOD from its buffers, checked: whole triangles, every index a vertex, every section inside the buffers. */
export function finishLod(r: BinaryReader, b: {
  positions: Float32Array; streams: VertexStreams; indices: Uint32Array; indexAt: number; sections: readonly SkeletalSection[]; lod: number;
  colors?: Uint8Array; skin?: SkinWeights;
}): SkeletalLod {
  const { positions, streams, indices, indexAt, sections, lod } = b;
  const vertices = positions.length / 3;
  if (indices.length % 3 !== 0) throw r.error(`the index buffer holds ${indices.length} indices, not whole triangles`, indexAt);
  checkIndices(r, indices, vertices, 'index buffer', indexAt);
  const out: SkeletalLod = {
    vertexCount: vertices, positions, ...(streams.normals ? { normals: streams.normals, tangents: streams.tangents! } : {}), uvs: streams.uvs,
    ...(b.colors ? { colors: b.colors } : {}), indices,
    sections: sections.filter((s) => !s.disabled).map((s) => ({ materialIndex: s.materialIndex, firstIndex: s.firstIndex, triangles: s.triangles, boneMap: s.boneMap })),
  };
  for (const [i, s] of sections.entries()) {
    if (s.firstIndex + s.triangles * 3 > indices.length) throw r.error(`LOD ${lod} section ${i}: ${s.triangles} triangles from index ${s.firstIndex} run past the ${indices.length} indices`, indexAt);
    if (s.baseVertex + s.vertices > vertices) throw r.error(`LOD ${lod} section ${i}: vertices ${s.baseVertex} to ${s.baseVertex + s.vertices} run past the ${vertices} vertices`, indexAt);
  }
  if (b.skin) out.skin = mapJoints(r, b.skin, sections, lod);
  return out;
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

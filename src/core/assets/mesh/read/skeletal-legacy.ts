/**
 * Cooked skeletal LODs before UE4.24's "new cooked format".
 *
 * UE4.19 to 4.23 (FSkeletalMeshCustomVersion::SplitModelAndRenderData, before the new cooked
 * format): after bCooked, TArray of FSkeletalMeshLODRenderData serialized as one piece:
 *   FStripDataFlags; TArray<FSkelMeshRenderSection>; the index buffer (FMultisizeIndexContainer);
 *   ActiveBoneIndices; RequiredBones; unless the LOD is stripped (audio-visual data, or the class
 *   flag 2 "min LOD data"): FPositionVertexBuffer, FStaticMeshVertexBuffer, FSkinWeightVertexBuffer
 *   (bExtraBoneInfluences, NumVertices), FColorVertexBuffer when the mesh has vertex colours, the
 *   adjacency index buffer (class flag 1 clear), the cloth vertex buffer when a section has cloth;
 *   4.23: the skin weight profiles.
 *
 * UE4.14 to 4.18 (before the split): right after the reference skeleton, TArray of FStaticLODModel:
 *   FStripDataFlags; TArray<FSkelMeshSection> (the model's section: material, first index,
 *   triangles, triangle sorting, legacy clothing fields, flags, base vertex, bone map, vertex and
 *   influence counts, cloth mapping and physical mesh arrays, the clothing asset); the index
 *   buffer; ActiveBoneIndices; Size; NumVertices; RequiredBones; MeshToImportVertexMap and
 *   MaxImportVertex; NumTexCoords; FSkeletalMeshVertexBuffer (interleaved GPU skin vertices:
 *   TangentX, TangentZ, [4.14: the influences], position, the UVs in full or half precision);
 *   4.15+: FSkinWeightVertexBuffer (bExtraBoneInfluences, NumVertices); the colours (4.14: the
 *   skeletal colour buffer, a bulk array of FColor; 4.15+ FColorVertexBuffer); the adjacency
 *   index buffer; the cloth vertex buffer.
 */
import type { BinaryReader } from '../../../io/binary-reader.js';
import {
  avStripped, bulkArrayHeader, editorStripped, readColors, readPositions, readStaticVertexBuffer, readStripFlags, readTangents, readUvChannel,
  skipArray, vertexCount, type VertexStreams,
} from './buffers.js';
import {
  checkSection, finishLod, readBoneMap, readFixedInfluences, readMultisizeIndices, readRenderSection, readSkinWeights, skipClothBuffer,
  skipSkinWeightProfiles, type SkeletalLod, type SkeletalSection, type SkinWeights,
} from './skeletal-buffers.js';
import { Release } from './versions.js';

export interface LegacyLod {
  sections: SkeletalSection[];
  data?: SkeletalLod;
}

const MAX_SECTIONS = 1 << 16;
/** Most UV channels a skeletal mesh has (MAX_TEXCOORDS). */
const MAX_SKELETAL_UVS = 4;
/** FStaticLODModel / FSkeletalMeshLODRenderData class strip flags. */
const CDSF_ADJACENCY = 1;
const CDSF_MIN_LOD = 2;

function readSections(r: BinaryReader, read: (r: BinaryReader) => SkeletalSection): SkeletalSection[] {
  const at = r.pos;
  const count = r.count(20, 'sections');
  if (count > MAX_SECTIONS) throw r.error(`${count} sections`, at);
  return Array.from({ length: count }, () => read(r));
}

/** A LOD of 4.19 to 4.23. */
export function readLegacyRenderLod(r: BinaryReader, release: number, hasColors: boolean, lod: number, names: (r: BinaryReader) => string): LegacyLod {
  r.struct(`skeletal mesh LOD ${lod}`);
  const strip = readStripFlags(r);
  const sections = readSections(r, (x) => readRenderSection(x, release));
  const indexAt = r.pos;
  const indices = readMultisizeIndices(r, 'index buffer');
  skipArray(r, 2, 'active bone indices');
  skipArray(r, 2, 'required bones');
  let data: SkeletalLod | undefined;
  const skipped: string[] = [];
  if (!avStripped(strip) && (strip.klass & CDSF_MIN_LOD) === 0) {
    const positions = readPositions(r);
    const vertices = positions.length / 3;
    const streams = readStaticVertexBuffer(r, release, vertices);
    const skin = readSkinWeights(r, release, vertices);
    const cloth = sections.some((s) => s.cloth);
    const colors = hasColors ? readColors(r, vertices, cloth) : undefined;
    if ((strip.klass & CDSF_ADJACENCY) === 0) readMultisizeIndices(r, 'adjacency index buffer');
    if (cloth) skipped.push(skipClothBuffer(r, release));
    data = finishLod(r, { positions, streams, indices, indexAt, sections, lod, ...(colors ? { colors } : {}), ...(skin ? { skin } : {}) });
  }
  if (release >= Release.SkinWeightProfiles) {
    const profiles = skipSkinWeightProfiles(r, release, names);
    if (profiles.length > 0) skipped.push(`skin weight profiles ${profiles.join(', ')} not read (the default weights are shown)`);
  }
  if (data && skipped.length > 0) data.skipped = skipped;
  return { sections, ...(data ? { data } : {}) };
}

/** FSkelMeshSection as FStaticLODModel (4.14 to 4.18) serializes it, cooked. */
function readModelSection(r: BinaryReader, release: number): SkeletalSection {
  const strip = readStripFlags(r);
  const at = r.pos;
  const materialIndex = r.i16();
  const av = !avStripped(strip);
  const firstIndex = av ? r.i32() : 0;
  const triangles = av ? r.i32() : 0;
  r.u8(); // TriangleSorting
  const disabled = r.bool32(); // bDisabled (the section its cloth section replaces)
  r.i16(); // CorrespondClothSectionIndex
  r.u8(); // bEnableClothLOD
  r.bool32(); // bRecomputeTangent
  r.bool32(); // bCastShadow
  const baseVertex = av ? r.u32() : 0;
  const boneMap = readBoneMap(r);
  const vertices = r.i32();
  const influences = r.i32();
  const cloth = skipArray(r, 64, 'cloth mapping data') > 0;
  skipArray(r, 12, 'physical mesh vertices');
  skipArray(r, 12, 'physical mesh normals');
  r.i16(); // CorrespondClothAssetIndex
  if (release < Release.NewClothingSystem) r.i16(); // ClothAssetSubmeshIndex
  else r.skip(20); // FClothingSectionData: asset GUID, LOD index
  checkSection(r, at, materialIndex, firstIndex, triangles, vertices, influences);
  return { materialIndex, firstIndex, triangles, baseVertex, vertices, boneMap, cloth, ...(disabled ? { disabled } : {}) };
}

/** FSkeletalMeshVertexBuffer: the interleaved GPU skin vertices (4.14 to 4.18). */
function readGpuSkinVertices(r: BinaryReader, release: number, vertices: number): { positions: Float32Array; streams: VertexStreams; skin?: SkinWeights } {
  const strip = readStripFlags(r);
  const uvAt = r.pos;
  const numUvs = r.i32();
  if (numUvs < 0 || numUvs > MAX_SKELETAL_UVS) throw r.error(`${numUvs} UV channels (at most ${MAX_SKELETAL_UVS})`, uvAt);
  const fullUvs = r.bool32();
  // 4.14 keeps the influences in the vertex (a separate buffer from 4.15).
  const extra = release < Release.SeparateSkinWeights ? r.bool32() : false;
  r.skip(24); // MeshExtension, MeshOrigin (for packed positions, which cooked UE4 data does not use)
  if (avStripped(strip)) return { positions: new Float32Array(0), streams: { uvs: [] } };
  const k = extra ? 8 : 4;
  const influenceBytes = release < Release.SeparateSkinWeights ? k * 2 : 0;
  const uvSize = fullUvs ? 8 : 4;
  const stride = 8 + influenceBytes + 12 + numUvs * uvSize;
  const countAt = r.pos;
  const { count } = bulkArrayHeader(r, 'GPU skin vertices', stride);
  if (count !== vertices) throw r.error(`the GPU skin vertex buffer holds ${count} vertices, the LOD says ${vertices}`, countAt);
  const block = r.bytesView(count * stride);
  const normals = new Float32Array(count * 3);
  const tangents = new Float32Array(count * 4);
  readTangents(block, stride, count, false, release >= Release.SignedNormals, normals, tangents);
  const v = new DataView(block.buffer, block.byteOffset, block.byteLength);
  const positions = new Float32Array(count * 3);
  const posAt = 8 + influenceBytes;
  for (let i = 0; i < count; i++) {
    for (let c = 0; c < 3; c++) positions[i * 3 + c] = v.getFloat32(i * stride + posAt + c * 4, true);
  }
  const uvs = Array.from({ length: numUvs }, () => new Float32Array(count * 2));
  uvs.forEach((uv, c) => readUvChannel(block, stride, posAt + 12 + c * uvSize, count, fullUvs, uv));
  let skin: SkinWeights | undefined;
  if (influenceBytes > 0) {
    skin = { influences: k, joints: new Uint16Array(count * k), weights: new Float32Array(count * k) };
    readFixedInfluences(block, stride, 8, count, k, skin);
  }
  return { positions, streams: { normals, tangents, uvs }, ...(skin ? { skin } : {}) };
}

/** FSkeletalMeshVertexColorBuffer (4.14): FColor (B, G, R, A) per vertex as a bulk array. */
function readSkeletalColors(r: BinaryReader, vertices: number, shortOk: boolean): Uint8Array | undefined {
  const strip = readStripFlags(r);
  if (avStripped(strip)) return undefined;
  const at = r.pos;
  const { count } = bulkArrayHeader(r, 'skeletal colour buffer', 4);
  if (count === 0) return undefined;
  if (shortOk ? count > vertices : count !== vertices) throw r.error(`the colour buffer has ${count} vertices, the LOD ${vertices}`, at);
  const block = r.bytesView(count * 4);
  const out = new Uint8Array(vertices * 4).fill(255);
  for (let i = 0; i < count * 4; i += 4) {
    out[i] = block[i + 2]!;
    out[i + 1] = block[i + 1]!;
    out[i + 2] = block[i]!;
    out[i + 3] = block[i + 3]!;
  }
  return out;
}

/** An FStaticLODModel (4.14 to 4.18). */
export function readStaticLodModel(r: BinaryReader, release: number, hasColors: boolean, lod: number): LegacyLod {
  r.struct(`skeletal mesh LOD ${lod}`);
  const strip = readStripFlags(r);
  const sections = readSections(r, (x) => readModelSection(x, release));
  const indexAt = r.pos;
  const indices = readMultisizeIndices(r, 'index buffer');
  skipArray(r, 2, 'active bone indices');
  r.i32(); // Size
  const av = !avStripped(strip);
  const vertices = av ? vertexCount(r, 'LOD') : 0;
  skipArray(r, 2, 'required bones');
  if (!editorStripped(strip)) throw r.error('the LOD keeps its editor data (raw point indices): not a cooked LOD');
  skipArray(r, 4, 'mesh to import vertex map');
  r.i32(); // MaxImportVertex
  if (!av) return { sections };
  r.i32(); // NumTexCoords (the vertex buffer states it again)
  const gpu = readGpuSkinVertices(r, release, vertices);
  const skin = release >= Release.SeparateSkinWeights ? readSkinWeights(r, release, vertices) : gpu.skin;
  const cloth = sections.some((s) => s.cloth);
  const colors = hasColors ? (release < Release.SeparateSkinWeights ? readSkeletalColors(r, vertices, cloth) : readColors(r, vertices, cloth)) : undefined;
  if ((strip.klass & CDSF_ADJACENCY) === 0) readMultisizeIndices(r, 'adjacency index buffer');
  const skipped: string[] = [];
  if (cloth) skipped.push(skipClothBuffer(r, release));
  const data = finishLod(r, { positions: gpu.positions, streams: gpu.streams, indices, indexAt, sections, lod, ...(colors ? { colors } : {}), ...(skin ? { skin } : {}) });
  if (skipped.length > 0) data.skipped = skipped;
  return { sections, data };
}

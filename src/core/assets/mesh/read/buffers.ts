/**
 * The vertex and index buffers meshes share, as the engine cooks them. Each is a "bulk array":
 * an element size (i32), an element count (i32), then count * size bytes. Every count is checked
 * against the bytes there before anything is allocated, and against the vertex count the buffer's
 * own header states (a buffer shorter than its count is a FormatError, not a short mesh).
 *
 *   FPositionVertexBuffer: Stride, NumVertices, then FVector3f per vertex.
 *   FStaticMeshVertexBuffer: FStripDataFlags, NumTexCoords, [Strides before 4.19], NumVertices,
 *     bUseFullPrecisionUVs, bUseHighPrecisionTangentBasis; then (4.19+) the tangents (TangentX and
 *     TangentZ per vertex: FPackedNormal, or FPackedRGBA16N when high precision) and the UVs (per
 *     vertex NumTexCoords FVector2f, or FVector2DHalf), or (before 4.19) one interleaved array.
 *   FColorVertexBuffer: FStripDataFlags, Stride, NumVertices, FColor (B, G, R, A) per vertex.
 *   FRawStaticIndexBuffer: b32Bit, the indices as a byte array, [bShouldExpandTo32Bit 4.25+].
 */
import type { BinaryReader } from '../../../io/binary-reader.js';
import { HALF_TO_FLOAT } from '../../texture/decode/half.js';
import { Release } from './versions.js';

/** FStripDataFlags: the global flags and the class's own. */
export interface StripFlags { global: number; klass: number }
export const readStripFlags = (r: BinaryReader): StripFlags => ({ global: r.u8(), klass: r.u8() });
/** Global strip flag: audio-visual (render) data stripped, as a dedicated server cooks it. */
export const avStripped = (s: StripFlags): boolean => (s.global & 2) !== 0;
export const editorStripped = (s: StripFlags): boolean => (s.global & 1) !== 0;

/** Vertices a LOD may have before the count is corrupt data (the engine's own limit is 2^31 but no mesh comes near). */
const MAX_VERTICES = 1 << 26;

/** A bulk array's header, checked: the element size it must have and the bytes the count needs. */
export function bulkArrayHeader(r: BinaryReader, what: string, elementSize?: number): { size: number; count: number } {
  const at = r.pos;
  const size = r.i32();
  const count = r.i32();
  if (size < 0 || (elementSize !== undefined && count > 0 && size !== elementSize)) throw r.error(`${what}: element size ${size}, expected ${elementSize}`, at);
  if (count < 0) throw r.error(`${what}: element count ${count} is negative`, at + 4);
  if (size * count > r.remaining) throw r.error(`${what}: ${count} elements of ${size} bytes run past the ${r.remaining} bytes left`, at + 4);
  return { size, count };
}

/** Steps over a bulk array of any element size. */
export function skipBulkArray(r: BinaryReader, what: string): void {
  const { size, count } = bulkArrayHeader(r, what);
  r.skip(size * count);
}

/** Steps over a TArray of fixed-size elements (count, then the elements). */
export function skipArray(r: BinaryReader, elementSize: number, what: string): number {
  const n = r.count(elementSize, what);
  r.skip(n * elementSize);
  return n;
}

/** Checks a vertex count header field. */
export function vertexCount(r: BinaryReader, what: string): number {
  const at = r.pos;
  const n = r.i32();
  if (n < 0 || n > MAX_VERTICES) throw r.error(`${what}: vertex count ${n} is impossible`, at);
  return n;
}

/** FPositionVertexBuffer: x, y, z per vertex. */
export function readPositions(r: BinaryReader): Float32Array {
  const strideAt = r.pos;
  const stride = r.i32();
  const n = vertexCount(r, 'position vertex buffer');
  if (stride !== 12 && n > 0) throw r.error(`position vertex buffer stride ${stride}, expected 12 (FVector3f)`, strideAt);
  const { count } = bulkArrayHeader(r, 'position vertex buffer', 12);
  if (count !== n) throw r.error(`the position vertex buffer holds ${count} vertices but says ${n}`, strideAt + 4);
  const out = new Float32Array(n * 3);
  for (let i = 0; i < n * 3; i++) out[i] = r.f32();
  return out;
}

export interface VertexStreams {
  normals?: Float32Array;
  tangents?: Float32Array;
  uvs: Float32Array[];
}

/** Packed normal component: a signed byte / 127 (4.20+), an unsigned byte mapped to -1..1 before. */
function unpack8(v: number, signed: boolean): number {
  return signed ? Math.max(-1, ((v << 24) >> 24) / 127) : v / 127.5 - 1;
}
function unpack16(v: number, signed: boolean): number {
  return signed ? Math.max(-1, ((v << 16) >> 16) / 32767) : v / 32767.5 - 1;
}

/** TangentX and TangentZ of one vertex into the normal and tangent arrays (w: the bitangent sign TangentZ.w stores). */
function readTangentPair(r: BinaryReader, high: boolean, signed: boolean, i: number, normals: Float32Array, tangents: Float32Array): void {
  const x = [0, 0, 0, 0];
  const z = [0, 0, 0, 0];
  for (const v of [x, z]) {
    for (let c = 0; c < 4; c++) v[c] = high ? unpack16(r.u16(), signed) : unpack8(r.u8(), signed);
  }
  normals.set([z[0]!, z[1]!, z[2]!], i * 3);
  tangents.set([x[0]!, x[1]!, x[2]!, z[3]! < 0 ? -1 : 1], i * 4);
}

function readUv(r: BinaryReader, full: boolean): [number, number] {
  return full ? [r.f32(), r.f32()] : [HALF_TO_FLOAT[r.u16()]!, HALF_TO_FLOAT[r.u16()]!];
}

/** Most UV channels a static mesh has (MAX_STATIC_TEXCOORDS). */
const MAX_UV_CHANNELS = 8;

/** FStaticMeshVertexBuffer: normals, tangents and every UV channel. */
export function readStaticVertexBuffer(r: BinaryReader, release: number, vertices: number): VertexStreams {
  const strip = readStripFlags(r);
  const uvAt = r.pos;
  const numUvs = r.i32();
  if (numUvs < 0 || numUvs > MAX_UV_CHANNELS) throw r.error(`${numUvs} UV channels (at most ${MAX_UV_CHANNELS})`, uvAt);
  if (release < Release.SplitVertexStreams) r.i32(); // Strides
  const countAt = r.pos;
  const n = vertexCount(r, 'static mesh vertex buffer');
  if (n !== vertices) throw r.error(`the vertex buffer has ${n} vertices, the position buffer ${vertices}`, countAt);
  const fullUvs = r.bool32();
  const highTangents = r.bool32();
  const uvs = Array.from({ length: numUvs }, () => new Float32Array(n * 2));
  if (avStripped(strip)) return { uvs: [] };
  const normals = new Float32Array(n * 3);
  const tangents = new Float32Array(n * 4);
  const signed = release >= Release.SignedNormals;
  const tangentSize = highTangents ? 16 : 8;
  const uvSize = fullUvs ? 8 : 4;
  if (release < Release.SplitVertexStreams) {
    const { count } = bulkArrayHeader(r, 'vertex tangents and UVs', tangentSize + uvSize * numUvs);
    if (count !== n) throw r.error(`the vertex buffer holds ${count} vertices but says ${n}`, countAt);
    for (let i = 0; i < n; i++) {
      readTangentPair(r, highTangents, signed, i, normals, tangents);
      for (const uv of uvs) uv.set(readUv(r, fullUvs), i * 2);
    }
    return { normals, tangents, uvs };
  }
  const t = bulkArrayHeader(r, 'vertex tangents', tangentSize);
  if (t.count !== n) throw r.error(`the tangent buffer holds ${t.count} vertices but says ${n}`, countAt);
  for (let i = 0; i < n; i++) readTangentPair(r, highTangents, signed, i, normals, tangents);
  const u = bulkArrayHeader(r, 'vertex UVs', uvSize);
  // An odd channel count may be padded by one vertex (the engine's GetTexCoordNumVerts).
  const stored = numUvs === 0 ? 0 : u.count / numUvs;
  if (numUvs > 0 && (u.count % numUvs !== 0 || stored < n || stored > n + 1)) {
    throw r.error(`the UV buffer holds ${u.count} UVs, not ${numUvs} for each of ${n} vertices`, countAt);
  }
  for (let i = 0; i < stored; i++) {
    for (const uv of uvs) {
      const v = readUv(r, fullUvs);
      if (i < n) uv.set(v, i * 2);
    }
  }
  return { normals, tangents, uvs };
}

/** FColorVertexBuffer: r, g, b, a per vertex, or undefined when the mesh has no colours. */
export function readColors(r: BinaryReader, vertices: number): Uint8Array | undefined {
  const strip = readStripFlags(r);
  r.i32(); // Stride
  const countAt = r.pos;
  const n = vertexCount(r, 'colour vertex buffer');
  if (n === 0 || avStripped(strip)) return undefined;
  const { count } = bulkArrayHeader(r, 'colour vertex buffer', 4);
  if (count !== n) throw r.error(`the colour buffer holds ${count} vertices but says ${n}`, countAt);
  if (n !== vertices) throw r.error(`the colour buffer has ${n} vertices, the position buffer ${vertices}`, countAt);
  const out = new Uint8Array(n * 4);
  for (let i = 0; i < n; i++) {
    const [b, g, red, a] = [r.u8(), r.u8(), r.u8(), r.u8()];
    out.set([red, g, b, a], i * 4);
  }
  return out;
}

/** FRawStaticIndexBuffer: the indices (16- or 32-bit as stored) as 32-bit. */
export function readIndexBuffer(r: BinaryReader, release: number, what: string): Uint32Array {
  const is32 = r.bool32();
  const { size, count } = bulkArrayHeader(r, what, 1);
  const bytes = size * count;
  const width = is32 ? 4 : 2;
  if (bytes % width !== 0) throw r.error(`${what}: ${bytes} bytes is not a whole number of ${width * 8}-bit indices`);
  const out = new Uint32Array(bytes / width);
  for (let i = 0; i < out.length; i++) out[i] = is32 ? r.u32() : r.u16();
  if (release >= Release.RayTracing) r.bool32(); // bShouldExpandTo32Bit
  return out;
}

/** Checks every index against the vertex count. */
export function checkIndices(r: BinaryReader, indices: Uint32Array, vertices: number, what: string, at: number): void {
  for (let i = 0; i < indices.length; i++) {
    if (indices[i]! >= vertices) throw r.error(`${what}: index ${i} is ${indices[i]}, past the ${vertices} vertices`, at);
  }
}

/** FBoxSphereBounds: origin, box extent, sphere radius (doubles from UE5). */
export function readBoxSphereBounds(r: BinaryReader, release: number): { origin: [number, number, number]; extent: [number, number, number]; radius: number } {
  const f = release >= Release.LargeWorldCoordinates ? () => r.f64() : () => r.f32();
  return { origin: [f(), f(), f()], extent: [f(), f(), f()], radius: f() };
}

/** FWeightedRandomSampler: TArray<float> Prob, TArray<int32> Alias, float TotalWeight. */
export function skipWeightedSampler(r: BinaryReader): void {
  skipArray(r, 4, 'sampler probabilities');
  skipArray(r, 4, 'sampler aliases');
  r.skip(4);
}

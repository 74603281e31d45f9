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
  const block = r.bytesView(n * 12);
  const v = new DataView(block.buffer, block.byteOffset, block.byteLength);
  const out = new Float32Array(n * 3);
  for (let i = 0; i < n * 3; i++) out[i] = v.getFloat32(i * 4, true);
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

/**
 * TangentX and TangentZ of `n` vertices (from vertex `first`, `stride` bytes apart) into the
 * normal and tangent arrays; w is the bitangent sign TangentZ.w stores. One bounds check for the
 * whole block, then plain reads: a million vertices must not allocate per vertex.
 */
export function readTangents(block: Uint8Array, stride: number, n: number, high: boolean, signed: boolean, normals: Float32Array, tangents: Float32Array): void {
  const v = new DataView(block.buffer, block.byteOffset, block.byteLength);
  for (let i = 0; i < n; i++) {
    const at = i * stride;
    if (high) {
      for (let c = 0; c < 3; c++) {
        tangents[i * 4 + c] = unpack16(v.getUint16(at + c * 2, true), signed);
        normals[i * 3 + c] = unpack16(v.getUint16(at + 8 + c * 2, true), signed);
      }
      tangents[i * 4 + 3] = unpack16(v.getUint16(at + 14, true), signed) < 0 ? -1 : 1;
    } else {
      for (let c = 0; c < 3; c++) {
        tangents[i * 4 + c] = unpack8(block[at + c]!, signed);
        normals[i * 3 + c] = unpack8(block[at + 4 + c]!, signed);
      }
      tangents[i * 4 + 3] = unpack8(block[at + 7]!, signed) < 0 ? -1 : 1;
    }
  }
}

/** UV channel `ch` of `n` vertices (`stride` bytes apart, the channel `offset` bytes in), half or full precision. */
export function readUvChannel(block: Uint8Array, stride: number, offset: number, n: number, full: boolean, out: Float32Array): void {
  const v = new DataView(block.buffer, block.byteOffset, block.byteLength);
  for (let i = 0; i < n; i++) {
    const at = i * stride + offset;
    if (full) {
      out[i * 2] = v.getFloat32(at, true);
      out[i * 2 + 1] = v.getFloat32(at + 4, true);
    } else {
      out[i * 2] = HALF_TO_FLOAT[v.getUint16(at, true)]!;
      out[i * 2 + 1] = HALF_TO_FLOAT[v.getUint16(at + 2, true)]!;
    }
  }
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
    const stride = tangentSize + uvSize * numUvs;
    const { count } = bulkArrayHeader(r, 'vertex tangents and UVs', stride);
    if (count !== n) throw r.error(`the vertex buffer holds ${count} vertices but says ${n}`, countAt);
    const block = r.bytesView(n * stride);
    readTangents(block, stride, n, highTangents, signed, normals, tangents);
    uvs.forEach((uv, c) => readUvChannel(block, stride, tangentSize + c * uvSize, n, fullUvs, uv));
    return { normals, tangents, uvs };
  }
  const t = bulkArrayHeader(r, 'vertex tangents', tangentSize);
  if (t.count !== n) throw r.error(`the tangent buffer holds ${t.count} vertices but says ${n}`, countAt);
  readTangents(r.bytesView(n * tangentSize), tangentSize, n, highTangents, signed, normals, tangents);
  const u = bulkArrayHeader(r, 'vertex UVs', uvSize);
  // An odd channel count may be padded by one vertex (the engine's GetTexCoordNumVerts).
  const stored = numUvs === 0 ? 0 : u.count / numUvs;
  if (numUvs > 0 && (u.count % numUvs !== 0 || stored < n || stored > n + 1)) {
    throw r.error(`the UV buffer holds ${u.count} UVs, not ${numUvs} for each of ${n} vertices`, countAt);
  }
  const block = r.bytesView(u.count * uvSize);
  uvs.forEach((uv, c) => readUvChannel(block, uvSize * numUvs, c * uvSize, n, fullUvs, uv));
  return { normals, tangents, uvs };
}

/**
 * FColorVertexBuffer: r, g, b, a per vertex, or undefined when the mesh has no colours. `shortOk`:
 * the buffer may cover fewer vertices than the LOD has (a UE4 skeletal LOD's colours stop where
 * its cloth sections' vertices start); the rest are white.
 */
export function readColors(r: BinaryReader, vertices: number, shortOk = false): Uint8Array | undefined {
  const strip = readStripFlags(r);
  r.i32(); // Stride
  const countAt = r.pos;
  const n = vertexCount(r, 'colour vertex buffer');
  if (n === 0 || avStripped(strip)) return undefined;
  const { count } = bulkArrayHeader(r, 'colour vertex buffer', 4);
  if (count !== n) throw r.error(`the colour buffer holds ${count} vertices but says ${n}`, countAt);
  if (shortOk ? n > vertices : n !== vertices) throw r.error(`the colour buffer has ${n} vertices, the position buffer ${vertices}`, countAt);
  const block = r.bytesView(n * 4);
  const out = new Uint8Array(vertices * 4).fill(255);
  for (let i = 0; i < n * 4; i += 4) {
    out[i] = block[i + 2]!;
    out[i + 1] = block[i + 1]!;
    out[i + 2] = block[i]!;
    out[i + 3] = block[i + 3]!;
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
  const block = r.bytesView(bytes);
  const v = new DataView(block.buffer, block.byteOffset, block.byteLength);
  const out = new Uint32Array(bytes / width);
  for (let i = 0; i < out.length; i++) out[i] = is32 ? v.getUint32(i * 4, true) : v.getUint16(i * 2, true);
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

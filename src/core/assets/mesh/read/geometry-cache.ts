/**
 * A GeometryCache: its Tracks property names GeometryCacheTrackStreamable exports, each decoded
 * by the codec its Codec property names. After a streamable track's properties:
 *
 *   UObject: bHasGuid (bool32) [FGuid]
 *   UGeometryCacheTrack: MatrixSamples TArray<FMatrix> (doubles from UE5), MatrixSampleTimes
 *     TArray<float>, NumMaterials (u32)
 *   Chunks: TArray<FStreamedGeometryCacheChunk>: FByteBulkData, DataSize (i32), FirstFrame, LastFrame (f32)
 *   Samples: TArray<{SampleTime f32, FBox (doubles and IsValid u8 from UE5), NumVertices, NumIndices i32}>
 *   VisibilitySamples: TArray<{TRange<float>: two bounds of (type u8, value f32), bVisibilityState bool32}>
 *
 * The raw codec (GeometryCacheCodecRaw) keeps one frame per chunk, its payload an
 * FGeometryCacheMeshData:
 *
 *   BoundingBox FBox3f (6 f32, IsValid u8); BatchesInfo TArray<{StartIndex, NumTriangles, MaterialIndex u32}>
 *   VertexInfo: bool32 each of bHasTangentX, bHasTangentZ, bHasUV0, bHasColor0, bHasMotionVectors,
 *     [bHasImportedVertexNumbers, newer releases], bConstantUV0, bConstantColor0, bConstantIndices
 *   NumVertices (i32); positions FVector3f, then as flagged UV0 FVector2f, TangentX and TangentZ
 *     FPackedNormal, colours FColor (BGRA), imported vertex numbers u32, motion vectors FVector3f
 *   NumIndices (i32), u32 indices
 *
 * Which VertexInfo a chunk has is told by its size: the layout whose end is the chunk's DataSize.
 * Other codecs (GeometryCacheCodecV1's compressed streams) are named in the facts, not decoded.
 */
import { FormatError } from '../../../errors.js';
import { propertiesNotRead } from './not-read.js';
import { BinaryReader } from '../../../io/binary-reader.js';
import { readBulkData, readBulkPayload } from '../../texture/read/bulk-data.js';
import type { SourceExport, TextureSource as PackageSource } from '../../texture/read/package-source.js';
import { memoryPayload } from '../../texture/read/payload.js';
import { propertiesRead } from '../../texture/read/texture-serialize.js';
import { mergeParts } from '../parts.js';
import type { GeometryCacheSummary, Mesh, MeshFactTable, MeshLod, MeshMaterial, MeshPart, MeshTransform } from '../types.js';
import { objectName, prop, str } from './properties.js';
import { Release } from './versions.js';

const IDENTITY: MeshTransform = { translation: [0, 0, 0], rotation: [0, 0, 0, 1], scale: [1, 1, 1] };
/** Vertices or indices one frame may have before the count is corrupt data. */
const MAX_ELEMENTS = 1 << 26;
/** Batches (material sections) per frame. */
const MAX_BATCHES = 1 << 16;
/** Vertices decoded of one cache (all frames, all tracks) before the rest are only listed: about 200 MB of arrays. */
const MAX_DECODED_VERTICES = 4 << 20;
/** Frames a track may have. */
const MAX_FRAMES = 1 << 20;
/** Visibility samples per track: a track changes visibility a few times; more is a damaged file. */
const MAX_VISIBILITY_SAMPLES = 1 << 16;
/** Frames decoded of one cache: empty frames add no vertices, so the vertex budget alone does not bound the reads. */
const MAX_DECODED_FRAMES = 1 << 14;

type Track = GeometryCacheSummary['tracks'][number];

interface Frame { lod: MeshLod; attributes: string[] }

const unpack = (b: number): number => Math.max(-1, ((b << 24) >> 24) / 127);

/** One raw-codec frame (FGeometryCacheMeshData), `flags` the VertexInfo bools it has (8 or 9). */
function readMeshData(r: BinaryReader, flags: 8 | 9, frame: number): Frame {
  r.struct(`GeometryCache frame ${frame} (raw codec)`);
  r.skip(25); // BoundingBox: the vertices give it
  const batchAt = r.pos;
  const batches = r.count(12, 'batches');
  if (batches > MAX_BATCHES) throw r.error(`${batches} batches`, batchAt);
  const sections = Array.from({ length: batches }, () => ({ firstIndex: r.u32(), triangles: r.u32(), materialIndex: r.u32() }));
  const info = Array.from({ length: flags }, () => r.bool32());
  const [tangentX, tangentZ, uv0, color0, motion] = info;
  const imported = flags === 9 && info[5];
  const countAt = r.pos;
  const n = r.i32();
  const perVertex = 12 + (uv0 ? 8 : 0) + (tangentX ? 4 : 0) + (tangentZ ? 4 : 0) + (color0 ? 4 : 0) + (imported ? 4 : 0) + (motion ? 12 : 0);
  if (n < 0 || n > MAX_ELEMENTS || n * perVertex > r.remaining) throw r.error(`${n} vertices of ${perVertex} bytes do not fit the ${r.remaining} bytes left`, countAt);
  const floats = (count: number): Float32Array => {
    const b = r.bytesView(count * 4);
    const v = new DataView(b.buffer, b.byteOffset, b.byteLength);
    return Float32Array.from({ length: count }, (_, i) => v.getFloat32(i * 4, true));
  };
  const positions = floats(n * 3);
  const attributes = ['positions'];
  const uvs = uv0 ? [floats(n * 2)] : [];
  if (uv0) attributes.push('UVs');
  let tangents: Float32Array | undefined, normals: Float32Array | undefined;
  if (tangentX) {
    const b = r.bytesView(n * 4);
    tangents = new Float32Array(n * 4);
    for (let i = 0; i < n; i++) { for (let c = 0; c < 3; c++) tangents[i * 4 + c] = unpack(b[i * 4 + c]!); tangents[i * 4 + 3] = 1; }
  }
  if (tangentZ) {
    const b = r.bytesView(n * 4);
    normals = new Float32Array(n * 3);
    for (let i = 0; i < n; i++) {
      for (let c = 0; c < 3; c++) normals[i * 3 + c] = unpack(b[i * 4 + c]!);
      if (tangents) tangents[i * 4 + 3] = unpack(b[i * 4 + 3]!) < 0 ? -1 : 1;
    }
    attributes.push('normals');
  }
  if (tangents) attributes.push('tangents');
  let colors: Uint8Array | undefined;
  if (color0) {
    const b = r.bytesView(n * 4);
    colors = new Uint8Array(n * 4);
    for (let i = 0; i < n; i++) { colors[i * 4] = b[i * 4 + 2]!; colors[i * 4 + 1] = b[i * 4 + 1]!; colors[i * 4 + 2] = b[i * 4]!; colors[i * 4 + 3] = b[i * 4 + 3]!; }
    attributes.push('colours');
  }
  if (imported) { r.skip(n * 4); attributes.push('imported vertex numbers'); }
  if (motion) { r.skip(n * 12); attributes.push('motion vectors'); }
  const indexAt = r.pos;
  const ni = r.count(4, 'indices');
  if (ni > MAX_ELEMENTS || ni % 3 !== 0) throw r.error(`${ni} indices are not whole triangles`, indexAt);
  const ib = r.bytesView(ni * 4);
  const iv = new DataView(ib.buffer, ib.byteOffset, ib.byteLength);
  const indices = new Uint32Array(ni);
  for (let i = 0; i < ni; i++) {
    const x = iv.getUint32(i * 4, true);
    if (x >= n) throw r.error(`index ${i} names vertex ${x} of ${n}`, indexAt + 4 + i * 4);
    indices[i] = x;
  }
  for (const [i, s] of sections.entries()) {
    if (s.firstIndex + s.triangles * 3 > ni) throw r.error(`batch ${i} draws indices ${s.firstIndex} to ${s.firstIndex + s.triangles * 3} of ${ni}`, batchAt + 4 + i * 12);
  }
  const lod: MeshLod = {
    vertexCount: n, positions, ...(normals ? { normals } : {}), ...(tangents && normals ? { tangents } : {}), uvs, ...(colors ? { colors } : {}), indices,
    sections: sections.length > 0 ? sections : [{ materialIndex: 0, firstIndex: 0, triangles: ni / 3 }],
  };
  return { lod, attributes };
}

/** A chunk's frame, with the VertexInfo layout whose end is the chunk's DataSize (newest first). */
export function decodeRawChunk(payload: Uint8Array, dataSize: number, file: string, frame: number): Frame {
  if (dataSize > payload.length) throw new FormatError(file, `GeometryCache frame ${frame}`, 0, `the chunk says ${dataSize} bytes, its payload has ${payload.length}`);
  let first: unknown;
  for (const flags of [9, 8] as const) {
    const r = new BinaryReader(payload.subarray(0, dataSize), file, 0);
    try {
      const f = readMeshData(r, flags, frame);
      if (r.remaining === 0) return f;
      first ??= r.error(`the frame ends ${r.remaining} bytes before its chunk does`);
    } catch (e) {
      if (!(e instanceof FormatError)) throw e;
      first ??= e;
    }
  }
  throw first;
}

interface TrackNative {
  matrices: number[][];
  matrixTimes: number[];
  chunks: { bulk: ReturnType<typeof readBulkData>; dataSize: number; firstFrame: number; lastFrame: number }[];
  samples: { time: number; vertices: number; indices: number }[];
  visibility: Track['visibility'];
}

function readTrackNative(exp: SourceExport, source: PackageSource, release: number): TrackNative {
  const r = new BinaryReader(exp.bytes, exp.file, exp.base).struct(`${exp.class} "${exp.name}" native data`);
  r.seek(exp.properties.propertyStart + exp.properties.propertyBytes);
  if (r.bool32()) r.skip(16);
  const lwc = release >= Release.LargeWorldCoordinates;
  const real = (): number => (lwc ? r.f64() : r.f32());
  const nm = r.count(lwc ? 128 : 64, 'matrix samples');
  const matrices = Array.from({ length: nm }, () => Array.from({ length: 16 }, real));
  const nt = r.count(4, 'matrix sample times');
  const matrixTimes = Array.from({ length: nt }, () => r.f32());
  r.u32(); // NumMaterials
  const chunkAt = r.pos;
  const nc = r.count(16, 'chunks');
  if (nc > MAX_FRAMES) throw r.error(`${nc} chunks`, chunkAt);
  const chunks = Array.from({ length: nc }, () => {
    const bulk = readBulkData(r, source.bulk);
    const at = r.pos;
    const dataSize = r.i32();
    if (dataSize < 0) throw r.error(`chunk data size ${dataSize}`, at);
    return { bulk, dataSize, firstFrame: r.f32(), lastFrame: r.f32() };
  });
  const sampleSize = 4 + (lwc ? 49 : 25) + 8;
  const ns = r.count(sampleSize, 'samples');
  const samples = Array.from({ length: ns }, () => {
    const time = r.f32();
    r.skip(lwc ? 49 : 25);
    return { time, vertices: r.i32(), indices: r.i32() };
  });
  const visibilityAt = r.pos;
  const nv = r.count(14, 'visibility samples');
  if (nv > MAX_VISIBILITY_SAMPLES) throw r.error(`${nv} visibility samples`, visibilityAt);
  const bound = (): number | null => { const type = r.u8(); const v = r.f32(); return type === 2 ? null : v; };
  const visibility = Array.from({ length: nv }, () => ({ from: bound(), to: bound(), visible: r.bool32() }));
  if (r.remaining !== 0) throw r.error(`${r.remaining} bytes after the visibility samples`);
  return { matrices, matrixTimes, chunks, samples, visibility };
}

/** A 4x4 matrix as FMatrix stores it (rows: M[row][col], translation in row 3) applied to positions, in place. */
function transformPositions(lod: MeshLod, m: readonly number[]): void {
  const p = lod.positions;
  for (let i = 0; i < lod.vertexCount; i++) {
    const x = p[i * 3]!, y = p[i * 3 + 1]!, z = p[i * 3 + 2]!;
    for (let c = 0; c < 3; c++) p[i * 3 + c] = x * m[c]! + y * m[4 + c]! + z * m[8 + c]! + m[12 + c]!;
  }
}

const isIdentity = (m: readonly number[]): boolean => m.every((v, i) => Math.abs(v - (i % 5 === 0 ? 1 : 0)) < 1e-9);

/**
 * A track's visibility at the times it changes: each sample's bounds at or after 0, sorted, with
 * the state there, worked out once per track so that each frame costs a search, not a pass over
 * every sample per key.
 */
function visibilityChanges(visibility: Track['visibility']): { times: number[]; state: Map<number, boolean> } {
  const times = [...new Set(visibility.flatMap((v) => [v.from, v.to]).filter((x): x is number => x !== null && x >= 0))].sort((a, b) => a - b);
  // visibleAt of every time at once: the samples in stored order paint the times they cover that no
  // earlier sample painted ('next' skips painted runs), so each time is painted once.
  const painted: (boolean | undefined)[] = new Array(times.length);
  const next = Int32Array.from({ length: times.length + 1 }, (_, i) => i);
  const find = (i: number): number => {
    let root = i;
    while (next[root] !== root) root = next[root]!;
    while (next[i] !== root) { const up = next[i]!; next[i] = root; i = up; }
    return root;
  };
  for (const v of visibility) {
    const a = v.from === null ? 0 : firstAtOrAbove(times, v.from);
    const b = v.to === null ? times.length : v.from === v.to ? firstAbove(times, v.to) : firstAtOrAbove(times, v.to);
    for (let i = find(a); i < b; i = find(i)) { painted[i] = v.visible; next[i] = i + 1; }
  }
  const otherwise = visibility.length === 0 || visibility[visibility.length - 1]!.visible;
  return { times, state: new Map(times.map((t, i) => [t, painted[i] ?? otherwise])) };
}

/** The first index of sorted xs whose value is above x (or, with orEqual, at or above it). */
function firstAbove(xs: readonly number[], x: number, orEqual = false): number {
  let lo = 0, hi = xs.length;
  while (lo < hi) { const mid = (lo + hi) >> 1; if (xs[mid]! > x || (orEqual && xs[mid] === x)) hi = mid; else lo = mid + 1; }
  return lo;
}
const firstAtOrAbove = (xs: readonly number[], x: number): number => firstAbove(xs, x, true);

/**
 * The matrix in effect at time t: the last sample (in stored order) whose time is at or before t,
 * else the first. The suffix minima of the times rise, so that sample is found by a search.
 */
function matrixLookup(matrices: readonly number[][], times: readonly number[]): (t: number) => number[] | undefined {
  const n = Math.min(matrices.length, times.length);
  const suffixMin = new Float64Array(n);
  for (let k = n - 1, min = Infinity; k >= 0; k--) suffixMin[k] = min = Math.min(min, times[k]!);
  return (t) => {
    let lo = 0, hi = n; // the first k whose suffix minimum is above t
    while (lo < hi) { const mid = (lo + hi) >> 1; if (suffixMin[mid]! > t) hi = mid; else lo = mid + 1; }
    return lo > 0 ? matrices[lo - 1] : matrices[0];
  };
}

/** Whether the track shows at time t by its visibility samples (shown when none covers t). */
function visibleAt(visibility: Track['visibility'], t: number): boolean {
  for (const v of visibility) if ((v.from === null || t >= v.from) && (v.to === null || t < v.to || (t === v.to && v.from === v.to))) return v.visible;
  return visibility.length === 0 || visibility[visibility.length - 1]!.visible;
}

export async function geometryCacheOf(source: PackageSource, exp: SourceExport, release: number, signal?: AbortSignal): Promise<Mesh> {
  const notes = [...source.warnings];
  const notRead = (e: SourceExport, what: string): FormatError => propertiesNotRead(e, `the ${what} cannot be found`,
    `unversioned properties: the ${what} are found through properties, read only with the game's mappings (.usmap); pass them`);
  if (!propertiesRead(exp)) throw notRead(exp, 'tracks');
  const props = exp.properties.properties;
  const trackPaths = ((v) => (Array.isArray(v) ? v.filter((x): x is string => typeof x === 'string') : []))(prop(props, 'Tracks'));
  const materials: MeshMaterial[] = ((v) => (Array.isArray(v) ? v : []))(prop(props, 'Materials')).map((m, i) => {
    const material = typeof m === 'string' ? m : '';
    const slot = ((s) => (Array.isArray(s) && typeof s[i] === 'string' && s[i] !== 'None' ? s[i] as string : undefined))(prop(props, 'MaterialSlotNames'));
    return { name: slot ?? (material ? objectName(material) : `Material_${i}`), material };
  });
  const files = { ...source.files };
  const parts: MeshPart[] = [];
  const tracks: Track[] = [];
  const frameRows: MeshFactTable['rows'] = [];
  const visibilityRows: MeshFactTable['rows'] = [];
  let animated = false;
  let decodedVertices = 0, decodedFrames = 0, skipped = 0;
  /** Each frame index's geometry of every track: the view's LOD picker steps through them. */
  const frameLods: MeshLod[][] = [];
  for (const path of trackPaths) {
    const name = objectName(path);
    const t = source.exports.find((e) => e.name === name);
    if (!t) { notes.push(`track ${path} is not an export of the package (not read)`); continue; }
    if (t.class !== 'GeometryCacheTrackStreamable') {
      notes.push(`track ${name} is a ${t.class}, whose geometry PakScope does not read (only streamable tracks)`);
      continue;
    }
    if (!propertiesRead(t)) throw notRead(t, 'codec');
    const codecPath = str(prop(t.properties.properties, 'Codec')) ?? '';
    const codec = codecPath ? source.exports.find((e) => e.name === objectName(codecPath)) : undefined;
    const codecClass = codec?.class ?? (codecPath ? objectName(codecPath) : '(none)');
    const native = readTrackNative(t, source, release);
    const track: Track = {
      name, codec: codecClass, chunks: native.chunks.map((c) => ({ dataSize: c.dataSize, firstFrame: c.firstFrame, lastFrame: c.lastFrame })),
      samples: native.samples, visibility: native.visibility, frames: [],
    };
    tracks.push(track);
    const trackPart = parts.length;
    parts.push({ name, parent: -1, local: IDENTITY });
    for (const v of native.visibility) visibilityRows.push([name, v.from ?? '-inf', v.to ?? '+inf', v.visible ? 'visible' : 'hidden']);
    const raw = codecClass === 'GeometryCacheCodecRaw';
    if (!raw) notes.push(`track ${name}: its frames are coded by ${codecClass}, which PakScope does not decode (only GeometryCacheCodecRaw): listed, not drawn`);
    const times = native.samples.map((s) => s.time);
    const changes = visibilityChanges(native.visibility);
    const matrixAt = matrixLookup(native.matrices, native.matrixTimes);
    for (const [i, chunk] of native.chunks.entries()) {
      const sample = native.samples[i];
      let frame: Frame | undefined;
      if (raw && (decodedVertices > MAX_DECODED_VERTICES || decodedFrames >= MAX_DECODED_FRAMES)) {
        skipped++;
      } else if (raw) {
        const payload = await readBulkPayload(chunk.bulk, { ...files, inline: memoryPayload(t.file, t.bytes) }, `geometry cache frame ${i}`, signal);
        frame = decodeRawChunk(payload, chunk.dataSize, t.file, i);
        if (sample && (sample.vertices !== frame.lod.vertexCount || sample.indices !== frame.lod.indices.length)) {
          notes.push(`track ${name} frame ${i}: the sample says ${sample.vertices} vertices and ${sample.indices} indices, the chunk has ${frame.lod.vertexCount} and ${frame.lod.indices.length}`);
        }
        // The track's transform at the frame's time (the last matrix sample at or before it).
        const m = matrixAt(sample?.time ?? 0);
        if (m && !isIdentity(m)) transformPositions(frame.lod, m);
        track.frames.push({ vertices: frame.lod.vertexCount, triangles: frame.lod.indices.length / 3, attributes: frame.attributes });
        decodedVertices += frame.lod.vertexCount;
        decodedFrames++;
        (frameLods[i] ??= []).push(frame.lod);
      }
      frameRows.push([name, i, sample?.time ?? '', sample?.vertices ?? '', sample?.indices ?? '', chunk.dataSize, frame ? frame.attributes.join(', ') : 'not decoded', visibleAt(native.visibility, sample?.time ?? 0) ? 'visible' : 'hidden']);
      if (!frame) continue;
      // Shown from its sample's time to the next frame's (the first from time 0); hidden where the track is.
      const start = i === 0 ? 0 : times[i] ?? i;
      const end = times[i + 1];
      // Keys: 0, the frame's start and end, and the track's visibility changes between them (those
      // outside its span would only repeat 'hidden').
      const inside = changes.times.slice(firstAbove(changes.times, start), end === undefined ? undefined : firstAtOrAbove(changes.times, end));
      const keyTimes = [...new Set([0, start, ...(end !== undefined ? [end] : []), ...inside])].sort((a, b) => a - b);
      const shown = keyTimes.map((k) => k >= start && (end === undefined || k < end) && (changes.state.get(k) ?? visibleAt(native.visibility, k)));
      if (native.chunks.length > 1) animated = true;
      parts.push({
        name: `${name}_frame${i}`, parent: trackPart, local: IDENTITY, geometry: frame.lod,
        ...(shown.every((s) => s) ? {} : { visibility: { times: keyTimes, visible: shown } }),
      });
    }
    if (native.chunks.length === 0) notes.push(`track ${name} has no frames`);
  }
  if (tracks.length === 0) notes.push('the cache has no streamable track: nothing to draw');
  const used = Math.max(-1, ...parts.flatMap((p) => p.geometry?.sections.map((s) => s.materialIndex) ?? [])) + 1;
  for (let i = materials.length; i < used; i++) materials.push({ name: `Material_${i}`, material: '' });
  if (skipped > 0) notes.push(`${skipped} frames not decoded: the ${decodedFrames} frames before them hold ${decodedVertices} vertices, more than PakScope decodes of one cache (${MAX_DECODED_FRAMES} frames, ${MAX_DECODED_VERTICES} vertices)`);
  if (animated) notes.push('LOD n is frame n (of every track); the .glb holds every frame as a node, shown in turn by an animation of its scale');
  // Frame n of every track as LOD n (a single track's frames as they are, several merged).
  const lods = frameLods.filter((f) => f !== undefined).map((f) => (f.length === 1 ? f[0]! : mergeParts(f.map((geometry) => ({ name: '', parent: -1, local: IDENTITY, geometry })))));
  return {
    class: exp.class, name: exp.name, materials, sockets: [], notes, lods: lods.filter((l) => l.vertexCount > 0), bones: [], morphTargets: [],
    parts, geometryCache: { tracks },
    facts: [
      { title: 'Frames', columns: ['Track', 'Frame', 'Time (s)', 'Vertices', 'Indices', 'Chunk bytes', 'Decoded', 'Visibility'], rows: frameRows },
      { title: 'Visibility samples', columns: ['Track', 'From (s)', 'To (s)', 'State'], rows: visibilityRows },
    ],
  };
}

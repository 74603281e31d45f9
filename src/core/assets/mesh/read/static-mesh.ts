/**
 * The native data of a cooked UStaticMesh, after its property stream:
 *
 *   UObject: bHasGuid (bool32) and the object's FGuid when set
 *   FStripDataFlags; bCooked (bool32); BodySetup and NavCollision (FPackageIndex); LightingGuid;
 *   Sockets (TArray<FPackageIndex> of UStaticMeshSocket exports)
 *   FStaticMeshRenderData: TArray<FStaticMeshLODResources>; [4.23+ NumInlinedLODs (u8)];
 *     UE5: FNaniteResources (only its head is read here: whether the mesh has Nanite data), then
 *     distance fields, card representations, bounds and the static materials, not read: the
 *     bounds and materials are also properties.
 *
 *   FStaticMeshLODResources: FStripDataFlags; TArray<FStaticMeshSection>; [5.6+ SourceMeshBounds];
 *     MaxDeviation (f32); 4.23+: bIsLODCookedOut, bInlined (bool32), [5.5+ bHasRayTracingGeometry],
 *     then the buffers inline or in an FByteBulkData (streamed LODs, in the .ubulk or a bulk
 *     chunk), followed by the buffers' sizes; before 4.23 the buffers inline.
 *
 * Each candidate release of the package's versions (versions.ts) is tried newest first; the checks
 * on every count and size make a wrong release fail rather than read garbage.
 */
import { FormatError } from '../../../errors.js';
import { BinaryReader } from '../../../io/binary-reader.js';
import { type BulkDataRef, readBulkData } from '../../texture/read/bulk-data.js';
import type { SourceExport, TextureSource as PackageSource } from '../../texture/read/package-source.js';
import type { MeshSection } from '../types.js';
import {
  avStripped, checkIndices, editorStripped, readColors, readIndexBuffer, readPositions, readStaticVertexBuffer,
  readStripFlags, skipBulkArray, skipWeightedSampler, type StripFlags, type VertexStreams,
} from './buffers.js';
import { Release } from './versions.js';

/** A LOD's geometry once its buffers are read. */
export interface StaticLodBuffers extends VertexStreams {
  positions: Float32Array;
  colors?: Uint8Array;
  indices: Uint32Array;
}

export interface StaticLodRaw {
  sections: MeshSection[];
  /** The buffers read inline, or where a streamed LOD's are; undefined: cooked out or stripped. */
  buffers?: StaticLodBuffers | { bulk: BulkDataRef };
}

export interface StaticMeshNative {
  release: number;
  /** Package indices of the socket objects (1-based exports). */
  sockets: number[];
  lods: StaticLodRaw[];
  /** UE5: whether FNaniteResources holds data (a Nanite mesh); undefined when not known. */
  nanite?: boolean;
}

/** FStaticMeshLODResources class strip flags. */
const CDSF_ADJACENCY = 1;
const CDSF_REVERSED_INDICES = 4;
const CDSF_RAY_TRACING = 8;
/** LODs a static mesh can have (MAX_STATIC_MESH_LODS). */
const MAX_LODS = 8;
const MAX_SECTIONS = 1 << 16;

function readSection(r: BinaryReader, release: number): MeshSection & { minVertex: number; maxVertex: number } {
  const at = r.pos;
  const materialIndex = r.i32();
  const firstIndex = r.i32();
  const triangles = r.i32();
  const minVertex = r.i32();
  const maxVertex = r.i32();
  r.bool32(); // bEnableCollision
  r.bool32(); // bCastShadow
  if (release >= Release.RayTracing) r.bool32(); // bForceOpaque
  if (release >= Release.VisibleInRayTracing) r.bool32();
  if (release >= Release.AffectDistanceFieldLighting) r.bool32();
  if (materialIndex < 0 || firstIndex < 0 || triangles < 0 || minVertex < 0 || maxVertex < minVertex && triangles > 0) {
    throw r.error(`section: material ${materialIndex}, first index ${firstIndex}, ${triangles} triangles, vertices ${minVertex}-${maxVertex}`, at);
  }
  return { materialIndex, firstIndex, triangles, minVertex, maxVertex };
}

/** The buffers (FStaticMeshLODResources::SerializeBuffers, 4.23+), inline or from a streamed LOD's payload. */
export function readStaticBuffers(r: BinaryReader, release: number, sectionCount: number): StaticLodBuffers {
  const strip = readStripFlags(r);
  const buffers = readCommonBuffers(r, release);
  if ((strip.klass & CDSF_REVERSED_INDICES) === 0) readIndexBuffer(r, release, 'reversed index buffer');
  readIndexBuffer(r, release, 'depth-only index buffer');
  if ((strip.klass & CDSF_REVERSED_INDICES) === 0) readIndexBuffer(r, release, 'reversed depth-only index buffer');
  if (!editorStripped(strip)) readIndexBuffer(r, release, 'wireframe index buffer');
  if (release < Release.NoAdjacency && (strip.klass & CDSF_ADJACENCY) === 0) readIndexBuffer(r, release, 'adjacency index buffer');
  if (release >= Release.RayTracing && (strip.klass & CDSF_RAY_TRACING) === 0) {
    if (release >= Release.SourceMeshBounds) r.skip(24);
    skipBulkArray(r, 'ray tracing geometry');
  }
  for (let i = 0; i <= sectionCount; i++) skipWeightedSampler(r);
  return buffers;
}

function readCommonBuffers(r: BinaryReader, release: number): StaticLodBuffers {
  const positions = readPositions(r);
  const vertices = positions.length / 3;
  const streams = readStaticVertexBuffer(r, release, vertices);
  const colors = readColors(r, vertices);
  const indexAt = r.pos;
  const indices = readIndexBuffer(r, release, 'index buffer');
  if (indices.length % 3 !== 0) throw r.error(`the index buffer holds ${indices.length} indices, not whole triangles`, indexAt);
  checkIndices(r, indices, vertices, 'index buffer', indexAt);
  return { positions, ...streams, ...(colors ? { colors } : {}), indices };
}

/** The buffers before 4.23 (FStaticMeshLODResources::Serialize, inline). */
function readLegacyBuffers(r: BinaryReader, release: number, strip: StripFlags, sectionCount: number): StaticLodBuffers {
  const buffers = readCommonBuffers(r, release);
  if ((strip.klass & CDSF_REVERSED_INDICES) === 0) {
    readIndexBuffer(r, release, 'reversed index buffer');
    readIndexBuffer(r, release, 'depth-only index buffer');
    readIndexBuffer(r, release, 'reversed depth-only index buffer');
  } else readIndexBuffer(r, release, 'depth-only index buffer');
  if (!editorStripped(strip)) readIndexBuffer(r, release, 'wireframe index buffer');
  if ((strip.klass & CDSF_ADJACENCY) === 0) readIndexBuffer(r, release, 'adjacency index buffer');
  if (release >= 417) for (let i = 0; i <= sectionCount; i++) skipWeightedSampler(r);
  return buffers;
}

function readLod(r: BinaryReader, source: PackageSource, release: number, index: number): StaticLodRaw {
  r.struct(`static mesh LOD ${index}`);
  const strip = readStripFlags(r);
  const sectionCount = r.count(20, 'sections');
  if (sectionCount > MAX_SECTIONS) throw r.error(`${sectionCount} sections`, r.pos - 4);
  const sections = Array.from({ length: sectionCount }, () => readSection(r, release));
  if (release >= Release.SourceMeshBounds) r.skip(56);
  r.f32(); // MaxDeviation
  let buffers: StaticLodRaw['buffers'];
  if (release < Release.NewCookedStaticLod) {
    if (!avStripped(strip) && (strip.klass & 2) === 0) buffers = readLegacyBuffers(r, release, strip, sectionCount);
  } else {
    const cookedOut = r.bool32();
    const inlined = r.bool32();
    if (!avStripped(strip) && !cookedOut) {
      if (release >= Release.RayTracingGeometryFlag) r.skip(4);
      if (inlined) buffers = readStaticBuffers(r, release, sectionCount);
      else {
        const bulk = readBulkData(r, source.bulk);
        buffers = { bulk };
        // The buffers' metadata kept beside the streamed payload: depth-only triangles and flags,
        // then the vertex, colour and index buffers' own headers.
        r.skip(8 + 4 * 4 + 2 * 4 + 2 * 4 + 5 * 2 * 4);
        if (release < Release.NoAdjacency) r.skip(2 * 4);
        if (release >= Release.SourceMeshBounds) r.skip(6 * 4);
      }
      r.skip(12); // FStaticMeshBuffersSize
    }
  }
  const b = buffers && 'indices' in buffers ? buffers : undefined;
  if (b) checkSections(r, sections, b.indices.length, index);
  return { sections, ...(buffers ? { buffers } : {}) };
}

/** Every section's triangles lie inside the index buffer. */
export function checkSections(r: BinaryReader, sections: MeshSection[], indexCount: number, lod: number): void {
  for (const [i, s] of sections.entries()) {
    if (s.firstIndex + s.triangles * 3 > indexCount) {
      throw r.error(`LOD ${lod} section ${i}: ${s.triangles} triangles from index ${s.firstIndex} run past the ${indexCount} indices`, 0);
    }
  }
}

/** Reads from `start` (the end of the property stream) with one release's layout. */
export function readStaticMeshNative(exp: SourceExport, source: PackageSource, start: number, release: number): StaticMeshNative {
  const r = new BinaryReader(exp.bytes, exp.file, exp.base).struct(`${exp.class} "${exp.name}" native data`);
  r.seek(start);
  if (r.bool32()) r.skip(16);
  const stripAt = r.pos;
  const strip = readStripFlags(r);
  const cookedAt = r.pos;
  const cooked = r.bool32();
  r.i32(); // BodySetup
  r.i32(); // NavCollision
  if (!editorStripped(strip) || !cooked) {
    throw r.error('an uncooked static mesh: its geometry is editor source data (FMeshDescription), which PakScope does not read', cooked ? stripAt : cookedAt);
  }
  r.skip(16); // LightingGuid
  const socketCount = r.count(4, 'sockets');
  const sockets: number[] = [];
  for (let i = 0; i < socketCount; i++) sockets.push(r.i32());
  r.struct(`${exp.class} "${exp.name}" render data`);
  const lodAt = r.pos;
  const lodCount = r.count(8, 'LODs');
  if (lodCount > MAX_LODS) throw r.error(`${lodCount} LODs (at most ${MAX_LODS})`, lodAt);
  const lods: StaticLodRaw[] = [];
  for (let i = 0; i < lodCount; i++) lods.push(readLod(r, source, release, i));
  r.struct(`${exp.class} "${exp.name}" render data`);
  let nanite: boolean | undefined;
  if (release >= Release.InlinedLodCount) {
    const inlined = r.u8();
    if (inlined > lodCount) throw r.error(`${inlined} inlined LODs of ${lodCount}`, r.pos - 1);
  }
  if (release >= Release.LargeWorldCoordinates) {
    const naniteStrip = readStripFlags(r);
    if (!avStripped(naniteStrip)) {
      r.u32(); // ResourceFlags
      const pages = readBulkData(r, source.bulk);
      const rootBytes = r.count(1, 'Nanite root data');
      nanite = pages.sizeOnDisk > 0 || rootBytes > 0;
    } else nanite = false;
  }
  return { release, sockets, lods, ...(nanite !== undefined ? { nanite } : {}) };
}

/** Reads with each candidate release in turn; the first that reads wins, else the first error. */
export function readStaticMeshAnyRelease(exp: SourceExport, source: PackageSource, start: number, releases: readonly number[]): StaticMeshNative {
  let first: unknown;
  for (const release of releases) {
    try {
      return readStaticMeshNative(exp, source, start, release);
    } catch (e) {
      if (!(e instanceof FormatError)) throw e;
      first ??= e;
    }
  }
  throw first ?? new FormatError(exp.file, `${exp.class} "${exp.name}"`, exp.base, 'no engine release to read it with');
}

/** Bytes of an export searched for the mesh data when its properties cannot be read. */
const SCAN_LIMIT = 1 << 20;

/**
 * The native data when the property stream cannot be read (unversioned without mappings): the
 * first offset that reads as a cooked static mesh, starting with bHasGuid 0/1, strip flags with
 * editor data stripped and bCooked 1.
 */
export function findStaticMeshNative(exp: SourceExport, source: PackageSource, releases: readonly number[]): StaticMeshNative | undefined {
  const b = exp.bytes;
  const v = new DataView(b.buffer, b.byteOffset, b.byteLength);
  for (let p = 0; p + 12 <= Math.min(b.length, SCAN_LIMIT); p++) {
    const guid = v.getUint32(p, true);
    if (guid > 1) continue;
    const s = p + (guid ? 20 : 4);
    if (s + 6 > b.length || (b[s]! & 1) === 0 || v.getUint32(s + 2, true) !== 1) continue;
    for (const release of releases) {
      try {
        // Property bytes can pass for an empty mesh: the data sought has LODs.
        const found = readStaticMeshNative(exp, source, p, release);
        if (found.lods.length > 0) return found;
      } catch (e) {
        if (!(e instanceof FormatError)) throw e;
      }
    }
  }
  return undefined;
}

/** A streamed LOD's buffers from its payload. */
export function readStreamedStaticLod(payload: Uint8Array, file: string, release: number, sections: MeshSection[], lod: number): StaticLodBuffers {
  const r = new BinaryReader(payload, file, 0).struct(`static mesh LOD ${lod} streamed buffers`);
  const buffers = readStaticBuffers(r, release, sections.length);
  checkSections(r, sections, buffers.indices.length, lod);
  return buffers;
}

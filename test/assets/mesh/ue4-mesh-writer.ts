/**
 * Writes cooked UE4 mesh exports (the native data after an empty tagged property stream) in the
 * layouts of a given release, with known geometry, and wraps them as the package source the mesh
 * readers take. The corpus has no UE4 mesh of these releases; these are written from the engine's
 * serialization as CUE4Parse documents it (FStaticLODModel before 4.19, the one-piece
 * FSkeletalMeshLODRenderData of 4.19-4.23, the new cooked format from 4.24; FStaticMeshLODResources
 * before and after 4.23), field by field, so a reader that skips or misorders a field fails.
 *
 * The mesh: bones Root, Joint_1 (50 cm up), Joint_2 (50 cm above it); 7 vertices in 2 sections
 * (slots 0 and 1), 3 triangles; 2 UV channels; normals +Z, tangents +X; colours; section 0 bound
 * to Root and Joint_1, section 1 to Joint_2 and Joint_1 (its bone map [2, 1]).
 */
import type { SourceExport, TextureSource } from '../../../src/core/assets/texture/read/package-source.js';

export const POSITIONS = [
  [-10, 0, 0], [10, 0, 0], [-10, 0, 50], [10, 0, 50], // section 0
  [-10, 0, 100], [10, 0, 100], [0, 0, 120], // section 1
] as const;
export const INDICES = [0, 2, 1, 1, 2, 3, 4, 6, 5];
export const UV0 = POSITIONS.map(([x, , z]) => [(x + 10) / 20, z / 120]);
export const UV1 = POSITIONS.map((_, i) => [i / 8, 0.5]);
export const COLORS = POSITIONS.map((_, i) => [i * 30, 255 - i * 30, 7, 255]); // r, g, b, a
/** Per vertex: (section-local bone, weight 0-255) pairs; section 0's bone map is [0, 1], section 1's [2, 1]. */
export const INFLUENCES = [
  [[0, 255]], [[0, 255]], [[0, 128], [1, 127]], [[0, 128], [1, 127]],
  [[0, 255]], [[0, 255]], [[0, 200], [1, 55]],
] as const;
export const BONE_MAPS = [[0, 1], [2, 1]];
export const SECTIONS = [{ material: 0, firstIndex: 0, triangles: 2, baseVertex: 0, vertices: 4 }, { material: 1, firstIndex: 6, triangles: 1, baseVertex: 4, vertices: 3 }];
export const BONES = [['Root', -1, 0], ['Joint_1', 0, 50], ['Joint_2', 1, 50]] as const;

export const NAMES = ['None', 'Root', 'Joint', 'Mat_A', 'Mat_B', 'bHasVertexColors', 'Profile_A', 'Attr_A'];
const nameIndex = (s: string): [number, number] => {
  const m = /^(.*)_(\d+)$/.exec(s);
  if (m && NAMES.includes(m[1]!)) return [NAMES.indexOf(m[1]!), Number(m[2]) + 1];
  return [NAMES.indexOf(s), 0];
};

/** Little-endian bytes, appended. */
export class Out {
  private b: number[] = [];
  private v = new DataView(new ArrayBuffer(8));
  get length(): number { return this.b.length; }
  u8(x: number): this { this.b.push(x & 255); return this; }
  private raw(n: number): this { for (let i = 0; i < n; i++) this.b.push(this.v.getUint8(i)); return this; }
  i16(x: number): this { this.v.setInt16(0, x, true); return this.raw(2); }
  u16(x: number): this { this.v.setUint16(0, x, true); return this.raw(2); }
  i32(x: number): this { this.v.setInt32(0, x, true); return this.raw(4); }
  u32(x: number): this { this.v.setUint32(0, x, true); return this.raw(4); }
  f32(x: number): this { this.v.setFloat32(0, x, true); return this.raw(4); }
  bool(x: boolean): this { return this.i32(x ? 1 : 0); }
  name(s: string): this { const [i, n] = nameIndex(s); return this.i32(i).i32(n); }
  zeros(n: number): this { for (let i = 0; i < n; i++) this.b.push(0); return this; }
  strip(global: number, klass: number): this { return this.u8(global).u8(klass); }
  bytes(): Uint8Array { return Uint8Array.from(this.b); }
}

/** A packed normal component: unsigned (x + 1) * 127.5 before 4.20, a signed byte x * 127 from 4.20. */
const packNormal = (x: number, release: number): number => (release >= 420 ? Math.round(x * 127) & 255 : Math.round((x + 1) * 127.5));
const tangentX = (o: Out, release: number): Out => o.u8(packNormal(1, release)).u8(packNormal(0, release)).u8(packNormal(0, release)).u8(packNormal(0, release));
const tangentZ = (o: Out, release: number): Out => o.u8(packNormal(0, release)).u8(packNormal(0, release)).u8(packNormal(1, release)).u8(packNormal(1, release));

function positionBuffer(o: Out): void {
  o.i32(12).i32(POSITIONS.length).i32(12).i32(POSITIONS.length);
  for (const p of POSITIONS) p.forEach((c) => o.f32(c));
}

/** FStaticMeshVertexBuffer: low-precision tangents, full-precision UVs (half with `half`). */
function staticVertexBuffer(o: Out, release: number, half = false): void {
  const n = POSITIONS.length;
  const uvSize = half ? 4 : 8;
  o.strip(0, 0).i32(2);
  if (release < 419) o.i32(8 + 2 * uvSize); // Strides
  o.i32(n).bool(!half).bool(false);
  if (release < 419) {
    o.i32(8 + 2 * uvSize).i32(n);
    for (let i = 0; i < n; i++) { tangentX(o, release); tangentZ(o, release); uvs(o, i, half); }
    return;
  }
  o.i32(8).i32(n);
  for (let i = 0; i < n; i++) { tangentX(o, release); tangentZ(o, release); }
  o.i32(uvSize).i32(n * 2);
  for (let i = 0; i < n; i++) uvs(o, i, half);
}

/** FColorVertexBuffer of the first `n` vertices (all by default; a UE4 LOD with cloth stops where the cloth section starts). */
function colorBuffer(o: Out, n = COLORS.length): void {
  o.strip(0, 0).i32(4).i32(n).i32(4).i32(n);
  for (const [r, g, b, a] of COLORS.slice(0, n)) o.u8(b!).u8(g!).u8(r!).u8(a!);
}

/** Section 1's cloth: 3 FMeshToMeshVertData in its mapping, and the LOD's cloth vertex buffer. */
const CLOTH_VERTICES = 3;
const clothMapping = (o: Out, s: number, opts: SkeletalOptions): Out => (opts.cloth && s === 1 ? o.i32(CLOTH_VERTICES).zeros(64 * CLOTH_VERTICES) : o.i32(0));
function clothBuffer(o: Out, release: number, opts: SkeletalOptions): void {
  if (!opts.cloth) return;
  o.strip(0, 0).i32(64).i32(CLOTH_VERTICES).zeros(64 * CLOTH_VERTICES);
  if (release >= 418) o.i32(1).u32(0).u32(0); // the cloth index mapping
}
const colorsOf = (o: Out, opts: SkeletalOptions): void => colorBuffer(o, opts.cloth ? SECTIONS[1]!.baseVertex : COLORS.length);

/** 4 influences per vertex: 4 bone bytes then 4 weight bytes. */
/** `k` (4 or 8) influences of vertex `i`: k bone bytes then k weight bytes. */
function influences(o: Out, i: number, k: number): void {
  const inf = INFLUENCES[i]!;
  for (let j = 0; j < k; j++) o.u8(inf[j]?.[0] ?? 0);
  for (let j = 0; j < k; j++) o.u8(inf[j]?.[1] ?? 0);
}

function skinWeightBuffer(o: Out, release: number, opts: SkeletalOptions): void {
  const n = POSITIONS.length;
  const k = opts.eightInfluences ? 8 : 4;
  o.strip(0, 0);
  if (release < 425) {
    o.bool(k === 8);
    if (release >= 424) o.u32(k * 2); // Stride
    o.u32(n).i32(k * 2).i32(n);
    for (let i = 0; i < n; i++) influences(o, i, k);
    return;
  }
  o.bool(false).u32(k).u32(n * k).u32(n).bool(false);
  if (release >= 502) o.bool(false); // bUse16BitBoneWeight
  o.i32(1).i32(n * k * 2);
  for (let i = 0; i < n; i++) influences(o, i, k);
  o.strip(0, 0).i32(0).i32(4).i32(0); // the lookup table, empty (a fixed count per vertex)
}

/** A half float (IEEE 754 binary16) of a value in [0, 2). */
export function toHalf(x: number): number {
  if (x === 0) return 0;
  let e = Math.floor(Math.log2(x));
  let m = Math.round((x / 2 ** e - 1) * 1024);
  if (m === 1024) { e++; m = 0; }
  return ((e + 15) << 10) | m;
}
const uvs = (o: Out, i: number, half: boolean): void => {
  for (const v of [UV0[i]![0]!, UV0[i]![1]!, UV1[i]![0]!, UV1[i]![1]!]) if (half) o.u16(toHalf(v)); else o.f32(v);
};

function multisizeIndices(o: Out, indices: readonly number[]): void {
  o.u8(2).i32(2).i32(indices.length);
  for (const i of indices) o.u16(i);
}

function boneMap(o: Out, s: number): void {
  o.i32(BONE_MAPS[s]!.length);
  for (const b of BONE_MAPS[s]!) o.u16(b);
}

/** FSkelMeshRenderSection (4.19+). */
function renderSection(o: Out, release: number, s: number, opts: SkeletalOptions): void {
  const x = SECTIONS[s]!;
  o.strip(0, 1).i16(x.material).i32(x.firstIndex).i32(x.triangles).bool(false).bool(true).u32(x.baseVertex);
  clothMapping(o, s, opts);
  boneMap(o, s);
  o.i32(x.vertices).u32(4).i16(-1).zeros(20);
  if (release < 423) o.i32(0).i32(0); // duplicated vertices (class strip flag 1 set from 4.23)
  o.bool(false); // bDisabled
}

/** FSkelMeshSection as FStaticLODModel serializes it (before 4.19). */
function modelSection(o: Out, release: number, s: number, opts: SkeletalOptions): void {
  const x = SECTIONS[s]!;
  o.strip(0, 0).i16(x.material).i32(x.firstIndex).i32(x.triangles).u8(0).bool(false).i16(-1).u8(0).bool(false).bool(true).u32(x.baseVertex);
  boneMap(o, s);
  o.i32(x.vertices).i32(4);
  clothMapping(o, s, opts).i32(0).i32(0).i16(-1); // cloth mapping, physical mesh vertices and normals, cloth asset
  if (release < 416) o.i16(-1);
  else o.zeros(20);
}

export interface SkeletalOptions {
  /** Section 1 simulated as cloth: its mapping and the LOD's cloth vertex buffer, stepped over by the reader. */
  cloth?: boolean;
  /** 8 influences per vertex (bExtraBoneInfluences) instead of 4. */
  eightInfluences?: boolean;
  /** Half-precision UVs. */
  halfUvs?: boolean;
  /** Skin weight profile names written in the LOD (4.23+), stepped over by the reader. */
  profiles?: string[];
}

function skinWeightProfiles(o: Out, release: number, names: readonly string[]): void {
  o.i32(names.length);
  for (const n of names) {
    o.name(n);
    if (release < 426) { o.i32(1).u32(0).u32(1); o.i32(1).u16(65535); } // one override, one weight
    else { o.i32(1).u8(0); o.i32(1).u8(255); o.u8(1); }
    o.i32(1).u32(3).u32(0); // vertex 3 -> influence 0
  }
}

/**
 * The LOD's buffers of the new cooked format (4.24+), inline; for UE5 releases (written for the
 * buffers alone) also the morph flag, `attributes` (5.3+: FSkeletalMeshAttributeVertexBuffer of 2
 * half components, its pixel format a byte) and the half-edge strip flags (5.4+).
 */
export function streamedBuffers(o: Out, release: number, opts: SkeletalOptions & { attributes?: string[] }): void {
  o.strip(0, 1);
  multisizeIndices(o, INDICES);
  positionBuffer(o);
  staticVertexBuffer(o, release, opts.halfUvs);
  skinWeightBuffer(o, release, opts);
  colorsOf(o, opts);
  clothBuffer(o, release, opts);
  skinWeightProfiles(o, release, opts.profiles ?? []);
  if (release >= 506) o.zeros(24).i32(1).i32(0); // the ray tracing geometry's header and data
  else if (release >= 427) o.i32(0);
  if (release >= 500) o.bool(false); // no GPU morph buffers
  if (release >= 503) {
    const names = opts.attributes ?? [];
    o.i32(names.length);
    for (const n of names) o.name(n).i32(2).u8(7).i32(2).i32(4).i32(1).i32(POSITIONS.length * 4).zeros(POSITIONS.length * 4);
  }
  if (release >= 504) o.strip(0, 1); // half-edge data stripped
}

/** A cooked USkeletalMesh's native data as UE`release` (414 = 4.14) writes it. */
export function skeletalMeshExport(release: number, opts: SkeletalOptions = {}): Uint8Array {
  const o = new Out();
  o.bool(false).strip(1, 0);
  [0, 0, 60, 10, 1, 60, 61].forEach((x) => o.f32(x)); // ImportedBounds: origin, extent, radius
  o.i32(2);
  for (const slot of ['Mat_A', 'Mat_B']) {
    o.i32(0).name(slot);
    if (release >= 422) o.bool(false);
    o.bool(true).bool(false).f32(1).f32(1).f32(0).f32(0);
  }
  o.i32(BONES.length);
  for (const [name, parent] of BONES) o.name(name).i32(parent);
  o.i32(BONES.length);
  for (const [, , up] of BONES) [0, 0, 0, 1, 0, 0, up, 1, 1, 1].forEach((x) => o.f32(x));
  o.i32(BONES.length);
  BONES.forEach(([name], i) => o.name(name).i32(i));
  const n = POSITIONS.length;
  if (release < 419) {
    o.i32(1);
    o.strip(1, 1); // FStaticLODModel: editor data and adjacency stripped
    o.i32(2);
    modelSection(o, release, 0, opts);
    modelSection(o, release, 1, opts);
    multisizeIndices(o, INDICES);
    o.i32(0); // ActiveBoneIndices
    o.i32(0).i32(n); // Size, NumVertices
    o.i32(3).i16(0).i16(1).i16(2); // RequiredBones
    o.i32(0).i32(0); // MeshToImportVertexMap, MaxImportVertex
    o.i32(2); // NumTexCoords
    const k = opts.eightInfluences ? 8 : 4;
    o.strip(0, 0).i32(2).bool(!opts.halfUvs);
    if (release < 415) o.bool(k === 8);
    o.zeros(24);
    const stride = 8 + (release < 415 ? 2 * k : 0) + 12 + (opts.halfUvs ? 8 : 16);
    o.i32(stride).i32(n);
    for (let i = 0; i < n; i++) {
      tangentX(o, release); tangentZ(o, release);
      if (release < 415) influences(o, i, k);
      POSITIONS[i]!.forEach((c) => o.f32(c));
      uvs(o, i, opts.halfUvs ?? false);
    }
    if (release >= 415) skinWeightBuffer(o, release, opts);
    if (release < 415) {
      o.strip(0, 0).i32(4).i32(n);
      for (const [r, g, b, a] of COLORS) o.u8(b!).u8(g!).u8(r!).u8(a!);
    } else colorsOf(o, opts);
    clothBuffer(o, release, opts);
    return o.bytes();
  }
  o.bool(true); // bCooked
  o.i32(1);
  if (release < 424) {
    o.strip(0, 1);
    o.i32(2);
    renderSection(o, release, 0, opts);
    renderSection(o, release, 1, opts);
    multisizeIndices(o, INDICES);
    o.i32(0); // ActiveBoneIndices
    o.i32(3).i16(0).i16(1).i16(2); // RequiredBones
    positionBuffer(o);
    staticVertexBuffer(o, release, opts.halfUvs);
    skinWeightBuffer(o, release, opts);
    colorsOf(o, opts);
    clothBuffer(o, release, opts);
    if (release >= 423) skinWeightProfiles(o, release, opts.profiles ?? []);
    return o.bytes();
  }
  o.strip(0, 0).bool(false).bool(true);
  o.i32(3).i16(0).i16(1).i16(2); // RequiredBones
  o.i32(2);
  renderSection(o, release, 0, opts);
  renderSection(o, release, 1, opts);
  o.i32(0); // ActiveBoneIndices
  o.u32(0); // the buffers' size
  streamedBuffers(o, release, opts);
  o.u8(1).u8(1); // NumInlinedLODs, NumNonOptionalLODs
  return o.bytes();
}

/** A cooked UStaticMesh's native data as UE`release` writes it: one LOD of the same vertices, two sections. */
export function staticMeshExport(release: number): Uint8Array {
  const o = new Out();
  o.bool(false).strip(1, 0).bool(true).i32(0).i32(0).zeros(16).i32(0); // guid, strip, bCooked, BodySetup, NavCollision, LightingGuid, no sockets
  o.i32(1);
  // Editor data stripped (as cooked); class strip flags: no adjacency (1), no reversed index buffers (4), no ray tracing (8).
  o.strip(1, 1 | 4 | 8);
  o.i32(2);
  SECTIONS.forEach((x) => {
    o.i32(x.material).i32(x.firstIndex).i32(x.triangles).i32(x.baseVertex).i32(x.baseVertex + x.vertices - 1).bool(true).bool(true);
    if (release >= 425) o.bool(false);
    if (release >= 426) o.bool(true);
  });
  o.f32(0); // MaxDeviation
  if (release >= 423) o.bool(false).bool(true).strip(1, 1 | 4 | 8);
  positionBuffer(o);
  staticVertexBuffer(o, release);
  colorBuffer(o);
  const index = (list: readonly number[]): void => {
    o.bool(false).i32(1).i32(list.length * 2);
    for (const i of list) o.u16(i);
    if (release >= 425) o.bool(false);
  };
  index(INDICES);
  index([]); // depth-only
  for (let i = 0; i <= SECTIONS.length; i++) o.i32(0).i32(0).f32(0); // the area-weighted samplers
  if (release >= 423) o.zeros(12).u8(1); // FStaticMeshBuffersSize; NumInlinedLODs
  return o.bytes();
}

/** Morph target Morph_A: vertex 5 moved by (1, 2, 3), vertex 6 by (0, 5, 10) with its normal turned by (0.1, 0, 0). */
export const MORPH = { name: 'Morph_A', vertices: [5, 6], positions: [[1, 2, 3], [0, 5, 10]], normals: [[0, 0, 0], [0.1, 0, 0]] };

/** A UMorphTarget export's native data as UE`release` writes it, its deltas kept (FMorphTargetLODModel). */
export function morphTargetExport(release: number): Uint8Array {
  const o = new Out();
  o.bool(false).strip(1, 0);
  if (release >= 508) o.bool(false); // bCooked
  o.i32(1);
  if (release >= 500) o.bool(false); // bVerticesAreStrippedForCookedBuilds
  o.i32(2);
  MORPH.vertices.forEach((v, i) => { MORPH.positions[i]!.forEach((c) => o.f32(c)); MORPH.normals[i]!.forEach((c) => o.f32(c)); o.u32(v); });
  o.i32(POSITIONS.length); // NumBaseMeshVerts
  if (release >= 419) o.i32(1).i32(1); // SectionIndices [1]
  if (release >= 420) o.bool(false); // bGeneratedByEngine
  if (release >= 506) o.i32(0); // SourceFilename
  return o.bytes();
}

/** Unversioned property bytes the readers cannot decode without the game's mappings (a fragment header and values). */
const UNVERSIONED_PROPERTIES = [0x03, 0x80, 0x05, 0x00, 0x2a, 0x00, 0x00, 0x00, 0x9a, 0x99, 0x19, 0x3f, 0x07];

const exportOf = (name: string, cls: string, data: Uint8Array, index: number, unversioned: boolean): SourceExport => {
  const bytes = unversioned ? Uint8Array.from([...UNVERSIONED_PROPERTIES, ...data]) : data;
  return {
    index, name, class: cls, bytes, base: 0, file: 'Written.uexp',
    properties: unversioned
      ? { index, name, class: cls, properties: [], propertyBytes: 0, propertyStart: 0, serialSize: bytes.length, encoding: 'unversioned', error: null, notes: ['unversioned properties: no mappings given'] }
      : {
        index, name, class: cls, properties: cls === 'MorphTarget' ? [] : [{ name: 'bHasVertexColors', type: 'BoolProperty', value: true }],
        propertyBytes: 0, propertyStart: 0, serialSize: bytes.length, encoding: 'tagged', error: null,
      },
  };
};

/**
 * The package source the readers take, around one mesh export (and, for a skeletal mesh, its morph
 * target when given); `unversioned`: behind property bytes no mappings were given for.
 */
export function writtenSource(cls: 'StaticMesh' | 'SkeletalMesh', bytes: Uint8Array, release: number, morph?: Uint8Array, unversioned = false): TextureSource {
  const name = cls === 'StaticMesh' ? 'SM_Written' : 'SK_Written';
  const exports = [exportOf(name, cls, bytes, 0, unversioned), ...(morph ? [exportOf(MORPH.name, 'MorphTarget', morph, 1, unversioned)] : [])];
  return {
    path: `${name}.uasset`, packageName: `/Game/${name}`, names: NAMES, ue4: 0, ue5: 0, engine: `${Math.floor(release / 100)}.${release % 100}`,
    exports, bulk: { largeOffsets: true, bulkDataStartOffset: 0 }, files: { separate: () => undefined }, warnings: [],
  };
}

/**
 * A GeometryCollection (Chaos destruction) as a mesh of its pieces. After its properties:
 *
 *   UObject: bHasGuid (bool32) [FGuid]; bIsCookedOrCooking (bool32)
 *   FManagedArrayCollection: Version (i32); GroupInfo TMap<FName, {version i32, size i32}>;
 *     Map TMap<{attribute FName, group FName}, FValueType>
 *   FValueType: serialization version (i32; before 4 an array scope i32 follows the type),
 *     EManagedArrayType (i32), [2+: GroupIndexDependency FName, bPersistent bool32], then the
 *     array: its version (i32) and either a bulk array (element size i32, count i32, the bytes;
 *     plain-data types) or a TArray of the type's elements.
 *
 * The pieces are the Transform group (Transform: FTransform3f relative to Parent, BoneName), their
 * geometry the Geometry group (TransformIndex, VertexStart/Count, FaceStart/Count) over the
 * Vertices (Vertex, Normal, UVLayer0..., Color, in their transform's space) and Faces (Indices,
 * Visible, MaterialID). Attributes of types whose layout PakScope does not know (Chaos implicit
 * objects, convex hulls...) end the reading of the map; what was read before them is used, and a
 * note names where it stopped. The render data that follows (Nanite or mesh resources) is not read.
 */
import { FormatError } from '../../../errors.js';
import { propertiesNotRead } from './not-read.js';
import { parentsFirst } from '../parents-first.js';
import { BinaryReader } from '../../../io/binary-reader.js';
import type { SourceExport, TextureSource as PackageSource } from '../../texture/read/package-source.js';
import { propertiesRead } from '../../texture/read/texture-serialize.js';
import { readFNameOf } from '../../../uasset/names.js';
import { mergeParts } from '../parts.js';
import type { Mesh, MeshFactTable, MeshLod, MeshMaterial, MeshPart, MeshTransform } from '../types.js';
import { objectName, prop } from './properties.js';
import { Release } from './versions.js';

/** EManagedArrayType values read here, with their element size where it is fixed. */
const T = {
  Vector: 1, IntVector: 2, Vector2D: 3, LinearColor: 4, Int32: 5, Bool: 6, String: 8, Float: 9, BoneNode: 11, MeshSection: 12, Box: 13,
  IntArray: 14, Guid: 15, UInt8: 16, Vector2DArray: 31, Double: 32, IntVector4: 33, Vector3d: 34, IntVector2: 35, IntVector2Array: 36,
  Int32Array: 37, FloatArray: 38, Vector4f: 39, Transform3f: 44, UintVector2: 50, Name: 53,
} as const;
const FIXED: Record<number, number> = {
  [T.Vector]: 12, [T.IntVector]: 12, [T.Vector2D]: 8, [T.LinearColor]: 16, [T.Int32]: 4, [T.Bool]: 1, [T.Float]: 4, [T.MeshSection]: 20,
  [T.Box]: 49, [T.Guid]: 16, [T.UInt8]: 1, [T.Double]: 8, [T.IntVector4]: 16, [T.Vector3d]: 24, [T.IntVector2]: 8, [T.Vector4f]: 16,
  [T.Transform3f]: 40, [T.UintVector2]: 8, [T.Name]: 8,
};
/** Types the engine bulk-serializes (TManagedArray's plain-data specializations). */
const BULK = new Set<number>([T.Vector, T.IntVector, T.Vector2D, T.Int32, T.Bool, T.Float, T.Guid, T.UInt8, T.Double, T.IntVector4, T.IntVector2, T.UintVector2]);
/** Arrays of arrays: a count per element, then that many elements of this size. */
const NESTED: Record<number, number> = { [T.IntArray]: 4, [T.Int32Array]: 4, [T.FloatArray]: 4, [T.Vector2DArray]: 8, [T.IntVector2Array]: 8 };
const MAX_GROUPS = 1 << 10;
const MAX_ATTRIBUTES = 1 << 14;
const MAX_ELEMENTS = 1 << 26;
/** Material ids past this are damage, not slots to list. */
const MAX_MATERIALS = 1 << 16;

interface Attribute { type: number; count: number; bytes: Uint8Array; strings?: string[] }

interface Collection {
  groups: { name: string; size: number }[];
  attributes: Map<string, Attribute>;
  /** Where the map could not be read further, and why. */
  stopped?: string;
}

function readCollection(r: BinaryReader, names: readonly string[]): Collection {
  const name = (): string => readFNameOf(r, names);
  r.struct('GeometryCollection FManagedArrayCollection');
  r.i32(); // Version
  const gAt = r.pos;
  const ng = r.count(16, 'groups');
  if (ng > MAX_GROUPS) throw r.error(`${ng} groups`, gAt);
  const groups = Array.from({ length: ng }, () => {
    const n = name();
    r.i32();
    const size = r.i32();
    if (size < 0 || size > MAX_ELEMENTS) throw r.error(`group ${n} has ${size} elements`, r.pos - 4);
    return { name: n, size };
  });
  const attributes = new Map<string, Attribute>();
  const mAt = r.pos;
  const nm = r.count(24, 'attributes');
  if (nm > MAX_ATTRIBUTES) throw r.error(`${nm} attributes`, mAt);
  for (let i = 0; i < nm; i++) {
    const at = r.pos;
    const attr = name(), group = name();
    const version = r.i32();
    const type = r.i32();
    if (version < 4) r.i32(); // array scope
    if (version >= 2) { name(); r.bool32(); }
    if (version > 4) throw r.error(`attribute ${group}.${attr}: value serialization version ${version}`, at);
    r.i32(); // the array's version
    const key = `${group}.${attr}`;
    if (BULK.has(type)) {
      const sAt = r.pos;
      const size = r.i32(), count = r.i32();
      if (size !== FIXED[type] && count > 0) throw r.error(`attribute ${key}: element size ${size}, expected ${FIXED[type]}`, sAt);
      if (count < 0 || count > MAX_ELEMENTS || count * size > r.remaining) throw r.error(`attribute ${key}: ${count} elements of ${size} bytes do not fit`, sAt + 4);
      attributes.set(key, { type, count, bytes: r.bytesView(count * size) });
    } else if (FIXED[type] !== undefined) {
      const count = r.count(FIXED[type]!, `attribute ${key} elements`);
      attributes.set(key, { type, count, bytes: r.bytesView(count * FIXED[type]!) });
    } else if (type === T.String) {
      const count = r.count(4, `attribute ${key} strings`);
      const strings = Array.from({ length: count }, () => r.fstring());
      attributes.set(key, { type, count, bytes: new Uint8Array(0), strings });
    } else if (NESTED[type] !== undefined) {
      const count = r.count(4, `attribute ${key} elements`);
      for (let k = 0; k < count; k++) r.skip(r.count(NESTED[type]!, `attribute ${key} element ${k}`) * NESTED[type]!);
      attributes.set(key, { type, count, bytes: new Uint8Array(0) });
    } else if (type === T.BoneNode) {
      const count = r.count(16, `attribute ${key} elements`);
      for (let k = 0; k < count; k++) { r.skip(8); r.skip(r.count(4, 'children') * 4); r.skip(4); }
      attributes.set(key, { type, count, bytes: new Uint8Array(0) });
    } else {
      return { groups, attributes, stopped: `${key} (managed array type ${type}, at byte ${r.base + at}) and the ${nm - i - 1} attributes after it` };
    }
  }
  return { groups, attributes };
}

const view = (a: Attribute): DataView => new DataView(a.bytes.buffer, a.bytes.byteOffset, a.bytes.byteLength);
const ints = (a: Attribute | undefined, type: number): Int32Array | undefined => {
  if (!a || a.type !== type) return undefined;
  const v = view(a), per = FIXED[type]! / 4;
  return Int32Array.from({ length: a.count * per }, (_, i) => v.getInt32(i * 4, true));
};
const floats = (a: Attribute | undefined, type: number): Float32Array | undefined => {
  if (!a || a.type !== type) return undefined;
  const v = view(a), per = FIXED[type]! / 4;
  return Float32Array.from({ length: a.count * per }, (_, i) => v.getFloat32(i * 4, true));
};

const round = (x: number): number => Math.round(x * 1000) / 1000;

export function geometryCollectionOf(source: PackageSource, exp: SourceExport, release: number): Mesh {
  if (!propertiesRead(exp)) {
    throw propertiesNotRead(exp, 'the collection cannot be found',
      'unversioned properties: the collection comes after them, found only with the game\'s mappings (.usmap); pass them');
  }
  if (release < Release.LargeWorldCoordinates) {
    throw new FormatError(exp.file, `${exp.class} "${exp.name}"`, exp.base, `a UE${Math.floor(release / 100)}.${release % 100} collection: PakScope reads those of UE5`);
  }
  const notes = [...source.warnings];
  const r = new BinaryReader(exp.bytes, exp.file, exp.base).struct(`${exp.class} "${exp.name}" native data`);
  r.seek(exp.properties.propertyStart + exp.properties.propertyBytes);
  if (r.bool32()) r.skip(16);
  r.bool32(); // bIsCookedOrCooking
  const c = readCollection(r, source.names);
  if (c.stopped) notes.push(`not read: the collection's ${c.stopped} (Chaos implicit objects and other kinds PakScope does not decode; the pieces' geometry comes before them)`);
  const a = (key: string): Attribute | undefined => c.attributes.get(key);
  const size = (group: string): number => c.groups.find((g) => g.name === group)?.size ?? 0;
  const nt = size('Transform');
  const transforms = floats(a('Transform.Transform'), T.Transform3f);
  if (!transforms || transforms.length < nt * 10) {
    throw new FormatError(exp.file, `${exp.class} "${exp.name}" collection`, exp.base, `the Transform group's transforms were not read${c.stopped ? ` (the map stopped at ${c.stopped})` : ''}`);
  }
  const parents = ints(a('Transform.Parent'), T.Int32) ?? new Int32Array(nt).fill(-1);
  const boneNames = a('Transform.BoneName')?.strings ?? [];
  const nv = size('Vertices'), nf = size('Faces');
  const vertex = floats(a('Vertices.Vertex'), T.Vector);
  const normal = floats(a('Vertices.Normal'), T.Vector);
  const uv0 = floats(a('Vertices.UVLayer0'), T.Vector2D);
  const color = floats(a('Vertices.Color'), T.LinearColor);
  const faces = ints(a('Faces.Indices'), T.IntVector);
  const visible = a('Faces.Visible');
  const materialId = ints(a('Faces.MaterialID'), T.Int32);
  const gTransform = ints(a('Geometry.TransformIndex'), T.Int32);
  const vStart = ints(a('Geometry.VertexStart'), T.Int32), vCount = ints(a('Geometry.VertexCount'), T.Int32);
  const fStart = ints(a('Geometry.FaceStart'), T.Int32), fCount = ints(a('Geometry.FaceCount'), T.Int32);
  const bad = (what: string): FormatError => new FormatError(exp.file, `${exp.class} "${exp.name}" collection`, exp.base, what);
  if (vertex && vertex.length < nv * 3) throw bad(`the Vertices group has ${nv} elements, its Vertex attribute ${vertex.length / 3}`);
  if (faces && faces.length < nf * 3) throw bad(`the Faces group has ${nf} elements, its Indices attribute ${faces.length / 3}`);

  // One part per transform, parents first (a parent out of range or a loop makes a root).
  const parentOf = (i: number): number => { const p = parents[i] ?? -1; return p >= 0 && p < nt && p !== i ? p : -1; };
  const { order } = parentsFirst(nt, parentOf);
  const partOf = new Map<number, number>();
  const parts: MeshPart[] = [];
  for (const i of order) {
    const t = transforms.subarray(i * 10, i * 10 + 10);
    const local: MeshTransform = { rotation: [t[0]!, t[1]!, t[2]!, t[3]!], translation: [t[4]!, t[5]!, t[6]!], scale: [t[7]!, t[8]!, t[9]!] };
    const p = parentOf(i);
    partOf.set(i, parts.length);
    parts.push({ name: boneNames[i] || `Piece_${i}`, parent: p >= 0 && partOf.has(p) ? partOf.get(p)! : -1, local });
  }
  const pieceRows: MeshFactTable['rows'] = [];
  let used = 0;
  const ng = size('Geometry');
  if (!vertex || !faces) notes.push('the collection\'s vertices or faces were not read: its pieces are placed without geometry');
  for (let g = 0; g < ng && vertex && faces && gTransform && vStart && vCount && fStart && fCount; g++) {
    const range = geometryRange(g, { transformIndex: gTransform, vertexStart: vStart, vertexCount: vCount, faceStart: fStart, faceCount: fCount }, { transforms: nt, vertices: nv, faces: nf }, bad);
    const { ti, v0, vn } = range;
    const { indices, sections, used: usedHere } = trianglesByMaterial(faces, visible?.bytes, materialId, range, bad);
    used = Math.max(used, usedHere);
    const colors = color ? Uint8Array.from({ length: vn * 4 }, (_, k) => Math.round(Math.min(1, Math.max(0, color[v0 * 4 + k]!)) * 255)) : undefined;
    const geometry: MeshLod = {
      vertexCount: vn, positions: vertex.slice(v0 * 3, (v0 + vn) * 3),
      ...(normal && normal.length >= nv * 3 ? { normals: normal.slice(v0 * 3, (v0 + vn) * 3) } : {}),
      uvs: uv0 && uv0.length >= nv * 2 ? [uv0.slice(v0 * 2, (v0 + vn) * 2)] : [],
      ...(colors ? { colors } : {}), indices, sections,
    };
    const part = parts[partOf.get(ti)!]!;
    if (part.geometry) notes.push(`transform ${ti} has more than one geometry: only the first is shown`);
    else part.geometry = geometry;
  }
  for (const i of order) {
    const p = parts[partOf.get(i)!]!;
    pieceRows.push([p.name, p.parent >= 0 ? parts[p.parent]!.name : '', `(${p.local.translation.map(round).join(', ')})`, p.geometry?.vertexCount ?? 0, (p.geometry?.indices.length ?? 0) / 3]);
  }
  const listed = prop(exp.properties.properties, 'Materials');
  const materials: MeshMaterial[] = (Array.isArray(listed) ? listed : []).map((m, i) => {
    const material = typeof m === 'string' ? m : '';
    // A material outside the package may be named by hash ("/Engine/.../WorldGridMaterial.?0x28fe...").
    const path = material.replace(/\.\?0x[0-9a-f]+$/, '');
    return { name: material ? `${objectName(path.slice(path.lastIndexOf('/') + 1))}_${i}` : `Material_${i}`, material };
  });
  for (let i = materials.length; i < used; i++) materials.push({ name: `Material_${i}`, material: '' });
  const geometry = mergeParts(parts);
  return {
    class: exp.class, name: exp.name, materials, sockets: [], notes, lods: geometry.vertexCount > 0 ? [geometry] : [], bones: [], morphTargets: [], parts,
    facts: [
      { title: 'Pieces', columns: ['Piece', 'Parent', 'Position (cm)', 'Vertices', 'Triangles'], rows: pieceRows },
      { title: 'Groups', columns: ['Group', 'Size'], rows: c.groups.map((g) => [g.name, g.size]) },
    ],
  };
}

/** The Geometry group's arrays that place each geometry: its transform, vertex range and face range. */
export interface GeometryArrays { transformIndex: Int32Array; vertexStart: Int32Array; vertexCount: Int32Array; faceStart: Int32Array; faceCount: Int32Array }

/** Geometry `g`'s transform, vertex range and face range, checked against the arrays and the groups' sizes. */
export function geometryRange(g: number, a: GeometryArrays, sizes: { transforms: number; vertices: number; faces: number }, bad: (what: string) => FormatError): { ti: number; v0: number; vn: number; f0: number; fn: number } {
  const held = Math.min(a.transformIndex.length, a.vertexStart.length, a.vertexCount.length, a.faceStart.length, a.faceCount.length);
  if (g >= held) throw bad(`geometry ${g}: the Geometry group has more elements than its Geometry arrays have ${held}`);
  const ti = a.transformIndex[g]!, v0 = a.vertexStart[g]!, vn = a.vertexCount[g]!, f0 = a.faceStart[g]!, fn = a.faceCount[g]!;
  const { transforms: nt, vertices: nv, faces: nf } = sizes;
  if (ti < 0 || ti >= nt || v0 < 0 || vn < 0 || v0 + vn > nv || f0 < 0 || fn < 0 || f0 + fn > nf) {
    throw bad(`geometry ${g}: transform ${ti}, vertices ${v0}+${vn} of ${nv}, faces ${f0}+${fn} of ${nf}`);
  }
  return { ti, v0, vn, f0, fn };
}

/**
 * One geometry's visible faces as one index list (vertex numbers from its first vertex), a section
 * per material in material order, and how many material slots they use. Typed arrays, no spread:
 * a piece may have hundreds of thousands of triangles.
 */
export function trianglesByMaterial(faces: Int32Array, visible: Uint8Array | undefined, materialId: Int32Array | undefined, range: { f0: number; fn: number; v0: number; vn: number }, bad: (what: string) => FormatError): { indices: Uint32Array; sections: MeshLod['sections']; used: number } {
  const { f0, fn, v0, vn } = range;
  const materialOf = new Int32Array(fn).fill(-1);
  const perMaterial = new Map<number, number>();
  for (let k = 0; k < fn; k++) {
    const f = f0 + k;
    if (visible && visible[f] === 0) continue;
    for (let c = 0; c < 3; c++) {
      const x = faces[f * 3 + c]! - v0;
      if (!(x >= 0 && x < vn)) throw bad(`face ${f} names vertices ${[0, 1, 2].map((i) => faces[f * 3 + i]).join(', ')}, outside its geometry's ${v0} to ${v0 + vn - 1}`);
    }
    const m = Math.max(0, materialId?.[f] ?? 0);
    if (m >= MAX_MATERIALS) throw bad(`face ${f} has material ${m}, past the ${MAX_MATERIALS} a collection may have`);
    materialOf[k] = m;
    perMaterial.set(m, (perMaterial.get(m) ?? 0) + 1);
  }
  const sections: MeshLod['sections'] = [];
  const next = new Map<number, number>();
  let at = 0;
  for (const [m, triangles] of [...perMaterial].sort((x, y) => x[0] - y[0])) {
    sections.push({ materialIndex: m, firstIndex: at, triangles });
    next.set(m, at);
    at += triangles * 3;
  }
  const indices = new Uint32Array(at);
  for (let k = 0; k < fn; k++) {
    const m = materialOf[k]!;
    if (m < 0) continue;
    const i = next.get(m)!;
    for (let c = 0; c < 3; c++) indices[i + c] = faces[(f0 + k) * 3 + c]! - v0;
    next.set(m, i + 3);
  }
  const used = sections.length > 0 ? sections[sections.length - 1]!.materialIndex + 1 : 0;
  return { indices, sections, used };
}

/**
 * A mesh (the core's model, engine axes) as the mesh view takes it: its facts with the bones and
 * sockets placed in the bind pose, and one LOD's arrays as typed-array bytes, both in the view's
 * axes (the glTF writer's, unscaled: cm, Y up, right-handed), so the page only uploads them.
 */
import {
  composeMat4, multiplyMat4, rotatorToQuat, streamToGltfAxes, toGltfAxes, toGltfPosition, toGltfQuat, type Mat4,
} from '../core/assets/mesh/gltf/axes.js';
import type { Mesh, MeshLod, MeshTransform } from '../core/assets/mesh/types.js';
import type { MeshGeometry, MeshLodView, MeshView } from '../shared/asset-api.js';

const bytesOf = (a: Float32Array | Uint32Array | Uint8Array): Uint8Array => new Uint8Array(a.buffer, a.byteOffset, a.byteLength);

/** Min and max of a LOD's positions (engine axes); zeros for an empty LOD. */
export function lodBounds(lod: Pick<MeshLod, 'positions' | 'vertexCount'>): MeshLodView['bounds'] {
  const min: [number, number, number] = [Infinity, Infinity, Infinity], max: [number, number, number] = [-Infinity, -Infinity, -Infinity];
  const p = lod.positions;
  const n = Math.min(lod.vertexCount, Math.floor(p.length / 3));
  for (let i = 0; i < n * 3; i += 3) {
    for (let c = 0; c < 3; c++) {
      const v = p[i + c]!;
      if (v < min[c]!) min[c] = v;
      if (v > max[c]!) max[c] = v;
    }
  }
  return n === 0 ? { min: [0, 0, 0], max: [0, 0, 0] } : { min, max };
}

/** Bind-pose matrices of the bones in the view's axes (cm). */
function boneGlobals(mesh: Mesh): Mat4[] {
  const local = (t: MeshTransform): Mat4 => composeMat4(toGltfPosition(t.translation, 1), toGltfQuat(t.rotation), toGltfAxes(t.scale));
  const globals: Mat4[] = [];
  mesh.bones.forEach((b, i) => {
    const m = local(b.local);
    globals.push(b.parent >= 0 && b.parent < i ? multiplyMat4(globals[b.parent]!, m) : m);
  });
  return globals;
}

const translationOf = (m: Mat4): [number, number, number] => [m[12]!, m[13]!, m[14]!];

export function meshView(mesh: Mesh, path: string, exportIndex: number, converts: string[]): MeshView {
  const globals = boneGlobals(mesh);
  return {
    path, exportIndex, class: mesh.class, name: mesh.name,
    lods: mesh.lods.map((lod) => {
      const sections = lod.sections.filter((s) => s.triangles > 0).map((s) => ({ material: s.materialIndex, firstIndex: s.firstIndex, triangles: s.triangles }));
      return {
        vertices: lod.vertexCount,
        triangles: sections.reduce((n, s) => n + s.triangles, 0),
        uvChannels: lod.uvs.length,
        normals: (lod.normals?.length ?? 0) > 0,
        tangents: (lod.tangents?.length ?? 0) > 0,
        colors: (lod.colors?.length ?? 0) > 0,
        influences: lod.skin?.influences ?? 0,
        sections,
        bounds: lodBounds(lod),
      };
    }),
    materials: mesh.materials.map((m) => ({ ...m, ...(m.textures ? { textures: { ...m.textures } } : {}) })),
    bones: mesh.bones.map((b, i) => ({ name: b.name, parent: b.parent, position: translationOf(globals[i]!) })),
    morphTargets: mesh.morphTargets.map((t) => t.name),
    sockets: mesh.sockets.map((s) => {
      const local = composeMat4(toGltfPosition(s.location, 1), toGltfQuat(rotatorToQuat(...s.rotation)), toGltfAxes(s.scale));
      const bone = s.bone ? mesh.bones.findIndex((b) => b.name === s.bone) : -1;
      return { name: s.name, bone: s.bone, position: translationOf(bone >= 0 ? multiplyMat4(globals[bone]!, local) : local) };
    }),
    ...(mesh.bounds ? { storedBounds: structuredClone(mesh.bounds) } : {}),
    ...(mesh.facts ? { facts: mesh.facts.map((t) => ({ title: t.title, columns: [...t.columns], rows: t.rows.map((r) => [...r]) })) } : {}),
    notes: [...mesh.notes],
    converts,
  };
}

/** LOD `lod` of `mesh` for the view (RangeError for a LOD it does not have). */
export function meshGeometry(mesh: Mesh, lod: number): MeshGeometry {
  const l = mesh.lods[lod];
  if (!l) throw new RangeError(mesh.lods.length === 0 ? `${mesh.name} (${mesh.class}) has no geometry` : `${mesh.name} has LODs 0 to ${mesh.lods.length - 1}, not ${lod}`);
  const n = l.vertexCount;
  const uvs = new Float32Array(n * 2 * l.uvs.length);
  l.uvs.forEach((uv, c) => uvs.set(uv.subarray(0, n * 2), c * n * 2));
  const morphs = mesh.morphTargets.map((t) => t.lods[lod]).map((m) => (m && m.vertices.length > 0 ? m : undefined));
  const moved = morphs.reduce((sum, m) => sum + (m?.vertices.length ?? 0), 0);
  const morphVertices = new Uint32Array(moved), morphDeltas = new Float32Array(moved * 3);
  let at = 0;
  for (const m of morphs) {
    if (!m) continue;
    morphVertices.set(m.vertices, at);
    morphDeltas.set(streamToGltfAxes(m.positionDeltas.subarray(0, m.vertices.length * 3), 3), at * 3);
    at += m.vertices.length;
  }
  return {
    lod, vertices: n,
    positions: bytesOf(streamToGltfAxes(l.positions.subarray(0, n * 3), 3)),
    ...(l.normals && l.normals.length > 0 ? { normals: bytesOf(streamToGltfAxes(l.normals.subarray(0, n * 3), 3)) } : {}),
    uvs: bytesOf(uvs),
    uvChannels: l.uvs.length,
    ...(l.colors && l.colors.length > 0 ? { colors: l.colors.slice(0, n * 4) } : {}),
    indices: bytesOf(l.indices.slice()),
    morphCounts: morphs.map((m) => m?.vertices.length ?? 0),
    morphVertices: bytesOf(morphVertices),
    morphDeltas: bytesOf(morphDeltas),
  };
}

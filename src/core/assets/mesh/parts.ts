/**
 * A mesh made of parts (types.ts MeshPart) as one LOD in the mesh's space: each part's geometry
 * moved by its transform and its parents', in the engine's axes. The 3D view, the summary and
 * `pakscope mesh` use it; the glTF writer keeps the parts as nodes instead.
 */
import { composeMat4, multiplyMat4, type Mat4 } from './gltf/axes.js';
import type { MeshLod, MeshPart, MeshTransform } from './types.js';

const matrixOf = (t: MeshTransform): Mat4 => composeMat4(t.translation, t.rotation, t.scale);

/** Each part's transform to the mesh's space (parents before children; a bad parent counts as none). */
export function partGlobals(parts: readonly MeshPart[]): Mat4[] {
  const out: Mat4[] = [];
  parts.forEach((p, i) => {
    const m = matrixOf(p.local);
    out.push(p.parent >= 0 && p.parent < i ? multiplyMat4(out[p.parent]!, m) : m);
  });
  return out;
}

/** Whether a part shows at time 0 (a GeometryCache's first frame does, the others do not). */
export const shownAtStart = (p: MeshPart): boolean => !p.visibility || (p.visibility.times[0]! <= 0 && p.visibility.visible[0] === true);

/**
 * The geometry of the parts that show at time 0 (and whose parents do) merged into one LOD, its
 * sections the parts' sections in part order.
 */
export function mergeParts(parts: readonly MeshPart[]): MeshLod {
  const globals = partGlobals(parts);
  const shown: boolean[] = [];
  parts.forEach((p, i) => shown.push(shownAtStart(p) && (p.parent < 0 || p.parent >= i || shown[p.parent]!)));
  const used = parts.flatMap((p, i) => (p.geometry && shown[i] ? [{ g: p.geometry, m: globals[i]! }] : []));
  const vertexCount = used.reduce((n, u) => n + u.g.vertexCount, 0);
  const indexCount = used.reduce((n, u) => n + u.g.indices.length, 0);
  const withNormals = used.length > 0 && used.every((u) => (u.g.normals?.length ?? 0) >= u.g.vertexCount * 3);
  const withColors = used.length > 0 && used.every((u) => (u.g.colors?.length ?? 0) >= u.g.vertexCount * 4);
  // A reduce, not Math.min(...): a collection may have more pieces than a call has arguments.
  const uvChannels = used.length > 0 ? used.reduce((n, u) => Math.min(n, u.g.uvs.length), Infinity) : 0;
  const positions = new Float32Array(vertexCount * 3);
  const normals = withNormals ? new Float32Array(vertexCount * 3) : undefined;
  const colors = withColors ? new Uint8Array(vertexCount * 4) : undefined;
  const uvs = Array.from({ length: uvChannels }, () => new Float32Array(vertexCount * 2));
  const indices = new Uint32Array(indexCount);
  const sections: MeshLod['sections'] = [];
  let v0 = 0, i0 = 0;
  for (const { g, m } of used) {
    for (let v = 0; v < g.vertexCount; v++) {
      const x = g.positions[v * 3]!, y = g.positions[v * 3 + 1]!, z = g.positions[v * 3 + 2]!;
      for (let k = 0; k < 3; k++) positions[(v0 + v) * 3 + k] = m[k]! * x + m[4 + k]! * y + m[8 + k]! * z + m[12 + k]!;
      if (normals) {
        const nx = g.normals![v * 3]!, ny = g.normals![v * 3 + 1]!, nz = g.normals![v * 3 + 2]!;
        const r = [0, 1, 2].map((k) => m[k]! * nx + m[4 + k]! * ny + m[8 + k]! * nz);
        const l = Math.hypot(r[0]!, r[1]!, r[2]!) || 1;
        for (let k = 0; k < 3; k++) normals[(v0 + v) * 3 + k] = r[k]! / l;
      }
    }
    if (colors) colors.set(g.colors!.subarray(0, g.vertexCount * 4), v0 * 4);
    uvs.forEach((uv, c) => uv.set(g.uvs[c]!.subarray(0, g.vertexCount * 2), v0 * 2));
    for (let i = 0; i < g.indices.length; i++) indices[i0 + i] = g.indices[i]! + v0;
    for (const s of g.sections) sections.push({ materialIndex: s.materialIndex, firstIndex: s.firstIndex + i0, triangles: s.triangles });
    v0 += g.vertexCount;
    i0 += g.indices.length;
  }
  return { vertexCount, positions, ...(normals ? { normals } : {}), uvs, ...(colors ? { colors } : {}), indices, sections };
}

/**
 * A landscape as a mesh of the mesh kind (so the glTF writer and the app's 3D view take it as they
 * take a static mesh): one vertex per grid vertex, two triangles per quad a component covers (in
 * the order the engine's own exporter writes them), normals from the heights, UV 0 across the
 * whole landscape from 0 to 1 (where the heightmap and weightmap PNGs lie) and UV 1 in quads, and
 * one section with the landscape's material as its slot.
 *
 * Positions are in the actor's frame with its scale applied (cm): x = quad * scale.X, y = quad *
 * scale.Y, z = (height - 32768) / 128 * scale.Z. Placing it in a level takes the actor's location
 * and rotation only (LandscapeInfo.transform).
 */
import type { Mesh } from '../mesh/types.js';
import type { Landscape } from './types.js';

/** Vertices written at most; a larger landscape is written every 2^lod-th vertex (see landscapeMesh's lod). */
export const MAX_MESH_VERTICES = 1 << 24;

export interface LandscapeMeshOptions {
  /** Every 2^lod-th vertex across and down (0: all). Default: the smallest that fits MAX_MESH_VERTICES. */
  lod?: number;
}

/** The level of detail landscapeMesh picks for `l` when none is asked for. */
export function defaultLandscapeLod(l: Pick<Landscape, 'width' | 'height'>): number {
  let lod = 0;
  while (keptVertices(l.width, 1 << lod) * keptVertices(l.height, 1 << lod) > MAX_MESH_VERTICES) lod++;
  return lod;
}

/** Grid positions landscapeMesh keeps along a side of `size` vertices: every step-th, and the last. */
const keptVertices = (size: number, step: number): number => (size > 0 ? Math.ceil(size / step) + ((size - 1) % step === 0 ? 0 : 1) : 0);

export function landscapeMesh(l: Landscape, opts: LandscapeMeshOptions = {}): Mesh {
  const lod = opts.lod ?? defaultLandscapeLod(l);
  if (!Number.isInteger(lod) || lod < 0 || lod > 12) throw new RangeError(`landscape level of detail ${lod}: 0 to 12`);
  const step = 1 << lod;
  // Grid positions kept: every step-th, and the last.
  const xs: number[] = [], ys: number[] = [];
  for (let x = 0; x < l.width; x += step) xs.push(x);
  if (l.width > 0 && xs[xs.length - 1] !== l.width - 1) xs.push(l.width - 1);
  for (let y = 0; y < l.height; y += step) ys.push(y);
  if (l.height > 0 && ys[ys.length - 1] !== l.height - 1) ys.push(l.height - 1);
  const w = xs.length, h = ys.length;
  const n = w * h;
  if (n > MAX_MESH_VERTICES) throw new RangeError(`${w}x${h} vertices at level of detail ${lod}: more than ${MAX_MESH_VERTICES}`);

  const { x: sx, y: sy, z: sz } = l.transform.scale;
  const zOf = (g: number): number => ((l.heights[g]! - 32768) / 128) * sz;
  const positions = new Float32Array(n * 3);
  const normals = new Float32Array(n * 3);
  const uv0 = new Float32Array(n * 2);
  const uv1 = new Float32Array(n * 2);
  const spanX = Math.max(1, l.width - 1), spanY = Math.max(1, l.height - 1);
  for (let j = 0; j < h; j++) {
    for (let i = 0; i < w; i++) {
      const gx = xs[i]!, gy = ys[j]!;
      const g = gy * l.width + gx;
      const v = j * w + i;
      positions[v * 3] = (l.originX + gx) * sx;
      positions[v * 3 + 1] = (l.originY + gy) * sy;
      positions[v * 3 + 2] = zOf(g);
      // Central differences on the full grid (one-sided at the edges and beside uncovered vertices).
      const at = (x: number, y: number): number | undefined => {
        if (x < 0 || y < 0 || x >= l.width || y >= l.height) return undefined;
        const k = y * l.width + x;
        return l.covered[k] ? zOf(k) : undefined;
      };
      const here = zOf(g);
      const left = at(gx - 1, gy), right = at(gx + 1, gy), up = at(gx, gy - 1), down = at(gx, gy + 1);
      const dzdx = left !== undefined && right !== undefined ? (right - left) / (2 * sx) : right !== undefined ? (right - here) / sx : left !== undefined ? (here - left) / sx : 0;
      const dzdy = up !== undefined && down !== undefined ? (down - up) / (2 * sy) : down !== undefined ? (down - here) / sy : up !== undefined ? (here - up) / sy : 0;
      const len = Math.hypot(dzdx, dzdy, 1);
      normals[v * 3] = Number.isFinite(len) ? -dzdx / len : 0;
      normals[v * 3 + 1] = Number.isFinite(len) ? -dzdy / len : 0;
      normals[v * 3 + 2] = Number.isFinite(len) ? 1 / len : 1;
      uv0[v * 2] = gx / spanX;
      uv0[v * 2 + 1] = gy / spanY;
      uv1[v * 2] = l.originX + gx;
      uv1[v * 2 + 1] = l.originY + gy;
    }
  }
  const indices: number[] = [];
  for (let j = 0; j + 1 < h; j++) {
    for (let i = 0; i + 1 < w; i++) {
      // A quad is drawn when a component covers all four of its corners.
      const c = (ii: number, jj: number): number => l.covered[ys[jj]! * l.width + xs[ii]!]!;
      if (!c(i, j) || !c(i + 1, j) || !c(i, j + 1) || !c(i + 1, j + 1)) continue;
      const v00 = j * w + i, v10 = v00 + 1, v01 = v00 + w, v11 = v01 + 1;
      indices.push(v00, v11, v10, v00, v01, v11);
    }
  }
  const material = l.material ?? '';
  const notes = [...l.notes];
  if (lod > 0) notes.push(`every ${step}th vertex (level of detail ${lod})`);
  return {
    class: l.class,
    name: l.name,
    materials: [{ name: material ? material.slice(material.lastIndexOf('.') + 1) : 'Landscape', material }],
    sockets: [],
    notes,
    lods: [{
      vertexCount: n, positions, normals, uvs: [uv0, uv1], indices: Uint32Array.from(indices),
      sections: [{ materialIndex: 0, firstIndex: 0, triangles: indices.length / 3 }],
    }],
    bones: [],
    morphTargets: [],
  };
}

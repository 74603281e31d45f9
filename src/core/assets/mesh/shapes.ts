/**
 * Triangle meshes of the simple shapes a PhysicsAsset's bodies are made of (box, sphere, capsule,
 * convex hull), in the shape's own space and the engine's axes (cm, Z up). Every shape is convex,
 * so each triangle is wound to face away from the shape's inside the way the engine winds front
 * faces (orientOutward): the glTF writer's axis swap then makes them counter-clockwise.
 */
import type { MeshLod } from './types.js';

type V3 = [number, number, number];

const sub = (a: readonly number[], b: readonly number[]): V3 => [a[0]! - b[0]!, a[1]! - b[1]!, a[2]! - b[2]!];
const cross = (a: readonly number[], b: readonly number[]): V3 => [a[1]! * b[2]! - a[2]! * b[1]!, a[2]! * b[0]! - a[0]! * b[2]!, a[0]! * b[1]! - a[1]! * b[0]!];
const dot = (a: readonly number[], b: readonly number[]): number => a[0]! * b[0]! + a[1]! * b[1]! + a[2]! * b[2]!;
const unit = (a: readonly number[]): V3 => {
  const l = Math.hypot(a[0]!, a[1]!, a[2]!);
  return l > 0 ? [a[0]! / l, a[1]! / l, a[2]! / l] : [0, 0, 1];
};

function lodOf(positions: number[], normals: number[], indices: number[]): MeshLod {
  const lod: MeshLod = {
    vertexCount: positions.length / 3, positions: Float32Array.from(positions), normals: Float32Array.from(normals), uvs: [],
    indices: Uint32Array.from(indices), sections: [{ materialIndex: 0, firstIndex: 0, triangles: indices.length / 3 }],
  };
  orientOutward(lod);
  return lod;
}

/**
 * Winds each triangle of a convex shape so that, in glTF's axes (Y and Z swapped), its
 * counter-clockwise side faces away from the shape's centre: the engine's own winding.
 */
export function orientOutward(lod: MeshLod): void {
  const p = lod.positions, idx = lod.indices;
  const c: V3 = [0, 0, 0];
  for (let v = 0; v < lod.vertexCount; v++) for (let k = 0; k < 3; k++) c[k] = c[k]! + p[v * 3 + k]! / lod.vertexCount;
  const g = (i: number): V3 => [p[i * 3]!, p[i * 3 + 2]!, p[i * 3 + 1]!]; // glTF's axes
  const gc: V3 = [c[0], c[2], c[1]];
  for (let t = 0; t + 2 < idx.length; t += 3) {
    const a = g(idx[t]!), b = g(idx[t + 1]!), d = g(idx[t + 2]!);
    const n = cross(sub(b, a), sub(d, a));
    const mid: V3 = [(a[0] + b[0] + d[0]) / 3 - gc[0], (a[1] + b[1] + d[1]) / 3 - gc[1], (a[2] + b[2] + d[2]) / 3 - gc[2]];
    if (dot(n, mid) < 0) { const s = idx[t + 1]!; idx[t + 1] = idx[t + 2]!; idx[t + 2] = s; }
  }
}

/** A box of full extents `size` centred on the origin: 24 vertices, flat normals. */
export function boxLod(size: readonly number[]): MeshLod {
  const h = size.map((s) => Math.abs(s) / 2);
  const positions: number[] = [], normals: number[] = [], indices: number[] = [];
  for (let axis = 0; axis < 3; axis++) {
    for (const sign of [-1, 1]) {
      const u = (axis + 1) % 3, w = (axis + 2) % 3;
      const base = positions.length / 3;
      for (const [su, sw] of [[-1, -1], [1, -1], [1, 1], [-1, 1]] as const) {
        const v: V3 = [0, 0, 0];
        v[axis] = sign * h[axis]!; v[u] = su * h[u]!; v[w] = sw * h[w]!;
        positions.push(...v);
        const n: V3 = [0, 0, 0];
        n[axis] = sign;
        normals.push(...n);
      }
      indices.push(base, base + 1, base + 2, base, base + 2, base + 3);
    }
  }
  return lodOf(positions, normals, indices);
}

const SEGMENTS = 24;
const RINGS = 12;

/**
 * A capsule along Z: a cylinder of `length` between hemispheres of radius `top` (at +length/2)
 * and `bottom`; length 0 and equal radii make a sphere. Smooth normals.
 */
export function capsuleLod(top: number, bottom: number, length: number): MeshLod {
  const positions: number[] = [], normals: number[] = [], indices: number[] = [];
  const half = Math.max(0, length) / 2;
  // Rings from the top pole to the bottom one; the equator ring is doubled (one per hemisphere) for a cylinder.
  const rings: { z: number; r: number; nz: number; nr: number }[] = [];
  for (let i = 0; i <= RINGS / 2; i++) {
    const a = (Math.PI / 2) * (1 - i / (RINGS / 2)); // pi/2 .. 0
    rings.push({ z: half + Math.sin(a) * top, r: Math.cos(a) * top, nz: Math.sin(a), nr: Math.cos(a) });
  }
  for (let i = 0; i <= RINGS / 2; i++) {
    const a = -(Math.PI / 2) * (i / (RINGS / 2)); // 0 .. -pi/2
    rings.push({ z: -half + Math.sin(a) * bottom, r: Math.cos(a) * bottom, nz: Math.sin(a), nr: Math.cos(a) });
  }
  for (const ring of rings) {
    for (let s = 0; s < SEGMENTS; s++) {
      const phi = (2 * Math.PI * s) / SEGMENTS;
      positions.push(Math.cos(phi) * ring.r, Math.sin(phi) * ring.r, ring.z);
      normals.push(...unit([Math.cos(phi) * ring.nr, Math.sin(phi) * ring.nr, ring.nz]));
    }
  }
  for (let i = 0; i + 1 < rings.length; i++) {
    for (let s = 0; s < SEGMENTS; s++) {
      const a = i * SEGMENTS + s, b = i * SEGMENTS + ((s + 1) % SEGMENTS);
      const c = a + SEGMENTS, d = b + SEGMENTS;
      // Skip the zero-area triangles at the poles.
      if (rings[i]!.r > 1e-9) indices.push(a, b, d);
      if (rings[i + 1]!.r > 1e-9) indices.push(a, d, c);
    }
  }
  return lodOf(positions, normals, indices);
}

/** Points a hull may be built of: more is corrupt data or not worth the time (the engine's own limit is 256 per convex). */
const MAX_HULL_POINTS = 4096;

/**
 * The convex hull of `points` (x, y, z each), incrementally: a tetrahedron, then each point
 * outside the faces it sees replaces them with a fan to their horizon. Flat normals (each face
 * its own three vertices). Undefined when the points are fewer than 4, flat or too many.
 */
export function hullLod(points: Float64Array | Float32Array | number[]): MeshLod | undefined {
  const n = Math.floor(points.length / 3);
  if (n < 4 || n > MAX_HULL_POINTS) return undefined;
  const P = (i: number): V3 => [points[i * 3]!, points[i * 3 + 1]!, points[i * 3 + 2]!];
  let extent = 0;
  for (let i = 1; i < n; i++) extent = Math.max(extent, Math.hypot(...sub(P(i), P(0))));
  if (!(extent > 0)) return undefined;
  const eps = extent * 1e-7;
  // The initial tetrahedron: far apart points.
  let i1 = 0;
  for (let i = 1; i < n; i++) if (Math.hypot(...sub(P(i), P(0))) > Math.hypot(...sub(P(i1), P(0)))) i1 = i;
  let i2 = -1, best = eps;
  for (let i = 0; i < n; i++) {
    const d = Math.hypot(...cross(sub(P(i1), P(0)), sub(P(i), P(0)))) / Math.max(eps, Math.hypot(...sub(P(i1), P(0))));
    if (d > best) { best = d; i2 = i; }
  }
  if (i2 < 0) return undefined;
  const nrm0 = unit(cross(sub(P(i1), P(0)), sub(P(i2), P(0))));
  let i3 = -1;
  best = eps;
  for (let i = 0; i < n; i++) {
    const d = Math.abs(dot(nrm0, sub(P(i), P(0))));
    if (d > best) { best = d; i3 = i; }
  }
  if (i3 < 0) return undefined;
  const inside: V3 = [0, 0, 0];
  for (const i of [0, i1, i2, i3]) for (let k = 0; k < 3; k++) inside[k] = inside[k]! + P(i)[k]! / 4;
  type Face = { v: [number, number, number]; n: V3; d: number };
  const face = (a: number, b: number, c: number): Face => {
    let v: [number, number, number] = [a, b, c];
    let nn = unit(cross(sub(P(b), P(a)), sub(P(c), P(a))));
    if (dot(nn, sub(inside, P(a))) > 0) { v = [a, c, b]; nn = [-nn[0], -nn[1], -nn[2]]; }
    return { v, n: nn, d: dot(nn, P(v[0])) };
  };
  let faces: Face[] = [face(0, i1, i2), face(0, i1, i3), face(0, i2, i3), face(i1, i2, i3)];
  for (let p = 0; p < n; p++) {
    const q = P(p);
    const visible = faces.filter((f) => dot(f.n, q) - f.d > eps);
    if (visible.length === 0) continue;
    const edges = new Set<string>();
    for (const f of visible) for (let e = 0; e < 3; e++) edges.add(`${f.v[e]},${f.v[(e + 1) % 3]}`);
    const kept = faces.filter((f) => !visible.includes(f));
    for (const f of visible) {
      for (let e = 0; e < 3; e++) {
        const a = f.v[e]!, b = f.v[(e + 1) % 3]!;
        if (!edges.has(`${b},${a}`)) kept.push(face(a, b, p));
      }
    }
    faces = kept;
  }
  const positions: number[] = [], normals: number[] = [], indices: number[] = [];
  for (const f of faces) {
    const base = positions.length / 3;
    for (const v of f.v) { positions.push(...P(v)); normals.push(...f.n); }
    indices.push(base, base + 1, base + 2);
  }
  return lodOf(positions, normals, indices);
}

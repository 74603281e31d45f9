/**
 * A mesh's counts and extents as `pakscope mesh --json` prints them and the app shows them, in
 * the engine's units and axes as stored (centimetres, Z up): per LOD the vertices, the triangles
 * (the sum over its sections), the UV channels, the sections that have triangles with their
 * material slot, and the min and max of its vertex positions.
 */
import type { GeometryCacheSummary, Mesh, MeshLod, PhysicsSummary } from './types.js';

export interface MeshLodSummary {
  vertices: number;
  triangles: number;
  uvChannels: number;
  sections: { material: string; triangles: number }[];
  bounds: { min: [number, number, number]; max: [number, number, number] };
}

export interface MeshSummary {
  class: string;
  lods: MeshLodSummary[];
  bones: { name: string; parent: number }[];
  morphTargets: string[];
  sockets: { name: string; location: [number, number, number] }[];
  /** Meshes made of parts: each part's name, parent part, vertices and triangles (0 for a grouping node). */
  parts?: { name: string; parent: number; vertices: number; triangles: number }[];
  physics?: PhysicsSummary;
  geometryCache?: GeometryCacheSummary;
}

/** Min and max of a LOD's positions ([0,0,0] both for a LOD without vertices). */
export function positionBounds(lod: Pick<MeshLod, 'positions' | 'vertexCount'>): MeshLodSummary['bounds'] {
  if (lod.vertexCount === 0) return { min: [0, 0, 0], max: [0, 0, 0] };
  const min: [number, number, number] = [Infinity, Infinity, Infinity];
  const max: [number, number, number] = [-Infinity, -Infinity, -Infinity];
  const p = lod.positions;
  for (let i = 0; i < lod.vertexCount * 3; i += 3) {
    for (let c = 0; c < 3; c++) {
      const v = p[i + c]!;
      if (v < min[c]!) min[c] = v;
      if (v > max[c]!) max[c] = v;
    }
  }
  return { min, max };
}

export function meshSummary(mesh: Mesh): MeshSummary {
  return {
    class: mesh.class,
    lods: mesh.lods.map((l) => ({
      vertices: l.vertexCount,
      triangles: l.sections.reduce((n, s) => n + s.triangles, 0),
      uvChannels: l.uvs.length,
      sections: l.sections.filter((s) => s.triangles > 0).map((s) => ({ material: mesh.materials[s.materialIndex]?.name ?? '', triangles: s.triangles })),
      bounds: positionBounds(l),
    })),
    bones: mesh.bones.map((b) => ({ name: b.name, parent: b.parent })),
    morphTargets: mesh.morphTargets.map((m) => m.name),
    sockets: mesh.sockets.map((s) => ({ name: s.name, location: s.location })),
    ...(mesh.parts ? {
      parts: mesh.parts.map((p) => ({ name: p.name, parent: p.parent, vertices: p.geometry?.vertexCount ?? 0, triangles: (p.geometry?.indices.length ?? 0) / 3 })),
    } : {}),
    ...(mesh.physics ? { physics: mesh.physics } : {}),
    ...(mesh.geometryCache ? { geometryCache: mesh.geometryCache } : {}),
  };
}

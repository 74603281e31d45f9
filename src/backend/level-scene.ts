/**
 * A level (the core's model, engine axes) as the level view's 3D scene takes it: each distinct
 * static mesh and the matrices that place it, in the mesh view's axes (cm, Y up, right-handed),
 * so the page only uploads them into an instanced mesh per mesh. An instanced component's
 * instance is placed as the level .glb places it: the instance's transform under the component's.
 */
import { composeMat4, multiplyMat4, toGltfAxes, toGltfPosition, toGltfQuat, type Mat4 } from '../core/assets/mesh/gltf/axes.js';
import type { LevelAsset, Placement } from '../core/assets/level/types.js';
import type { LevelScene, LevelSceneComponent, LevelSceneMesh } from '../shared/asset-api.js';

/** A placement's matrix in the view's axes. */
export const placementMatrix = (p: Placement): Mat4 =>
  composeMat4(toGltfPosition([p.location.x, p.location.y, p.location.z], 1), toGltfQuat([p.quat.x, p.quat.y, p.quat.z, p.quat.w]), toGltfAxes([p.scale.x, p.scale.y, p.scale.z]));

const bytesOf = (a: Float32Array | Uint32Array): Uint8Array => new Uint8Array(a.buffer, a.byteOffset, a.byteLength);

/** `level`'s static meshes and their placements; `links` (object path -> tree path) says which meshes the install holds. */
export function levelScene(level: LevelAsset, links: Readonly<Record<string, string>>, path: string, exportIndex: number): LevelScene {
  const components: LevelSceneComponent[] = [];
  // Per mesh, its placements as (matrix, owner) in the level's order.
  const byMesh = new Map<string, { matrices: Mat4[]; owners: number[] }>();
  for (const actor of level.actors) {
    for (const c of actor.components) {
      if (!c.staticMesh) continue;
      const owner = components.push({ path: c.path, actor: actor.path, actorClass: actor.class }) - 1;
      let entry = byMesh.get(c.staticMesh);
      if (!entry) byMesh.set(c.staticMesh, (entry = { matrices: [], owners: [] }));
      const world = placementMatrix(c.world);
      if (c.instances) {
        for (const t of c.instances.transforms) {
          entry.matrices.push(multiplyMat4(world, placementMatrix(t)));
          entry.owners.push(owner);
        }
      } else {
        entry.matrices.push(world);
        entry.owners.push(owner);
      }
    }
  }
  const placements = [...byMesh.values()].reduce((n, e) => n + e.matrices.length, 0);
  const matrices = new Float32Array(placements * 16);
  const owners = new Uint32Array(placements);
  const min: [number, number, number] = [Infinity, Infinity, Infinity], max: [number, number, number] = [-Infinity, -Infinity, -Infinity];
  const meshes: LevelSceneMesh[] = [];
  let at = 0;
  for (const [mesh, e] of byMesh) {
    meshes.push({ mesh, treePath: links[mesh] ?? null, first: at, count: e.matrices.length });
    e.matrices.forEach((m, i) => {
      matrices.set(m, (at + i) * 16);
      owners[at + i] = e.owners[i]!;
      for (let k = 0; k < 3; k++) {
        min[k] = Math.min(min[k]!, m[12 + k]!);
        max[k] = Math.max(max[k]!, m[12 + k]!);
      }
    });
    at += e.matrices.length;
  }
  return {
    path, exportIndex, components, meshes, placements,
    matrices: bytesOf(matrices), owners: bytesOf(owners),
    bounds: placements > 0 ? { min, max } : { min: [0, 0, 0], max: [0, 0, 0] },
  };
}

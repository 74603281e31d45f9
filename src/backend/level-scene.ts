/**
 * A level (the core's model, engine axes) as the level view's 3D scene takes it: each distinct
 * static mesh and the matrices that place it, in the mesh view's axes (cm, Y up, right-handed),
 * so the page only uploads them into an instanced mesh per mesh. An instanced component's
 * instance is placed as the level .glb places it: the instance's transform under the component's;
 * a sublevel's placements under its LevelTransform.
 */
import { composeMat4, multiplyMat4, toGltfAxes, toGltfPosition, toGltfQuat, type Mat4 } from '../core/assets/mesh/gltf/axes.js';
import type { LevelAsset, LevelComponent, Placement } from '../core/assets/level/types.js';
import type { LevelScene, LevelSceneComponent, LevelSceneMesh } from '../shared/asset-api.js';

/** A placement's matrix in the view's axes (into `out` when given). */
export const placementMatrix = (p: Placement, out?: Mat4): Mat4 =>
  composeMat4(toGltfPosition([p.location.x, p.location.y, p.location.z], 1), toGltfQuat([p.quat.x, p.quat.y, p.quat.z, p.quat.w]), toGltfAxes([p.scale.x, p.scale.y, p.scale.z]), out);

const bytesOf = (a: Float32Array | Uint32Array): Uint8Array => new Uint8Array(a.buffer, a.byteOffset, a.byteLength);

/** a x b (column-major) written into `out` at `at`: no matrix is allocated per instance (a map places hundreds of thousands). */
function multiplyInto(out: Float32Array, at: number, a: Mat4, b: Mat4): void {
  for (let c = 0; c < 4; c++) {
    const b0 = b[c * 4]!, b1 = b[c * 4 + 1]!, b2 = b[c * 4 + 2]!, b3 = b[c * 4 + 3]!;
    for (let r = 0; r < 4; r++) out[at + c * 4 + r] = a[r]! * b0 + a[4 + r]! * b1 + a[8 + r]! * b2 + a[12 + r]! * b3;
  }
}

/** A level drawn in the scene: the map itself, or a sublevel or World Partition cell at its transform. */
export interface ScenePart {
  level: LevelAsset;
  /** Object path -> tree path of the packages the install holds (LevelView.links). */
  links: Readonly<Record<string, string>>;
  /** Where a sublevel is placed (LevelTransform); absent for the map itself and cells. */
  transform?: Placement;
  /** Tree path of a sublevel's or cell's package. */
  sublevel?: string;
}

/**
 * The static meshes of `parts` (the map first, then the sublevels drawn with it) and their
 * placements, a mesh several levels place sharing one entry.
 */
export function levelScene(parts: readonly ScenePart[], path: string, exportIndex: number): LevelScene {
  const components: LevelSceneComponent[] = [];
  // First the components placing each mesh (in the level's order) and their counts, then the matrices written in place.
  const byMesh = new Map<string, { owners: number[]; count: number; treePath: string | null }>();
  const placed: { comp: LevelComponent; part: number }[] = [];
  const partMatrices = parts.map((p) => (p.transform ? placementMatrix(p.transform) : null));
  parts.forEach((part, partIndex) => {
    for (const actor of part.level.actors) {
      for (const c of actor.components) {
        if (!c.staticMesh) continue;
        const owner = components.push({ path: c.path, actor: actor.path, actorClass: actor.class, ...(part.sublevel ? { sublevel: part.sublevel } : {}) }) - 1;
        placed.push({ comp: c, part: partIndex });
        let entry = byMesh.get(c.staticMesh);
        if (!entry) byMesh.set(c.staticMesh, (entry = { owners: [], count: 0, treePath: null }));
        entry.treePath ??= part.links[c.staticMesh] ?? null;
        entry.owners.push(owner);
        entry.count += c.instances ? c.instances.transforms.length : 1;
      }
    }
  });
  const placements = [...byMesh.values()].reduce((n, e) => n + e.count, 0);
  const matrices = new Float32Array(placements * 16);
  const owners = new Uint32Array(placements);
  const meshes: LevelSceneMesh[] = [];
  const identity = composeMat4([0, 0, 0], [0, 0, 0, 1], [1, 1, 1]);
  const local: Mat4 = new Float64Array(16);
  let at = 0;
  for (const [mesh, e] of byMesh) {
    meshes.push({ mesh, treePath: e.treePath, first: at, count: e.count });
    for (const owner of e.owners) {
      const { comp: c, part } = placed[owner]!;
      const inLevel = placementMatrix(c.world);
      const world = partMatrices[part] ? multiplyMat4(partMatrices[part], inLevel) : inLevel;
      for (const t of c.instances ? c.instances.transforms : [null]) {
        multiplyInto(matrices, at * 16, world, t ? placementMatrix(t, local) : identity);
        owners[at++] = owner;
      }
    }
  }
  const min: [number, number, number] = [Infinity, Infinity, Infinity], max: [number, number, number] = [-Infinity, -Infinity, -Infinity];
  for (let i = 0; i < placements; i++) {
    for (let k = 0; k < 3; k++) {
      const v = matrices[i * 16 + 12 + k]!;
      if (v < min[k]!) min[k] = v;
      if (v > max[k]!) max[k] = v;
    }
  }
  return {
    path, exportIndex, components, meshes, placements,
    sublevels: parts.flatMap((p) => (p.sublevel ? [p.sublevel] : [])), notes: [],
    matrices: bytesOf(matrices), owners: bytesOf(owners),
    bounds: placements > 0 ? { min, max } : { min: [0, 0, 0], max: [0, 0, 0] },
  };
}

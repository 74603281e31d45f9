/**
 * The animation view's backend: a sequence's facts with its skeleton posed at every frame (the
 * anim kind's readers, core/assets/anim), and its .glb on the skeletal mesh found for it. The
 * last few are kept, so saving does not read the packages again.
 */
import { curveValue, localPose, bonePositions, readAnimatedMesh, readComposition, writeAnimatedGlb, type AnimatedMesh, type AnimComposition } from '../core/assets/anim/index.js';
import { composeMat4, invertAffineMat4, multiplyMat4, toGltfAxes, toGltfPosition, toGltfQuat, type Mat4 } from '../core/assets/mesh/gltf/axes.js';
import type { MeshBone, MeshTransform } from '../core/assets/mesh/types.js';
import type { ConvertOptions } from '../core/assets/registry.js';
import type { Install } from '../core/install/install.js';
import type { Usmap } from '../core/usmap/types.js';
import type { AnimView, AssetRequest, PackageAsset } from '../shared/asset-api.js';
import { packageAssets } from './assets.js';
import type { PackageService } from './packages.js';
import { RequestError } from './request-error.js';

const CACHED = 3;
/** Meshes skinned in the view up to this many vertices (the page skins on its own thread); larger ones show their bones. */
const MAX_SKINNED_VERTICES = 200_000;

export interface AnimServiceOptions {
  packages: PackageService;
  mappings: (installId: string) => Promise<Usmap | undefined>;
}

interface Found { anim?: AnimatedMesh; composition?: AnimComposition; asset: PackageAsset; path: string }

export class AnimService {
  private readonly cache = new Map<string, Promise<Found>>();

  constructor(private readonly opts: AnimServiceOptions) {}

  forget(installId: string): void {
    for (const k of [...this.cache.keys()]) if (k.startsWith(`${installId}|`)) this.cache.delete(k);
  }

  /** True when the request names an animation (the anim kind's export, or the package's first asset being one). */
  async isAnim(install: Install, req: AssetRequest): Promise<boolean> {
    const packages = this.opts.packages.packagesOf(req.installId, install);
    const opened = await packages.open(this.opts.packages.locate(packages, req.path), req.engine ? { engine: req.engine } : {});
    const assets = packageAssets(opened.model);
    const asset = req.exportIndex === undefined ? assets[0] : assets.find((a) => a.exportIndex === req.exportIndex);
    return asset?.kind === 'anim';
  }

  async info(install: Install, req: AssetRequest): Promise<AnimView> {
    const { anim, composition, asset, path } = await this.read(install, req);
    return composition ? compositionView(composition, path, asset) : animView(anim!, path, asset);
  }

  async convert(install: Install, req: AssetRequest & { lod?: number }): Promise<Uint8Array> {
    const { anim, asset } = await this.read(install, req);
    if (!anim) throw new RequestError(`${asset.name} (${asset.class}) has no .glb of its own: save the sequences it is made of`);
    try {
      return await writeAnimatedGlb(anim, req.lod ?? 0);
    } catch (e) {
      if (e instanceof RangeError) throw new RequestError(`${anim.sequence.name}: ${e.message}`);
      throw e;
    }
  }

  private read(install: Install, req: AssetRequest): Promise<Found> {
    const key = `${req.installId}|${req.path}|${req.exportIndex ?? ''}|${req.engine ?? ''}`;
    let hit = this.cache.get(key);
    if (hit) this.cache.delete(key);
    else {
      hit = this.load(install, req);
      hit.catch(() => { if (this.cache.get(key) === hit) this.cache.delete(key); });
    }
    this.cache.set(key, hit);
    while (this.cache.size > CACHED) this.cache.delete(this.cache.keys().next().value!);
    return hit;
  }

  private async load(install: Install, req: AssetRequest): Promise<Found> {
    const packages = this.opts.packages.packagesOf(req.installId, install);
    const opened = await packages.open(this.opts.packages.locate(packages, req.path), req.engine ? { engine: req.engine } : {});
    const assets = packageAssets(opened.model);
    const asset = req.exportIndex === undefined ? assets.find((a) => a.kind === 'anim' || a.kind === 'animcomposition') : assets.find((a) => a.exportIndex === req.exportIndex);
    if (!asset || (asset.kind !== 'anim' && asset.kind !== 'animcomposition')) {
      throw new RequestError(req.exportIndex === undefined ? `${opened.path} holds no animation sequence` : `export ${req.exportIndex} of ${opened.path} is not an animation sequence`);
    }
    const mappings = await this.opts.mappings(req.installId);
    const opts: ConvertOptions = { ...(mappings ? { mappings } : {}), ...(req.engine ? { engine: req.engine } : {}) };
    if (asset.kind === 'animcomposition') return { composition: await readComposition({ packages, ref: opened.path }, asset.exportIndex, opts), asset, path: opened.path };
    const anim = await readAnimatedMesh({ packages, ref: opened.path }, asset.exportIndex, opts);
    return { anim, asset, path: opened.path };
  }
}

/** A montage, composite or blend space: its facts, no poses of its own. */
export function compositionView(c: AnimComposition, path: string, asset: PackageAsset): AnimView {
  return {
    path, exportIndex: asset.exportIndex, class: c.class, name: c.name, skeleton: c.skeleton, sequenceLength: c.length, rateScale: c.rateScale, frames: 0,
    additive: 'AAT_None', codecs: { bone: '', boneFormat: '', boneDecoded: false, curve: '', curveFormat: '', curveDecoded: false },
    tracks: [], curves: [], bones: [], positions: [], composition: c, notes: [...c.notes], converts: [],
  };
}

/** The view's facts; bones posed at each frame, in the view's axes (the engine's (x, y, z) as (x, z, y), cm). */
export function animView(a: AnimatedMesh, path: string, asset: PackageAsset): AnimView {
  const s = a.sequence;
  const bones = a.skeleton?.bones ?? [];
  const frames = Math.max(1, s.frames);
  const time = (f: number): number => (frames > 1 ? (f * s.sequenceLength) / (frames - 1) : 0);
  const positions: number[] = [];
  if (bones.length > 0) {
    for (let f = 0; f < frames; f++) {
      for (const p of bonePositions(bones, localPose(s, bones, time(f)))) positions.push(p[0], p[2], p[1]);
    }
  }
  const skin = skinOf(a, frames, time);
  const notes = [...s.notes, ...a.notes];
  if (a.meshPath && !skin && bones.length > 0) notes.push(`${a.meshPath} is not skinned in the view (no skin weights in LOD 0, or over ${MAX_SKINNED_VERTICES} vertices): its bones play the sequence`);
  return {
    path, exportIndex: asset.exportIndex, class: s.class, name: s.name, skeleton: s.skeleton, ...(a.meshPath ? { mesh: a.meshPath } : {}),
    sequenceLength: s.sequenceLength, rateScale: s.rateScale, frames: s.frames, additive: s.additive, codecs: { ...s.codecs },
    tracks: s.trackBones.map((bone, i) => {
      const t = s.tracks[i];
      return {
        bone, boneName: bones[bone]?.name ?? `bone ${bone}`,
        translationKeys: t?.translation?.times.length ?? 0, rotationKeys: t?.rotation?.times.length ?? 0, scaleKeys: t?.scale?.times.length ?? 0,
        formats: [...new Set([t?.translation?.format, t?.rotation?.format, t?.scale?.format].filter((x): x is string => !!x))],
      };
    }),
    curves: s.curveNames.map((name) => {
      const c = s.curves.find((x) => x.name === name);
      return { name, keys: c?.keys.length ?? 0, values: c ? Array.from({ length: frames }, (_, f) => curveValue(c, time(f))) : [] };
    }),
    bones: bones.map((b) => ({ name: b.name, parent: b.parent })),
    positions,
    ...(skin ? { skin } : {}),
    notes,
    converts: s.tracks.length > 0 && a.skeleton ? [...asset.converts] : [],
  };
}

const localMatrix = (t: MeshTransform): Mat4 => composeMat4(toGltfPosition(t.translation, 1), toGltfQuat(t.rotation), toGltfAxes(t.scale));

function globalsOf(bones: readonly MeshBone[], pose: readonly MeshTransform[]): Mat4[] {
  const out: Mat4[] = [];
  bones.forEach((b, i) => {
    const m = localMatrix(pose[i]!);
    out.push(b.parent >= 0 && b.parent < i ? multiplyMat4(out[b.parent]!, m) : m);
  });
  return out;
}

/** The skinning of the mesh's LOD 0 at every frame, where it has skin weights and is small enough to skin in the page. */
function skinOf(a: AnimatedMesh, frames: number, time: (f: number) => number): AnimView['skin'] {
  const { mesh, skeleton, sequence } = a;
  const lod = mesh?.lods[0];
  if (!mesh || !skeleton || !lod?.skin || mesh === skeleton || lod.vertexCount > MAX_SKINNED_VERTICES || sequence.tracks.length === 0) return undefined;
  const bind = globalsOf(mesh.bones, mesh.bones.map((b) => b.local));
  const inverseBind = bind.map(invertAffineMat4);
  // Each mesh bone's skeleton bone (by name); a bone the skeleton lacks stays in its bind pose.
  const skeletonIndex = mesh.bones.map((b) => skeleton.bones.findIndex((x) => x.name === b.name));
  const matrices: number[] = [];
  for (let f = 0; f < frames; f++) {
    const skeletonPose = localPose(sequence, skeleton.bones, time(f));
    const pose = mesh.bones.map((b, j) => (skeletonIndex[j]! >= 0 ? skeletonPose[skeletonIndex[j]!]! : b.local));
    const globals = globalsOf(mesh.bones, pose);
    globals.forEach((g, j) => {
      const m = multiplyMat4(g, inverseBind[j]!);
      // Rows of the 3x4 part (column-major storage: m[col * 4 + row]).
      for (let r = 0; r < 3; r++) matrices.push(m[r]!, m[4 + r]!, m[8 + r]!, m[12 + r]!);
    });
  }
  const n = lod.vertexCount, k = lod.skin.influences;
  return { vertices: n, influences: k, joints: Array.from(lod.skin.joints.subarray(0, n * k)), weights: Array.from(lod.skin.weights.subarray(0, n * k)), bones: mesh.bones.length, matrices };
}

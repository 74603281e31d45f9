/**
 * A sequence as a glTF animation on a mesh's joints: each bone with a track gets translation,
 * rotation and scale channels sampled at every frame of the sequence (LINEAR), in glTF's axes
 * and metres as the skeleton's nodes are (mesh/gltf/axes.ts). Bones are matched to the
 * sequence's skeleton by name, so a mesh whose reference skeleton orders or subsets the
 * skeleton's bones still plays it.
 */
import type { Document, Node } from '@gltf-transform/core';
import { GLTF_SCALE, toGltfAxes, toGltfPosition, toGltfQuat } from '../mesh/gltf/axes.js';
import type { MeshBone } from '../mesh/types.js';
import { localPose } from './evaluate.js';
import type { AnimSequence } from './types.js';

/**
 * Adds `seq` (whose track bone indices index `skeletonBones`) as an animation on `boneNodes`,
 * the nodes of `meshBones`. Returns how many bones it animates.
 */
export function addGltfAnimation(doc: Document, boneNodes: readonly Node[], meshBones: readonly MeshBone[], seq: AnimSequence, skeletonBones: readonly MeshBone[]): number {
  if (seq.tracks.length === 0) return 0;
  const nodeOf = new Map(meshBones.map((b, i) => [b.name, boneNodes[i]!]));
  const frames = Math.max(1, seq.frames);
  const times = new Float32Array(frames);
  for (let f = 0; f < frames; f++) times[f] = frames > 1 ? (f * seq.sequenceLength) / (frames - 1) : 0;
  const poses = Array.from(times, (t) => localPose(seq, skeletonBones, t));
  const buffer = doc.getRoot().listBuffers()[0] ?? doc.createBuffer();
  const input = doc.createAccessor(`${seq.name}_time`, buffer).setType('SCALAR').setArray(times);
  const animation = doc.createAnimation(seq.name);
  let animated = 0;
  for (const track of seq.tracks) {
    const bone = skeletonBones[track.bone];
    const node = bone ? nodeOf.get(bone.name) : undefined;
    if (!node) continue;
    animated++;
    const channel = (path: 'translation' | 'rotation' | 'scale', width: number, value: (f: number) => number[]) => {
      const out = new Float32Array(frames * width);
      for (let f = 0; f < frames; f++) out.set(value(f), f * width);
      const sampler = doc.createAnimationSampler().setInput(input).setInterpolation('LINEAR')
        .setOutput(doc.createAccessor(`${seq.name}_${bone!.name}_${path}`, buffer).setType(width === 4 ? 'VEC4' : 'VEC3').setArray(out));
      animation.addSampler(sampler).addChannel(doc.createAnimationChannel().setTargetNode(node).setTargetPath(path).setSampler(sampler));
    };
    const p = (f: number) => poses[f]![track.bone]!;
    channel('translation', 3, (f) => toGltfPosition(p(f).translation, GLTF_SCALE));
    // Each rotation on the same side as the one before, so LINEAR (slerp) takes the short way.
    let previous: number[] | undefined;
    channel('rotation', 4, (f) => {
      let q: number[] = toGltfQuat(p(f).rotation);
      if (previous && q.reduce((s, x, i) => s + x * previous![i]!, 0) < 0) q = q.map((x) => -x);
      previous = q;
      return q;
    });
    channel('scale', 3, (f) => toGltfAxes(p(f).scale));
  }
  if (animated === 0) animation.dispose();
  return animated;
}

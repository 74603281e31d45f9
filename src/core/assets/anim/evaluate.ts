/**
 * A sequence's pose at a time: each bone's local transform, from its track's keys where it has
 * one (linear between keys, rotations by normalized lerp along the shorter arc, as the engine
 * interpolates compressed keys) and from the skeleton's reference pose elsewhere; and the
 * curves' values (linear, constant or cubic Hermite keys). Engine axes and units.
 */
import { mulQuat, rotate } from '../../math/quat.js';
import type { MeshBone, MeshTransform } from '../mesh/types.js';
import type { AnimCurve, AnimKeys, AnimSequence } from './types.js';

/** Frame `frame` (fractional) of `keys`: the value interpolated between the keys around it. */
export function sampleKeys(keys: AnimKeys, frame: number, width: 3 | 4): number[] {
  const { times, values } = keys;
  const n = times.length;
  const at = (k: number): number[] => Array.from(values.subarray(k * width, k * width + width));
  if (n === 0) return width === 4 ? [0, 0, 0, 1] : [0, 0, 0];
  if (n === 1 || frame <= times[0]!) return at(0);
  if (frame >= times[n - 1]!) return at(n - 1);
  let hi = 1;
  while (hi < n - 1 && times[hi]! < frame) hi++;
  const lo = hi - 1;
  const span = times[hi]! - times[lo]!;
  const a = span > 0 ? (frame - times[lo]!) / span : 0;
  const p = at(lo), q = at(hi);
  if (width === 3) return p.map((v, i) => v + (q[i]! - v) * a);
  const dot = p[0]! * q[0]! + p[1]! * q[1]! + p[2]! * q[2]! + p[3]! * q[3]!;
  const s = dot < 0 ? -1 : 1;
  const r = p.map((v, i) => v * (1 - a) + q[i]! * s * a);
  const len = Math.hypot(...r) || 1;
  return r.map((v) => v / len);
}

/** Each bone's local transform at `seconds` (clamped to the sequence), the reference pose for bones without a track. */
export function localPose(seq: AnimSequence, bones: readonly MeshBone[], seconds: number): MeshTransform[] {
  const pose = bones.map((b) => ({ translation: [...b.local.translation], rotation: [...b.local.rotation], scale: [...b.local.scale] }) as MeshTransform);
  const frame = frameAt(seq, seconds);
  // Additive sequences store differences: shown on the reference pose (translation added,
  // rotation applied before it, scale as 1 + the stored value), as the engine adds them to a base.
  const additive = seq.additive !== 'AAT_None' && seq.additive !== '';
  for (const t of seq.tracks) {
    const p = pose[t.bone];
    if (!p) continue;
    if (t.translation) {
      const v = sampleKeys(t.translation, frame, 3);
      p.translation = (additive ? v.map((x, i) => x + p.translation[i]!) : v) as MeshTransform['translation'];
    }
    if (t.rotation) {
      const q = sampleKeys(t.rotation, frame, 4);
      p.rotation = (additive ? mulQuat(q, p.rotation) : q) as MeshTransform['rotation'];
    }
    if (t.scale) {
      const v = sampleKeys(t.scale, frame, 3);
      p.scale = (additive ? v.map((x, i) => (1 + x) * p.scale[i]!) : v) as MeshTransform['scale'];
    }
  }
  return pose;
}

/** The (fractional) frame of a time in seconds. */
export function frameAt(seq: AnimSequence, seconds: number): number {
  if (seq.frames <= 1 || !(seq.sequenceLength > 0)) return 0;
  const t = Math.min(Math.max(seconds, 0), seq.sequenceLength);
  return (t / seq.sequenceLength) * (seq.frames - 1);
}


/** Each bone's position in the component's space (cm, engine axes) for a local pose; parents come before children. */
export function bonePositions(bones: readonly MeshBone[], pose: readonly MeshTransform[]): [number, number, number][] {
  const rot: number[][] = [], scale: number[][] = [], pos: [number, number, number][] = [];
  bones.forEach((b, i) => {
    const l = pose[i]!;
    if (b.parent < 0) {
      pos.push([...l.translation]); rot.push([...l.rotation]); scale.push([...l.scale]);
      return;
    }
    const pr = rot[b.parent]!, ps = scale[b.parent]!, pp = pos[b.parent]!;
    const d = rotate(pr, l.translation.map((v, k) => v * ps[k]!));
    pos.push([pp[0] + d[0], pp[1] + d[1], pp[2] + d[2]]);
    rot.push(mulQuat(pr, l.rotation));
    scale.push(l.scale.map((v, k) => v * ps[k]!));
  });
  return pos;
}

/** A curve's value at `seconds`. */
export function curveValue(curve: AnimCurve, seconds: number): number {
  const k = curve.keys;
  if (k.length === 0) return curve.constant ?? 0;
  if (seconds <= k[0]!.time) return k[0]!.value;
  if (seconds >= k[k.length - 1]!.time) return k[k.length - 1]!.value;
  let i = 0;
  while (i < k.length - 2 && k[i + 1]!.time < seconds) i++;
  const a = k[i]!, b = k[i + 1]!;
  const dt = b.time - a.time;
  const u = dt > 0 ? (seconds - a.time) / dt : 0;
  if (a.interp === 'constant' || a.interp === 'none') return a.value;
  if (a.interp === 'linear') return a.value + (b.value - a.value) * u;
  // Cubic Hermite with the leave tangent of a and the arrive tangent of b (values per second).
  const u2 = u * u, u3 = u2 * u;
  return (2 * u3 - 3 * u2 + 1) * a.value + (u3 - 2 * u2 + u) * dt * a.leaveTangent + (-2 * u3 + 3 * u2) * b.value + (u3 - u2) * dt * b.arriveTangent;
}

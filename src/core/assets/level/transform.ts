/**
 * The engine's transforms as a level places things: a location (cm), a rotator (degrees:
 * pitch, yaw, roll) and a scale, the quaternion between them, and composing a component's
 * relative transform with its parent's as FTransform does (scale, then rotation, then
 * translation). Pure functions over plain objects.
 */
import { mulQuat, rotate, rotatorToQuat as quatFromRotator } from '../../math/quat.js';

export interface Vec3 {
  x: number;
  y: number;
  z: number;
}

export interface Rotator {
  pitch: number;
  yaw: number;
  roll: number;
}

export interface Quat {
  x: number;
  y: number;
  z: number;
  w: number;
}

/** A placement: where, which way and how large; `rotation` as a rotator and as the quaternion it stands for. */
export interface Placement {
  location: Vec3;
  rotation: Rotator;
  quat: Quat;
  scale: Vec3;
}

const DEG = Math.PI / 180;
export const ZERO: Vec3 = { x: 0, y: 0, z: 0 };
export const ONE: Vec3 = { x: 1, y: 1, z: 1 };
export const ZERO_ROTATOR: Rotator = { pitch: 0, yaw: 0, roll: 0 };
export const IDENTITY_QUAT: Quat = { x: 0, y: 0, z: 0, w: 1 };

/** Rounds away float noise (1e-12) so printed and compared values read as the editor shows them. */
const clean = (v: number): number => {
  const r = Math.round(v * 1e9) / 1e9;
  return Object.is(r, -0) ? 0 : r;
};
export const cleanVec = (v: Vec3): Vec3 => ({ x: clean(v.x), y: clean(v.y), z: clean(v.z) });

const quatOf = ([x, y, z, w]: readonly number[]): Quat => ({ x: x!, y: y!, z: z!, w: w! });
const arrayOf = (q: Quat): number[] => [q.x, q.y, q.z, q.w];

/** FRotator::Quaternion. */
export const rotatorToQuat = (r: Rotator): Quat => quatOf(quatFromRotator(r.pitch, r.yaw, r.roll));

/** An angle in (-180, 180]. */
const normalizeAxis = (a: number): number => {
  let v = a % 360;
  if (v > 180) v -= 360;
  if (v <= -180) v += 360;
  return v;
};

/** FQuat::Rotator, with its gimbal-lock cases. */
export function quatToRotator(q: Quat): Rotator {
  const singularity = q.z * q.x - q.w * q.y;
  const yawY = 2 * (q.w * q.z + q.x * q.y);
  const yawX = 1 - 2 * (q.y * q.y + q.z * q.z);
  const yaw = Math.atan2(yawY, yawX) / DEG;
  const THRESHOLD = 0.4999995;
  if (singularity < -THRESHOLD) return { pitch: -90, yaw, roll: normalizeAxis(-yaw - 2 * Math.atan2(q.x, q.w) / DEG) };
  if (singularity > THRESHOLD) return { pitch: 90, yaw, roll: normalizeAxis(yaw - 2 * Math.atan2(q.x, q.w) / DEG) };
  return {
    pitch: Math.asin(2 * singularity) / DEG,
    yaw,
    roll: Math.atan2(-2 * (q.w * q.x + q.y * q.z), 1 - 2 * (q.x * q.x + q.y * q.y)) / DEG,
  };
}

/** a * b: rotating by b, then by a. */
export const quatMul = (a: Quat, b: Quat): Quat => quatOf(mulQuat(arrayOf(a), arrayOf(b)));

export function rotateVector(q: Quat, v: Vec3): Vec3 {
  const [x, y, z] = rotate(arrayOf(q), [v.x, v.y, v.z]);
  return { x, y, z };
}

export function placement(location: Vec3, rotation: Rotator, scale: Vec3): Placement {
  return { location: cleanVec(location), rotation: cleanRotator(rotation), quat: rotatorToQuat(rotation), scale: cleanVec(scale) };
}

export function placementFromQuat(location: Vec3, quat: Quat, scale: Vec3): Placement {
  return { location: cleanVec(location), rotation: cleanRotator(quatToRotator(quat)), quat, scale: cleanVec(scale) };
}

const cleanRotator = (r: Rotator): Rotator => ({ pitch: clean(r.pitch), yaw: clean(r.yaw), roll: clean(r.roll) });

export const IDENTITY: Placement = placement(ZERO, ZERO_ROTATOR, ONE);

/**
 * `child` (relative to `parent`) in `parent`'s space, as FTransform's child * parent: scales
 * multiply, rotations compose, and the child's location is scaled, rotated and moved by the
 * parent's. (Like the engine, a non-uniform parent scale under a rotated child is not a shear.)
 */
export function compose(child: Placement, parent: Placement): Placement {
  const q = quatMul(parent.quat, child.quat);
  const scaled = { x: child.location.x * parent.scale.x, y: child.location.y * parent.scale.y, z: child.location.z * parent.scale.z };
  const r = rotateVector(parent.quat, scaled);
  const location = { x: r.x + parent.location.x, y: r.y + parent.location.y, z: r.z + parent.location.z };
  const scale = { x: child.scale.x * parent.scale.x, y: child.scale.y * parent.scale.y, z: child.scale.z * parent.scale.z };
  return placementFromQuat(location, q, scale);
}

/**
 * An FMatrix (row-major, rows are the scaled X, Y and Z axes and then the translation, as the
 * engine stores an instance's transform) as a placement. A negative determinant (a mirror)
 * becomes a negative X scale, as FTransform::SetFromMatrix does.
 */
export function matrixToPlacement(m: ArrayLike<number>): Placement {
  const row = (i: number): Vec3 => ({ x: m[i * 4]!, y: m[i * 4 + 1]!, z: m[i * 4 + 2]! });
  const len = (v: Vec3): number => Math.hypot(v.x, v.y, v.z);
  const ax = row(0), ay = row(1), az = row(2);
  const det = ax.x * (ay.y * az.z - ay.z * az.y) - ax.y * (ay.x * az.z - ay.z * az.x) + ax.z * (ay.x * az.y - ay.y * az.x);
  const scale = { x: len(ax) * (det < 0 ? -1 : 1), y: len(ay), z: len(az) };
  const n = (v: Vec3, s: number): Vec3 => (s === 0 ? v : { x: v.x / s, y: v.y / s, z: v.z / s });
  const [x, y, z] = [n(ax, scale.x), n(ay, scale.y), n(az, scale.z)];
  return placementFromQuat(row(3), matrixQuat(x, y, z), scale);
}

/** FQuat(FMatrix) for a rotation matrix whose rows are the axes x, y, z. */
function matrixQuat(x: Vec3, y: Vec3, z: Vec3): Quat {
  const trace = x.x + y.y + z.z;
  let q: Quat;
  if (trace > 0) {
    const s = 0.5 / Math.sqrt(trace + 1);
    q = { w: 0.25 / s, x: (y.z - z.y) * s, y: (z.x - x.z) * s, z: (x.y - y.x) * s };
  } else if (x.x > y.y && x.x > z.z) {
    const s = 2 * Math.sqrt(1 + x.x - y.y - z.z);
    q = { w: (y.z - z.y) / s, x: 0.25 * s, y: (y.x + x.y) / s, z: (z.x + x.z) / s };
  } else if (y.y > z.z) {
    const s = 2 * Math.sqrt(1 + y.y - x.x - z.z);
    q = { w: (z.x - x.z) / s, x: (y.x + x.y) / s, y: 0.25 * s, z: (z.y + y.z) / s };
  } else {
    const s = 2 * Math.sqrt(1 + z.z - x.x - y.y);
    q = { w: (x.y - y.x) / s, x: (z.x + x.z) / s, y: (z.y + y.z) / s, z: 0.25 * s };
  }
  const l = Math.hypot(q.x, q.y, q.z, q.w) || 1;
  return { x: q.x / l, y: q.y / l, z: q.z / l, w: q.w / l };
}

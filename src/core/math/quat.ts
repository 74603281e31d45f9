/**
 * Quaternion arithmetic in the engine's axes, (x, y, z, w) as arrays: a rotator's quaternion,
 * the product of two and a vector rotated by one. The mesh, animation and level kinds share it.
 */

export type Quat = [number, number, number, number];

/** The quaternion of an engine rotator (pitch, yaw, roll in degrees), as FRotator::Quaternion makes it. */
export function rotatorToQuat(pitch: number, yaw: number, roll: number): Quat {
  const h = Math.PI / 360; // degrees to radians, halved
  const sp = Math.sin((pitch % 360) * h), cp = Math.cos((pitch % 360) * h);
  const sy = Math.sin((yaw % 360) * h), cy = Math.cos((yaw % 360) * h);
  const sr = Math.sin((roll % 360) * h), cr = Math.cos((roll % 360) * h);
  return [
    cr * sp * sy - sr * cp * cy,
    -cr * sp * cy - sr * cp * sy,
    cr * cp * sy - sr * sp * cy,
    cr * cp * cy + sr * sp * sy,
  ];
}

/** a * b: rotating by b, then by a. */
export function mulQuat(a: readonly number[], b: readonly number[]): Quat {
  const [ax, ay, az, aw] = a as Quat;
  const [bx, by, bz, bw] = b as Quat;
  return [aw * bx + ax * bw + ay * bz - az * by, aw * by - ax * bz + ay * bw + az * bx, aw * bz + ax * by - ay * bx + az * bw, aw * bw - ax * bx - ay * by - az * bz];
}

/** Rotates v by the unit quaternion q. */
export function rotate(q: readonly number[], v: readonly number[]): [number, number, number] {
  const [x, y, z, w] = q as Quat;
  // t = 2 * cross(q.xyz, v); v' = v + w * t + cross(q.xyz, t)
  const tx = 2 * (y * v[2]! - z * v[1]!), ty = 2 * (z * v[0]! - x * v[2]!), tz = 2 * (x * v[1]! - y * v[0]!);
  return [v[0]! + w * tx + (y * tz - z * ty), v[1]! + w * ty + (z * tx - x * tz), v[2]! + w * tz + (x * ty - y * tx)];
}

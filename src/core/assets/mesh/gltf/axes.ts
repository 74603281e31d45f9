/**
 * From the engine's axes to glTF's. The engine stores centimetres, Z up, left-handed (X forward,
 * Y right); glTF is metres, Y up, right-handed. As Unreal's own glTF exporter does, a vector
 * (x, y, z) becomes (x, z, y): Y and Z swap places. That swap is a mirror (determinant -1), which
 * is exactly the change of handedness, so nothing else is mirrored: the engine's triangles, front
 * faces clockwise in its left-handed frame, are counter-clockwise in glTF's right-handed frame
 * with their indices in the stored order. A rotation's quaternion (x, y, z, w) becomes
 * (-x, -z, -y, w) (the mirrored axis, the angle's sense reversed by the mirror).
 *
 * The view uses the same axes without the scale (centimetres), so what it shows and what the
 * .glb holds agree.
 */

/** Centimetres to metres. */
export const GLTF_SCALE = 0.01;

export type Vec3 = [number, number, number];
export type Quat = [number, number, number, number];

/** An engine direction or scale in glTF's axes (not scaled). */
export const toGltfAxes = (v: readonly number[]): Vec3 => [v[0]!, v[2]!, v[1]!];

/** An engine position (cm) in glTF's axes, times `scale` (GLTF_SCALE for metres). */
export const toGltfPosition = (v: readonly number[], scale = GLTF_SCALE): Vec3 => [v[0]! * scale, v[2]! * scale, v[1]! * scale];

/** An engine rotation quaternion in glTF's axes, unit length (identity for a zero quaternion). */
export function toGltfQuat(q: readonly number[]): Quat {
  const x = -q[0]!, y = -q[2]!, z = -q[1]!, w = q[3]!;
  const len = Math.hypot(x, y, z, w);
  return len > 0 && Number.isFinite(len) ? [x / len, y / len, z / len, w / len] : [0, 0, 0, 1];
}

/** A rotator's quaternion, still in the engine's axes (core/math/quat.ts). */
export { rotatorToQuat } from '../../../math/quat.js';

/**
 * Copies of a vertex stream in glTF's axes: `stride` floats per vertex (3 or 4), the first three
 * swapped (Y and Z) and multiplied by `scale`; a fourth (a tangent's sign) kept.
 */
export function streamToGltfAxes(src: Float32Array, stride: 3 | 4, scale = 1): Float32Array {
  const out = new Float32Array(src.length);
  for (let i = 0; i + stride <= src.length; i += stride) {
    out[i] = src[i]! * scale;
    out[i + 1] = src[i + 2]! * scale;
    out[i + 2] = src[i + 1]! * scale;
    if (stride === 4) out[i + 3] = src[i + 3]!;
  }
  return out;
}

/** 4x4 column-major matrices (glTF's layout). */
export type Mat4 = Float64Array;

/** The matrix of translation t, rotation q (unit) and scale s (into `m`, every element written, when given). */
export function composeMat4(t: readonly number[], q: readonly number[], s: readonly number[], m: Mat4 = new Float64Array(16)): Mat4 {
  const [x, y, z, w] = q as Quat;
  const x2 = x + x, y2 = y + y, z2 = z + z;
  const xx = x * x2, xy = x * y2, xz = x * z2, yy = y * y2, yz = y * z2, zz = z * z2;
  const wx = w * x2, wy = w * y2, wz = w * z2;
  m[3] = m[7] = m[11] = 0;
  m[0] = (1 - (yy + zz)) * s[0]!; m[1] = (xy + wz) * s[0]!; m[2] = (xz - wy) * s[0]!;
  m[4] = (xy - wz) * s[1]!; m[5] = (1 - (xx + zz)) * s[1]!; m[6] = (yz + wx) * s[1]!;
  m[8] = (xz + wy) * s[2]!; m[9] = (yz - wx) * s[2]!; m[10] = (1 - (xx + yy)) * s[2]!;
  m[12] = t[0]!; m[13] = t[1]!; m[14] = t[2]!; m[15] = 1;
  return m;
}

/** a x b. */
export function multiplyMat4(a: Mat4, b: Mat4): Mat4 {
  const m = new Float64Array(16);
  for (let c = 0; c < 4; c++) {
    for (let r = 0; r < 4; r++) {
      m[c * 4 + r] = a[r]! * b[c * 4]! + a[4 + r]! * b[c * 4 + 1]! + a[8 + r]! * b[c * 4 + 2]! + a[12 + r]! * b[c * 4 + 3]!;
    }
  }
  return m;
}

/** The inverse of an affine matrix (last row 0, 0, 0, 1); the identity's for a singular one. */
export function invertAffineMat4(m: Mat4): Mat4 {
  const a = m[0]!, b = m[4]!, c = m[8]!, d = m[1]!, e = m[5]!, f = m[9]!, g = m[2]!, h = m[6]!, i = m[10]!;
  const A = e * i - f * h, B = -(d * i - f * g), C = d * h - e * g;
  const det = a * A + b * B + c * C;
  const out = new Float64Array(16);
  if (!det || !Number.isFinite(det)) {
    out[0] = out[5] = out[10] = out[15] = 1;
    return out;
  }
  const inv = 1 / det;
  // rows of the inverse 3x3 (the adjugate over the determinant)
  const r00 = A * inv, r01 = -(b * i - c * h) * inv, r02 = (b * f - c * e) * inv;
  const r10 = B * inv, r11 = (a * i - c * g) * inv, r12 = -(a * f - c * d) * inv;
  const r20 = C * inv, r21 = -(a * h - b * g) * inv, r22 = (a * e - b * d) * inv;
  const tx = m[12]!, ty = m[13]!, tz = m[14]!;
  out[0] = r00; out[4] = r01; out[8] = r02;
  out[1] = r10; out[5] = r11; out[9] = r12;
  out[2] = r20; out[6] = r21; out[10] = r22;
  out[12] = -(r00 * tx + r01 * ty + r02 * tz);
  out[13] = -(r10 * tx + r11 * ty + r12 * tz);
  out[14] = -(r20 * tx + r21 * ty + r22 * tz);
  out[15] = 1;
  return out;
}

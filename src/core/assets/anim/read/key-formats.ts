/**
 * The engine's own bone key encodings (AnimationCompressionFormat), one decoder per format: a
 * key read from a BinaryReader into `out` at `at` (3 floats for a vector, x, y, z, w for a
 * rotation). Quaternions store x, y, z of a unit quaternion with w >= 0 and rebuild w.
 */
import type { BinaryReader } from '../../../io/binary-reader.js';

export const KEY_FORMAT_NAMES = ['None', 'Float96NoW', 'Fixed48NoW', 'IntervalFixed32NoW', 'Fixed32NoW', 'Float32NoW', 'Identity'] as const;
export const Format = { None: 0, Float96NoW: 1, Fixed48NoW: 2, IntervalFixed32NoW: 3, Fixed32NoW: 4, Float32NoW: 5, Identity: 6 } as const;

/** Which of x, y, z a key stores (bit 0 x, bit 1 y, bit 2 z); 7 all three. */
export type ComponentMask = number;

/** Mins and ranges of an interval format, per component (0 where the component is not stored). */
export interface Interval { min: [number, number, number]; range: [number, number, number] }

const has = (mask: ComponentMask, c: number): boolean => (mask & (1 << c)) !== 0;

/** Writes x, y, z and the w that makes the quaternion unit length. */
function setQuat(out: Float32Array, at: number, x: number, y: number, z: number): void {
  out[at] = x; out[at + 1] = y; out[at + 2] = z;
  const w2 = 1 - x * x - y * y - z * z;
  out[at + 3] = w2 > 0 ? Math.sqrt(w2) : 0;
}

/** A 16-bit component centred on 32767 (x = (v - 32767) / 32767). */
const fixed16 = (v: number): number => (v - 32767) / 32767;

/** Unsigned `bits`-bit value centred on its middle, as -1..1. */
const centred = (v: number, bits: number): number => {
  const half = (1 << (bits - 1)) - 1;
  return (v - half) / half;
};

/** The 11/11/10-bit packing of Fixed32NoW and IntervalFixed32NoW rotations: x in the top 11 bits, z in the low 10. */
const unpack111110 = (p: number): [number, number, number] => [p >>> 21, (p >>> 10) & 0x7ff, p & 0x3ff];

/**
 * A small float of Float32NoW: sign in the top bit, a 3-bit exponent biased to 2^-4..2^3 around
 * the float's, and the rest mantissa (7 bits of 11, 6 of 10).
 */
function miniFloat(v: number, bits: 10 | 11): number {
  const mantissaBits = bits - 4;
  const sign = (v >>> (bits - 1)) & 1;
  const exponent = ((v >>> mantissaBits) & 7) + 123;
  const mantissa = v & ((1 << mantissaBits) - 1);
  const f32 = new DataView(new ArrayBuffer(4));
  f32.setUint32(0, ((sign << 31) | (exponent << 23) | (mantissa << (23 - mantissaBits))) >>> 0);
  return f32.getFloat32(0);
}

/** One rotation key of format `format` (mask: the stored components of per-track Fixed48NoW). */
export function readQuatKey(r: BinaryReader, format: number, out: Float32Array, at: number, mask: ComponentMask = 7, interval?: Interval): void {
  switch (format) {
    case Format.None: // key-lerp uncompressed: the whole quaternion
      out[at] = r.f32(); out[at + 1] = r.f32(); out[at + 2] = r.f32(); out[at + 3] = r.f32();
      return;
    case Format.Float96NoW:
      setQuat(out, at, r.f32(), r.f32(), r.f32());
      return;
    case Format.Fixed48NoW: {
      const c = [0, 1, 2].map((i) => (has(mask, i) ? fixed16(r.u16()) : 0));
      setQuat(out, at, c[0]!, c[1]!, c[2]!);
      return;
    }
    case Format.Fixed32NoW: {
      const [x, y, z] = unpack111110(r.u32());
      setQuat(out, at, centred(x, 11), centred(y, 11), centred(z, 10));
      return;
    }
    case Format.IntervalFixed32NoW: {
      const [x, y, z] = unpack111110(r.u32());
      const iv = interval ?? { min: [0, 0, 0], range: [0, 0, 0] };
      setQuat(out, at, centred(x, 11) * iv.range[0] + iv.min[0], centred(y, 11) * iv.range[1] + iv.min[1], centred(z, 10) * iv.range[2] + iv.min[2]);
      return;
    }
    case Format.Float32NoW: {
      const [x, y, z] = unpack111110(r.u32());
      setQuat(out, at, miniFloat(x, 11), miniFloat(y, 11), miniFloat(z, 10));
      return;
    }
    case Format.Identity:
      setQuat(out, at, 0, 0, 0);
      return;
    default:
      throw r.error(`rotation key format ${format} is not one the engine defines (0 to 6)`);
  }
}

/**
 * One translation or scale key of format `format`. `perTrack`: the per-track codec's layout,
 * where Float96NoW and Fixed48NoW store only the components in `mask` (the others 0) and
 * Fixed48NoW is a whole number offset by 255; the key-lerp codecs store all three, Fixed48NoW
 * scaled to -128..128.
 */
export function readVectorKey(r: BinaryReader, format: number, out: Float32Array, at: number, perTrack: boolean, mask: ComponentMask = 7, interval?: Interval): void {
  switch (format) {
    case Format.None:
    case Format.Float96NoW:
      for (let c = 0; c < 3; c++) out[at + c] = !perTrack || (mask & 7) === 0 || has(mask, c) ? r.f32() : 0;
      return;
    case Format.Fixed48NoW:
      for (let c = 0; c < 3; c++) {
        if (perTrack) out[at + c] = has(mask, c) ? r.u16() - 255 : 0;
        else out[at + c] = fixed16(r.u16()) * 128;
      }
      return;
    case Format.IntervalFixed32NoW: {
      // Vectors pack the other way round from rotations: x in the low 10 bits, z in the top 11.
      const p = r.u32();
      const iv = interval ?? { min: [0, 0, 0], range: [0, 0, 0] };
      out[at] = centred(p & 0x3ff, 10) * iv.range[0] + iv.min[0];
      out[at + 1] = centred((p >>> 10) & 0x7ff, 11) * iv.range[1] + iv.min[1];
      out[at + 2] = centred(p >>> 21, 11) * iv.range[2] + iv.min[2];
      return;
    }
    case Format.Identity:
      out[at] = out[at + 1] = out[at + 2] = 0;
      return;
    default:
      throw r.error(`vector key format ${format} (${KEY_FORMAT_NAMES[format] ?? 'unknown'}) is not one translations and scales are stored in`);
  }
}

/** Bytes one key of `format` takes (vector or rotation), for bounds checks before reading. */
export function keyBytes(format: number, rotation: boolean, perTrack: boolean, mask: ComponentMask): number {
  const n = perTrack && (mask & 7) !== 0 ? [0, 1, 2].filter((c) => has(mask, c)).length : 3;
  switch (format) {
    case Format.None: return rotation ? 16 : 12;
    case Format.Float96NoW: return rotation ? 12 : perTrack ? n * 4 : 12;
    case Format.Fixed48NoW: return perTrack ? n * 2 : 6;
    case Format.IntervalFixed32NoW:
    case Format.Fixed32NoW:
    case Format.Float32NoW: return 4;
    default: return 0;
  }
}

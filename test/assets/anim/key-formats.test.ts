// The engine's key formats and the key-lerp layouts on bytes written here from the formats'
// definitions (AnimationCompression.h's packings, written independently of the decoder): every
// quantized format gives back the values it was made from within its step, and a
// VariableKeyLerp stream with interval-packed keys and time markers decodes to its keys and frames.
// cue58 only cooks PerTrackCompression (sequence.test.ts), so these layouts have no real sample.
import { describe, expect, it } from 'vitest';
import { Format, readQuatKey, readVectorKey } from '../../../src/core/assets/anim/read/key-formats.js';
import { decodeUeTracks, type UeCompressedHeader } from '../../../src/core/assets/anim/read/ue-tracks.js';
import { BinaryReader } from '../../../src/core/io/binary-reader.js';
import { FormatError } from '../../../src/core/errors.js';

class Bytes {
  private readonly out: number[] = [];
  u8(v: number): this { this.out.push(v & 0xff); return this; }
  u16(v: number): this { return this.u8(v).u8(v >>> 8); }
  u32(v: number): this { return this.u16(v & 0xffff).u16(v >>> 16); }
  i32(v: number): this { return this.u32(v >>> 0); }
  f32(v: number): this { const b = new DataView(new ArrayBuffer(4)); b.setFloat32(0, v, true); return this.u32(b.getUint32(0, true)); }
  pad4(): this { while (this.out.length % 4) this.u8(0x55); return this; }
  get length(): number { return this.out.length; }
  bytes(): Uint8Array { return new Uint8Array(this.out); }
}

const reader = (b: Bytes) => new BinaryReader(b.bytes(), 'test.uasset');
/** x in -1..1 as an unsigned `bits`-bit value centred on its middle. */
const quantize = (x: number, bits: number): number => Math.round(x * ((1 << (bits - 1)) - 1)) + (1 << (bits - 1)) - 1;

describe('key formats', () => {
  const q = [0.1, -0.4, 0.3];
  const w = Math.sqrt(1 - 0.01 - 0.16 - 0.09);

  it('Float96NoW and Fixed48NoW rotations: x, y, z stored, w rebuilt', () => {
    const out = new Float32Array(4);
    readQuatKey(reader(new Bytes().f32(q[0]!).f32(q[1]!).f32(q[2]!)), Format.Float96NoW, out, 0);
    expect(Array.from(out).map((v) => +v.toFixed(6))).toEqual([0.1, -0.4, 0.3, +w.toFixed(6)]);
    readQuatKey(reader(new Bytes().u16(quantize(q[0]!, 16)).u16(quantize(q[1]!, 16)).u16(quantize(q[2]!, 16))), Format.Fixed48NoW, out, 0);
    out.forEach((v, i) => expect(v).toBeCloseTo([...q, w][i]!, 4));
  });

  it('Fixed32NoW: 11, 11 and 10 bits, x at the top', () => {
    const packed = ((quantize(q[0]!, 11) << 21) | (quantize(q[1]!, 11) << 10) | quantize(q[2]!, 10)) >>> 0;
    const out = new Float32Array(4);
    readQuatKey(reader(new Bytes().u32(packed)), Format.Fixed32NoW, out, 0);
    out.forEach((v, i) => expect(v).toBeCloseTo([...q, w][i]!, 2));
  });

  it('IntervalFixed32NoW: each component a fraction of its range about its minimum; vectors pack x at the bottom', () => {
    const min: [number, number, number] = [-5, 10, 0], range: [number, number, number] = [10, 4, 2];
    const v = [2, 11.5, 1.75];
    const frac = v.map((x, i) => (x - min[i]!) / range[i]!);
    const packed = ((quantize(frac[2]!, 11) << 21) | (quantize(frac[1]!, 11) << 10) | quantize(frac[0]!, 10)) >>> 0;
    const out = new Float32Array(3);
    readVectorKey(reader(new Bytes().u32(packed)), Format.IntervalFixed32NoW, out, 0, false, 7, { min, range });
    out.forEach((x, i) => expect(x).toBeCloseTo(v[i]!, 1));
  });

  it('Float32NoW: small floats of a 3-bit exponent and 7 (or 6) mantissa bits', () => {
    // A float's sign, exponent - 123 and its top mantissa bits.
    const mini = (x: number, bits: 10 | 11): number => {
      const f = new DataView(new ArrayBuffer(4));
      f.setFloat32(0, x);
      const u = f.getUint32(0);
      const m = bits - 4;
      return ((u >>> 31) << (bits - 1)) | ((((u >>> 23) & 0xff) - 123) << m) | ((u >>> (23 - m)) & ((1 << m) - 1));
    };
    const packed = ((mini(q[0]!, 11) << 21) | (mini(q[1]!, 11) << 10) | mini(q[2]!, 10)) >>> 0;
    const out = new Float32Array(4);
    readQuatKey(reader(new Bytes().u32(packed)), Format.Float32NoW, out, 0);
    out.forEach((v, i) => expect(v).toBeCloseTo([...q, w][i]!, 2));
  });

  it('per-track Fixed48NoW vectors store whole numbers offset by 255, only the masked components', () => {
    const out = new Float32Array(3);
    readVectorKey(reader(new Bytes().u16(255 + 12).u16(255 - 7)), Format.Fixed48NoW, out, 0, true, 0b101);
    expect(Array.from(out)).toEqual([12, 0, -7]);
  });
});

describe('VariableKeyLerp layout', () => {
  // One track: translation 3 keys IntervalFixed32NoW with time markers, rotation 1 key (stored whole, Float96NoW), no scale.
  function stream(): { bytes: Uint8Array; header: UeCompressedHeader } {
    const keys = new Bytes();
    const min = [0, 0, 0], range = [10, 10, 10];
    const values = [[0, 0, 0], [5, 2.5, 10], [10, 10, 0]];
    for (const x of min) keys.f32(x);
    for (const x of range) keys.f32(x);
    for (const v of values) {
      const f = v.map((x, i) => (x - min[i]!) / range[i]!);
      keys.u32(((quantize(f[2]!, 11) << 21) | (quantize(f[1]!, 11) << 10) | quantize(f[0]!, 10)) >>> 0);
    }
    keys.pad4().u8(0).u8(12).u8(40).pad4();
    const rotationAt = keys.length;
    keys.f32(0).f32(0).f32(0.5);
    const tables = new Bytes().i32(0).i32(3).i32(rotationAt).i32(1);
    const all = new Uint8Array(tables.length + keys.length);
    all.set(tables.bytes());
    all.set(keys.bytes(), tables.length);
    return {
      bytes: all,
      header: { frames: 41, keyLayout: 1, translationFormat: Format.IntervalFixed32NoW, rotationFormat: Format.Fixed48NoW, scaleFormat: Format.None, byteStreamBytes: keys.length, trackOffsets: 4, scaleOffsets: 0, scaleStripSize: 0 },
    };
  }

  it('decodes the keys and their frames', () => {
    const { bytes, header } = stream();
    const [track] = decodeUeTracks(bytes, 'test.uasset', 0, header, [3]);
    expect(track!.bone).toBe(3);
    expect(Array.from(track!.translation!.times)).toEqual([0, 12, 40]);
    const t = Array.from(track!.translation!.values);
    [0, 0, 0, 5, 2.5, 10, 10, 10, 0].forEach((v, i) => expect(t[i]).toBeCloseTo(v, 1));
    expect(track!.rotation!.format).toBe('Float96NoW');
    expect(track!.rotation!.values[2]).toBeCloseTo(0.5, 6);
    expect(track!.scale).toBeUndefined();
  });

  it('refuses time markers past the sequence and offsets past the keys', () => {
    const { bytes, header } = stream();
    expect(() => decodeUeTracks(bytes, 'test.uasset', 0, { ...header, frames: 30 }, [3])).toThrow(/key 2 is at frame 40/);
    const far = bytes.slice();
    new DataView(far.buffer).setInt32(8, 5000, true);
    expect(() => decodeUeTracks(far, 'test.uasset', 0, header, [3])).toThrow(FormatError);
    expect(() => decodeUeTracks(far, 'test.uasset', 0, header, [3])).toThrow(/track 0 rotation starts at key byte 5000/);
  });
});

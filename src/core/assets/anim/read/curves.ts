/**
 * Curves of a sequence stored by the engine's CompressedRichCurve curve codec: one 12-byte
 * description per curve (compression format, key time format, the two extrapolations, the key
 * count or the constant value, the offset of its keys), then the keys. Key times are float
 * seconds or 16-bit fractions of the sequence; values plain floats, with tangents for cubic keys.
 */
import { BinaryReader } from '../../../io/binary-reader.js';
import type { AnimCurve, AnimCurveKey, CurveInterp } from '../types.js';

/** ERichCurveCompressionFormat. */
const Compression = { Empty: 0, Constant: 1, Linear: 2, Cubic: 3, Mixed: 4, Weighted: 5 } as const;
const INTERP: Record<number, CurveInterp> = { [Compression.Empty]: 'none', [Compression.Constant]: 'constant', [Compression.Linear]: 'linear', [Compression.Cubic]: 'cubic' };
const DESC_BYTES = 12;

export function decodeRichCurves(data: Uint8Array, file: string, base: number, names: readonly string[]): AnimCurve[] {
  const r = new BinaryReader(data, file, base).struct('compressed curves');
  r.need(names.length * DESC_BYTES);
  return names.map((name, i) => {
    r.seek(i * DESC_BYTES);
    r.struct(`curve ${i} "${name}"`);
    const at = r.pos;
    const compression = r.u8(), timeFormat = r.u8();
    r.skip(2); // pre- and post-infinity extrapolation
    const countOrValue = r.bytesView(4);
    const keysAt = r.i32();
    const view = new DataView(countOrValue.buffer, countOrValue.byteOffset, 4);
    if (compression === Compression.Empty || compression === Compression.Constant) {
      const value = view.getFloat32(0, true);
      return compression === Compression.Constant
        ? { name, keys: [{ time: 0, value, interp: 'constant', arriveTangent: 0, leaveTangent: 0 }] }
        : { name, keys: [], constant: value };
    }
    if (compression > Compression.Weighted || timeFormat > 1) throw r.error(`compression ${compression} and key time format ${timeFormat} are not the codec's`, at);
    if (compression === Compression.Weighted) throw r.error('weighted-tangent curve keys are not read', at);
    const count = view.getInt32(0, true);
    if (count <= 0 || keysAt < DESC_BYTES * names.length || keysAt > data.length) throw r.error(`${count} keys at byte ${keysAt} of ${data.length}`, at);
    r.seek(keysAt);
    // Mixed: an interpolation mode per key first, padded to the key time's size.
    const modes: number[] = [];
    if (compression === Compression.Mixed) {
      r.need(count);
      for (let k = 0; k < count; k++) modes.push(r.u8());
      const align = timeFormat === 0 ? 2 : 4;
      r.seek(Math.min(r.length, Math.ceil(r.pos / align) * align));
    }
    const times: number[] = [];
    if (timeFormat === 0) {
      // 16-bit: a fraction of the range between a start and an end time stored after them.
      r.need(count * 2 + 8);
      const q = Array.from({ length: count }, () => r.u16());
      r.seek(Math.ceil(r.pos / 4) * 4);
      const start = r.f32(), range = r.f32();
      for (const v of q) times.push(start + (v / 65535) * range);
    } else {
      r.need(count * 4);
      for (let k = 0; k < count; k++) times.push(r.f32());
    }
    const keys: AnimCurveKey[] = [];
    for (let k = 0; k < count; k++) {
      const mode = compression === Compression.Mixed ? modes[k]! : compression;
      const interp = INTERP[mode];
      if (!interp) throw r.error(`key ${k} has interpolation ${mode}, not one the codec stores`);
      const cubic = compression === Compression.Cubic || compression === Compression.Mixed;
      const value = r.f32();
      const arriveTangent = cubic ? r.f32() : 0, leaveTangent = cubic ? r.f32() : 0;
      keys.push({ time: times[k]!, value, interp, arriveTangent, leaveTangent });
    }
    return { name, keys };
  });
}

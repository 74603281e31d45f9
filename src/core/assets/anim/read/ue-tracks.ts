/**
 * The engine's own bone codecs (FUECompressedAnimData): the key-lerp layouts (ConstantKeyLerp,
 * VariableKeyLerp: one key format per channel for the whole sequence) and PerTrackCompression
 * (a format, component mask and key count in a header word per channel). The serialized byte
 * stream holds the track offset table, the scale offset table and the key bytes, one after
 * another; every offset and key count is checked against the key bytes before it is read.
 */
import { BinaryReader } from '../../../io/binary-reader.js';
import type { AnimKeys, AnimTrack } from '../types.js';
import { Format, KEY_FORMAT_NAMES, keyBytes, readQuatKey, readVectorKey, type Interval } from './key-formats.js';

export const KEY_LAYOUTS = ['ConstantKeyLerp', 'VariableKeyLerp', 'PerTrackCompression'] as const;

/** The header FUECompressedAnimData serializes after the curve data (UE 4.25 on). */
export interface UeCompressedHeader {
  /** Sampled keys of the sequence (CompressedNumberOfKeys). */
  frames: number;
  keyLayout: number;
  translationFormat: number;
  rotationFormat: number;
  scaleFormat: number;
  byteStreamBytes: number;
  trackOffsets: number;
  scaleOffsets: number;
  scaleStripSize: number;
}

/** Bytes of the header: keys, four format bytes, four counts. */
export const UE_HEADER_BYTES = 24;

/** The header's fields; throws when they do not describe a UE key layout. */
export function readUeCompressedHeader(r: BinaryReader): UeCompressedHeader {
  const at = r.pos;
  const frames = r.i32();
  const keyLayout = r.u8(), translationFormat = r.u8(), rotationFormat = r.u8(), scaleFormat = r.u8();
  const byteStreamBytes = r.i32(), trackOffsets = r.i32(), scaleOffsets = r.i32(), scaleStripSize = r.i32();
  if (frames < 0 || keyLayout > 2 || translationFormat > 6 || rotationFormat > 6 || scaleFormat > 6 || byteStreamBytes < 0 || trackOffsets < 0 || scaleOffsets < 0 || scaleStripSize < 0) {
    throw r.error(`the compressed animation header (${frames} keys, layout ${keyLayout}, formats ${translationFormat}/${rotationFormat}/${scaleFormat}) is not one of the engine's own codecs`, at);
  }
  return { frames, keyLayout, translationFormat, rotationFormat, scaleFormat, byteStreamBytes, trackOffsets, scaleOffsets, scaleStripSize };
}

/**
 * The tracks of the serialized byte stream `stream` (at `base` in `file`, for messages), one per
 * entry of `trackBones`.
 */
export function decodeUeTracks(stream: Uint8Array, file: string, base: number, h: UeCompressedHeader, trackBones: readonly number[]): AnimTrack[] {
  const tables = new BinaryReader(stream, file, base).struct('compressed animation offset tables');
  const need = (h.trackOffsets + h.scaleOffsets) * 4 + h.byteStreamBytes;
  if (need !== stream.length) {
    throw tables.error(`the header says ${h.trackOffsets} track offsets, ${h.scaleOffsets} scale offsets and ${h.byteStreamBytes} key bytes (${need} bytes), the stream has ${stream.length}`, 0);
  }
  const perTrack = h.keyLayout === 2;
  const stride = perTrack ? 2 : 4;
  if (h.trackOffsets !== trackBones.length * stride) {
    throw tables.error(`${h.trackOffsets} track offsets for ${trackBones.length} tracks (the ${KEY_LAYOUTS[h.keyLayout]} layout has ${stride} per track)`, 0);
  }
  const offsets = Array.from({ length: h.trackOffsets }, () => tables.i32());
  const scales = Array.from({ length: h.scaleOffsets }, () => tables.i32());
  const scaleStride = perTrack ? 1 : 2;
  const hasScales = h.scaleOffsets > 0 && h.scaleStripSize > 0;
  if (hasScales && h.scaleOffsets !== trackBones.length * scaleStride) {
    throw tables.error(`${h.scaleOffsets} scale offsets for ${trackBones.length} tracks`, h.trackOffsets * 4);
  }
  const keysAt = tables.pos;
  const keys = new BinaryReader(stream.subarray(keysAt), file, base + keysAt).struct('compressed animation keys');
  return trackBones.map((bone, t) => {
    const track: AnimTrack = { bone };
    if (perTrack) {
      const channel = (offset: number, kind: 'translation' | 'rotation' | 'scale'): AnimKeys | undefined =>
        (offset === -1 ? undefined : readPerTrackChannel(keys, offset, kind, h.frames, t));
      const tr = channel(offsets[t * 2]!, 'translation'), rot = channel(offsets[t * 2 + 1]!, 'rotation');
      const sc = hasScales ? channel(scales[t]!, 'scale') : undefined;
      if (tr) track.translation = tr;
      if (rot) track.rotation = rot;
      if (sc) track.scale = sc;
    } else {
      const variable = h.keyLayout === 1;
      const channel = (offset: number, count: number, format: number, kind: 'translation' | 'rotation' | 'scale'): AnimKeys | undefined =>
        (count <= 0 ? undefined : readKeyLerpChannel(keys, offset, count, format, kind, variable, h.frames, t));
      const tr = channel(offsets[t * 4]!, offsets[t * 4 + 1]!, h.translationFormat, 'translation');
      const rot = channel(offsets[t * 4 + 2]!, offsets[t * 4 + 3]!, h.rotationFormat, 'rotation');
      const sc = hasScales ? channel(scales[t * 2]!, scales[t * 2 + 1]!, h.scaleFormat, 'scale') : undefined;
      if (tr) track.translation = tr;
      if (rot) track.rotation = rot;
      if (sc) track.scale = sc;
    }
    return track;
  });
}

function seekKeys(r: BinaryReader, offset: number, what: string): void {
  if (!Number.isInteger(offset) || offset < 0 || offset >= r.length) {
    throw r.error(`${what} starts at key byte ${offset}, past the ${r.length} key bytes`, 0);
  }
  r.seek(offset);
}

/** Times of `count` keys spread evenly over the sequence's `frames` keys (the codecs without time markers). */
function evenTimes(count: number, frames: number): Float32Array {
  const t = new Float32Array(count);
  const last = Math.max(frames - 1, 0);
  for (let k = 0; k < count; k++) t[k] = count > 1 ? (k * last) / (count - 1) : 0;
  return t;
}

/** The frame index of each key, after the keys aligned to 4 bytes: one byte each under 256 frames, else two. */
function readTimeMarkers(r: BinaryReader, count: number, frames: number, what: string): Float32Array {
  r.seek(Math.min(r.length, (r.pos + 3) & ~3));
  const wide = frames >= 256;
  r.struct(`${what} time markers`);
  r.need(count * (wide ? 2 : 1));
  const t = new Float32Array(count);
  let previous = -1;
  for (let k = 0; k < count; k++) {
    const at = r.pos;
    const f = wide ? r.u16() : r.u8();
    if (f < previous || f >= Math.max(frames, 1)) throw r.error(`key ${k} is at frame ${f}, not before frame ${previous} or past the ${frames} frames`, at);
    t[k] = previous = f;
  }
  return t;
}

/** The per-track codec's interval: a minimum and a range for each stored component, in pairs. */
function readInterval(r: BinaryReader, mask: number): Interval {
  const iv: Interval = { min: [0, 0, 0], range: [0, 0, 0] };
  for (let c = 0; c < 3; c++) {
    if ((mask & (1 << c)) === 0) continue;
    iv.min[c] = r.f32();
    iv.range[c] = r.f32();
  }
  return iv;
}

/** The key-lerp codecs' interval: the three minimums, then the three ranges. */
function readIntervalVectors(r: BinaryReader): Interval {
  const min: Interval['min'] = [r.f32(), r.f32(), r.f32()];
  return { min, range: [r.f32(), r.f32(), r.f32()] };
}

function readPerTrackChannel(r: BinaryReader, offset: number, kind: 'translation' | 'rotation' | 'scale', frames: number, track: number): AnimKeys {
  const what = `track ${track} ${kind}`;
  seekKeys(r, offset, what);
  r.struct(`${what} keys`);
  const at = r.pos;
  const header = r.u32();
  const format = header >>> 28, flags = (header >>> 24) & 0xf, count = header & 0xffffff;
  const mask = flags & 7, timed = (flags & 8) !== 0;
  if (format > 6) throw r.error(`key format ${format} is not one the engine defines (0 to 6)`, at);
  if (count === 0 || count > Math.max(frames, 1)) throw r.error(`${count} keys in a sequence of ${frames} keys`, at);
  const rotation = kind === 'rotation';
  const iv = format === Format.IntervalFixed32NoW ? readInterval(r, mask) : undefined;
  const stored = format === Format.Identity ? 0 : keyBytes(format, rotation, true, mask);
  r.need(stored * count);
  const width = rotation ? 4 : 3;
  const values = new Float32Array(count * width);
  for (let k = 0; k < count; k++) {
    if (rotation) readQuatKey(r, format, values, k * 4, mask, iv);
    else readVectorKey(r, format, values, k * 3, true, mask, iv);
  }
  const times = timed ? readTimeMarkers(r, count, frames, what) : evenTimes(count, frames);
  return { format: KEY_FORMAT_NAMES[format]!, times, values };
}

function readKeyLerpChannel(r: BinaryReader, offset: number, count: number, format: number, kind: 'translation' | 'rotation' | 'scale', variable: boolean, frames: number, track: number): AnimKeys {
  const what = `track ${track} ${kind}`;
  seekKeys(r, offset, what);
  r.struct(`${what} keys`);
  if (count > Math.max(frames, 1)) throw r.error(`${count} keys in a sequence of ${frames} keys`);
  const rotation = kind === 'rotation';
  // A single key is always stored whole.
  const f = count === 1 ? (rotation ? Format.Float96NoW : Format.None) : format;
  const iv = f === Format.IntervalFixed32NoW ? readIntervalVectors(r) : undefined;
  r.need((f === Format.Identity ? 0 : keyBytes(f, rotation, false, 7)) * count);
  const width = rotation ? 4 : 3;
  const values = new Float32Array(count * width);
  for (let k = 0; k < count; k++) {
    if (rotation) readQuatKey(r, f, values, k * 4, 7, iv);
    else readVectorKey(r, f, values, k * 3, false, 7, iv);
  }
  const times = variable && count > 1 ? readTimeMarkers(r, count, frames, what) : evenTimes(count, frames);
  return { format: KEY_FORMAT_NAMES[f]!, times, values };
}

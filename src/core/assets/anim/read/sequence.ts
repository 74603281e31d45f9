/**
 * The native data of a cooked UAnimSequence (UE 4.25 on), after its property stream:
 *
 *   UObject: bHasGuid (bool32) and the FGuid when set; UAnimationAsset: the skeleton's FGuid
 *   FStripDataFlags (2 bytes; cooked data has the editor's raw tracks stripped)
 *   bSerializeCompressedData (bool32), then FCompressedAnimSequence:
 *     CompressedRawDataSize, TArray<int32> track -> skeleton bone, TArray<FName> curve names,
 *     the serialized byte stream (int32 size, bool32 in bulk data, the bytes),
 *     the bone codec's name (FString), the curve codec's path (FString), the curve bytes,
 *     then what the bone codec serializes: for the engine's own codecs the FUECompressedAnimData
 *     header (ue-tracks.ts); ACL codecs a layout of their own, not read here.
 */
import type { BinaryReader } from '../../../io/binary-reader.js';
import { FormatError } from '../../../errors.js';
import { readFNameOf } from '../../../uasset/names.js';

/** Bones a track may name before the table is corrupt (the engine indexes bones with 16 bits). */
const MAX_TRACKS = 65536;

export interface SequenceNative {
  trackBones: number[];
  curveNames: string[];
  /** The serialized byte stream, or undefined when it is in bulk data (not read). */
  stream?: Uint8Array;
  /** Offset of the stream in the export, for messages. */
  streamAt: number;
  /** Set when the stream is stored as bulk data. */
  inBulk: boolean;
  boneCodec: string;
  curveCodec: string;
  curveBytes: Uint8Array;
  curveAt: number;
  /** The reader positioned after the curve bytes, where the bone codec's own fields start. */
  codecAt: number;
  /** bSerializeCompressedData was false: the sequence carries no cooked data. */
  empty: boolean;
}

export function readSequenceNative(r: BinaryReader, names: readonly string[]): SequenceNative {
  if (r.bool32()) r.skip(16);
  r.skip(16); // the skeleton's guid
  const stripAt = r.pos;
  const globalStrip = r.u8();
  r.u8();
  if ((globalStrip & 1) === 0) {
    throw r.error('the editor data is not stripped: an uncooked (editor) sequence, whose raw tracks PakScope does not read', stripAt);
  }
  const empty = !r.bool32();
  const none: SequenceNative = { trackBones: [], curveNames: [], streamAt: r.pos, inBulk: false, boneCodec: '', curveCodec: '', curveBytes: new Uint8Array(0), curveAt: r.pos, codecAt: r.pos, empty: true };
  if (empty) return none;
  r.i32(); // CompressedRawDataSize
  const tracksAt = r.pos;
  const tracks = r.count(4, 'tracks');
  if (tracks > MAX_TRACKS) throw r.error(`${tracks} tracks (at most ${MAX_TRACKS})`, tracksAt);
  const trackBones: number[] = [];
  for (let i = 0; i < tracks; i++) {
    const at = r.pos;
    const bone = r.i32();
    if (bone < 0 || bone >= MAX_TRACKS) throw r.error(`track ${i} drives bone ${bone}`, at);
    trackBones.push(bone);
  }
  const curveCount = r.count(8, 'curve names');
  const curveNames = Array.from({ length: curveCount }, () => readFNameOf(r, names));
  const sizeAt = r.pos;
  const size = r.i32();
  if (size < 0) throw r.error(`the compressed byte stream has ${size} bytes`, sizeAt);
  const inBulk = r.bool32();
  let stream: Uint8Array | undefined;
  const streamAt = r.pos;
  if (inBulk) {
    throw r.error('the compressed byte stream is in bulk data, which PakScope does not read for animations yet', sizeAt);
  } else {
    stream = r.bytesView(size);
  }
  const boneCodec = r.fstring(4096);
  const curveCodec = r.fstring(4096);
  const curveSize = r.count(1, 'curve bytes');
  const curveAt = r.pos;
  const curveBytes = r.bytesView(curveSize);
  return { trackBones, curveNames, stream, streamAt, inBulk, boneCodec, curveCodec, curveBytes, curveAt, codecAt: r.pos, empty: false };
}

/** True for errors that mean "this offset is not where the native data starts" while scanning. */
export const isFormatError = (e: unknown): e is FormatError => e instanceof FormatError;

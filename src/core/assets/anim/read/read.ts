/**
 * The animation readers' entry: opens the package as the mesh readers do, picks the
 * AnimSequence export, reads its properties (length, rate scale, skeleton, additive type) and
 * its native data (sequence.ts), and decodes the bone tracks where the codec is one of the
 * engine's own (ue-tracks.ts) and the curves where they are CompressedRichCurve (curves.ts).
 * ACL-compressed bone tracks are reported, not decoded.
 */
import { FormatError } from '../../../errors.js';
import { BinaryReader } from '../../../io/binary-reader.js';
import type { InstallPackages } from '../../../package/open-package.js';
import { scriptImportIndex } from '../../../zen/object-index.js';
import { prop, str, num } from '../../mesh/read/properties.js';
import { candidateReleases } from '../../mesh/read/versions.js';
import {
  fileTextureSource, installTextureSource, type SourceExport, type TextureReadOptions, type TextureSource as PackageSource,
} from '../../texture/read/package-source.js';
import { propertiesRead } from '../../texture/read/texture-serialize.js';
import type { AnimCodecs, AnimCurve, AnimSequence, AnimTrack } from '../types.js';
import { decodeRichCurves } from './curves.js';
import { isFormatError, readSequenceNative, type SequenceNative } from './sequence.js';
import { decodeUeTracks, KEY_LAYOUTS, readUeCompressedHeader, UE_HEADER_BYTES } from './ue-tracks.js';

export const ANIM_CLASSES: readonly string[] = ['AnimSequence'];
/** The oldest release whose FCompressedAnimSequence layout the reader knows. */
const OLDEST_ANIM_RELEASE = 425;

export type AnimReadOptions = TextureReadOptions;

let classByHash: Map<string, string> | undefined;
function className(cls: string): string {
  const m = /\?0x([0-9a-f]{16})$/.exec(cls);
  if (!m) return cls;
  classByHash ??= new Map(ANIM_CLASSES.map((c) => [scriptImportIndex(`/Script/Engine.${c}`), c]));
  return classByHash.get(m[1]!) ?? cls;
}

export async function readInstallAnimSequence(packages: InstallPackages, ref: string, opts: AnimReadOptions = {}): Promise<AnimSequence> {
  return sequenceOf(await installTextureSource(packages, ref, opts), opts);
}

export async function readAnimSequenceFile(path: string, opts: AnimReadOptions = {}): Promise<AnimSequence> {
  return sequenceOf(await fileTextureSource(path, opts), opts);
}

function pickExport(source: PackageSource, opts: AnimReadOptions): SourceExport {
  for (const e of source.exports) e.class = className(e.class);
  const e = opts.exportIndex !== undefined ? source.exports[opts.exportIndex] : source.exports.find((x) => ANIM_CLASSES.includes(x.class));
  if (!e) throw new FormatError(source.path, 'export map', 0, `no animation sequence export (its exports are ${source.exports.map((x) => `${x.name}: ${x.class}`).join(', ') || 'none'})`);
  if (!ANIM_CLASSES.includes(e.class)) throw new FormatError(source.path, `export ${e.index} "${e.name}"`, e.base, `a ${e.class}, not an AnimSequence`);
  return e;
}

/** The sequence of an opened package (the entry points above; tests build sources directly). */
export function sequenceOf(source: PackageSource, opts: AnimReadOptions): AnimSequence {
  const exp = pickExport(source, opts);
  const releases = candidateReleases(source.ue4, source.ue5, source.engine);
  if (releases.length > 0 && Math.max(...releases) < OLDEST_ANIM_RELEASE) {
    throw new FormatError(exp.file, `${exp.class} "${exp.name}"`, exp.base, `the package is of a release before 4.25, whose compressed animation layout PakScope does not read`);
  }
  const notes = [...source.warnings];
  const props = exp.properties.properties;
  const read = propertiesRead(exp);
  let native: SequenceNative;
  let nativeAt: number;
  if (read) {
    nativeAt = exp.properties.propertyStart + exp.properties.propertyBytes;
    native = readSequenceNative(reader(exp, nativeAt), source.names);
  } else {
    notes.push(exp.properties.error
      ? `the properties do not read (${exp.properties.error}): length, rate scale and skeleton are not known`
      : 'the properties were not read (unversioned, without the game\'s mappings): length, rate scale and skeleton are not known');
    const found = findSequenceNative(exp, source.names);
    if (!found) {
      throw new FormatError(exp.file, `${exp.class} "${exp.name}" properties`, exp.base,
        'unversioned properties: the compressed animation data was not found without the game\'s mappings (.usmap); pass them');
    }
    ({ native, at: nativeAt } = found);
  }
  const sequenceLength = num(prop(props, 'SequenceLength')) ?? 0;
  const codecs: AnimCodecs = { bone: native.boneCodec, boneFormat: '', boneDecoded: false, curve: native.curveCodec, curveFormat: '', curveDecoded: false };
  let tracks: AnimTrack[] = [];
  let frames = num(prop(props, 'NumFrames')) ?? 0;
  if (native.empty) notes.push('the sequence has no compressed data cooked in (bSerializeCompressedData is false)');
  else if (/acl/i.test(native.boneCodec)) {
    codecs.boneFormat = 'ACL';
    notes.push(`the bone tracks are compressed with ACL (${native.boneCodec}), which PakScope does not decode: the facts are shown without poses`);
  } else {
    const r = reader(exp, native.codecAt).struct(`${exp.class} "${exp.name}" bone codec header`);
    // One of the engine's codecs (AnimCompress_*) with fewer bytes than its header: a cut export, not another codec.
    if (/^AnimCompress_/.test(native.boneCodec)) r.need(UE_HEADER_BYTES);
    let header;
    try {
      header = readUeCompressedHeader(r);
    } catch (e) {
      if (!isFormatError(e)) throw e;
      notes.push(`the bone codec ${native.boneCodec || '(unnamed)'} is not one of the engine's own key layouts PakScope reads: the facts are shown without poses`);
    }
    if (header) {
      codecs.boneFormat = KEY_LAYOUTS[header.keyLayout]!;
      frames = header.frames;
      tracks = decodeUeTracks(native.stream!, exp.file, exp.base + native.streamAt, header, native.trackBones);
      codecs.boneDecoded = true;
    }
  }
  let curves: AnimCurve[] = [];
  if (native.curveNames.length > 0 && native.curveBytes.length > 0) {
    try {
      curves = decodeRichCurves(native.curveBytes, exp.file, exp.base + native.curveAt, native.curveNames);
      codecs.curveFormat = 'CompressedRichCurve';
      codecs.curveDecoded = true;
    } catch (e) {
      if (!isFormatError(e)) throw e;
      notes.push(`the curves' codec (${native.curveCodec}) is not CompressedRichCurve, the one PakScope reads: curves are listed by name only (${e.message})`);
    }
  }
  const refPose = str(prop(props, 'RefPoseSeq'));
  return {
    class: exp.class, name: exp.name,
    skeleton: str(prop(props, 'Skeleton')) ?? '',
    sequenceLength,
    rateScale: num(prop(props, 'RateScale')) ?? 1,
    frames,
    additive: (str(prop(props, 'AdditiveAnimType')) ?? 'AAT_None').replace(/^.*::/, ''),
    ...(refPose ? { refPoseSequence: refPose } : {}),
    codecs, trackBones: native.trackBones, tracks, curveNames: native.curveNames, curves, notes,
  };
}

function reader(exp: SourceExport, at: number): BinaryReader {
  return new BinaryReader(exp.bytes, exp.file, exp.base).struct(`${exp.class} "${exp.name}" native data`).seek(at);
}

const SCAN_LIMIT = 1 << 20;

/** The native data when the property stream could not be read: the first offset it reads from whole. */
function findSequenceNative(exp: SourceExport, names: readonly string[]): { native: SequenceNative; at: number } | undefined {
  const b = exp.bytes;
  const v = new DataView(b.buffer, b.byteOffset, b.byteLength);
  for (let p = 0; p + 32 <= Math.min(b.length, SCAN_LIMIT); p++) {
    const guid = v.getUint32(p, true);
    if (guid > 1) continue;
    const s = p + 4 + (guid ? 16 : 0) + 16;
    // Stripped editor data, then bSerializeCompressedData true.
    if (s + 6 > b.length || (b[s]! & 1) === 0 || v.getUint32(s + 2, true) !== 1) continue;
    try {
      const native = readSequenceNative(reader(exp, p), names);
      if (native.stream && native.boneCodec) return { native, at: p };
    } catch (e) {
      if (!isFormatError(e)) throw e;
    }
  }
  return undefined;
}

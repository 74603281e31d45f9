/**
 * An animation sequence as the readers find it: its facts, its bone tracks' keys decoded (where
 * the encoding is one PakScope reads) and its curves. Engine units and axes as stored
 * (centimetres, Z up, left-handed; quaternions x, y, z, w), as the mesh model (mesh/types.ts).
 */

/** The keys of one channel of a bone track: `times` in frames (0 to frames - 1), `values` 3 (vectors) or 4 (quaternions) per key. */
export interface AnimKeys {
  /** The key encoding it was stored in ("Float96NoW", "Fixed48NoW", "IntervalFixed32NoW", ...). */
  format: string;
  times: Float32Array;
  values: Float32Array;
}

/** One bone track: the skeleton bone it drives and its translation, rotation and scale keys. */
export interface AnimTrack {
  /** Index of the bone in the skeleton's reference skeleton. */
  bone: number;
  /** Keys; absent when the track keeps the bone's reference pose for that channel. */
  translation?: AnimKeys;
  rotation?: AnimKeys;
  scale?: AnimKeys;
}

export type CurveInterp = 'linear' | 'constant' | 'cubic' | 'none';

export interface AnimCurveKey {
  /** Seconds. */
  time: number;
  value: number;
  interp: CurveInterp;
  arriveTangent: number;
  leaveTangent: number;
}

export interface AnimCurve {
  name: string;
  keys: AnimCurveKey[];
  /** A curve stored as one value and no keys. */
  constant?: number;
}

/** What encodings the sequence's bone and curve data are in, and whether PakScope decoded them. */
export interface AnimCodecs {
  /** The bone codec's name as stored (the codec object in the compression settings: "AnimCompress_PerTrackCompression_1", "ACL..."). */
  bone: string;
  /** The key layout: "PerTrackCompression", "ConstantKeyLerp", "VariableKeyLerp", "ACL", or "" when unknown. */
  boneFormat: string;
  boneDecoded: boolean;
  /** The curve codec's object path as stored. */
  curve: string;
  /** "CompressedRichCurve", or "" when not recognised. */
  curveFormat: string;
  curveDecoded: boolean;
}

export interface AnimSequence {
  class: string;
  name: string;
  /** The skeleton's object path ("/Game/Characters/SK_Hero_Skeleton.SK_Hero_Skeleton"), "" when unknown. */
  skeleton: string;
  /** Seconds. */
  sequenceLength: number;
  rateScale: number;
  /** Sampled keys (frames + 1 for a sequence sampled at both ends); 0 when the data was not read. */
  frames: number;
  /** Additive type as stored ("AAT_None", "AAT_LocalSpaceBase", ...). */
  additive: string;
  /** The additive base pose's sequence, where it names one. */
  refPoseSequence?: string;
  codecs: AnimCodecs;
  /** Bone index of each track, in track order (CompressedTrackToSkeletonMapTable). */
  trackBones: number[];
  /** The decoded tracks (empty when the bone codec is not read). */
  tracks: AnimTrack[];
  curveNames: string[];
  curves: AnimCurve[];
  notes: string[];
}

/** A segment of a montage's slot or a composite's track: a stretch of a sequence placed on the asset's timeline. */
export interface AnimSegmentFacts {
  /** The sequence's object path. */
  animation: string;
  /** Where it starts on the asset's timeline (s). */
  startPos: number;
  animStartTime: number;
  animEndTime: number;
  playRate: number;
  loopingCount: number;
}

/**
 * The facts of the assets built of sequences (their properties): AnimMontage (slots of segments,
 * sections), AnimComposite (one track of segments), BlendSpace (samples placed on its axes).
 */
export interface AnimComposition {
  class: string;
  name: string;
  skeleton: string;
  /** Seconds (SequenceLength; a blend space's AnimLength). */
  length: number;
  rateScale: number;
  slots: { name: string; segments: AnimSegmentFacts[] }[];
  /** Sections in time order as stored: name, the section played next, the start on the montage's timeline (s). */
  sections: { name: string; next: string; startTime: number }[];
  samples: { animation: string; value: [number, number, number]; rateScale: number }[];
  notes: string[];
}

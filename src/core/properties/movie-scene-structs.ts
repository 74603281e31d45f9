/**
 * Sequencer structs the engine serializes with their own code (FMovieSceneFloatChannel::
 * Serialize and its double twin, FMovieSceneTimeWarpVariant, FMovieSceneSequenceInstanceDataPtr,
 * the compiled FMovieSceneEvaluationFieldEntityTree, FNameCurveKey): without them a
 * Level Sequence's keys are hex in tagged packages and stop an unversioned stream.
 *
 * A float/double channel since FSequencerObjectVersion::SerializeFloatChannelCompletely (or
 * FFortniteMainBranchObjectVersion::SerializeFloatChannelShowCurve): the pre- and
 * post-infinity extrapolation (u8 each), the key times as a bulk array (i32 element size, i32
 * count, FFrameNumber ticks), the key values as a bulk array (FMovieSceneFloatValue /
 * FMovieSceneDoubleValue as laid out in memory: the value, FMovieSceneTangentData's arrive and
 * leave tangents and weights and weight mode, the interpolation and tangent modes, padding),
 * the default value, bHasDefaultValue (bool32), the channel's tick resolution (FFrameRate) and,
 * with the Fortnite version, bShowCurve (bool32). Older channels are tagged properties.
 */
import type { BinaryReader } from '../io/binary-reader.js';
import type { PropertyReader } from './reader.js';
import type { PropertyValue } from './types.js';
import { float32Value, floatValue } from './values.js';
import { CustomVersionKey, customVersionAtLeast } from './versions.js';

type NativeReader = (pr: PropertyReader, r: BinaryReader) => PropertyValue;

export const SequencerObjectVersion = { SerializeFloatChannelCompletely: 12 } as const;
export const FortniteMainSequencerVersion = { SerializeFloatChannelShowCurve: 53 } as const;

export const RICH_CURVE_EXTRAPOLATION = ['RCCE_Cycle', 'RCCE_CycleWithOffset', 'RCCE_Oscillate', 'RCCE_Linear', 'RCCE_Constant', 'RCCE_None'] as const;
export const RICH_CURVE_INTERP_MODE = ['RCIM_Linear', 'RCIM_Constant', 'RCIM_Cubic', 'RCIM_None'] as const;
export const RICH_CURVE_TANGENT_MODE = ['RCTM_Auto', 'RCTM_User', 'RCTM_Break', 'RCTM_None', 'RCTM_SmartAuto'] as const;
export const RICH_CURVE_TANGENT_WEIGHT_MODE = ['RCTWM_WeightedNone', 'RCTWM_WeightedArrive', 'RCTWM_WeightedLeave', 'RCTWM_WeightedBoth'] as const;

/** An enum byte as its name, or the number when the byte names none. */
const enumName = (names: readonly string[], v: number): string | number => names[v] ?? v;

/** Value bytes plus FMovieSceneTangentData (4 floats, a u8 and padding: 20) plus the two mode bytes: the least a key element holds. */
const KEY_TAIL = 22;
/** No engine key is larger; a bigger element size is a damaged channel. */
const MAX_KEY_ELEMENT = 64;

function hasCompleteChannel(pr: PropertyReader): boolean {
  const v = pr.ctx.versions;
  return customVersionAtLeast(v, CustomVersionKey.Sequencer, SequencerObjectVersion.SerializeFloatChannelCompletely)
    || customVersionAtLeast(v, CustomVersionKey.FortniteMain, FortniteMainSequencerVersion.SerializeFloatChannelShowCurve, false);
}

function channel(valueBytes: 4 | 8): NativeReader {
  const readValue = (r: BinaryReader): number | string => (valueBytes === 4 ? float32Value(r.f32()) : floatValue(r.f64()));
  return (pr, r) => {
    if (!hasCompleteChannel(pr)) return pr.struct(r, undefined);
    const PreInfinityExtrap = enumName(RICH_CURVE_EXTRAPOLATION, r.u8());
    const PostInfinityExtrap = enumName(RICH_CURVE_EXTRAPOLATION, r.u8());
    const timeSize = r.i32();
    const timeAt = r.pos;
    const times = r.count(4, 'channel key time count');
    if (times > 0 && timeSize !== 4) throw r.error(`channel key times are ${timeSize} bytes each, not 4`, timeAt - 4);
    const Times: number[] = [];
    for (let i = 0; i < times; i++) Times.push(r.i32());
    const valueSize = r.i32();
    const valueAt = r.pos;
    const n = r.count(valueBytes + KEY_TAIL, 'channel key value count');
    if (n > 0 && (valueSize < valueBytes + KEY_TAIL || valueSize > MAX_KEY_ELEMENT)) {
      throw r.error(`channel key values are ${valueSize} bytes each, not ${valueBytes + KEY_TAIL + 2}`, valueAt - 4);
    }
    if (n !== times) throw r.error(`channel has ${times} key times but ${n} values`, valueAt);
    r.checkCount(n, valueSize, 'channel key value count', valueAt);
    const Values: PropertyValue[] = [];
    for (let i = 0; i < n; i++) {
      const start = r.pos;
      const Value = readValue(r);
      const ArriveTangent = float32Value(r.f32());
      const LeaveTangent = float32Value(r.f32());
      const ArriveTangentWeight = float32Value(r.f32());
      const LeaveTangentWeight = float32Value(r.f32());
      const TangentWeightMode = enumName(RICH_CURVE_TANGENT_WEIGHT_MODE, r.u8());
      r.skip(3);
      const InterpMode = enumName(RICH_CURVE_INTERP_MODE, r.u8());
      const TangentMode = enumName(RICH_CURVE_TANGENT_MODE, r.u8());
      r.seek(start + valueSize);
      Values.push({ Value, InterpMode, TangentMode, ArriveTangent, LeaveTangent, ArriveTangentWeight, LeaveTangentWeight, TangentWeightMode });
    }
    const DefaultValue = readValue(r);
    const bHasDefaultValue = r.bool32();
    const TickResolution = { Numerator: r.i32(), Denominator: r.i32() };
    const out: Record<string, PropertyValue> = { PreInfinityExtrap, PostInfinityExtrap, Times, Values, DefaultValue, bHasDefaultValue, TickResolution };
    if (customVersionAtLeast(pr.ctx.versions, CustomVersionKey.FortniteMain, FortniteMainSequencerVersion.SerializeFloatChannelShowCurve)) out.bShowCurve = r.bool32();
    return out;
  };
}

/** EMovieSceneTimeWarpType, the byte after a non-literal variant's flag. */
export const TIME_WARP_TYPES = ['FixedPlayRate', 'Custom', 'FixedTime', 'FrameRate', 'Loop', 'Clamp', 'LoopFloat', 'ClampFloat'] as const;
const TIME_WARP_STRUCTS: Record<string, string> = {
  FixedTime: 'MovieSceneTimeWarpFixedFrame', FrameRate: 'FrameRate', Loop: 'MovieSceneTimeWarpLoop', Clamp: 'MovieSceneTimeWarpClamp',
  LoopFloat: 'MovieSceneTimeWarpLoopFloat', ClampFloat: 'MovieSceneTimeWarpClampFloat',
};

/** FMovieSceneTimeWarpVariant (UE5.5+): a bool32 "literal" flag and a play rate (double), else a type byte and its payload. */
const timeWarpVariant: NativeReader = (pr, r): PropertyValue => {
  if (r.bool32()) return { Type: 'FixedPlayRate', PlayRate: floatValue(r.f64()) };
  const at = r.pos;
  const type = r.u8();
  const name = TIME_WARP_TYPES[type];
  if (name === undefined) throw r.error(`time warp type ${type} is none of the ${TIME_WARP_TYPES.length} the engine has`, at);
  if (name === 'FixedPlayRate') return { Type: name, PlayRate: floatValue(r.f64()) };
  if (name === 'Custom') return { Type: name, Custom: pr.object(r) };
  return { Type: name, Variant: pr.struct(r, TIME_WARP_STRUCTS[name]) };
};

const RANGE_BOUND_TYPES = ['Exclusive', 'Inclusive', 'Open'] as const;
/** TRangeBound<FFrameNumber> as the engine writes it: the type byte, then the frame (5 bytes). */
const frameBound = (r: BinaryReader): PropertyValue => {
  const type = r.u8();
  return { Type: RANGE_BOUND_TYPES[type] ?? type, Value: r.i32() };
};
/** FMovieSceneEvaluationTreeNode (26 bytes): its range, its parent (children entry, index), its children and data entries. */
const treeNode = (r: BinaryReader): PropertyValue => ({
  Range: { LowerBound: frameBound(r), UpperBound: frameBound(r) },
  Parent: { ChildrenHandle: r.i32(), Index: r.i32() },
  ChildrenID: r.i32(),
  DataID: r.i32(),
});
/** TEvaluationTreeEntryContainer: Entries (StartIndex, Size, Capacity) and Items. */
function entryContainer(r: BinaryReader, itemSize: number, item: (r: BinaryReader) => PropertyValue, what: string): PropertyValue {
  const n = r.count(12, `${what} entry count`);
  const Entries: PropertyValue[] = [];
  for (let i = 0; i < n; i++) Entries.push({ StartIndex: r.i32(), Size: r.i32(), Capacity: r.i32() });
  const m = r.count(itemSize, `${what} item count`);
  const Items: PropertyValue[] = [];
  for (let i = 0; i < m; i++) Items.push(item(r));
  return { Entries, Items };
}
/** TMovieSceneEvaluationTree<T>: the root node, the child nodes, then the data of type T. */
function evaluationTree(itemSize: number, item: (r: BinaryReader) => PropertyValue): NativeReader {
  return (_pr, r) => ({
    RootNode: treeNode(r),
    ChildNodes: entryContainer(r, 26, treeNode, 'evaluation tree node'),
    Data: entryContainer(r, itemSize, item, 'evaluation tree data'),
  });
}

export const MOVIE_SCENE_STRUCTS: readonly [string, NativeReader][] = [
  ['MovieSceneFloatChannel', channel(4)],
  ['MovieSceneDoubleChannel', channel(8)],
  ['MovieSceneTimeWarpVariant', timeWarpVariant],
  // A sub-sequence's instance data: the struct's path (empty for none), then that struct.
  ['MovieSceneSequenceInstanceDataPtr', (pr, r): PropertyValue => {
    const TypeName = r.fstring();
    return TypeName ? { TypeName, Data: pr.struct(r, TypeName.slice(TypeName.lastIndexOf('.') + 1)) } : { TypeName };
  }],
  // The compiled entity field: which entities (and their meta data) each time range evaluates.
  ['MovieSceneEvaluationFieldEntityTree', evaluationTree(8, (r) => ({ EntityIndex: r.i32(), MetaDataIndex: r.i32() }))],
  // UE4 event sections' keys (FNameCurve): the time in seconds and the event's name.
  ['NameCurveKey', (pr, r) => ({ Time: float32Value(r.f32()), Value: pr.name(r) })],
];

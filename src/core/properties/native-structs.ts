/**
 * Structs the engine serializes with their own code instead of property by property (the ones
 * CUE4Parse's FScriptStruct lists as native, minus game-specific ones). Math types hold doubles
 * from UE5.0 (LARGE_WORLD_COORDINATES): the *3f/*4f/*2f variants stay floats.
 */
import type { BinaryReader } from '../io/binary-reader.js';
import type { PropertyValue } from './types.js';
import type { PropertyReader } from './reader.js';
import { int64Value, floatValue, float32Value, ticksToIso, rawHex } from './values.js';
import {
  CustomVersionKey, customVersionAtLeast, hasLargeWorldCoordinates, hasLinearColorMaterialInput, hasNativeMaterialInput, hasPinNamesAsFName,
  hasSamplingRegionVertices,
} from './versions.js';
import { UE5Version } from '../uasset/versions.js';
import { edGraphPinType } from './editor-structs.js';
import { MOVIE_SCENE_STRUCTS } from './movie-scene-structs.js';

type NativeReader = (pr: PropertyReader, r: BinaryReader) => PropertyValue;

const f32 = (r: BinaryReader): number | string => float32Value(r.f32());
const f64 = (r: BinaryReader): number | string => floatValue(r.f64());
/** FReal: double with large world coordinates, float before. */
const real = (pr: PropertyReader, r: BinaryReader): number | string => (hasLargeWorldCoordinates(pr.ctx.versions) ? f64(r) : f32(r));

function fields(names: readonly string[], read: (r: BinaryReader) => PropertyValue): (pr: PropertyReader, r: BinaryReader) => PropertyValue {
  return (_pr, r) => {
    const out: Record<string, PropertyValue> = {};
    for (const n of names) out[n] = read(r);
    return out;
  };
}
function realFields(names: readonly string[]): NativeReader {
  return (pr, r) => {
    const out: Record<string, PropertyValue> = {};
    for (const n of names) out[n] = real(pr, r);
    return out;
  };
}

const XY = ['X', 'Y'], XYZ = ['X', 'Y', 'Z'], XYZW = ['X', 'Y', 'Z', 'W'];
const i32 = (r: BinaryReader): number => r.i32();
const u32 = (r: BinaryReader): number => r.u32();
const i64 = (r: BinaryReader): number | string => int64Value(r.i64());
const u64 = (r: BinaryReader): number | string => int64Value(r.u64());

const vector: NativeReader = realFields(XYZ);

function intArray(r: BinaryReader, what: string): number[] {
  const n = r.count(4, what);
  return Array.from({ length: n }, () => r.i32());
}
/** FWeightedRandomSampler: Prob (floats), Alias (int32), TotalWeight. */
function weightedRandomSampler(r: BinaryReader): PropertyValue {
  const n = r.count(4, 'sampler probabilities');
  const Prob = Array.from({ length: n }, () => f32(r));
  return { Prob, Alias: intArray(r, 'sampler aliases'), TotalWeight: f32(r) };
}
const vector2D: NativeReader = realFields(XY);

function box(point: NativeReader): NativeReader {
  return (pr, r) => ({ Min: point(pr, r), Max: point(pr, r), IsValid: r.u8() !== 0 });
}

/** FPerPlatform*: bCooked, the default, and in editor data the per-platform overrides. */
function perPlatform(read: (pr: PropertyReader, r: BinaryReader) => PropertyValue): NativeReader {
  return (pr, r) => {
    const cooked = r.bool32();
    const out: Record<string, PropertyValue> = { Cooked: cooked, Default: read(pr, r) };
    if (!cooked) {
      const n = r.count(9, 'per-platform value count');
      const map: { key: PropertyValue; value: PropertyValue }[] = [];
      for (let i = 0; i < n; i++) map.push({ key: pr.name(r), value: read(pr, r) });
      out.PerPlatform = map;
    }
    return out;
  };
}

/** FPerQualityLevel*: bCooked, the default, and the per-quality-level values. */
function perQuality(read: (r: BinaryReader) => PropertyValue): NativeReader {
  return (_pr, r) => {
    const cooked = r.bool32();
    const def = read(r);
    const n = r.count(8, 'per-quality value count');
    const map: { key: PropertyValue; value: PropertyValue }[] = [];
    for (let i = 0; i < n; i++) map.push({ key: r.i32(), value: read(r) });
    return { Cooked: cooked, Default: def, PerQuality: map };
  };
}

/** FExpressionInput (material editor data), as native serialization writes it. */
function expressionInput(pr: PropertyReader, r: BinaryReader): Record<string, PropertyValue> {
  const v = pr.ctx.versions;
  const out: Record<string, PropertyValue> = {};
  // Cooked packages before UE5.1 drop the expression reference and keep its name instead.
  const cookedBefore51 = v.cooked && v.ue5 < UE5Version.ADD_SOFTOBJECTPATH_LIST;
  if (!cookedBefore51) out.Expression = pr.object(r);
  out.OutputIndex = r.i32();
  out.InputName = hasPinNamesAsFName(v) ? pr.name(r) : r.fstring();
  out.Mask = r.i32();
  out.MaskR = r.i32();
  out.MaskG = r.i32();
  out.MaskB = r.i32();
  out.MaskA = r.i32();
  if (v.cooked && v.ue5 < UE5Version.DATA_RESOURCES) out.ExpressionName = pr.name(r);
  return out;
}

function materialInput(constant: NativeReader): NativeReader {
  return (pr, r) => {
    if (!hasNativeMaterialInput(pr.ctx.versions)) return pr.struct(r, undefined);
    const out = expressionInput(pr, r);
    out.UseConstant = r.bool32();
    out.Constant = constant(pr, r);
    return out;
  };
}

const color: NativeReader = (_pr, r) => {
  const b = r.u8(), g = r.u8(), rr = r.u8(), a = r.u8();
  return { R: rr, G: g, B: b, A: a };
};
const linearColor: NativeReader = fields(['R', 'G', 'B', 'A'], f32);

/** FAnimPhysObjectVersion members FSmartName changed with. */
const AnimPhysRemoveUIDFromSmartNameSerialize = 5;
const AnimPhysSmartNameRefactorForDeterministicCooking = 10;

/**
 * FSmartName: the display name, before UE4.17 a u16 UID, and in older editor data a GUID. With
 * `byVersion` the package's versions decide; without, the flags do (tagged data tries each).
 */
function smartName(byVersion: boolean, withUid: boolean, withGuid = withUid): NativeReader {
  return (pr, r) => {
    const v = pr.ctx.versions;
    const out: Record<string, PropertyValue> = { DisplayName: pr.name(r) };
    const uid = byVersion ? !customVersionAtLeast(v, CustomVersionKey.AnimPhys, AnimPhysRemoveUIDFromSmartNameSerialize) : withUid;
    if (uid) out.UID = r.u16();
    const guid = byVersion ? !v.cooked && !customVersionAtLeast(v, CustomVersionKey.AnimPhys, AnimPhysSmartNameRefactorForDeterministicCooking) : withGuid;
    if (guid) out.Guid = r.guid();
    return out;
  };
}

/** FNiagaraVariableBase: the name, then the type definition as a struct. */
function niagaraVariableBase(pr: PropertyReader, r: BinaryReader): Record<string, PropertyValue> {
  return { Name: pr.name(r), TypeDef: pr.struct(r, 'NiagaraTypeDefinition') };
}

/** FMidiMsg: a type byte, then its fields. */
function midiMessage(r: BinaryReader): PropertyValue {
  const at = r.pos;
  const type = r.u8();
  switch (type) {
    case 1: return { Type: 'Std', Status: r.u8(), Data1: r.u8(), Data2: r.u8() };
    case 2: return { Type: 'Tempo', MicsPerQuarterNoteH: r.u8(), MicsPerQuarterNoteL: r.u16() };
    case 4: return { Type: 'TimeSig', Numerator: r.u8(), Denominator: r.u8() };
    case 8: return { Type: 'Text', TextType: r.u8(), TextIndex: r.u16() };
    case 16: return { Type: 'Runtime' };
    default: throw r.error(`unknown MIDI message type ${type}`, at);
  }
}

/** TRangeBound<FFrameNumber>: ERangeBoundTypes and the frame. */
const RANGE_BOUND = ['Exclusive', 'Inclusive', 'Open'];
function rangeBound(r: BinaryReader): PropertyValue {
  const type = r.u8();
  return { Type: RANGE_BOUND[type] ?? type, Value: r.i32() };
}

const softObjectPath: NativeReader = (pr, r) => pr.softObjectPath(r);

export const NATIVE_STRUCTS: ReadonlyMap<string, NativeReader> = new Map<string, NativeReader>([
  ['Vector', vector],
  ['Vector3f', fields(XYZ, f32)],
  ['Vector3d', fields(XYZ, f64)],
  ['Vector2D', vector2D],
  ['Vector2f', fields(XY, f32)],
  ['Vector4', realFields(XYZW)],
  ['Vector4f', fields(XYZW, f32)],
  ['Vector4d', fields(XYZW, f64)],
  ['Vector_NetQuantize', vector],
  ['Vector_NetQuantize10', vector],
  ['Vector_NetQuantize100', vector],
  ['Vector_NetQuantizeNormal', vector],
  ['Rotator', realFields(['Pitch', 'Yaw', 'Roll'])],
  ['Rotator3f', fields(['Pitch', 'Yaw', 'Roll'], f32)],
  ['Rotator3d', fields(['Pitch', 'Yaw', 'Roll'], f64)],
  ['Quat', realFields(XYZW)],
  ['Quat4f', fields(XYZW, f32)],
  ['Quat4d', fields(XYZW, f64)],
  ['Plane', realFields(XYZW)],
  ['Plane4f', fields(XYZW, f32)],
  ['Plane4d', fields(XYZW, f64)],
  ['Sphere', (pr, r) => ({ Center: vector(pr, r), W: real(pr, r) })],
  ['Sphere3f', (_pr, r) => ({ Center: fields(XYZ, f32)(_pr, r), W: f32(r) })],
  ['Sphere3d', (_pr, r) => ({ Center: fields(XYZ, f64)(_pr, r), W: f64(r) })],
  ['Box', box(vector)],
  ['Box3f', box(fields(XYZ, f32))],
  ['Box2D', box(vector2D)],
  ['Box2f', box(fields(XY, f32))],
  ['TwoVectors', (pr, r) => ({ v1: vector(pr, r), v2: vector(pr, r) })],
  ['Matrix', (pr, r) => Array.from({ length: 16 }, () => real(pr, r))],
  ['Matrix44f', (_pr, r) => Array.from({ length: 16 }, () => f32(r))],
  ['Color', color],
  ['LinearColor', linearColor],
  ['Guid', (_pr, r) => r.guid()],
  ['IntPoint', fields(XY, i32)],
  ['Int32Point', fields(XY, i32)],
  ['IntVector2', fields(XY, i32)],
  ['Int32Vector2', fields(XY, i32)],
  ['UintVector2', fields(XY, u32)],
  ['Uint32Point', fields(XY, u32)],
  ['IntVector', fields(XYZ, i32)],
  ['UintVector', fields(XYZ, u32)],
  ['IntVector4', fields(XYZW, i32)],
  ['UintVector4', fields(XYZW, u32)],
  ['Int64Point', fields(XY, i64)],
  ['Int64Vector2', fields(XY, i64)],
  ['UInt64Point', fields(XY, u64)],
  ['UInt64Vector2', fields(XY, u64)],
  ['Int64Vector', fields(XYZ, i64)],
  ['UInt64Vector', fields(XYZ, u64)],
  ['Int64Vector4', fields(XYZW, i64)],
  ['UInt64Vector4', fields(XYZW, u64)],
  ['DateTime', (_pr, r) => ticksToIso(r.i64())],
  ['Timespan', (_pr, r) => ({ Ticks: int64Value(r.i64()) })],
  ['FrameNumber', (_pr, r) => ({ Value: r.i32() })],
  ['SoftObjectPath', softObjectPath],
  ['SoftClassPath', softObjectPath],
  ['StringAssetReference', softObjectPath],
  ['StringClassReference', softObjectPath],
  ['GameplayTagContainer', (pr, r) => {
    const n = r.count(8, 'gameplay tag count');
    const tags: PropertyValue[] = [];
    for (let i = 0; i < n; i++) tags.push(pr.name(r));
    return tags;
  }],
  ['PerPlatformFloat', perPlatform((_pr, r) => f32(r))],
  ['PerPlatformInt', perPlatform((_pr, r) => r.i32())],
  ['PerPlatformBool', perPlatform((_pr, r) => r.bool32())],
  ['PerPlatformFString', perPlatform((_pr, r) => r.fstring())],
  ['PerPlatformFrameRate', perPlatform((_pr, r) => ({ Numerator: r.i32(), Denominator: r.i32() }))],
  ['PerQualityLevelInt', perQuality((r) => r.i32())],
  ['PerQualityLevelFloat', perQuality(f32)],
  ['NavAgentSelector', (_pr, r) => ({ PackedBits: r.u32() })],
  ['RichCurveKey', (_pr, r) => ({
    InterpMode: r.u8(), TangentMode: r.u8(), TangentWeightMode: r.u8(), Time: f32(r), Value: f32(r),
    ArriveTangent: f32(r), ArriveTangentWeight: f32(r), LeaveTangent: f32(r), LeaveTangentWeight: f32(r),
  })],
  ['SimpleCurveKey', fields(['Time', 'Value'], f32)],
  ['ExpressionInput', (pr, r) => (hasNativeMaterialInput(pr.ctx.versions) ? expressionInput(pr, r) : pr.struct(r, undefined))],
  ['MaterialAttributesInput', (pr, r) => (hasNativeMaterialInput(pr.ctx.versions) ? expressionInput(pr, r) : pr.struct(r, undefined))],
  ['ScalarMaterialInput', materialInput((_pr, r) => f32(r))],
  ['VectorMaterialInput', materialInput(fields(XYZ, f32))],
  ['Vector2MaterialInput', materialInput(fields(XY, f32))],
  ['ShadingModelMaterialInput', materialInput((_pr, r) => r.u32())],
  ['ColorMaterialInput', materialInput((pr, r) => (hasLinearColorMaterialInput(pr.ctx.versions) ? linearColor(pr, r) : color(pr, r)))],
  ['InstancedStruct', (pr, r) => pr.instancedStruct(r)],
  ['EdGraphPinType', edGraphPinType],
  ['FontCharacter', (_pr, r) => ({
    StartU: r.i32(), StartV: r.i32(), USize: r.i32(), VSize: r.i32(), TextureIndex: r.u8(), VerticalOffset: r.i32(),
  })],
  ['LevelSequenceObjectReferenceMap', (_pr, r) => {
    const n = r.count(36, 'object reference count');
    const map: PropertyValue[] = [];
    for (let i = 0; i < n; i++) map.push({ key: r.guid(), value: { ObjectId: r.guid(), ObjectPath: r.fstring() } });
    return map;
  }],
  ['DeprecateSlateVector2D', fields(XY, f32)],
  ['NiagaraVariableBase', (pr, r) => niagaraVariableBase(pr, r)],
  ['NiagaraDataChannelVariable', (pr, r) => niagaraVariableBase(pr, r)],
  ['NiagaraVariable', (pr, r) => {
    const out = niagaraVariableBase(pr, r);
    const n = r.count(1, 'variable data size');
    out.VarData = rawHex(r.bytesView(n));
    return out;
  }],
  ['NiagaraVariableWithOffset', (pr, r) => ({ ...niagaraVariableBase(pr, r), Offset: r.i32() })],
  ['FontData', (pr, r) => {
    if (!r.bool32()) return pr.struct(r, undefined); // editor data: tagged properties follow
    const out: Record<string, PropertyValue> = { LocalFontFaceAsset: pr.object(r) };
    if (out.LocalFontFaceAsset === null) {
      out.FontFilename = r.fstring();
      out.Hinting = r.u8();
      out.LoadingPolicy = r.u8();
    }
    out.SubFaceIndex = r.i32();
    return out;
  }],
  ['SmartName', smartName(true, true)],
  ['MidiEvent', (_pr, r) => ({ Tick: r.i32(), Message: midiMessage(r) })],
  ['MovieSceneFrameRange', (_pr, r) => ({ LowerBound: rangeBound(r), UpperBound: rangeBound(r) })],
  ['MovieSceneSequenceID', (_pr, r) => ({ Value: r.u32() })],
  ['MovieSceneTrackIdentifier', (_pr, r) => ({ Value: r.u32() })],
  ['MovieSceneSegmentIdentifier', (_pr, r) => ({ IdentifierIndex: r.i32() })],
  ['MovieSceneEvaluationKey', (_pr, r) => ({ SequenceID: r.u32(), TrackIdentifier: r.u32(), SectionIndex: r.u32() })],
  ...MOVIE_SCENE_STRUCTS,
  // Serializes nothing outside transactions.
  ['KeyHandleMap', () => ({})],
  // FSkeletalMeshSampling's built data: area-weighted samplers (FWeightedRandomSampler) and regions.
  ['SkeletalMeshSamplingLODBuiltData', (_pr, r) => ({ AreaWeightedTriangleSampler: weightedRandomSampler(r) })],
  ['SkeletalMeshSamplingRegionBuiltData', (pr, r) => {
    const out: Record<string, PropertyValue> = { TriangleIndices: intArray(r, 'triangle indices'), BoneIndices: intArray(r, 'bone indices') };
    out.AreaWeightedSampler = weightedRandomSampler(r);
    if (hasSamplingRegionVertices(pr.ctx.versions)) out.Vertices = intArray(r, 'vertices');
    return out;
  }],
]);

/** Native readers tagged data may also have been written with: tried when the first does not fill the tag. */
export const NATIVE_ALTERNATIVES: ReadonlyMap<string, NativeReader[]> = new Map<string, NativeReader[]>([
  ['ColorMaterialInput', [materialInput(linearColor), materialInput(color)]],
  ['SmartName', [smartName(false, false), smartName(false, true), smartName(true, false)]],
]);

export function isNativeStruct(name: string | undefined): boolean {
  return name !== undefined && NATIVE_STRUCTS.has(name);
}

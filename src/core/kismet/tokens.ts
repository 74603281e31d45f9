/**
 * Blueprint bytecode opcodes (EExprToken of the engine's Script.h, UE4.0 to UE5.8), by value.
 * Values not listed here are not opcodes: the decoder stops at them with a FormatError.
 */
export const Op = {
  LocalVariable: 0x00, InstanceVariable: 0x01, DefaultVariable: 0x02, Return: 0x04, Jump: 0x06,
  JumpIfNot: 0x07, Assert: 0x09, Nothing: 0x0b, NothingInt32: 0x0c, Let: 0x0f, BitFieldConst: 0x11,
  ClassContext: 0x12, MetaCast: 0x13, LetBool: 0x14, EndParmValue: 0x15, EndFunctionParms: 0x16,
  Self: 0x17, Skip: 0x18, Context: 0x19, Context_FailSilent: 0x1a, VirtualFunction: 0x1b,
  FinalFunction: 0x1c, IntConst: 0x1d, FloatConst: 0x1e, StringConst: 0x1f, ObjectConst: 0x20,
  NameConst: 0x21, RotationConst: 0x22, VectorConst: 0x23, ByteConst: 0x24, IntZero: 0x25,
  IntOne: 0x26, True: 0x27, False: 0x28, TextConst: 0x29, NoObject: 0x2a, TransformConst: 0x2b,
  IntConstByte: 0x2c, NoInterface: 0x2d, DynamicCast: 0x2e, StructConst: 0x2f, EndStructConst: 0x30,
  SetArray: 0x31, EndArray: 0x32, PropertyConst: 0x33, UnicodeStringConst: 0x34, Int64Const: 0x35,
  UInt64Const: 0x36, DoubleConst: 0x37, Cast: 0x38, SetSet: 0x39, EndSet: 0x3a, SetMap: 0x3b,
  EndMap: 0x3c, SetConst: 0x3d, EndSetConst: 0x3e, MapConst: 0x3f, EndMapConst: 0x40,
  Vector3fConst: 0x41, StructMemberContext: 0x42, LetMulticastDelegate: 0x43, LetDelegate: 0x44,
  LocalVirtualFunction: 0x45, LocalFinalFunction: 0x46, LocalOutVariable: 0x48, DeprecatedOp4A: 0x4a,
  InstanceDelegate: 0x4b, PushExecutionFlow: 0x4c, PopExecutionFlow: 0x4d, ComputedJump: 0x4e,
  PopExecutionFlowIfNot: 0x4f, Breakpoint: 0x50, InterfaceContext: 0x51, ObjToInterfaceCast: 0x52,
  EndOfScript: 0x53, CrossInterfaceCast: 0x54, InterfaceToObjCast: 0x55, WireTracepoint: 0x5a,
  SkipOffsetConst: 0x5b, AddMulticastDelegate: 0x5c, ClearMulticastDelegate: 0x5d, Tracepoint: 0x5e,
  LetObj: 0x5f, LetWeakObjPtr: 0x60, BindDelegate: 0x61, RemoveMulticastDelegate: 0x62,
  CallMulticastDelegate: 0x63, LetValueOnPersistentFrame: 0x64, ArrayConst: 0x65, EndArrayConst: 0x66,
  SoftObjectConst: 0x67, CallMath: 0x68, SwitchValue: 0x69, InstrumentationEvent: 0x6a,
  ArrayGetByRef: 0x6b, ClassSparseDataVariable: 0x6c, FieldPathConst: 0x6d, AutoRtfmTransact: 0x70,
  AutoRtfmStopTransact: 0x71, AutoRtfmAbortIfNot: 0x72, AutoRtfmAbort: 0x73,
} as const;
export type OpName = keyof typeof Op;

const names = new Map<number, OpName>();
for (const [k, v] of Object.entries(Op)) names.set(v, k as OpName);

/** "EX_Let" for 0x0f; undefined for a byte that is no opcode. */
export function opName(op: number): OpName | undefined {
  return names.get(op);
}

/** ECastToken of EX_Cast. */
export const CAST_NAMES: Readonly<Record<number, string>> = {
  0x00: 'ObjectToInterface', 0x01: 'ObjectToBool', 0x02: 'InterfaceToBool', 0x03: 'DoubleToFloat', 0x04: 'FloatToDouble',
  0x46: 'ObjectToInterface', 0x47: 'ObjectToBool', 0x49: 'InterfaceToBool',
};

/** EScriptInstrumentationType; InlineEvent (4) carries an event name. */
export const INSTRUMENTATION_INLINE_EVENT = 4;

/** EFunctionFlags, as `pakscope script` names them. */
export const FUNCTION_FLAGS: readonly [number, string][] = [
  [0x00000001, 'Final'], [0x00000002, 'RequiredAPI'], [0x00000004, 'BlueprintAuthorityOnly'],
  [0x00000008, 'BlueprintCosmetic'], [0x00000040, 'Net'], [0x00000080, 'NetReliable'],
  [0x00000100, 'NetRequest'], [0x00000200, 'Exec'], [0x00000400, 'Native'], [0x00000800, 'Event'],
  [0x00001000, 'NetResponse'], [0x00002000, 'Static'], [0x00004000, 'NetMulticast'],
  [0x00008000, 'UbergraphFunction'], [0x00010000, 'MulticastDelegate'], [0x00020000, 'Public'],
  [0x00040000, 'Private'], [0x00080000, 'Protected'], [0x00100000, 'Delegate'], [0x00200000, 'NetServer'],
  [0x00400000, 'HasOutParms'], [0x00800000, 'HasDefaults'], [0x01000000, 'NetClient'],
  [0x02000000, 'DLLImport'], [0x04000000, 'BlueprintCallable'], [0x08000000, 'BlueprintEvent'],
  [0x10000000, 'BlueprintPure'], [0x20000000, 'EditorOnly'], [0x40000000, 'Const'], [0x80000000, 'NetValidate'],
];

export const FUNC_NET = 0x00000040;

/** Names of the flags set in `flags`. */
export function functionFlagNames(flags: number): string[] {
  return FUNCTION_FLAGS.filter(([bit]) => (flags & bit) >>> 0 !== 0).map(([, n]) => n);
}

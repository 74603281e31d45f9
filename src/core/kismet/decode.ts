/**
 * Blueprint bytecode (a UStruct's Script array, as FKismetBytecodeDisassembler reads it): tokens
 * decoded into an expression tree, counting in-memory offsets beside the stored bytes (object
 * and property pointers are 4-byte package indexes or FFieldPaths on disk and 8 bytes in memory,
 * FNames 8 bytes on disk and 12 in memory). Unknown opcodes, operands past the end and nesting
 * past MAX_EXPR_DEPTH are FormatErrors naming the byte offset.
 */
import type { BinaryReader } from '../io/binary-reader.js';
import type { Expr } from './expr.js';
import { INSTRUMENTATION_INLINE_EVENT, Op, opName, type OpName } from './tokens.js';

/** Deeper nesting than this is corrupt data (the compiler's deepest real expressions are a few dozen levels). */
export const MAX_EXPR_DEPTH = 512;
/** More elements than this in one list (parameters, array constants) is corrupt data. */
const MAX_LIST = 1 << 20;

/** The format changes of bytecode, each named after the engine release that made it. */
export interface KismetLayout {
  /** UE4.9+: EX_Let carries its property; EX_Context no longer stores a property type byte. */
  letProperty: boolean;
  /** UE4.12+: EX_TextConst starts with its literal type. */
  textLiteralType: boolean;
  /** UE5.8+: text literal types gain LocalizedTextWithNotes (2), shifting those after it. */
  textWithNotes: boolean;
  /** VER_UE4_CHANGE_SETARRAY_BYTECODE: EX_SetArray names its array by an expression. */
  setArrayExpr: boolean;
  /** UE4.25+ (FProperties): property pointers are FFieldPaths, not package indexes. */
  fieldPaths: boolean;
  /** FFieldPaths store their owner's package index (FFieldPathOwnerSerialization). */
  fieldPathOwner: boolean;
  /** UE5.0+ (large world coordinates): vector, rotator and transform constants are doubles. */
  doubles: boolean;
}

/** Names and object references of the package the bytecode is in. */
export interface KismetNames {
  name(r: BinaryReader): string;
  object(r: BinaryReader): string | null;
}

export interface DecodedScript {
  /** Top-level statements in order. */
  statements: Expr[];
  /** The in-memory size the tokens add up to (the stored ScriptBytecodeSize, when it reads right). */
  memorySize: number;
}

/** Decodes `r` (exactly the stored script bytes) to its statements. */
export function decodeScript(r: BinaryReader, names: KismetNames, layout: KismetLayout): DecodedScript {
  const d = new Decoder(r, names, layout);
  const statements: Expr[] = [];
  while (r.remaining > 0) statements.push(d.expr());
  return { statements, memorySize: d.mem };
}

class Decoder {
  mem = 0;
  private depth = 0;
  constructor(private readonly r: BinaryReader, private readonly names: KismetNames, private readonly v: KismetLayout) {}

  private u8(): number { this.mem += 1; return this.r.u8(); }
  private u16(): number { this.mem += 2; return this.r.u16(); }
  private u32(): number { this.mem += 4; return this.r.u32(); }
  private i32(): number { this.mem += 4; return this.r.i32(); }
  private f32(): number { this.mem += 4; return this.r.f32(); }
  private f64(): number { this.mem += 8; return this.r.f64(); }
  private real(): number { return this.v.doubles ? this.f64() : this.f32(); }
  private name(): string { this.mem += 12; return this.names.name(this.r); }
  private object(): string | null { this.mem += 8; return this.names.object(this.r); }

  /** A property pointer: an FFieldPath (its names joined by ".") or, before 4.25, a UProperty's package index. */
  private property(): string | null {
    this.mem += 8;
    if (!this.v.fieldPaths) return this.names.object(this.r);
    const at = this.r.pos;
    const n = this.r.i32();
    this.r.checkCount(n, 8, 'field path length', at);
    const path: string[] = [];
    for (let i = 0; i < n; i++) path.push(this.names.name(this.r));
    const owner = this.v.fieldPathOwner ? this.names.object(this.r) : null;
    if (path.length === 0 || (path.length === 1 && path[0] === 'None')) return null;
    return owner ? `${owner}:${path.reverse().join('.')}` : path.reverse().join('.');
  }

  /** A NUL-terminated ANSI string. */
  private ansi(): string {
    const at = this.r.pos;
    const end = this.r.bytes.indexOf(0, at);
    if (end < 0) throw this.r.error('string constant has no terminating NUL before the script ends', at);
    const s = this.r.latin1(end - at);
    this.r.skip(1);
    this.mem += end - at + 1;
    return s;
  }

  /** A NUL-terminated UTF-16 string. */
  private unicode(): string {
    const at = this.r.pos;
    const b = this.r.bytes;
    let end = at;
    while (end + 1 < b.length && (b[end] !== 0 || b[end + 1] !== 0)) end += 2;
    if (end + 1 >= b.length) throw this.r.error('unicode string constant has no terminating NUL before the script ends', at);
    const s = this.r.utf16((end - at) / 2);
    this.r.skip(2);
    this.mem += end - at + 2;
    return s;
  }

  /** Expressions up to (not including) the token `end`, which is consumed. */
  private until(end: number): Expr[] {
    const out: Expr[] = [];
    for (;;) {
      const e = this.expr();
      if (Op[e.op] === end) return out;
      if (out.length >= MAX_LIST) throw this.r.error(`more than ${MAX_LIST} elements before ${opName(end)}`);
      out.push(e);
    }
  }

  expr(): Expr {
    const at = this.r.pos;
    if (this.depth >= MAX_EXPR_DEPTH) throw this.r.error(`expressions nested deeper than ${MAX_EXPR_DEPTH}`, at);
    const offset = this.mem;
    const code = this.u8();
    const op = opName(code);
    if (op === undefined) throw this.r.error(`unknown bytecode token 0x${code.toString(16).padStart(2, '0')}`, at);
    this.depth++;
    try {
      return this.operands(op, offset);
    } finally {
      this.depth--;
    }
  }

  private operands(op: OpName, offset: number): Expr {
    const e: Expr = { op, offset };
    switch (op) {
      case 'LocalVariable': case 'InstanceVariable': case 'DefaultVariable': case 'LocalOutVariable':
      case 'ClassSparseDataVariable': case 'PropertyConst':
        e.ref = this.property();
        break;
      case 'Return': case 'ComputedJump': case 'PopExecutionFlowIfNot': case 'InterfaceContext':
      case 'SoftObjectConst': case 'FieldPathConst': case 'ClearMulticastDelegate': case 'AutoRtfmAbortIfNot':
        e.args = [this.expr()];
        break;
      case 'Jump': case 'PushExecutionFlow': case 'SkipOffsetConst':
        e.target = this.u32();
        break;
      case 'JumpIfNot':
        e.target = this.u32();
        e.args = [this.expr()];
        break;
      case 'Assert':
        e.value = this.u16();
        this.u8(); // in debug mode only
        e.args = [this.expr()];
        break;
      case 'NothingInt32': case 'IntConst':
        e.value = this.i32();
        break;
      case 'Let':
        if (this.v.letProperty) e.ref = this.property();
        e.args = [this.expr(), this.expr()];
        break;
      case 'BitFieldConst':
        e.ref = this.property();
        e.value = this.u8();
        break;
      case 'ClassContext': case 'Context': case 'Context_FailSilent':
        e.args = [this.expr()];
        e.target = this.u32();
        e.ref = this.property();
        if (!this.v.letProperty) this.u8(); // property type, before 4.9
        e.args.push(this.expr());
        break;
      case 'MetaCast': case 'DynamicCast': case 'ObjToInterfaceCast': case 'CrossInterfaceCast': case 'InterfaceToObjCast':
        e.ref = this.object();
        e.args = [this.expr()];
        break;
      case 'LetBool': case 'LetMulticastDelegate': case 'LetDelegate': case 'AddMulticastDelegate': case 'LetObj':
      case 'LetWeakObjPtr': case 'RemoveMulticastDelegate': case 'ArrayGetByRef':
        e.args = [this.expr(), this.expr()];
        break;
      case 'Skip':
        e.target = this.u32();
        e.args = [this.expr()];
        break;
      case 'VirtualFunction': case 'LocalVirtualFunction':
        e.ref = this.name();
        e.list = this.until(Op.EndFunctionParms);
        break;
      case 'FinalFunction': case 'LocalFinalFunction': case 'CallMath': case 'CallMulticastDelegate':
        e.ref = this.object();
        e.list = this.until(Op.EndFunctionParms);
        break;
      case 'FloatConst':
        e.value = this.f32();
        break;
      case 'DoubleConst':
        e.value = this.f64();
        break;
      case 'StringConst':
        e.value = this.ansi();
        break;
      case 'UnicodeStringConst':
        e.value = this.unicode();
        break;
      case 'ObjectConst':
        e.ref = this.object();
        break;
      case 'NameConst': case 'InstanceDelegate':
        e.ref = this.name();
        break;
      case 'RotationConst': case 'VectorConst':
        e.value = [this.real(), this.real(), this.real()];
        break;
      case 'Vector3fConst':
        e.value = [this.f32(), this.f32(), this.f32()];
        break;
      case 'TransformConst': {
        const v: number[] = [];
        for (let i = 0; i < 10; i++) v.push(this.real()); // rotation quaternion, translation, scale
        e.value = v;
        break;
      }
      case 'ByteConst': case 'IntConstByte':
        e.value = this.u8();
        break;
      case 'Int64Const':
        this.mem += 8;
        e.value = this.r.i64();
        break;
      case 'UInt64Const':
        this.mem += 8;
        e.value = this.r.u64();
        break;
      case 'TextConst':
        this.text(e);
        break;
      case 'StructConst':
        e.ref = this.object();
        e.value = this.i32(); // the struct's size
        e.list = this.until(Op.EndStructConst);
        break;
      case 'SetArray':
        if (this.v.setArrayExpr) e.args = [this.expr()];
        else e.ref = this.object();
        e.list = this.until(Op.EndArray);
        break;
      case 'Cast':
        e.value = this.u8();
        e.args = [this.expr()];
        break;
      case 'SetSet':
        e.args = [this.expr()];
        e.value = this.i32();
        e.list = this.until(Op.EndSet);
        break;
      case 'SetMap':
        e.args = [this.expr()];
        e.value = this.i32();
        e.list = this.until(Op.EndMap);
        break;
      case 'SetConst':
        e.ref = this.property();
        e.value = this.i32();
        e.list = this.until(Op.EndSetConst);
        break;
      case 'MapConst':
        e.ref = this.property();
        e.value = this.property() ?? '';
        this.i32();
        e.list = this.until(Op.EndMapConst);
        break;
      case 'ArrayConst':
        e.ref = this.property();
        e.value = this.i32();
        e.list = this.until(Op.EndArrayConst);
        break;
      case 'StructMemberContext':
        e.ref = this.property();
        e.args = [this.expr()];
        break;
      case 'BindDelegate':
        e.ref = this.name();
        e.args = [this.expr(), this.expr()];
        break;
      case 'LetValueOnPersistentFrame':
        e.ref = this.property();
        e.args = [this.expr()];
        break;
      case 'SwitchValue': {
        const n = this.u16();
        e.target = this.u32();
        e.args = [this.expr()];
        e.cases = [];
        for (let i = 0; i < n; i++) {
          const value = this.expr();
          const next = this.u32();
          e.cases.push({ value, next, result: this.expr() });
        }
        e.args.push(this.expr()); // the default
        break;
      }
      case 'InstrumentationEvent':
        e.value = this.u8();
        if (e.value === INSTRUMENTATION_INLINE_EVENT) e.ref = this.name();
        break;
      case 'AutoRtfmTransact':
        e.value = this.i32();
        e.target = this.u32();
        e.list = this.until(Op.AutoRtfmStopTransact);
        break;
      case 'AutoRtfmStopTransact':
        e.value = this.i32();
        this.u8(); // mode
        break;
      default:
        // Tokens with no operands: EX_Nothing, EX_Self, EX_True, EX_EndFunctionParms, ...
        break;
    }
    return e;
  }

  /** FScriptText: its literal type, then the strings (expressions) that type stores. */
  private text(e: Expr): void {
    let type = this.v.textLiteralType ? this.u8() : 1;
    // Before 5.8: 0 empty, 1 localized, 2 invariant, 3 literal string, 4 string table.
    if (!this.v.textWithNotes && type >= 2) type++;
    switch (type) {
      case 0: e.value = 'Empty'; e.args = []; break;
      case 1: e.value = 'Localized'; e.args = [this.expr(), this.expr(), this.expr()]; break;
      case 2: e.value = 'LocalizedWithNotes'; e.args = [this.expr(), this.expr(), this.expr(), this.expr()]; break;
      case 3: e.value = 'Invariant'; e.args = [this.expr()]; break;
      case 4: e.value = 'LiteralString'; e.args = [this.expr()]; break;
      case 5: e.value = 'StringTable'; e.ref = this.object(); e.args = [this.expr(), this.expr()]; break;
      default: throw this.r.error(`unknown text literal type ${type}`, this.r.pos - 1);
    }
  }
}

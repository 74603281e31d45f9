/**
 * Blueprint bytecode as readable pseudo-code: one line per statement, calls with their function
 * names and arguments, assignments, `if not ... goto` for branches, labels only where a jump
 * lands (in-memory offsets, as the engine's jumps count them).
 */
import type { Expr } from './expr.js';
import { CAST_NAMES } from './tokens.js';
import { shortObjectName } from '../package/zen-model.js';

/** Statements that only mark places for the debugger. */
const SILENT = new Set(['Tracepoint', 'WireTracepoint', 'Breakpoint', 'InstrumentationEvent', 'Nothing', 'NothingInt32', 'EndOfScript']);
/** Longest rendered expression kept whole: past this, the rest is elided (a huge constant array). */
const MAX_EXPRESSION_CHARS = 4000;

/** "Foo" of "/Script/Engine.KismetSystemLibrary:Foo", "/Game/BP.BP_C:Foo.Bar" or "Foo". */
export function shortName(path: string | null | undefined): string {
  return path === null || path === undefined ? 'None' : shortObjectName(path);
}

/** "KismetSystemLibrary.PrintString" of a function's path: its class and name. */
export function functionName(path: string | null | undefined): string {
  if (!path) return 'None';
  const fn = shortName(path);
  const owner = path.slice(0, path.length - fn.length - 1);
  const cls = shortName(owner);
  return cls && cls !== fn ? `${cls}.${fn}` : fn;
}

/** Every in-memory offset a jump or push in `statements` goes to. */
export function jumpTargets(statements: readonly Expr[]): Set<number> {
  const out = new Set<number>();
  const walk = (e: Expr): void => {
    if (e.target !== undefined && (e.op === 'Jump' || e.op === 'JumpIfNot' || e.op === 'PushExecutionFlow' || e.op === 'SkipOffsetConst')) out.add(e.target);
    for (const a of e.args ?? []) walk(a);
    for (const a of e.list ?? []) walk(a);
    for (const c of e.cases ?? []) { walk(c.value); walk(c.result); }
  };
  statements.forEach(walk);
  return out;
}

export const label = (offset: number): string => `L_${offset.toString(16).padStart(4, '0')}`;

/**
 * The statements as lines of pseudo-code: labels where jumps land, statements indented by four.
 * `entries` adds labels with a comment (the ubergraph's entry points, by the events that use them).
 */
export function renderStatements(statements: readonly Expr[], entries?: ReadonlyMap<number, string>): string[] {
  const targets = jumpTargets(statements);
  const lines: string[] = [];
  for (const s of statements) {
    const entry = entries?.get(s.offset);
    if (entry !== undefined) lines.push(`${label(s.offset)}: // ${entry}`);
    else if (targets.has(s.offset)) lines.push(`${label(s.offset)}:`);
    if (SILENT.has(s.op)) continue;
    lines.push(`    ${statement(s)}`);
  }
  return lines;
}

function statement(e: Expr): string {
  switch (e.op) {
    case 'Jump': return `goto ${label(e.target!)}`;
    case 'JumpIfNot': return `if not (${expr(e.args![0]!)}) goto ${label(e.target!)}`;
    case 'Return': return e.args![0]!.op === 'Nothing' ? 'return' : `return ${expr(e.args![0]!)}`;
    case 'PushExecutionFlow': return `push_flow ${label(e.target!)}`;
    case 'PopExecutionFlow': return 'pop_flow';
    case 'PopExecutionFlowIfNot': return `if not (${expr(e.args![0]!)}) pop_flow`;
    case 'ComputedJump': return `goto (${expr(e.args![0]!)})`;
    case 'Assert': return `assert(${expr(e.args![0]!)}) // line ${String(e.value)}`;
    default: return clip(expr(e));
  }
}

function clip(s: string): string {
  return s.length > MAX_EXPRESSION_CHARS ? `${s.slice(0, MAX_EXPRESSION_CHARS)} …` : s;
}

const args = (list: readonly Expr[] | undefined): string => (list ?? []).map(expr).join(', ');

function str(s: unknown): string {
  return JSON.stringify(String(s));
}

function num(v: number): string {
  return Number.isInteger(v) ? String(v) : String(Math.fround(v) === v ? Number(v.toPrecision(7)) : v);
}

export function expr(e: Expr): string {
  const a = e.args ?? [];
  switch (e.op) {
    case 'LocalVariable': case 'LocalOutVariable': return shortName(e.ref);
    case 'InstanceVariable': return `self.${shortName(e.ref)}`;
    case 'DefaultVariable': return `Default.${shortName(e.ref)}`;
    case 'ClassSparseDataVariable': return `SparseData.${shortName(e.ref)}`;
    case 'PropertyConst': return `Property(${shortName(e.ref)})`;
    case 'Let': case 'LetBool': case 'LetObj': case 'LetWeakObjPtr': case 'LetDelegate': case 'LetMulticastDelegate':
      return `${expr(a[0]!)} = ${expr(a[1]!)}`;
    case 'LetValueOnPersistentFrame': return `Frame.${shortName(e.ref)} = ${expr(a[0]!)}`;
    case 'BitFieldConst': return `${shortName(e.ref)} = ${String(e.value)}`;
    case 'Context': return `${expr(a[0]!)}.${member(a[1]!)}`;
    case 'Context_FailSilent': return `${expr(a[0]!)}?.${member(a[1]!)}`;
    case 'ClassContext': return `${expr(a[0]!)}::Default.${member(a[1]!)}`;
    case 'InterfaceContext': return expr(a[0]!);
    case 'StructMemberContext': return `${expr(a[0]!)}.${shortName(e.ref)}`;
    case 'VirtualFunction': case 'LocalVirtualFunction': return `${e.ref}(${args(e.list)})`;
    case 'FinalFunction': case 'LocalFinalFunction': return `${shortName(e.ref)}(${args(e.list)})`;
    case 'CallMath': return `${functionName(e.ref)}(${args(e.list)})`;
    case 'CallMulticastDelegate': return `${expr(e.list?.[0] ?? { op: 'Nothing', offset: 0 })}.Broadcast(${args(e.list?.slice(1))}) /* ${shortName(e.ref)} */`;
    case 'IntConst': case 'ByteConst': case 'IntConstByte': case 'NothingInt32': return String(e.value);
    case 'Int64Const': case 'UInt64Const': return `${String(e.value)}L`;
    case 'FloatConst': case 'DoubleConst': return num(e.value as number);
    case 'StringConst': case 'UnicodeStringConst': return str(e.value);
    case 'NameConst': return `'${e.ref}'`;
    case 'ObjectConst': return e.ref === null ? 'null' : shortName(e.ref);
    case 'SoftObjectConst': return `SoftObject(${expr(a[0]!)})`;
    case 'FieldPathConst': return `FieldPath(${expr(a[0]!)})`;
    case 'VectorConst': case 'Vector3fConst': return `Vector(${(e.value as number[]).map(num).join(', ')})`;
    case 'RotationConst': return `Rotator(${(e.value as number[]).map(num).join(', ')})`;
    case 'TransformConst': {
      const v = (e.value as number[]).map(num);
      return `Transform(Quat(${v.slice(0, 4).join(', ')}), Vector(${v.slice(4, 7).join(', ')}), Vector(${v.slice(7, 10).join(', ')}))`;
    }
    case 'IntZero': return '0';
    case 'IntOne': return '1';
    case 'True': return 'true';
    case 'False': return 'false';
    case 'Self': return 'self';
    case 'NoObject': return 'null';
    case 'NoInterface': return 'null';
    case 'Nothing': return '';
    case 'TextConst': return text(e);
    case 'DynamicCast': return `Cast<${shortName(e.ref)}>(${expr(a[0]!)})`;
    case 'MetaCast': return `ClassCast<${shortName(e.ref)}>(${expr(a[0]!)})`;
    case 'ObjToInterfaceCast': case 'CrossInterfaceCast': return `InterfaceCast<${shortName(e.ref)}>(${expr(a[0]!)})`;
    case 'InterfaceToObjCast': return `ObjectCast<${shortName(e.ref)}>(${expr(a[0]!)})`;
    case 'Cast': return `${CAST_NAMES[e.value as number] ?? `Cast${String(e.value)}`}(${expr(a[0]!)})`;
    case 'StructConst': return `${shortName(e.ref)}(${args(e.list)})`;
    case 'SetArray': return `${a[0] ? expr(a[0]) : shortName(e.ref)} = [${args(e.list)}]`;
    case 'SetSet': return `${expr(a[0]!)} = Set{${args(e.list)}}`;
    case 'SetMap': return `${expr(a[0]!)} = Map{${pairs(e.list)}}`;
    case 'ArrayConst': return `[${args(e.list)}]`;
    case 'SetConst': return `Set{${args(e.list)}}`;
    case 'MapConst': return `Map{${pairs(e.list)}}`;
    case 'ArrayGetByRef': return `${expr(a[0]!)}[${expr(a[1]!)}]`;
    case 'InstanceDelegate': return `Delegate('${e.ref}')`;
    case 'BindDelegate': return `${expr(a[0]!)}.Bind(${expr(a[1]!)}, '${e.ref}')`;
    case 'AddMulticastDelegate': return `${expr(a[0]!)}.Add(${expr(a[1]!)})`;
    case 'RemoveMulticastDelegate': return `${expr(a[0]!)}.Remove(${expr(a[1]!)})`;
    case 'ClearMulticastDelegate': return `${expr(a[0]!)}.Clear()`;
    case 'Skip': return expr(a[0]!);
    case 'SkipOffsetConst': return label(e.target!);
    case 'SwitchValue': {
      const cases = (e.cases ?? []).map((c) => `${expr(c.value)}: ${expr(c.result)}`);
      cases.push(`default: ${expr(a[1]!)}`);
      return `switch (${expr(a[0]!)}) { ${cases.join('; ')} }`;
    }
    case 'AutoRtfmTransact': return `transact #${String(e.value)} { ${args(e.list)} }`;
    case 'AutoRtfmStopTransact': return `stop_transact #${String(e.value)}`;
    case 'AutoRtfmAbortIfNot': return `if not (${expr(a[0]!)}) abort_transact`;
    case 'AutoRtfmAbort': return 'abort_transact';
    default: return statementLike(e);
  }
}

/** The right side of a context: a variable of the context object is named without "self.". */
function member(e: Expr): string {
  return e.op === 'InstanceVariable' ? shortName(e.ref) : expr(e);
}

function statementLike(e: Expr): string {
  if (e.op === 'Jump' || e.op === 'JumpIfNot' || e.op === 'Return' || e.op === 'PushExecutionFlow' || e.op === 'PopExecutionFlow'
    || e.op === 'PopExecutionFlowIfNot' || e.op === 'ComputedJump' || e.op === 'Assert') return statement(e);
  return `/* EX_${e.op} */`;
}

function pairs(list: readonly Expr[] | undefined): string {
  const l = list ?? [];
  const out: string[] = [];
  for (let i = 0; i + 1 < l.length; i += 2) out.push(`${expr(l[i]!)}: ${expr(l[i + 1]!)}`);
  return out.join(', ');
}

function text(e: Expr): string {
  const a = (e.args ?? []).map(expr);
  switch (e.value) {
    case 'Empty': return 'FText()';
    case 'Localized': case 'LocalizedWithNotes': return `NSLOCTEXT(${a[2]}, ${a[1]}, ${a[0]})`;
    case 'Invariant': return `INVTEXT(${a[0]})`;
    case 'LiteralString': return `FText::FromString(${a[0]})`;
    case 'StringTable': return `LOCTABLE(${a[0]}, ${a[1]})`;
    default: return 'FText()';
  }
}

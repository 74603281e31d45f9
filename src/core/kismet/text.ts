/**
 * A Blueprint's functions as one text: each function's flags, parameters and locals, then its
 * pseudo-code. The ubergraph's entry points (where events jump in) get labels too, named after
 * the events that call it.
 */
import type { Expr } from './expr.js';
import type { BlueprintScript, ScriptFunction } from './read.js';
import { renderStatements, shortName } from './render.js';
import type { ChildProperty } from './ustruct.js';
import { PropertyFlag } from './ustruct.js';

/** A property's type as the pseudo-code shows it: "int", "Vector", "Array<Actor>". */
export function propertyType(p: ChildProperty): string {
  const inner = (p.inner ?? []).map(propertyType);
  const ref = p.ref ? shortName(p.ref) : undefined;
  switch (p.type) {
    case 'IntProperty': return 'int32';
    case 'Int64Property': return 'int64';
    case 'BoolProperty': return 'bool';
    case 'FloatProperty': return 'float';
    case 'DoubleProperty': return 'double';
    case 'NameProperty': return 'FName';
    case 'StrProperty': return 'FString';
    case 'TextProperty': return 'FText';
    case 'ByteProperty': return ref ?? 'uint8';
    case 'EnumProperty': return ref ?? 'enum';
    case 'StructProperty': return ref ?? 'struct';
    case 'ObjectProperty': case 'ObjectPtrProperty': return ref ? `${ref}*` : 'Object*';
    case 'ClassProperty': case 'ClassPtrProperty': return `TSubclassOf<${ref ?? 'Object'}>`;
    case 'SoftObjectProperty': return `TSoftObjectPtr<${ref ?? 'Object'}>`;
    case 'SoftClassProperty': return `TSoftClassPtr<${ref ?? 'Object'}>`;
    case 'WeakObjectProperty': return `TWeakObjectPtr<${ref ?? 'Object'}>`;
    case 'InterfaceProperty': return `TScriptInterface<${ref ?? 'Interface'}>`;
    case 'ArrayProperty': return `TArray<${inner[0] ?? '?'}>`;
    case 'SetProperty': return `TSet<${inner[0] ?? '?'}>`;
    case 'MapProperty': return `TMap<${inner[0] ?? '?'}, ${inner[1] ?? '?'}>`;
    default: return p.type.replace(/Property$/, '');
  }
}

function param(p: ChildProperty): string {
  const out = (p.flags & PropertyFlag.OutParm) !== 0 && (p.flags & PropertyFlag.ReferenceParm) === 0 ? 'out ' : (p.flags & PropertyFlag.ReferenceParm) !== 0 ? 'ref ' : '';
  return `${out}${propertyType(p)} ${p.name}`;
}

/** The function's signature: "void Name(int32 A, out bool B)" with its return type. */
export function signature(f: ScriptFunction): string {
  const ret = f.params.find((p) => (p.flags & PropertyFlag.ReturnParm) !== 0);
  const params = f.params.filter((p) => p !== ret).map(param);
  return `${ret ? propertyType(ret) : 'void'} ${f.name}(${params.join(', ')})`;
}

/** Ubergraph offset -> the names of the functions that jump in there (ExecuteUbergraph_X(offset)). */
export function ubergraphEntries(script: BlueprintScript): Map<string, Map<number, string[]>> {
  const out = new Map<string, Map<number, string[]>>();
  for (const f of script.functions) {
    for (const s of f.data?.statements ?? []) {
      const call = findUbergraphCall(s);
      if (!call) continue;
      const [target, offset] = call;
      let m = out.get(target);
      if (!m) out.set(target, (m = new Map()));
      m.set(offset, [...(m.get(offset) ?? []), f.name]);
    }
  }
  return out;
}

function findUbergraphCall(e: Expr): [string, number] | undefined {
  if ((e.op === 'FinalFunction' || e.op === 'LocalFinalFunction') && /ExecuteUbergraph_/.test(e.ref ?? '')) {
    const a = e.list?.[0];
    const v = a?.op === 'IntConst' ? (a.value as number) : a?.op === 'IntZero' ? 0 : a?.op === 'IntOne' ? 1 : a?.op === 'IntConstByte' ? (a.value as number) : undefined;
    if (v !== undefined) return [shortName(e.ref), v];
  }
  return undefined;
}

/** The whole script as text, function after function. */
export function scriptText(script: BlueprintScript): string {
  const entries = ubergraphEntries(script);
  const lines: string[] = [];
  for (const f of script.functions) {
    lines.push(`// ${f.class} ${f.name}${f.flags.length ? ` [${f.flags.join(', ')}]` : ''}`);
    lines.push(`${signature(f)}`);
    lines.push('{');
    for (const l of f.locals) lines.push(`    local ${propertyType(l)} ${l.name};`);
    if (f.error !== undefined) lines.push(`    // does not decode: ${f.error}`);
    lines.push(...codeLines(f, entries));
    lines.push('}', '');
  }
  return lines.join('\n');
}

/** A function's pseudo-code lines, the ubergraph's entry points labelled by the events that jump in (`entries`: ubergraphEntries). */
export function codeLines(f: ScriptFunction, entries: ReadonlyMap<string, ReadonlyMap<number, string[]>>): string[] {
  if (!f.data) return [];
  const entry = entries.get(f.name);
  const labels = entry ? new Map([...entry].map(([o, names]) => [o, `entry of ${names.join(', ')}`])) : undefined;
  return renderStatements(f.data.statements, labels);
}


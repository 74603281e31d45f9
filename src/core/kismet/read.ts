/**
 * A Blueprint's functions with their bytecode, read from a package: every UFunction export
 * (events, functions, the ubergraph) through the property reader's native data hook, its
 * parameters from its child properties, its code decoded and checked against both stored sizes.
 */
import { EngineVersion, parseEngineVersion } from '../engine-versions.js';
import { FormatError } from '../errors.js';
import type { BinaryReader } from '../io/binary-reader.js';
import type { PropertyReader } from '../properties/reader.js';
import type { ExportProperties } from '../properties/types.js';
import { UE5_LATEST } from '../uasset/versions.js';
import type { AssetSource, ConvertOptions } from '../assets/registry.js';
import { functionClassName, isFunctionClass, PropertyFlag, readUStruct, structLayout, type ChildProperty, type UStructData } from './ustruct.js';
import { functionFlagNames } from './tokens.js';
import { sourceProperties } from '../assets/source-properties.js';

export interface ScriptFunction {
  /** Export index (0-based). */
  index: number;
  name: string;
  class: string;
  /** The struct data, or null when it does not read (then `error` says why). */
  data: UStructData | null;
  error?: string;
  flags: string[];
  params: ChildProperty[];
  locals: ChildProperty[];
}

export interface BlueprintScript {
  path: string;
  package: string;
  functions: ScriptFunction[];
  warnings: string[];
}

export type ScriptReadOptions = Pick<ConvertOptions, 'mappings' | 'engine'>;

/** The functions of the package `source`, each decoded or with the reason it does not decode. */
export async function readBlueprintScript(source: AssetSource, opts: ScriptReadOptions = {}): Promise<BlueprintScript> {
  const engine = opts.engine !== undefined ? parseEngineVersion(opts.engine) : undefined;
  const nativeData = (pr: PropertyReader, r: BinaryReader, exp: { class: string }): unknown => {
    if (!isFunctionClass(exp.class)) return undefined;
    const v = pr.ctx.versions;
    // UE5.7 and 5.8 share their object versions: without --engine, 5.7's layout is tried first.
    const ambiguous = engine === undefined && v.ue5 >= UE5_LATEST;
    const first = engine !== undefined && engine >= EngineVersion.UE5_8;
    const start = r.pos;
    try {
      const d = readUStruct(pr, r, structLayout(v, first), true);
      if (!ambiguous || sizesMatch(d)) return d;
    } catch (e) {
      if (!ambiguous || !(e instanceof FormatError)) throw e;
    }
    r.seek(start);
    return readUStruct(pr, r, structLayout(v, true), true);
  };
  const opened = await sourceProperties(source, opts, { nativeData });
  const functions = opened.properties.exports.filter((e) => isFunctionClass(e.class)).map(scriptFunction);
  return { path: opened.path, package: opened.properties.package, functions, warnings: opened.warnings };
}

/** Both stored sizes agree with what the decoder read. */
export function sizesMatch(d: UStructData): boolean {
  return d.decodedSize === d.bytecodeSize;
}

function scriptFunction(e: ExportProperties): ScriptFunction {
  const f: ScriptFunction = { index: e.index, name: e.name, class: functionClassName(e.class) ?? e.class, data: null, flags: [], params: [], locals: [] };
  const data = e.native as UStructData | undefined;
  if (e.nativeError !== undefined) f.error = e.nativeError;
  else if (e.error) f.error = `its properties do not read: ${e.error}`;
  else if (!data) f.error = e.notes?.join('; ') || 'no function data after the properties';
  else {
    f.data = data;
    f.flags = functionFlagNames(data.functionFlags ?? 0);
    for (const p of data.childProperties ?? []) ((p.flags & PropertyFlag.Parm) !== 0 ? f.params : f.locals).push(p);
    if (!sizesMatch(data)) {
      f.error = new FormatError(data.file, `function "${e.name}" bytecode`, data.scriptOffset,
        `its tokens add up to ${data.decodedSize} bytes in memory, but ScriptBytecodeSize says ${data.bytecodeSize}`).message;
    }
  }
  return f;
}

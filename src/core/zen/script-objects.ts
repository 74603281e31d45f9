/**
 * Script objects: the /Script/... classes, structs, functions and CDOs that Zen packages import
 * by the hash of their path. UE5 keeps them in the global container's ScriptObjects chunk (a name
 * batch and the entries); UE4.26/27 in LoaderInitialLoadMeta, with names in LoaderGlobalNames.
 */
import { BinaryReader } from '../io/binary-reader.js';
import { readNameBatch, readNamePairs } from './name-batch.js';
import { mappedNameText, readMappedName } from './object-index.js';
import { hexWords } from '../hash/cityhash64.js';

export interface ScriptObject {
  /** Object name with its number printed the engine's way. */
  name: string;
  /** The FPackageObjectIndex packages import it by (16 hex digits). */
  globalIndex: string;
  /** Its outer's global index, or undefined for a /Script package. */
  outer?: string;
  /** The class of its CDO (for a class), or undefined. */
  cdoClass?: string;
}

export interface ScriptObjects {
  file: string;
  /** The global name map. */
  names: string[];
  objects: ScriptObject[];
  /** globalIndex → position in `objects`. */
  byIndex: Map<string, number>;
  /** Paths computed so far (scriptObjectPath fills it). */
  paths: (string | undefined)[];
}

export interface ScriptObjectsOptions {
  verifyNameHashes?: boolean;
}

/** Longest outer chain followed; real script objects nest a few levels. */
const MAX_OUTER_DEPTH = 64;

/** An FPackageObjectIndex that must be a script import (or null where `nullable`): its raw hex, or undefined for null. */
function scriptIndex(r: BinaryReader, i: number, what: string, nullable: boolean): string | undefined {
  const at = r.pos;
  const lo = r.u32();
  const hi = r.u32();
  if (nullable && hi === 0xffffffff && lo === 0xffffffff) return undefined;
  if (hi >>> 30 !== 1) {
    throw r.error(`script object ${i} ${what} 0x${hexWords(hi, lo)} is not a script object index`, at);
  }
  return hexWords(hi, lo);
}

function readEntries(r: BinaryReader, file: string, names: string[]): ScriptObjects {
  r.struct('script object entries');
  const n = r.count(32, 'script object count');
  const objects: ScriptObject[] = new Array(n);
  const byIndex = new Map<string, number>();
  for (let i = 0; i < n; i++) {
    const at = r.pos;
    const mapped = readMappedName(r);
    // Script object names index the global name map whatever type bits the cooker left in them.
    const name = mappedNameText(r, mapped, names, 'script object', at, mapped.type);
    const globalIndex = scriptIndex(r, i, 'global index', false)!;
    const outer = scriptIndex(r, i, 'outer', true);
    const cdoClass = scriptIndex(r, i, 'CDO class', true);
    if (byIndex.has(globalIndex)) throw r.error(`script object ${i} (${name}) repeats global index 0x${globalIndex}`, at + 8);
    byIndex.set(globalIndex, i);
    objects[i] = { name, globalIndex, outer, cdoClass };
  }
  if (r.remaining !== 0) throw r.error(`${r.remaining} bytes after the ${n} script object entries`);
  return { file, names, objects, byIndex, paths: new Array(n) };
}

/** UE5: the global container's ScriptObjects chunk. */
export function parseScriptObjects(bytes: Uint8Array, fileName = 'ScriptObjects', opts: ScriptObjectsOptions = {}): ScriptObjects {
  const r = new BinaryReader(bytes, fileName).struct('global name batch');
  const names = readNameBatch(r, { verifyHashes: opts.verifyNameHashes });
  return readEntries(r, fileName, names);
}

/**
 * UE4.26/27: LoaderInitialLoadMeta (u32 count + entries) with names from LoaderGlobalNames
 * (header + string pairs); LoaderGlobalNameHashes, when given, checks the names.
 */
export function parseLegacyScriptObjects(initialLoadMeta: Uint8Array, globalNames: Uint8Array, fileName: string,
  opts: ScriptObjectsOptions & { globalNameHashes?: Uint8Array; namesFileName?: string; hashesFileName?: string } = {}): ScriptObjects {
  const namesReader = new BinaryReader(globalNames, opts.namesFileName ?? fileName).struct('global names');
  const hashesReader = opts.globalNameHashes
    ? new BinaryReader(opts.globalNameHashes, opts.hashesFileName ?? fileName).struct('global name hashes') : undefined;
  const names = readNamePairs(namesReader, hashesReader, { verifyHashes: opts.verifyNameHashes });
  return readEntries(new BinaryReader(initialLoadMeta, fileName), fileName, names);
}

/** Whether the object is a /Script package (no outer). */
export function isScriptPackage(so: ScriptObjects, index: number): boolean {
  return so.objects[index]!.outer === undefined;
}

/**
 * The object's path as UObject::GetPathName prints it: "/Script/Engine.StaticMesh",
 * "/Script/Engine.Actor:ReceiveBeginPlay" (':' after an object whose outer is a package),
 * deeper levels with '.'. An outer that is missing or loops ends the chain with "?".
 */
export function scriptObjectPath(so: ScriptObjects, index: number): string {
  const cached = so.paths[index];
  if (cached !== undefined) return cached;
  const chain: number[] = [];
  const seen = new Set<number>();
  let i: number | undefined = index;
  let broken = false;
  while (i !== undefined) {
    if (seen.has(i) || chain.length >= MAX_OUTER_DEPTH) { broken = true; break; }
    seen.add(i);
    chain.push(i);
    const outer: string | undefined = so.objects[i]!.outer;
    if (outer === undefined) break;
    i = so.byIndex.get(outer);
    if (i === undefined) { broken = true; break; }
  }
  chain.reverse();
  let path = broken ? '?' : '';
  for (let k = 0; k < chain.length; k++) {
    const o = so.objects[chain[k]!]!;
    if (k === 0 && !broken) { path = o.name; continue; }
    const outerIdx = k > 0 ? chain[k - 1]! : undefined;
    // GetPathName: ':' when the outer is not a package but the outer's outer is.
    const outerIsPackage = outerIdx !== undefined && so.objects[outerIdx]!.outer === undefined;
    const outerOuterIsPackage = k >= 2 && so.objects[chain[k - 2]!]!.outer === undefined;
    path += (!outerIsPackage && outerOuterIsPackage ? ':' : '.') + o.name;
  }
  if (!broken) so.paths[index] = path;
  return path;
}

/** The script object an import names, or undefined. */
export function findScriptObject(so: ScriptObjects, globalIndex: string): number | undefined {
  return so.byIndex.get(globalIndex);
}

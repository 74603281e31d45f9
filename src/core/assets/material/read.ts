/**
 * Reading a material export into a MaterialAsset: its own level, then its parent's, followed
 * through the install (instance -> parent instance -> base material) until a level has no
 * parent. A parent that is missing, unreadable, not a material, or already in the chain (a
 * loop), or a chain deeper than MAX_CHAIN, ends the chain with a note: the levels read so far
 * still show. A parameter's effective value is the nearest level's.
 */
import { FormatError } from '../../errors.js';
import type { ExportProperties } from '../../properties/types.js';
import type { AssetSource, ConvertOptions } from '../registry.js';
import { materialLevel } from './level.js';
import { scriptImportIndex } from '../../zen/object-index.js';
import { materialNativeReader } from './native.js';
import type { EffectiveParameter, MaterialAsset, MaterialLevel } from './types.js';
import { sourceProperties } from '../source-properties.js';

/** Export classes this kind reads. */
export const MATERIAL_CLASSES = [
  'Material', 'MaterialInstanceConstant', 'MaterialInstanceDynamic', 'MaterialFunction',
  'MaterialFunctionInstance', 'MaterialFunctionMaterialLayer', 'MaterialFunctionMaterialLayerBlend',
  'MaterialFunctionMaterialLayerInstance', 'MaterialFunctionMaterialLayerBlendInstance',
] as const;

/** Longer chains than this are a loop the path comparison missed, or a bad install. */
export const MAX_CHAIN = 32;

export interface MaterialReadOptions extends Pick<ConvertOptions, 'mappings' | 'engine' | 'signal' | 'materialReads'> {}

/**
 * Material exports opened for several readMaterial calls (a level .glb's meshes, whose slots'
 * instances share parents): each package's material, by install and object path, opened once.
 * Made per conversion and dropped after it.
 */
export class MaterialReads {
  readonly opened = new Map<string, Promise<OpenedExport>>();
}

/** Script import hashes of "/Script/Engine.<class>": a Zen package read without the global container names its classes so. */
const MATERIAL_CLASS_HASHES = new Set(MATERIAL_CLASSES.map((c) => scriptImportIndex(`/Script/Engine.${c}`)));

/** Whether `cls` (a short class name, or "/Script/?0x<hash>") is one of MATERIAL_CLASSES. */
export function isMaterialClass(cls: string): boolean {
  if ((MATERIAL_CLASSES as readonly string[]).includes(cls)) return true;
  const hash = /\?0x([0-9a-f]{16})$/.exec(cls)?.[1];
  return hash !== undefined && MATERIAL_CLASS_HASHES.has(hash);
}

const isMaterial = (e: Pick<ExportProperties, 'class'>): boolean => isMaterialClass(e.class);

export interface OpenedExport {
  exp: ExportProperties;
  /** Every export of its package (an editor material's expressions are among them). */
  exports: readonly ExportProperties[];
  /** Object path: "/Game/M/MI_X.MI_X". */
  path: string;
  /** Reader notes and warnings (mappings missing...). */
  notes: string[];
}

/** "/Game/M/MI_X.MI_X" -> ["/Game/M/MI_X", "MI_X"]; a bare package name has no export name. */
function splitObjectPath(path: string): [string, string | undefined] {
  const dot = path.lastIndexOf('.');
  const slash = path.lastIndexOf('/');
  return dot > slash ? [path.slice(0, dot), path.slice(dot + 1).replace(/^.*:/, '')] : [path, undefined];
}

/** openExport through `opts.materialReads` where given (an install's package named by path, not a file or an export index). */
function openShared(source: AssetSource, exportIndex: number | undefined, exportName: string | undefined, opts: MaterialReadOptions): Promise<OpenedExport> {
  const reads = opts.materialReads;
  if (!reads || 'file' in source || exportIndex !== undefined) return openExport(source, exportIndex, exportName, opts);
  const key = `${source.ref}\0${exportName ?? ''}`.toLowerCase();
  let hit = reads.opened.get(key);
  if (!hit) {
    hit = openExport(source, exportIndex, exportName, opts);
    reads.opened.set(key, hit);
  }
  // Each caller gets its own notes list: readMaterial adds to it.
  return hit.then((o) => ({ ...o, notes: [...o.notes] }));
}

async function openExport(source: AssetSource, exportIndex: number | undefined, exportName: string | undefined, opts: MaterialReadOptions): Promise<OpenedExport> {
  const opened = await sourceProperties(source, opts, { nativeData: materialNativeReader(isMaterialClass) });
  const exports = opened.properties.exports;
  const exp = exportIndex !== undefined ? exports[exportIndex]
    : (exportName !== undefined ? exports.find((e) => e.name === exportName) : undefined) ?? exports.find(isMaterial);
  const path = opened.path;
  if (!exp) {
    if (exportIndex !== undefined) throw new FormatError(path, 'export map', 0, `no export ${exportIndex} (the package has ${exports.length})`);
    throw new FormatError(path, 'export map', 0, `no material (its exports are ${exports.map((e) => `${e.name}: ${e.class}`).join(', ') || 'none'})`);
  }
  if (exp.encoding === 'unversioned' && exp.notes?.some((n) => n.includes('mappings'))) {
    throw new FormatError(path, `export ${exp.index} "${exp.name}"`, 0, 'the package is unversioned: the game\'s mappings (.usmap) are needed to read its material');
  }
  if (exp.errorData && exp.properties.length === 0) throw FormatError.within(null, exp.errorData, 'the property stream stops there, so the material cannot be read');
  const notes = [...opened.warnings];
  if (exp.error) notes.push(`${exp.name}: its properties stop early: ${exp.error}`);
  if (exp.nativeError) notes.push(`${exp.name}: its cached parameters do not read: ${exp.nativeError}`);
  return { exp, exports, path: `${opened.properties.package}.${exp.name}`, notes };
}

/** Export `exportIndex` of `source` (or its first material export) with its parent chain. */
export async function readMaterial(source: AssetSource, exportIndex: number | undefined, opts: MaterialReadOptions = {}): Promise<MaterialAsset> {
  const first = await openShared(source, exportIndex, undefined, opts);
  if (!isMaterial(first.exp)) throw new FormatError('file' in source ? source.file : first.path, `export ${first.exp.index} "${first.exp.name}"`, 0, `a ${first.exp.class}, not a material`);
  const notes = [...first.notes];
  const chain: MaterialLevel[] = [materialLevel(first.exp, first.path, notes, first.exports)];
  const seen = new Set([first.path.toLowerCase()]);
  for (let level = chain[0]!; level.parent !== null;) {
    opts.signal?.throwIfAborted();
    const parent = level.parent;
    if (seen.has(parent.toLowerCase())) {
      notes.push(`the parent chain loops: ${level.name}'s parent ${parent} is already in it`);
      break;
    }
    if (chain.length >= MAX_CHAIN) {
      notes.push(`the parent chain is longer than ${MAX_CHAIN} levels: stopped at ${level.name}`);
      break;
    }
    if (!('packages' in source)) {
      notes.push(`parent ${parent} not followed: open the material in its install to read its parents`);
      break;
    }
    const [pkg, name] = splitObjectPath(parent);
    let opened: OpenedExport;
    try {
      opened = await openShared({ packages: source.packages, ref: pkg }, undefined, name, opts);
    } catch (e) {
      if (!(e instanceof Error)) throw e;
      notes.push(`parent ${parent} does not read: ${e.message}`);
      break;
    }
    if (!isMaterial(opened.exp)) {
      notes.push(`parent ${parent} is a ${opened.exp.class}, not a material`);
      break;
    }
    notes.push(...opened.notes);
    seen.add(parent.toLowerCase());
    seen.add(opened.path.toLowerCase());
    level = materialLevel(opened.exp, opened.path, notes, opened.exports);
    chain.push(level);
  }
  return resolveChain(first.exp.name, first.exp.class, first.path, chain, notes);
}

const KIND_ORDER = ['scalar', 'vector', 'texture', 'switch'];

/** The effective parameters and settings of a chain: the nearest level's value wins. */
export function resolveChain(name: string, cls: string, path: string, chain: MaterialLevel[], notes: string[]): MaterialAsset {
  const byKey = new Map<string, EffectiveParameter>();
  chain.forEach((level, from) => {
    for (const p of level.parameters) {
      const key = `${p.kind}\0${p.name}\0${p.association ?? ''}\0${p.layerIndex ?? ''}`;
      const have = byKey.get(key);
      if (have) (have.overrides ??= []).push({ from, value: p.value });
      else byKey.set(key, { ...p, from, fromPath: level.path });
    }
  });
  const parameters = [...byKey.values()].sort((a, b) => KIND_ORDER.indexOf(a.kind) - KIND_ORDER.indexOf(b.kind) || a.name.localeCompare(b.name));
  const nearest = <K extends 'blendMode' | 'shadingModel' | 'twoSided'>(k: K): MaterialLevel[K] | undefined => chain.find((l) => l[k] !== undefined)?.[k];
  return {
    name, class: cls, path, chain, parameters,
    blendMode: nearest('blendMode') ?? 'BLEND_Opaque',
    shadingModel: nearest('shadingModel') ?? 'MSM_DefaultLit',
    twoSided: nearest('twoSided') ?? false,
    referencedTextures: [...new Set(chain.flatMap((l) => l.referencedTextures))],
    notes,
  };
}

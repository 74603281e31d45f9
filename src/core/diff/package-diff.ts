/**
 * What changed inside one package between two builds: its name map, imports and exports
 * (added, removed, resized), then every property that differs, by its path in the property tree
 * (`Export.Property[.Field...]`), read with the property reader and each side's mappings.
 */
import type { InstallPackages, OpenPackageOptions } from '../package/open-package.js';
import type { PackageModel } from '../package-model.js';
import { installPackageProperties } from '../properties/open.js';
import type { ExportProperties, PropertyEntry, PropertyValue } from '../properties/types.js';
import type { Usmap } from '../usmap/types.js';
import type { PackageChange, PackageDiffJson } from './types.js';

export interface PackageDiffSide {
  packages: InstallPackages;
  /** The build's mappings (.usmap), for unversioned properties. */
  mappings?: Usmap;
}

export interface PackageDiff extends PackageDiffJson {
  /** What the readers could not name or read, each with its side. */
  warnings: string[];
}

/** One side of a compared package: its model and its exports' properties. */
export interface PackageDiffRead {
  model: PackageModel;
  exports: ExportProperties[];
  /** The file as `ls` prints it. */
  path: string;
  warnings: string[];
}

/** Reads one side of a package: its tables and properties (with the side's mappings). */
export async function readPackageSide(side: PackageDiffSide, ref: string, opts: Pick<OpenPackageOptions, 'engine'> = {}): Promise<PackageDiffRead> {
  const opened = await side.packages.open(ref, opts);
  const props = await installPackageProperties(side.packages, ref, { ...opts, ...(side.mappings ? { mappings: side.mappings } : {}) });
  return { model: opened.model, exports: props.properties.exports, path: opened.path, warnings: [...new Set([...opened.warnings, ...props.warnings])] };
}

/** Every difference between two reads of a package: its tables', then its properties'. */
export function packageChanges(a: Pick<PackageDiffRead, 'model' | 'exports'>, b: Pick<PackageDiffRead, 'model' | 'exports'>): PackageChange[] {
  return [...tableChanges(a.model, b.model), ...propertyChanges(a.exports, b.exports)];
}

/** Both sides of the package `ref` (a name, a path as `ls` prints it, a short name or an id), compared. */
export async function diffPackage(
  oldSide: PackageDiffSide, newSide: PackageDiffSide, ref: string, opts: Pick<OpenPackageOptions, 'engine'> = {},
): Promise<PackageDiff> {
  const [a, b] = await Promise.all([readPackageSide(oldSide, ref, opts), readPackageSide(newSide, ref, opts)]);
  return {
    package: b.path,
    changes: packageChanges(a, b),
    warnings: [...a.warnings.map((w) => `old: ${a.path}: ${w}`), ...b.warnings.map((w) => `new: ${b.path}: ${w}`)],
  };
}

/** Names added and removed, imports added and removed (by path), exports added, removed and resized (by path). */
export function tableChanges(a: PackageModel, b: PackageModel): PackageChange[] {
  const out: PackageChange[] = [];
  const setDiff = (where: string, olds: readonly string[], news: readonly string[]): void => {
    const os = new Set(olds), ns = new Set(news);
    for (const x of olds) if (!ns.has(x)) out.push({ where, old: x, new: null });
    for (const x of news) if (!os.has(x)) out.push({ where, old: null, new: x });
  };
  setDiff('names', [...new Set(a.names)], [...new Set(b.names)]);
  setDiff('imports', [...new Set(a.imports.map((i) => i.path))], [...new Set(b.imports.map((i) => i.path))]);
  const shape = (e: PackageModel['exports'][number]) => ({ name: e.name, class: e.class, path: e.path, serialSize: e.serialSize });
  const bExports = new Map(b.exports.map((e) => [e.path, e]));
  const aPaths = new Set(a.exports.map((e) => e.path));
  for (const e of a.exports) {
    const n = bExports.get(e.path);
    if (!n) out.push({ where: 'exports', old: shape(e), new: null });
    else if (n.serialSize !== e.serialSize || n.class !== e.class) out.push({ where: 'exports', old: shape(e), new: shape(n) });
  }
  for (const e of b.exports) if (!aPaths.has(e.path)) out.push({ where: 'exports', old: null, new: shape(e) });
  return out;
}

/** Properties that differ, export by export (matched by name), as `Export.Property[.Field...]`. */
export function propertyChanges(a: readonly ExportProperties[], b: readonly ExportProperties[]): PackageChange[] {
  const out: PackageChange[] = [];
  const bByName = new Map(b.map((e) => [e.name, e]));
  for (const e of a) {
    const n = bByName.get(e.name);
    if (n) diffEntries(e.name, e.properties, n.properties, out);
  }
  return out;
}

/** A property's key in its list: its name, and its index for an element of a static array. */
function entryKey(p: PropertyEntry): string {
  return p.arrayIndex === undefined ? p.name : `${p.name}[${p.arrayIndex}]`;
}

function diffEntries(where: string, a: readonly PropertyEntry[], b: readonly PropertyEntry[], out: PackageChange[]): void {
  const bByKey = new Map(b.map((p) => [entryKey(p), p]));
  const aKeys = new Set<string>();
  for (const p of a) {
    const key = entryKey(p);
    aKeys.add(key);
    const n = bByKey.get(key);
    if (!n) out.push({ where: `${where}.${key}`, old: p.value, new: null });
    else diffValues(`${where}.${key}`, p.value, n.value, out);
  }
  for (const p of b) if (!aKeys.has(entryKey(p))) out.push({ where: `${where}.${entryKey(p)}`, old: null, new: p.value });
}

function diffValues(where: string, a: PropertyValue, b: PropertyValue, out: PackageChange[]): void {
  if (sameValue(a, b)) return;
  if (isEntryList(a) && isEntryList(b)) return diffEntries(where, a, b, out);
  if (isMap(a) && isMap(b)) return diffMaps(where, a, b, out);
  if (Array.isArray(a) && Array.isArray(b) && a.length === b.length && !isEntryList(a) && !isEntryList(b)) {
    a.forEach((x, i) => diffValues(`${where}[${i}]`, x, (b as PropertyValue[])[i]!, out));
    return;
  }
  if (isRecord(a) && isRecord(b)) {
    const keys = new Set([...Object.keys(a), ...Object.keys(b)]);
    if ([...keys].every((k) => k in a && k in b)) {
      for (const k of keys) diffValues(`${where}.${k}`, a[k]!, b[k]!, out);
      return;
    }
  }
  out.push({ where, old: a, new: b });
}

type MapEntry = { key: PropertyValue; value: PropertyValue };

/** Map entries by key: a changed value is followed into, an added or removed key is one change. */
function diffMaps(where: string, a: MapEntry[], b: MapEntry[], out: PackageChange[]): void {
  const label = (k: PropertyValue): string => (typeof k === 'string' || typeof k === 'number' ? String(k) : JSON.stringify(k));
  const bByKey = new Map(b.map((e) => [JSON.stringify(e.key), e]));
  const aKeys = new Set<string>();
  for (const e of a) {
    const k = JSON.stringify(e.key);
    aKeys.add(k);
    const n = bByKey.get(k);
    if (!n) out.push({ where: `${where}[${label(e.key)}]`, old: e.value, new: null });
    else diffValues(`${where}[${label(e.key)}]`, e.value, n.value, out);
  }
  for (const e of b) if (!aKeys.has(JSON.stringify(e.key))) out.push({ where: `${where}[${label(e.key)}]`, old: null, new: e.value });
}

function sameValue(a: PropertyValue, b: PropertyValue): boolean {
  return a === b || JSON.stringify(a) === JSON.stringify(b);
}

function isRecord(v: unknown): v is { [field: string]: PropertyValue } {
  return v !== null && typeof v === 'object' && !Array.isArray(v);
}

function isEntryList(v: PropertyValue): v is PropertyEntry[] {
  return Array.isArray(v) && v.length > 0 && v.every((x) => isRecord(x) && 'name' in x && 'type' in x && 'value' in x);
}

function isMap(v: PropertyValue): v is MapEntry[] {
  return Array.isArray(v) && v.length > 0 && v.every((x) => isRecord(x) && Object.keys(x).length === 2 && 'key' in x && 'value' in x);
}

/**
 * Reading a table export of a package into a GameTable: its properties and native data (through
 * the property reader with the table NativeDataReader), then rows as values, curves as Curve
 * objects. A composite table whose stored rows are empty takes them from its parent tables, in
 * order, a later parent's row replacing an earlier one's (UE6.0 cooks them so).
 */
import { FormatError } from '../../errors.js';
import type { ExportProperties, PropertyEntry, PropertyValue } from '../../properties/types.js';
import type { AssetSource, ConvertOptions } from '../registry.js';
import { curveAssetCurves, curveOf } from './curves.js';
import { CURVE_ASSET_CLASSES, CURVE_TABLE_CLASSES, DATA_TABLE_CLASSES, STRING_TABLE_CLASSES, readTableNative, shortName, type NativeTable, type RawRow } from './native.js';
import type { Curve, CurveTable, DataTable, DataTableRow, GameTable, StringTable } from './types.js';
import { sourceProperties } from '../source-properties.js';

/** Parents of parents are followed this deep (a loop of composites is a bad package). */
const MAX_PARENT_DEPTH = 8;

export interface TableReadOptions extends Pick<ConvertOptions, 'mappings' | 'engine' | 'signal'> {}

/** A row struct's entries as {field: value}; elements of a static array are "Name[i]" from the second. */
export function rowValues(entries: readonly PropertyEntry[]): Record<string, PropertyValue> {
  const values: Record<string, PropertyValue> = {};
  for (const e of entries) values[e.arrayIndex ? `${e.name}[${e.arrayIndex}]` : e.name] = e.value;
  return values;
}

async function packageExports(source: AssetSource, opts: TableReadOptions): Promise<{ path: string; exports: ExportProperties[]; warnings: string[] }> {
  const opened = await sourceProperties(source, opts, { nativeData: readTableNative });
  return { path: opened.path, exports: opened.properties.exports, warnings: opened.warnings };
}

const TABLE_CLASSES: readonly string[] = [...DATA_TABLE_CLASSES, ...STRING_TABLE_CLASSES, ...CURVE_TABLE_CLASSES, ...CURVE_ASSET_CLASSES];
const isTable = (e: ExportProperties): boolean => e.native !== undefined || TABLE_CLASSES.includes(e.class);

/** Export `exportIndex` of `source` (or its first table export) read as a table. */
export async function readTable(source: AssetSource, exportIndex: number | undefined, opts: TableReadOptions = {}, depth = 0): Promise<GameTable> {
  const { path, exports, warnings } = await packageExports(source, opts);
  const exp = exportIndex !== undefined ? exports[exportIndex] : exports.find((e) => isTable(e) || e.nativeError !== undefined);
  if (!exp) {
    if (exportIndex !== undefined) throw new FormatError(path, 'export map', 0, `no export ${exportIndex} (the package has ${exports.length})`);
    throw new FormatError(path, 'export map', 0, `no data table, string table, curve table or curve (its exports are ${exports.map((e) => `${e.name}: ${e.class}`).join(', ') || 'none'})`);
  }
  if (exp.errorData) throw FormatError.within(null, exp.errorData, 'the property stream stops there, so the table cannot be read');
  if (exp.encoding === 'unversioned' && exp.notes?.some((n) => n.includes('mappings'))) {
    throw new FormatError(path, `export ${exp.index} "${exp.name}"`, 0, 'the package is unversioned: the game\'s mappings (.usmap) are needed to read its table');
  }
  if (exp.nativeErrorData) throw FormatError.within(`${exp.class} "${exp.name}"`, exp.nativeErrorData);
  const notes = [...warnings, ...(exp.notes ?? [])];
  if ((CURVE_ASSET_CLASSES as readonly string[]).includes(exp.class)) {
    return { kind: 'Curve', class: exp.class, name: exp.name, rows: curveAssetCurves(exp.class, exp.properties), notes };
  }
  const native = exp.native as NativeTable | undefined;
  if (!native) throw new FormatError(path, `export ${exp.index} "${exp.name}"`, 0, `a ${exp.class}, not a table PakScope reads`);
  const parents = parentPaths(exp.properties);
  if (native.type === 'string') return stringTableOf(exp, native, notes);
  let rows = native.rows;
  if (parents && rows.length === 0 && parents.length > 0) {
    rows = await parentRows(source, parents, native.type, opts, depth, notes);
  }
  if (native.error !== undefined) notes.push(native.error);
  if (native.type === 'curve') {
    const type = native.mode === 'SimpleCurves' ? 'simple' : 'rich';
    const table: CurveTable = {
      kind: 'CurveTable', class: exp.class, name: exp.name, mode: native.mode,
      rows: rows.map((r) => curveOf(r.name, r.entries, (r as ParentRow).curveType ?? type)),
      notes,
    };
    if (parents) table.parents = parents;
    if (native.error !== undefined) table.error = native.error;
    return table;
  }
  const rowStructPath = exp.properties.find((p) => p.name === 'RowStruct')?.value;
  const table: DataTable = {
    kind: 'DataTable', class: exp.class, name: exp.name,
    rowStruct: typeof rowStructPath === 'string' ? shortName(rowStructPath) : '',
    rowStructPath: typeof rowStructPath === 'string' ? rowStructPath : null,
    rows: rows.map((r): DataTableRow => ({ name: r.name, values: rowValues(r.entries) })),
    notes,
  };
  if (parents) table.parents = parents;
  if (native.error !== undefined) table.error = native.error;
  return table;
}

interface ParentRow extends RawRow {
  curveType?: 'rich' | 'simple';
}

function parentPaths(properties: readonly PropertyEntry[]): string[] | undefined {
  const v = properties.find((p) => p.name === 'ParentTables')?.value;
  if (!Array.isArray(v)) return undefined;
  return v.filter((x): x is string => typeof x === 'string');
}

/** The rows of the parent tables in order, a later parent's row replacing an earlier one's. */
async function parentRows(source: AssetSource, parents: readonly string[], type: 'data' | 'curve', opts: TableReadOptions, depth: number, notes: string[]): Promise<ParentRow[]> {
  if (!('packages' in source)) {
    notes.push('a composite table whose rows are its parents\': open it in its install to read them');
    return [];
  }
  if (depth >= MAX_PARENT_DEPTH) throw new FormatError(source.ref, 'composite table', 0, `parent tables nested deeper than ${MAX_PARENT_DEPTH} (a loop?)`);
  const merged = new Map<string, ParentRow>();
  for (const parent of parents) {
    const pkg = parent.includes('.') ? parent.slice(0, parent.lastIndexOf('.')) : parent;
    let table: GameTable;
    try {
      table = await readTable({ packages: source.packages, ref: pkg }, undefined, opts, depth + 1);
    } catch (e) {
      if (!(e instanceof Error)) throw e;
      notes.push(`parent ${parent} does not read: ${e.message}`);
      continue;
    }
    if (type === 'data' && table.kind === 'DataTable') {
      for (const r of table.rows) merged.set(r.name, { name: r.name, entries: Object.entries(r.values).map(([name, value]) => ({ name, type: '', value })) });
    } else if (type === 'curve' && table.kind === 'CurveTable') {
      for (const c of table.rows) merged.set(c.name, { name: c.name, entries: curveEntries(c), curveType: c.type });
    } else {
      notes.push(`parent ${parent} is a ${table.kind}, not a table of this kind`);
    }
  }
  return [...merged.values()];
}

/** A Curve back as struct entries (for a composite's merged rows). */
function curveEntries(c: Curve): PropertyEntry[] {
  const keys = c.keys.map((k) => ({
    Time: k.time, Value: k.value, InterpMode: k.interp ?? c.interp, TangentMode: k.tangentMode ?? 0,
    TangentWeightMode: k.tangentWeightMode ?? 'None', ArriveTangent: k.arriveTangent ?? 0, LeaveTangent: k.leaveTangent ?? 0,
    ArriveTangentWeight: k.arriveTangentWeight ?? 0, LeaveTangentWeight: k.leaveTangentWeight ?? 0,
  }));
  const out: PropertyEntry[] = [
    { name: 'Keys', type: '', value: keys },
    { name: 'PreInfinityExtrap', type: '', value: c.preInfinity },
    { name: 'PostInfinityExtrap', type: '', value: c.postInfinity },
    { name: 'InterpMode', type: '', value: c.interp },
  ];
  if (c.defaultValue !== undefined) out.push({ name: 'DefaultValue', type: '', value: c.defaultValue });
  return out;
}

function stringTableOf(exp: ExportProperties, native: Extract<NativeTable, { type: 'string' }>, notes: string[]): StringTable {
  return {
    kind: 'StringTable', class: exp.class, name: exp.name, namespace: native.namespace,
    entries: native.entries.map((e) => {
      const metadata = native.metadata.get(e.key);
      return metadata && Object.keys(metadata).length > 0 ? { ...e, metadata } : e;
    }),
    notes,
  };
}

/**
 * The JSON `pakscope table --json` prints (and `--format convert` writes as .json):
 *   {"kind":"DataTable","rowStruct","rows":[{"name","values":{field: value}}]}
 *   {"kind":"StringTable","namespace","entries":[{"key","value"}]}
 *   {"kind":"CurveTable"|"Curve","rows":[{"name","interp","keys":[{"time","value"}],"valueAt"}]}
 * valueAt is the curve evaluated at `at`, present only when `at` is given.
 */
import type { PropertyValue } from '../../properties/types.js';
import { curveValueAt } from './curve-eval.js';
import type { GameTable } from './types.js';

export type TableJson =
  | { kind: 'DataTable'; rowStruct: string; rows: { name: string; values: Record<string, PropertyValue> }[] }
  | { kind: 'StringTable'; namespace: string; entries: { key: string; value: string }[] }
  | { kind: 'CurveTable' | 'Curve'; rows: { name: string; interp: string; keys: { time: number; value: number }[]; valueAt?: number }[] };

export function tableJson(table: GameTable, at?: number): TableJson {
  if (table.kind === 'DataTable') return { kind: 'DataTable', rowStruct: table.rowStruct, rows: table.rows.map((r) => ({ name: r.name, values: r.values })) };
  if (table.kind === 'StringTable') return { kind: 'StringTable', namespace: table.namespace, entries: table.entries.map((e) => ({ key: e.key, value: e.value })) };
  return {
    kind: table.kind,
    rows: table.rows.map((c) => ({
      name: c.name, interp: c.interp, keys: c.keys.map((k) => ({ time: k.time, value: k.value })),
      ...(at !== undefined ? { valueAt: curveValueAt(c, at) } : {}),
    })),
  };
}

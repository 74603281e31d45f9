/**
 * Tables as CSV, the way the editor's "Export as CSV" lays them out: a data table has a "---"
 * column of row names and one column per field; a string table Key,SourceString; a curve table
 * (and a curve asset) one row per curve and one column per key time of any curve, each cell the
 * curve evaluated at that time. Cells are written as the editor writes them (cell-text.ts).
 */
import type { PropertyValue } from '../../properties/types.js';
import { cellText } from './cell-text.js';
import { curveValueAt } from './curve-eval.js';
import type { GameTable } from './types.js';

/** One CSV field (RFC 4180: quoted when it holds a comma, quote or line break). */
export function csvField(v: PropertyValue | undefined): string {
  const text = cellText(v);
  return /[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

const line = (cells: readonly (PropertyValue | undefined)[]): string => cells.map(csvField).join(',');

/** The columns of a data table: every field of any row, in the order they first appear. */
export function dataTableColumns(rows: readonly { values: Record<string, PropertyValue> }[]): string[] {
  const seen = new Set<string>();
  for (const r of rows) for (const k of Object.keys(r.values)) seen.add(k);
  return [...seen];
}

/** The table as CSV text (lines end with \r\n, as RFC 4180 and the editor write them). */
export function tableCsv(table: GameTable): string {
  const lines: string[] = [];
  if (table.kind === 'DataTable') {
    const columns = dataTableColumns(table.rows);
    lines.push(line(['---', ...columns]));
    for (const r of table.rows) lines.push(line([r.name, ...columns.map((c) => r.values[c])]));
  } else if (table.kind === 'StringTable') {
    lines.push(line(['Key', 'SourceString']));
    for (const e of table.entries) lines.push(line([e.key, e.value]));
  } else {
    const times = [...new Set(table.rows.flatMap((c) => c.keys.map((k) => k.time)))].sort((a, b) => a - b);
    lines.push(line(['---', ...times]));
    for (const c of table.rows) lines.push(line([c.name, ...times.map((t) => curveValueAt(c, t))]));
  }
  return lines.map((l) => `${l}\r\n`).join('');
}

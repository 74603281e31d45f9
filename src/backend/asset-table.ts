/**
 * The table view: a data table, string table, curve table or curve (core/assets/table, the
 * registry's "table" view) as columns and rows of cells, with its CSV and JSON for Save and Copy.
 */
import { cellText } from '../core/assets/table/cell-text.js';
import { dataTableColumns, tableCsv } from '../core/assets/table/csv.js';
import { evaluateCurve } from '../core/assets/table/curve-eval.js';
import { tableJson } from '../core/assets/table/json.js';
import { readTable } from '../core/assets/table/read.js';
import type { GameTable } from '../core/assets/table/types.js';
import type { InstallPackages } from '../core/package/open-package.js';
import type { PropertyEntry, PropertyValue } from '../core/properties/types.js';
import type { Usmap } from '../core/usmap/types.js';
import type { AssetTable, AssetTableRequest } from '../shared/asset-api.js';
import { packageAssets } from './assets.js';
import type { PackageService } from './packages.js';
import { RequestError } from './request-error.js';

type Cell = string | number | null;

const isEntryList = (v: PropertyValue | undefined): v is PropertyEntry[] =>
  Array.isArray(v) && v.length > 0 && v.every((x) => x !== null && typeof x === 'object' && !Array.isArray(x) && 'name' in x && 'type' in x && 'value' in x);

/** A data table field split into its struct's fields (one level), or kept whole. */
interface Column { field: string; sub?: string }

/**
 * The columns of a data table: one per field, or with `flatten` one per field of each struct
 * field (a field whose every value is a struct), named "Field.Sub".
 */
function dataColumns(rows: readonly { values: Record<string, PropertyValue> }[], fields: readonly string[], flatten: boolean): Column[] {
  const out: Column[] = [];
  for (const field of fields) {
    const values = rows.map((r) => r.values[field]).filter((v) => v !== undefined);
    if (!flatten || values.length === 0 || !values.every(isEntryList)) {
      out.push({ field });
      continue;
    }
    const subs: string[] = [];
    for (const v of values) for (const e of v) if (!subs.includes(e.name)) subs.push(e.name);
    for (const sub of subs) out.push({ field, sub });
  }
  return out;
}

function columnValue(values: Record<string, PropertyValue>, c: Column): PropertyValue | undefined {
  const v = values[c.field];
  if (c.sub === undefined) return v;
  return isEntryList(v) ? v.find((e) => e.name === c.sub)?.value : undefined;
}

/** How many fields of the table are structs (what flattening would split). */
function structFields(rows: readonly { values: Record<string, PropertyValue> }[], fields: readonly string[]): number {
  return fields.filter((f) => {
    const values = rows.map((r) => r.values[f]).filter((v) => v !== undefined);
    return values.length > 0 && values.every(isEntryList);
  }).length;
}

/** An object path a cell may hold ("/Game/A/B.B", "/Game/A/B.B:Sub"), not a script class. */
const OBJECT_PATH = /^\/(?!Script\/)[^\s'"(),]+$/;

/** Cell texts that name a package the install holds -> its tree path (the view shows them as links). */
export function cellLinks(rows: readonly Cell[][], packages: InstallPackages): Record<string, string> {
  const links: Record<string, string> = Object.create(null) as Record<string, string>;
  const tried = new Set<string>();
  for (const row of rows) {
    for (const c of row) {
      if (typeof c !== 'string' || tried.has(c) || !OBJECT_PATH.test(c)) continue;
      tried.add(c);
      const dot = c.indexOf('.');
      const path = packages.index.byPackageName(dot < 0 ? c : c.slice(0, dot))?.file.path;
      if (path !== undefined) links[c] = path;
    }
  }
  return links;
}

/** Numbers stay numbers (sorted as numbers); everything else is its text as the CSV writes it. */
const cell = (v: PropertyValue | undefined): Cell => (v === undefined ? null : typeof v === 'number' ? v : cellText(v));

function layout(t: GameTable, flatten: boolean): Pick<AssetTable, 'columns' | 'rows' | 'summary' | 'structFields'> {
  if (t.kind === 'DataTable') {
    const fields = dataTableColumns(t.rows);
    const cols = dataColumns(t.rows, fields, flatten);
    const numeric = cols.map((c) => t.rows.every((r) => { const v = columnValue(r.values, c); return v === undefined || typeof v === 'number'; }));
    return {
      summary: `${t.rows.length} row${t.rows.length === 1 ? '' : 's'} of ${t.rowStruct}${t.parents ? ` · parents ${t.parents.map((p) => p.slice(p.lastIndexOf('.') + 1)).join(', ')}` : ''}`,
      columns: [{ key: 'row', label: 'Row' }, ...cols.map((c, i) => {
        const label = c.sub === undefined ? c.field : `${c.field}.${c.sub}`;
        return { key: `f:${label}`, label, ...(numeric[i] ? { numeric: true } : {}) };
      })],
      rows: t.rows.map((r) => [r.name, ...cols.map((c) => cell(columnValue(r.values, c)))]),
      structFields: structFields(t.rows, fields),
    };
  }
  if (t.kind === 'StringTable') {
    return {
      summary: `namespace ${t.namespace} · ${t.entries.length} entr${t.entries.length === 1 ? 'y' : 'ies'}`,
      columns: [{ key: 'key', label: 'Key' }, { key: 'text', label: 'Source string' }],
      rows: t.entries.map((e) => [e.key, e.value]),
    };
  }
  return {
    summary: `${t.rows.length} curve${t.rows.length === 1 ? '' : 's'}${t.mode ? ` · ${t.mode}` : ''}`,
    columns: [{ key: 'curve', label: 'Curve' }, { key: 'interp', label: 'Interpolation' }, { key: 'count', label: 'Keys', numeric: true },
      { key: 'pre', label: 'Pre-infinity' }, { key: 'post', label: 'Post-infinity' }, { key: 'keys', label: 'Keys (time: value)' }],
    rows: t.rows.map((c) => [c.name, c.interp, c.keys.length, c.preInfinity, c.postInfinity, c.keys.map((k) => `${k.time}: ${k.value}`).join(', ')]),
  };
}

/** Points each curve is drawn with. */
const SAMPLES = 240;

/** Every curve evaluated over the keys' time range of all curves, a tenth past each end (extrapolation shows). */
function curveSamples(t: GameTable): AssetTable['curves'] {
  if (t.kind !== 'CurveTable' && t.kind !== 'Curve') return undefined;
  const times = t.rows.flatMap((c) => c.keys.map((k) => k.time));
  let lo = times.length ? Math.min(...times) : 0, hi = times.length ? Math.max(...times) : 1;
  if (hi - lo < 1e-6) { lo -= 1; hi += 1; }
  const pad = (hi - lo) / 10;
  lo -= pad; hi += pad;
  return t.rows.map((c) => ({
    name: c.name,
    keys: c.keys.map((k): [number, number] => [k.time, k.value]),
    samples: Array.from({ length: SAMPLES + 1 }, (_, i): [number, number] => {
      const time = lo + ((hi - lo) * i) / SAMPLES;
      return [time, evaluateCurve(c, time)];
    }),
  }));
}

export async function readAssetTable(packages: InstallPackages, service: PackageService, req: AssetTableRequest, mappings: Usmap | undefined): Promise<AssetTable> {
  const loc = service.locate(packages, req.path);
  const engine = req.engine?.trim() || undefined;
  const { model } = await packages.open(loc, engine !== undefined ? { engine } : {});
  const tables = packageAssets(model).filter((a) => a.view === 'table');
  const asset = req.exportIndex !== undefined ? tables.find((a) => a.exportIndex === req.exportIndex) : tables[0];
  if (!asset) {
    throw new RequestError(req.exportIndex !== undefined ? `${req.path}: export ${req.exportIndex} is not a table` : `${req.path}: no export of this package is a table`);
  }
  const t = await readTable({ packages, ref: loc.path }, asset.exportIndex, {
    ...(mappings ? { mappings } : {}), ...(engine !== undefined ? { engine } : {}),
  });
  const shape = layout(t, req.flatten === true);
  const links = cellLinks(shape.rows, packages);
  return {
    path: loc.path, exportIndex: asset.exportIndex, kind: t.kind, name: t.name, class: t.class,
    ...shape, ...(Object.keys(links).length ? { links } : {}), csv: tableCsv(t), json: `${JSON.stringify(tableJson(t), null, 2)}\n`, notes: t.notes,
    ...(t.kind === 'CurveTable' || t.kind === 'Curve' ? { curves: curveSamples(t) } : {}),
  };
}

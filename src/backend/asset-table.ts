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
import type { PropertyValue } from '../core/properties/types.js';
import type { Usmap } from '../core/usmap/types.js';
import type { AssetRequest, AssetTable } from '../shared/asset-api.js';
import { packageAssets } from './assets.js';
import type { PackageService } from './packages.js';
import { RequestError } from './request-error.js';

type Cell = string | number | null;

/** Numbers stay numbers (sorted as numbers); everything else is its text as the CSV writes it. */
const cell = (v: PropertyValue | undefined): Cell => (v === undefined ? null : typeof v === 'number' ? v : cellText(v));

function layout(t: GameTable): Pick<AssetTable, 'columns' | 'rows' | 'summary'> {
  if (t.kind === 'DataTable') {
    const fields = dataTableColumns(t.rows);
    const numeric = fields.map((f) => t.rows.every((r) => r.values[f] === undefined || typeof r.values[f] === 'number'));
    return {
      summary: `${t.rows.length} row${t.rows.length === 1 ? '' : 's'} of ${t.rowStruct}${t.parents ? ` · parents ${t.parents.map((p) => p.slice(p.lastIndexOf('.') + 1)).join(', ')}` : ''}`,
      columns: [{ key: 'row', label: 'Row' }, ...fields.map((f, i) => ({ key: `f:${f}`, label: f, ...(numeric[i] ? { numeric: true } : {}) }))],
      rows: t.rows.map((r) => [r.name, ...fields.map((f) => cell(r.values[f]))]),
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

export async function readAssetTable(packages: InstallPackages, service: PackageService, req: AssetRequest, mappings: Usmap | undefined): Promise<AssetTable> {
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
  return {
    path: loc.path, exportIndex: asset.exportIndex, kind: t.kind, name: t.name, class: t.class,
    ...layout(t), csv: tableCsv(t), json: `${JSON.stringify(tableJson(t), null, 2)}\n`, notes: t.notes,
    ...(t.kind === 'CurveTable' || t.kind === 'Curve' ? { curves: curveSamples(t) } : {}),
  };
}

/**
 * The table kind in the converter registry: data tables, string tables, curve tables and curve
 * assets; the app's table view; CSV files (and JSON as `pakscope table --json` prints it).
 */
import { registerAssetKind, type AssetKind } from '../registry.js';
import { tableCsv } from './csv.js';
import { tableJson } from './json.js';
import { CURVE_ASSET_CLASSES, CURVE_TABLE_CLASSES, DATA_TABLE_CLASSES, STRING_TABLE_CLASSES } from './native.js';
import { readTable } from './read.js';

export const TABLE_CONVERSIONS = ['csv', 'json'] as const;

export const tableKind: AssetKind = {
  kind: 'table',
  view: 'table',
  classes: [...DATA_TABLE_CLASSES, ...STRING_TABLE_CLASSES, ...CURVE_TABLE_CLASSES, ...CURVE_ASSET_CLASSES],
  converts: TABLE_CONVERSIONS,
  async convert(source, exportIndex, extension, opts) {
    const table = await readTable(source, exportIndex, opts);
    const text = extension === 'json' ? `${JSON.stringify(tableJson(table))}\n` : tableCsv(table);
    return [{ suffix: '', extension: extension ?? 'csv', data: new TextEncoder().encode(text) }];
  },
};

registerAssetKind(tableKind);

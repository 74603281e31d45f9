/**
 * `pakscope table <path> [package]`: a data table, string table, curve table or curve asset as a
 * table (core/assets/table), as text, JSON or CSV; curves evaluated at --at TIME. The package's
 * table export is found through the converter registry, as `extract --format convert` finds it.
 */
import { convertibleExports } from '../../core/assets/index.js';
import type { ConvertOptions } from '../../core/assets/registry.js';
import { dataTableColumns, tableCsv } from '../../core/assets/table/csv.js';
import { cellText } from '../../core/assets/table/cell-text.js';
import { curveValueAt } from '../../core/assets/table/curve-eval.js';
import { tableJson } from '../../core/assets/table/json.js';
import { readTable } from '../../core/assets/table/read.js';
import type { GameTable } from '../../core/assets/table/types.js';
import type { PackageModel } from '../../core/package-model.js';
import { JSON_OPTION, type Command, type OptionValues, USMAP_OPTION } from '../command.js';
import { EXIT_BAD_INPUT, type Session } from '../session.js';
import { withAssetPackage } from '../asset-package.js';
import { UsageError } from '../usage-error.js';
import { ENGINE_OPTION, packageOptions } from './info.js';
import { loadMappings } from './props.js';

export const tableCommand: Command = {
  name: 'table',
  args: '<path> [package]',
  summary: 'Print a data table, string table, curve table or curve as a table',
  description: [
    'Reads the table of a package file (<path> alone: .uasset with its .uexp beside it) or of a',
    'package inside the containers and folders of <path> (named as info names it): DataTable and',
    'CompositeDataTable (rows of the row struct), StringTable (namespace, keys and source',
    'strings), CurveTable and CompositeCurveTable (simple and rich curves), CurveFloat,',
    'CurveVector and CurveLinearColor (one row per curve). A composite table with no rows of its',
    'own takes its parents\' rows in order, a later parent replacing a row of an earlier one.',
    'Unversioned packages need --usmap FILE, as props does.',
    '',
    '--json prints {"kind":"DataTable","rowStruct","rows":[{"name","values":{field: value}}]}',
    'with values as props --json encodes them and fields named as the row struct stores them;',
    '{"kind":"StringTable","namespace","entries":[{"key","value"}]}; or {"kind":"CurveTable"|',
    '"Curve","rows":[{"name","interp","keys":[{"time","value"}],"valueAt"}]}, valueAt being the',
    'curve evaluated at --at TIME as the engine evaluates it (constant, linear, cubic keys,',
    'pre- and post-infinity extrapolation), present only with --at. --csv prints the table as',
    'the editor exports it (a curve table: one column per key time).',
  ].join('\n'),
  examples: [
    'pakscope table Paks /Game/Data/DT_Weapons --usmap Game.usmap --csv',
    'pakscope table Paks /Game/Data/CT_Damage --at 2.5 --json',
    'pakscope table Content/Data/ST_Menu.uasset',
  ],
  options: {
    csv: { type: 'boolean', usage: '--csv', help: 'Print the table as CSV.' },
    at: { type: 'string', usage: '--at TIME', help: 'Evaluate each curve at TIME (a number).' },
    usmap: USMAP_OPTION,
    engine: ENGINE_OPTION,
    json: JSON_OPTION,
  },
  positionals: { min: 1, max: 2 },

  async run(session, args, values) {
    const at = timeOption(values);
    const csv = values['csv'] === true;
    if (csv && session.json) throw new UsageError('--csv and --json print different things: give one', 'table');
    const opts: ConvertOptions = { ...packageOptions(values), ...(await loadMappings(values, 'table')) };
    const table = await withAssetPackage(session, args, opts, 'table', ({ source, model, path }) => readTable(source, tableExport(model, path), opts));
    if (!table) return;
    const rowsError = table.kind === 'StringTable' ? undefined : table.error;
    for (const n of table.notes) if (n !== rowsError) session.out.note(`note: ${n}`);
    // Rows that stop early: the ones read are printed, the reason named, exit 2.
    if (rowsError !== undefined) {
      session.out.warn(rowsError);
      session.fail(EXIT_BAD_INPUT);
    }
    if (session.json) await session.out.line(JSON.stringify(tableJson(table, at)));
    else if (csv) await session.out.line(tableCsv(table).replace(/\r\n$/, '').replace(/\r\n/g, '\n'));
    else await printTable(session, table, at);
  },
};

/** The package's table export, found by the registry (the first export the table kind converts). */
function tableExport(model: PackageModel, path: string): number {
  const found = convertibleExports(model).find((e) => e.kind.kind === 'table');
  if (found) return found.index;
  const classes = [...new Set(model.exports.map((e) => e.class))].join(', ');
  throw new UsageError(`${path} holds no data table, string table, curve table or curve (its exports are ${classes || 'none'})`, 'table');
}

function timeOption(values: OptionValues): number | undefined {
  const v = values['at'];
  if (v === undefined) return undefined;
  const text = String(v).trim();
  const n = Number(text);
  if (text === '' || !Number.isFinite(n)) throw new UsageError(`--at takes a time (a number such as 2.5), not "${String(v)}"`, 'table');
  return n;
}

async function printTable(session: Session, t: GameTable, at: number | undefined): Promise<void> {
  const out = session.out;
  if (t.kind === 'DataTable') {
    await out.line(`${t.name} (${t.class}): ${t.rows.length} rows of ${t.rowStruct}${t.parents ? `, parents ${t.parents.join(', ')}` : ''}`);
    const columns = dataTableColumns(t.rows);
    for (const r of t.rows) {
      await out.line(r.name);
      for (const c of columns) await out.line(`  ${c} = ${cellText(r.values[c])}`);
    }
  } else if (t.kind === 'StringTable') {
    await out.line(`${t.name} (${t.class}): namespace ${t.namespace}, ${t.entries.length} entries`);
    for (const e of t.entries) await out.line(`  ${e.key} = ${JSON.stringify(e.value)}`);
  } else {
    await out.line(`${t.name} (${t.class}): ${t.rows.length} curves${t.mode ? `, ${t.mode}` : ''}${t.parents ? `, parents ${t.parents.join(', ')}` : ''}`);
    for (const c of t.rows) {
      const value = at !== undefined ? ` = ${curveValueAt(c, at)} at ${at}` : '';
      await out.line(`${c.name} (${c.interp}, pre ${c.preInfinity}, post ${c.postInfinity})${value}`);
      for (const k of c.keys) await out.line(`  ${k.time}: ${k.value}${k.interp && c.interp === 'Mixed' ? ` ${k.interp}` : ''}`);
    }
  }
}

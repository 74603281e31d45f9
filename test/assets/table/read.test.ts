/**
 * Data tables, string tables, curve tables and curve assets of the cue58 fixtures, in every
 * container and serialization (IoStore and legacy pak, tagged and unversioned with the fixture
 * mappings), against cue58/manifest.json's expectedValues and the values CUE4Parse's fixture tests
 * assert (FixtureStructuredAssetTests.cs).
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { assetKindOf } from '../../../src/core/assets/index.js';
import { curveValueAt } from '../../../src/core/assets/table/curve-eval.js';
import { tableJson } from '../../../src/core/assets/table/json.js';
import { readTable } from '../../../src/core/assets/table/read.js';
import type { CurveTable, DataTable, GameTable, StringTable } from '../../../src/core/assets/table/types.js';
import { parseUsmap } from '../../../src/core/usmap/parse.js';
import type { Usmap } from '../../../src/core/usmap/types.js';
import { withInstall } from '../../properties/helpers.js';
import { corpus, loadCorpus } from '../../support/corpus.js';

const manifest = JSON.parse(readFileSync(corpus('cue58/manifest.json'), 'utf8')) as {
  expectedValues: { dataTable: Record<string, { number: number | string; largeNumber: string; message: string; enum: string; values: number[] }> & { rowNames: string[] } };
};
const mappings: Usmap = parseUsmap(loadCorpus('cue58/Mappings/CUE4ParseFixtures-Uncompressed.usmap'), 'CUE4ParseFixtures-Uncompressed.usmap');

const VARIANTS: [string, string, Usmap | undefined][] = [
  ['IoStore tagged', 'cue58/IoStore/Tagged/Uncompressed', undefined],
  ['IoStore unversioned', 'cue58/IoStore/Unversioned/Zlib', mappings],
];
/** The legacy paks hold DT_AllProperties only (as .uasset and .uexp). */
const LEGACY: [string, string, Usmap | undefined][] = [
  ['tagged', 'cue58/LegacyPak/Tagged/Zlib', undefined],
  ['unversioned', 'cue58/LegacyPak/Unversioned/Zlib', mappings],
];

function expectAllProperties(t: DataTable): void {
  const expected = manifest.expectedValues.dataTable;
  expect(t.kind).toBe('DataTable');
  expect(t.rowStruct).toBe('FixtureTableRow');
  expect(t.rows.map((r) => r.name)).toEqual(expected.rowNames);
  for (const row of t.rows) {
    const e = expected[row.name]!;
    expect(asBig(row.values['Number'] ?? 0)).toBe(num(e.number));
    expect(asBig(row.values['LargeNumber'] ?? 0)).toBe(num(e.largeNumber));
    expect(row.values['Message'] ?? '').toBe(e.message);
    expect(String(row.values['Kind'] ?? 'None').replace(/^.*::/, '')).toBe(e.enum);
    expect(row.values['Values'] ?? []).toEqual(e.values);
  }
  const nested = t.rows[1]!.values['Nested'] as { name: string; value: unknown }[];
  expect(Object.fromEntries(nested.map((n) => [n.name, n.value]))).toMatchObject({
    Marker: -202, Label: 'NestedBeta', Position: { X: -10, Y: 20, Z: -30 }, bEnabled: false,
  });
}

async function tables(root: string, usmap: Usmap | undefined, names: string[]): Promise<Map<string, GameTable>> {
  return withInstall(corpus(root), async (packages) => {
    const out = new Map<string, GameTable>();
    for (const n of names) out.set(n.slice(n.lastIndexOf('/') + 1), await readTable({ packages, ref: `/Game/Fixtures/${n}` }, undefined, usmap ? { mappings: usmap } : {}));
    return out;
  });
}

/** The manifest writes int32 and int64 values as hex strings ("0x12345678") or numbers. */
const num = (v: number | string): bigint => BigInt(v);
const asBig = (v: unknown): bigint => BigInt(v as number | string);

describe.each(VARIANTS)('tables of the %s fixtures', (_label, root, usmap) => {
  let read: Map<string, GameTable>;
  const get = async <T extends GameTable>(name: string): Promise<T> => {
    read ??= await tables(root, usmap, [
      'DataTables/DT_AllProperties', 'DataTables/DT_Composite', 'DataTables/DT_Overrides', 'StringTables/ST_Fixed',
      'Curves/CT_Simple', 'Curves/CT_Rich', 'Curves/CT_Composite', 'Curves/CT_SimpleOverrides',
      'Curves/Curve_Float', 'Curves/Curve_Vector', 'Curves/Curve_LinearColor',
    ]);
    return read.get(name) as T;
  };

  it('reads DT_AllProperties: the manifest\'s rows and values, and the nested struct CUE4Parse checks', async () => {
    expectAllProperties(await get<DataTable>('DT_AllProperties'));
  });

  it('reads DT_Overrides and DT_Composite: Beta overridden, Gamma added, parents in order', async () => {
    const o = await get<DataTable>('DT_Overrides');
    expect(o.rows.map((r) => r.name).sort()).toEqual(['Beta', 'Gamma']);
    expect(o.rows.find((r) => r.name === 'Beta')!.values['Number']).toBe(8080);
    const c = await get<DataTable>('DT_Composite');
    expect(c.class).toBe('CompositeDataTable');
    expect(c.parents).toEqual(['/Game/Fixtures/DataTables/DT_AllProperties.DT_AllProperties', '/Game/Fixtures/DataTables/DT_Overrides.DT_Overrides']);
    expect(c.rows.map((r) => r.name).sort()).toEqual(['Alpha', 'Beta', 'Defaults', 'Gamma']);
    const row = (n: string) => c.rows.find((r) => r.name === n)!.values;
    expect(row('Alpha')['Number']).toBe(0x12345678);
    expect(row('Beta')['Number']).toBe(8080);
    expect(row('Beta')['Message']).toBe('Composite override');
    expect(String(row('Beta')['Kind'])).toMatch(/Maximum$/);
    expect(row('Gamma')['LargeNumber']).toBe(303030303030);
    expect(row('Gamma')['Values']).toEqual([3, 0, 3]);
  });

  it('reads ST_Fixed: its namespace, the greeting, the Unicode entry and the empty one', async () => {
    const t = await get<StringTable>('ST_Fixed');
    expect(t.namespace).toBe('CUE4ParseFixtures.StringTable');
    expect(t.entries).toHaveLength(3);
    const value = (k: string) => t.entries.find((e) => e.key === k)?.value;
    expect(value('Greeting')).toBe('Hello from Frankfurt');
    expect(value('Unicode')).toBe('Fixture 日本語 Ω äöü');
    expect(value('Empty')).toBe('');
  });

  it('reads and evaluates CT_Simple, CT_Rich, CT_SimpleOverrides and CT_Composite at CUE4Parse\'s times', async () => {
    const curve = (t: CurveTable, n: string) => t.rows.find((r) => r.name === n)!;
    const simple = await get<CurveTable>('CT_Simple');
    expect(simple.mode).toBe('SimpleCurves');
    expect(simple.rows.map((r) => r.name).sort()).toEqual(['Constant', 'Linear']);
    const linear = curve(simple, 'Linear');
    expect(curveValueAt(linear, 1)).toBe(10);
    // The cooker drops the collinear middle key.
    expect(linear.keys.map((k) => k.time)).toEqual([-1, 2]);
    expect(linear.keys.map((k) => k.value)).toEqual([-10, 20]);
    expect(curveValueAt(curve(simple, 'Constant'), 0.5)).toBe(5);

    const rich = await get<CurveTable>('CT_Rich');
    expect(rich.mode).toBe('RichCurves');
    const cubic = curve(rich, 'Cubic');
    expect([cubic.preInfinity, cubic.postInfinity]).toEqual(['Linear', 'CycleWithOffset']);
    expect(cubic.keys).toHaveLength(3);
    expect(cubic.keys[0]).toMatchObject({ interp: 'Cubic', tangentMode: 1, arriveTangent: -1.5, leaveTangent: 2.25 });

    const overrides = await get<CurveTable>('CT_SimpleOverrides');
    expect(overrides.rows.map((r) => r.name).sort()).toEqual(['CompositeOnly', 'Linear']);
    expect(curveValueAt(curve(overrides, 'Linear'), 1)).toBe(300);

    const composite = await get<CurveTable>('CT_Composite');
    expect(composite.parents).toEqual(['/Game/Fixtures/Curves/CT_Simple.CT_Simple', '/Game/Fixtures/Curves/CT_SimpleOverrides.CT_SimpleOverrides']);
    expect(composite.rows.map((r) => r.name).sort()).toEqual(['CompositeOnly', 'Constant', 'Linear']);
    expect(curveValueAt(curve(composite, 'Linear'), 1)).toBe(300);
    expect(curveValueAt(curve(composite, 'CompositeOnly'), 2.5)).toBe(-25);
  });

  it('reads the curve assets: one row per curve, evaluated as CUE4Parse\'s tests evaluate them', async () => {
    const f = await get<CurveTable>('Curve_Float');
    expect(f.kind).toBe('Curve');
    expect(f.rows).toHaveLength(1);
    expect(f.rows[0]!.keys.map((k) => k.time)).toEqual([-2, 0, 3]);
    expect(f.rows[0]!.keys.map((k) => k.value)).toEqual([-4, 2, 11]);
    expect(curveValueAt(f.rows[0]!, -3)).toBe(-7);
    const v = await get<CurveTable>('Curve_Vector');
    expect(v.rows.map((c) => c.name)).toEqual(['X', 'Y', 'Z']);
    expect(v.rows.map((c) => curveValueAt(c, 1))).toEqual([5.5, 11, 16.5]);
    const c = await get<CurveTable>('Curve_LinearColor');
    expect(c.rows.map((x) => x.name)).toEqual(['R', 'G', 'B', 'A']);
    expect(c.rows.map((x) => curveValueAt(x, 0.5))).toEqual([1, 0.875, 0.75, 0.625]);
  });
});

describe.each(LEGACY)('DT_AllProperties of the %s legacy pak', (_label, root, usmap) => {
  it('reads the manifest\'s rows and values from the .uasset and .uexp', async () => {
    const t = (await tables(root, usmap, ['DataTables/DT_AllProperties'])).get('DT_AllProperties') as DataTable;
    expectAllProperties(t);
  });
});

describe('table bad input', () => {
  it('an unversioned table without mappings says the mappings are needed', async () => {
    await withInstall(corpus('cue58/IoStore/Unversioned/Zlib'), async (packages) => {
      await expect(readTable({ packages, ref: '/Game/Fixtures/DataTables/DT_AllProperties' }, undefined, {})).rejects.toThrow(/mappings \(\.usmap\) are needed/);
    });
  });

  // A row struct the mappings lack: missing-schema.test.ts.

  it('the registry offers the table view and CSV for every table class, and nothing for a texture', () => {
    for (const c of ['DataTable', 'CompositeDataTable', 'StringTable', 'CurveTable', 'CompositeCurveTable', 'CurveFloat', 'CurveVector', 'CurveLinearColor']) {
      expect(assetKindOf(c)?.view).toBe('table');
      expect(assetKindOf(c)?.converts[0]).toBe('csv');
    }
    expect(assetKindOf('Texture2D')?.kind).toBe('texture');
  });
});

describe('unversioned with the mappings gives the same tables as tagged', () => {
  it('every table and curve of the IoStore fixtures, as `table --json` prints it', async () => {
    const names = ['DataTables/DT_AllProperties', 'DataTables/DT_Composite', 'DataTables/DT_Overrides', 'StringTables/ST_Fixed', 'Curves/CT_Simple', 'Curves/CT_Rich', 'Curves/CT_Composite', 'Curves/Curve_Float', 'Curves/Curve_Vector', 'Curves/Curve_LinearColor'];
    const tagged = await tables('cue58/IoStore/Tagged/Uncompressed', undefined, names);
    const unversioned = await tables('cue58/IoStore/Unversioned/Zlib', mappings, names);
    for (const [name, t] of tagged) expect(tableJson(unversioned.get(name)!, 1.5), name).toEqual(tableJson(t, 1.5));
  });
});

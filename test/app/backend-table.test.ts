/**
 * The table view's API: a data table, string table and curve table of the cue58 IoStore fixtures
 * offered as "table" previews, and assetTable giving columns, rows and the CSV (values from
 * cue58/manifest.json and CUE4Parse's FixtureStructuredAssetTests.cs).
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { Backend } from '../../src/backend/backend.js';
import { ApiValidationError, validateRequest } from '../../src/shared/api.js';
import { useBackend } from '../support/backend-session.js';
import { corpus } from '../support/corpus.js';

const FIXTURES = 'CUE4ParseFixtures/Content/Fixtures';
const session = useBackend(corpus('cue58/IoStore/Tagged/Uncompressed'), 'pakscope-table-');
let backend: Backend, installId: string;
beforeAll(() => ({ backend, installId } = session));

describe('assetTable', () => {
  it('offers DT_AllProperties as a table: one column per field, numbers as numbers, its CSV', async () => {
    const path = `${FIXTURES}/DataTables/DT_AllProperties.uasset`;
    const view = await backend.openPackage({ installId, path });
    expect(view.assets.map((a) => [a.view, a.kind, a.class])).toEqual([['table', 'table', 'DataTable']]);
    const t = await backend.assetTable({ installId, path });
    expect([t.kind, t.name, t.summary]).toEqual(['DataTable', 'DT_AllProperties', '3 rows of FixtureTableRow']);
    expect(t.columns.map((c) => c.label)).toEqual(['Row', 'Number', 'LargeNumber', 'Message', 'Kind', 'Nested', 'Values']);
    expect(t.columns[1]!.numeric).toBe(true);
    expect(t.rows.map((r) => [r[0], r[1]])).toEqual([['Alpha', 0x12345678], ['Beta', -202020], ['Defaults', 0]]);
    expect(t.rows[0]![6]).toBe('(11,22,33,44)');
    expect(t.csv.split('\r\n')[0]).toBe('---,Number,LargeNumber,Message,Kind,Nested,Values');
    expect(JSON.parse(t.json).rows[1].values.Message).toBe('Beta_ß_水_🚀');
  });

  it('a string table and a curve table, and a package with no table refused', async () => {
    const st = await backend.assetTable({ installId, path: `${FIXTURES}/StringTables/ST_Fixed.uasset` });
    expect(st.rows).toEqual([['Greeting', 'Hello from Frankfurt'], ['Unicode', 'Fixture 日本語 Ω äöü'], ['Empty', '']]);
    const ct = await backend.assetTable({ installId, path: `${FIXTURES}/Curves/CT_Simple.uasset` });
    expect(ct.rows.map((r) => [r[0], r[1], r[5]])).toEqual([['Linear', 'Linear', '-1: -10, 2: 20'], ['Constant', 'Constant', '0: 5, 1: 15, 3: -5']]);
    // The plot's points: each curve's keys, and samples from a tenth before the first key to a tenth after the last.
    expect(ct.curves!.map((c) => [c.name, c.keys])).toEqual([['Linear', [[-1, -10], [2, 20]]], ['Constant', [[0, 5], [1, 15], [3, -5]]]]);
    const linear = ct.curves![0]!.samples;
    expect([linear[0]![0], linear.at(-1)![0]]).toEqual([-1.4, 3.4]);
    // Linear holds -10 before -1 and 20 after 2 (constant extrapolation) and lerps between.
    for (const [t, v] of linear) expect(v).toBeCloseTo(-10 + (Math.min(2, Math.max(-1, t)) + 1) * 10, 4);
    expect(st.curves).toBeUndefined();
    await expect(backend.assetTable({ installId, path: `${FIXTURES}/Textures/T_BC1.uasset` })).rejects.toThrow(/no export of this package is a table/);
    expect(() => validateRequest('assetTable', { installId, path: 1 })).toThrow(ApiValidationError);
  });
});

describe('assetTable: struct fields flattened, object references linked', () => {
  it('flatten splits DT_AllProperties\' Nested into a column per field (values of cue58/manifest.json and FixtureStructuredAssetTests.cs)', async () => {
    const path = `${FIXTURES}/DataTables/DT_AllProperties.uasset`;
    const whole = await backend.assetTable({ installId, path });
    expect(whole.structFields).toBe(1);
    const flat = await backend.assetTable({ installId, path, flatten: true });
    const labels = flat.columns.map((c) => c.label);
    expect(labels.slice(0, 5)).toEqual(['Row', 'Number', 'LargeNumber', 'Message', 'Kind']);
    expect(labels).toEqual(expect.arrayContaining(['Nested.Marker', 'Nested.Label', 'Nested.Position', 'Nested.bEnabled', 'Values']));
    expect(labels).not.toContain('Nested');
    const beta = flat.rows.find((r) => r[0] === 'Beta')!;
    const at = (label: string) => beta[labels.indexOf(label)];
    expect([at('Nested.Marker'), at('Nested.Label'), at('Nested.bEnabled')]).toEqual([-202, 'NestedBeta', 'False']);
    expect(flat.columns[labels.indexOf('Nested.Marker')]!.numeric).toBe(true);
    // The CSV and JSON stay as the editor exports them.
    expect(flat.csv).toBe(whole.csv);
  });

  it('a cell naming a package the install holds links to its tree path; script classes and missing packages do not', async () => {
    const { cellLinks } = await import('../../src/backend/asset-table.js');
    const { InstallPackages } = await import('../../src/core/package/open-package.js');
    const { openInstall } = await import('../../src/core/install/install.js');
    const install = await openInstall([corpus('cue58/IoStore/Tagged/Uncompressed')]);
    const packages = new InstallPackages(install);
    try {
      expect({ ...cellLinks([['/Game/Fixtures/Textures/T_BC7.T_BC7', '/Script/Engine.Texture2D', 3], ['/Game/Fixtures/Nope.Nope', 'T_BC7', null, '/Game/Fixtures/Maps/Empty']], packages) }).toEqual({
        '/Game/Fixtures/Textures/T_BC7.T_BC7': `${FIXTURES}/Textures/T_BC7.uasset`,
        '/Game/Fixtures/Maps/Empty': `${FIXTURES}/Maps/Empty.umap`,
      });
    } finally {
      await packages.close();
      await install.close();
    }
  });
});

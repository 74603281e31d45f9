// `pakscope table`: the JSON, CSV and text the issue sets out, on the cue58 fixtures (values from
// CUE4Parse's FixtureStructuredAssetTests.cs and cue58/manifest.json), and `extract --format
// convert` writing tables as .csv through the converter registry.
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { corpus } from '../support/corpus.js';
import { makeTempDir, removeTempDirs } from '../fixtures/toc-writer.js';
import { buildCli, pakscope } from './run-cli.js';

const TAGGED = corpus('cue58/IoStore/Tagged/Uncompressed');
const UNVERSIONED = corpus('cue58/IoStore/Unversioned/Zlib');
const USMAP = corpus('cue58/Mappings/CUE4ParseFixtures-Uncompressed.usmap');

beforeAll(buildCli);
afterAll(removeTempDirs);

describe('pakscope table', () => {
  it('--json prints a data table\'s rows with values as props encodes them, the same from tagged and unversioned', async () => {
    const tagged = await pakscope(['table', TAGGED, '/Game/Fixtures/DataTables/DT_AllProperties', '--json']);
    expect([tagged.code, tagged.stderr]).toEqual([0, '']);
    const t = JSON.parse(tagged.out) as { kind: string; rowStruct: string; rows: { name: string; values: Record<string, unknown> }[] };
    expect([t.kind, t.rowStruct, t.rows.map((r) => r.name)]).toEqual(['DataTable', 'FixtureTableRow', ['Alpha', 'Beta', 'Defaults']]);
    expect(t.rows[0]!.values).toMatchObject({ Number: 0x12345678, LargeNumber: '1234605616436508552', Message: 'Alpha_CUE4Parse_日本語_äöü', Values: [11, 22, 33, 44] });
    expect(t.rows[1]!.values).toMatchObject({ Number: -202020, LargeNumber: -9007199254740991, Message: 'Beta_ß_水_🚀' });
    const unversioned = await pakscope(['table', UNVERSIONED, '/Game/Fixtures/DataTables/DT_AllProperties', '--json', '--usmap', USMAP]);
    expect(unversioned.code).toBe(0);
    expect(JSON.parse(unversioned.out)).toEqual(t);
  });

  it('--at evaluates every curve: CT_Composite\'s rows from both parents, Curve_Vector one row per axis', async () => {
    const ct = await pakscope(['table', TAGGED, '/Game/Fixtures/Curves/CT_Composite', '--json', '--at', '2.5']);
    expect(ct.code).toBe(0);
    const rows = (JSON.parse(ct.out) as { kind: string; rows: { name: string; interp: string; valueAt: number }[] });
    expect(rows.kind).toBe('CurveTable');
    expect(rows.rows.find((r) => r.name === 'CompositeOnly')).toMatchObject({ interp: 'Constant', valueAt: -25 });
    const v = await pakscope(['table', TAGGED, '/Game/Fixtures/Curves/Curve_Vector', '--json', '--at', '1']);
    const curve = JSON.parse(v.out) as { kind: string; rows: { name: string; keys: unknown[]; valueAt: number }[] };
    expect(curve.kind).toBe('Curve');
    expect(curve.rows.map((r) => [r.name, r.valueAt])).toEqual([['X', 5.5], ['Y', 11], ['Z', 16.5]]);
    const plain = await pakscope(['table', TAGGED, '/Game/Fixtures/Curves/Curve_Vector', '--json']);
    expect(JSON.parse(plain.out).rows[0]).not.toHaveProperty('valueAt');
  });

  it('prints a string table as text and as CSV', async () => {
    const text = await pakscope(['table', TAGGED, '/Game/Fixtures/StringTables/ST_Fixed']);
    expect(text.out).toContain('namespace CUE4ParseFixtures.StringTable, 3 entries');
    expect(text.out).toContain('Greeting = "Hello from Frankfurt"');
    const csv = await pakscope(['table', TAGGED, '/Game/Fixtures/StringTables/ST_Fixed', '--csv']);
    expect(csv.out).toBe('Key,SourceString\nGreeting,Hello from Frankfurt\nUnicode,Fixture 日本語 Ω äöü\nEmpty,\n');
  });

  it('says what is wrong: no table in the package, a bad --at, unversioned without mappings', async () => {
    const texture = await pakscope(['table', TAGGED, '/Game/Fixtures/Textures/T_BC1']);
    expect([texture.code, texture.stderr]).toEqual([2, expect.stringContaining('holds no data table, string table, curve table or curve (its exports are Texture2D)')]);
    const at = await pakscope(['table', TAGGED, '/Game/Fixtures/Curves/CT_Rich', '--at', 'soon']);
    expect([at.code, at.stderr]).toEqual([2, expect.stringContaining('--at takes a time (a number such as 2.5), not "soon"')]);
    const noMappings = await pakscope(['table', UNVERSIONED, '/Game/Fixtures/DataTables/DT_AllProperties']);
    expect([noMappings.code, noMappings.stderr]).toEqual([2, expect.stringContaining('mappings (.usmap) are needed')]);
    // A string table's unversioned header lists no values: its entries read without mappings, as the tagged twin's.
    const fixed = await pakscope(['table', UNVERSIONED, '/Game/Fixtures/StringTables/ST_Fixed', '--json']);
    expect([fixed.code, fixed.stderr]).toEqual([0, '']);
    expect(JSON.parse(fixed.out)).toEqual(JSON.parse((await pakscope(['table', TAGGED, '/Game/Fixtures/StringTables/ST_Fixed', '--json'])).out));
  });

  it('extract --format convert writes each table as .csv, as the editor exports it', async () => {
    const out = join(await makeTempDir(), 'out');
    const r = await pakscope(['extract', TAGGED, '--out', out, '--format', 'convert', '--filter', '**/DataTables/**', '--filter', '**/Curves/CT_Simple*', '--json']);
    expect([r.code, r.stderr]).toEqual([0, '']);
    const dir = join(out, 'CUE4ParseFixtures/Content/Fixtures');
    const dt = await readFile(join(dir, 'DataTables/DT_Overrides.csv'), 'utf8');
    expect(dt.split('\r\n')[0]).toBe('---,Number,LargeNumber,Message,Kind,Nested,Values');
    expect(dt.split('\r\n')[2]).toBe('Gamma,303,303030303030,Composite new row,EFixtureEnum::Alpha,"(Marker=303,Label=""CompositeGamma"",Position=(X=3,Y=0,Z=3),Samples=(0.125,-2.5,99.75),bEnabled=False)","(3,0,3)"');
    // CT_Simple: one column per key time; Linear lerps -10..20 over -1..2, Constant steps.
    expect(await readFile(join(dir, 'Curves/CT_Simple.csv'), 'utf8')).toBe('---,-1,0,1,2,3\r\nLinear,-10,0,10,20,20\r\nConstant,5,5,15,15,-5\r\n');
  });
});

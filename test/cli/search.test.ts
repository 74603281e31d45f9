// `pakscope search` on cue58: the expected places come from the corpus (README: the CityGreeting
// entry of both .locres files; manifest.json expectedValues: DT_AllProperties' row names) and from
// CUE4Parse's fixture tests (the packages loaded as UTexture2D: FixtureTestUtilities.cs
// TextureExpectations, FixtureTextureDecodeTests.cs T_Virtual/T_UDIM/T_G16/T_R16F/T_FloatRGBA,
// FixtureWorldAssetTests.cs the Landscape map's heightmap), not from this code's output.
import { readFileSync } from 'node:fs';
import { beforeAll, describe, expect, it } from 'vitest';
import { corpus } from '../support/corpus.js';
import { buildCli, pakscope } from './run-cli.js';

const IOSTORE = corpus('cue58/IoStore/Tagged/Zlib');
const UNVERSIONED = corpus('cue58/IoStore/Unversioned/Zlib');
const PAK = corpus('cue58/Pak/Uncompressed');
const TEXTURES = 'CUE4ParseFixtures/Content/Fixtures/Textures/';
const manifest = JSON.parse(readFileSync(corpus('cue58/manifest.json'), 'utf8')) as { expectedValues: { dataTable: { rowNames: string[] } } };

interface Match { path: string; where: string; text: string }
const matches = (out: string): Match[] => (JSON.parse(out) as { matches: Match[] }).matches;

beforeAll(buildCli);

describe('pakscope search', () => {
  it('finds "Frankfurt" in ST_Fixed (IoStore) and in both .locres files (pak)', async () => {
    const r = await pakscope(['search', IOSTORE, PAK, 'Frankfurt', '--in', 'strings', '--json']);
    expect([r.code, r.stderr]).toEqual([0, '']);
    const found = matches(r.out);
    for (const m of found) expect(Object.keys(m)).toEqual(['path', 'where', 'text']);
    const where = (p: string): string[] => found.filter((m) => m.path.endsWith(p)).map((m) => `${m.where} = ${m.text}`);
    expect(where('StringTables/ST_Fixed.uasset').some((w) => w.includes('Frankfurt'))).toBe(true);
    expect(where('/en/CUE4ParseFixtures.locres')).toEqual(['en/CUE4ParseFixtures.Tests/CityGreeting = Greetings from Frankfurt']);
    expect(where('/de/CUE4ParseFixtures.locres')).toEqual(['de/CUE4ParseFixtures.Tests/CityGreeting = Grüße aus Frankfurt']);
  });

  it('--class Texture2D lists every Texture2D package, by short name and by path, tagged and unversioned', async () => {
    const expected = ['T_BC1', 'T_BC3', 'T_BC4', 'T_BC5', 'T_BC6H', 'T_BC7', 'T_BGRA8', 'T_G8', 'T_Mips', 'T_Streaming',
      'T_Virtual', 'T_UDIM', 'T_G16', 'T_R16F', 'T_FloatRGBA'].map((t) => `${TEXTURES}${t}.uasset`);
    expected.push('CUE4ParseFixtures/Content/Fixtures/Maps/Landscape.umap');
    for (const [path, cls] of [[IOSTORE, 'Texture2D'], [UNVERSIONED, '/Script/Engine.Texture2D']] as const) {
      const r = await pakscope(['search', path, '', '--class', cls, '--in', 'paths', '--json']);
      expect([r.code, r.stderr]).toEqual([0, '']);
      expect(matches(r.out).map((m) => m.path).sort()).toEqual([...expected].sort());
    }
    // Exactly the class: a cube texture or a light profile (a Texture2D subclass) is not one.
    const cube = await pakscope(['search', IOSTORE, 'T_Cube', '--class', 'Texture2D', '--json']);
    expect(matches(cube.out)).toEqual([]);
  });

  it('finds DT_AllProperties by each of its row names, in its name map', async () => {
    const { rowNames } = manifest.expectedValues.dataTable;
    for (const row of rowNames) {
      const r = await pakscope(['search', IOSTORE, `^${row}$`, '--regex', '--case', '--in', 'names', '--json']);
      expect(r.code).toBe(0);
      const hit = matches(r.out).find((m) => m.path.endsWith('DataTables/DT_AllProperties.uasset'));
      expect(hit?.text).toBe(row);
      expect(hit?.where).toMatch(/^names\[\d+\]$/);
    }
  });

  it('text output names the file, the place and the text; bad options are usage errors', async () => {
    const r = await pakscope(['search', IOSTORE, 'DA_AllProperties', '--in', 'names']);
    expect(r.code).toBe(0);
    expect(r.out).toMatch(/^CUE4ParseFixtures\/Content\/Fixtures\/Properties\/DA_AllProperties\.uasset  exports\[\d+\]  "DA_AllProperties"$/m);
    const bad = await pakscope(['search', IOSTORE, 'x', '--in', 'bytes']);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('--in takes kinds from paths, names, classes, strings');
    const re = await pakscope(['search', IOSTORE, '(', '--regex']);
    expect(re.code).toBe(2);
    expect(re.stderr).toContain('not a regular expression');
  });

  it('a locked container: a clear answer naming it, exit 2', async () => {
    const r = await pakscope(['search', corpus('cue58/IoStore/Tagged/OodleEncrypted'), 'T_BC1', '--json']);
    expect(r.code).toBe(2);
    expect(JSON.parse(r.out).error).toMatch(/OodleEncrypted-Windows\.utoc: encrypted .*no AES key/);
  });
});

/**
 * A data table of the cue58 IoStore Unversioned container read with mappings that lack its row
 * struct (the fixture .usmap with FixtureTableRow taken out): the table with its row struct named,
 * no rows, and the reason (the row, the struct, the byte offset); with the full mappings the
 * same table reads its three rows (cue58/manifest.json rowNames). The other exports still read.
 */
import { describe, expect, it } from 'vitest';
import { readTable } from '../../../src/core/assets/table/read.js';
import { installPackageProperties } from '../../../src/core/properties/open.js';
import { parseUsmap } from '../../../src/core/usmap/parse.js';
import { withInstall } from '../../properties/helpers.js';
import { corpus, loadCorpus } from '../../support/corpus.js';

const usmap = () => parseUsmap(loadCorpus('cue58/Mappings/CUE4ParseFixtures-Uncompressed.usmap'), 'CUE4ParseFixtures-Uncompressed.usmap');

describe('a row struct the mappings lack', () => {
  it('names the struct and the row, shows the table without rows; the full mappings read every row', async () => {
    const lacking = usmap();
    for (const k of [...lacking.structs.keys()]) if (k.toLowerCase() === 'fixturetablerow') lacking.structs.delete(k);
    await withInstall(corpus('cue58/IoStore/Unversioned/Zlib'), async (packages) => {
      const t = await readTable({ packages, ref: '/Game/Fixtures/DataTables/DT_AllProperties' }, undefined, { mappings: lacking });
      if (t.kind !== 'DataTable') throw new Error('not a data table');
      expect([t.rowStruct, t.rows]).toEqual(['FixtureTableRow', []]);
      expect(t.error).toMatch(/^row 0 "Alpha" of 3 does not read: .*DT_AllProperties\.uasset: data table rows \(FixtureTableRow\) at byte \d+: "FixtureTableRow" is not in the mappings/);
      expect(t.notes).toContain(t.error);
      // The package's other data still reads with those mappings.
      const props = await installPackageProperties(packages, '/Game/Fixtures/Properties/DA_AllProperties', { mappings: lacking });
      expect(props.properties.exports.find((e) => e.name === 'DA_AllProperties')!.properties.length).toBeGreaterThan(10);
      const full = await readTable({ packages, ref: '/Game/Fixtures/DataTables/DT_AllProperties' }, undefined, { mappings: usmap() });
      if (full.kind !== 'DataTable') throw new Error('not a data table');
      expect([full.rows.map((r) => r.name), full.error]).toEqual([['Alpha', 'Beta', 'Defaults'], undefined]);
    });
  });
});

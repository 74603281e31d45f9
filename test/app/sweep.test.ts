// A user's sweep (bench/sweep.ts) of cue58's Zlib installs, tagged and unversioned with its
// mappings, and the UE1/2 packages: every package opens, every asset's tab answers, every Save
// writes a file, the export converts everything; what fails says which file and where.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { classify, FAST_INSTALLS, sweepInstall, type SweepResult } from '../../bench/sweep.js';
import { corpus } from '../support/corpus.js';

const manifest = JSON.parse(readFileSync(corpus('cue58/manifest.json'), 'utf8')) as { testContainerPackages: string[] };
const defects = (r: SweepResult): string[] => r.failures.filter((f) => f.kind !== 'expected').map((f) => `[${f.kind}] ${f.path} · ${f.step}: ${f.message}`);

describe('a sweep of the installs a user opens', () => {
  for (const inst of FAST_INSTALLS.filter((i) => i.path.includes('cue58/IoStore'))) {
    it(`${inst.path.slice(inst.path.indexOf('cue58'))}: every package (the manifest's test container packages) opens, shows and converts`, async () => {
      const r = await sweepInstall(inst);
      expect(r.packages).toBe(manifest.testContainerPackages.length);
      expect(defects(r)).toEqual([]);
      expect(r.views).toBe(r.assets);
      expect(r.saves).toBeGreaterThan(50);
    });
  }

  it('the UE1/2 packages: no crash, each failure a FormatError naming the file and offset', async () => {
    const r = await sweepInstall(FAST_INSTALLS.find((i) => i.path.endsWith('legacy'))!);
    expect(r.packages).toBe(9); // MANIFEST.tsv's legacy/ packages
    expect(defects(r)).toEqual([]);
    for (const f of r.failures) expect(f.message).toMatch(/^\S+\.(u|utx|usx|unr): .+ at byte \d+: /);
    // uelib_TestUC3.u is UE3 (file version 868, MANIFEST.tsv): the only package that does not open
    expect(r.failures.map((f) => [f.path, f.step])).toEqual([['uelib_TestUC3.u', 'openPackage']]);
  });

  it("cue58's minimal pak: its AssetRegistry.bin and two .locres open on their views", async () => {
    const r = await sweepInstall(FAST_INSTALLS.find((i) => i.path.endsWith('Pak/Uncompressed'))!);
    expect(defects(r)).toEqual([]);
    // CUE4ParseFixtures/AssetRegistry.bin, Localization/.../{de,en}/CUE4ParseFixtures.locres
    expect([r.packages, r.fileViews]).toEqual([0, 3]);
  });

  it('a file the disk lacks is a defect where peers read the whole install, listed as expected elsewhere', () => {
    const missing = Object.assign(new Error("ENOENT: no such file or directory, open 'x.ucas'"), { code: 'ENOENT' });
    expect([classify(missing, true).kind, classify(missing, false).kind]).toEqual(['refused', 'expected']);
    expect(classify(new TypeError('x is undefined'), false).kind).toBe('crash');
  });
});

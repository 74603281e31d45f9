/**
 * Damaged materials: MI_BlueCube (UE5.4, unversioned with its mappings), the UE5.0 editor
 * M_UE4Man_ChestLogo and cue58's M_Fixture (a Zen package, as `pakscope cat` writes it, whose
 * cached parameters follow its properties) with bytes changed (a fixed seed, so every run tries the
 * same damage). Each read gives a material or a FormatError, at once: never another exception,
 * never a hang.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { FormatError } from '../../../src/core/errors.js';
import { readMaterial } from '../../../src/core/assets/material/read.js';
import { parseUsmap } from '../../../src/core/usmap/parse.js';
import { corpus, loadCorpus } from '../../support/corpus.js';
import { withInstall } from '../../properties/helpers.js';

const temp = mkdtempSync(join(tmpdir(), 'pakscope-material-mutated-'));
afterAll(() => rmSync(temp, { recursive: true, force: true }));

/** xorshift32: the same damage every run. */
function random(seed: number): () => number {
  let x = seed >>> 0 || 1;
  return () => {
    x ^= x << 13; x >>>= 0; x ^= x >>> 17; x ^= x << 5; x >>>= 0;
    return x / 0x100000000;
  };
}

async function tryAll(name: string, files: { ext: string; bytes: Uint8Array; from: number }[], mutate: string, opts: Parameters<typeof readMaterial>[2], cases: number): Promise<{ read: number; refused: number }> {
  const rnd = random(0x5eed + cases);
  let read = 0, refused = 0;
  for (let c = 0; c < cases; c++) {
    const base = join(temp, `${name}_${c}`);
    for (const f of files) {
      const bytes = f.bytes.slice();
      if (f.ext === mutate) {
        const flips = 1 + Math.floor(rnd() * 4);
        for (let k = 0; k < flips; k++) bytes[f.from + Math.floor(rnd() * (bytes.length - f.from))] = Math.floor(rnd() * 256);
      }
      writeFileSync(`${base}.${f.ext}`, bytes);
    }
    try {
      const m = await readMaterial({ file: `${base}.uasset` }, undefined, opts);
      expect(m.chain.length).toBe(1);
      read++;
    } catch (e) {
      if (!(e instanceof FormatError)) throw new Error(`case ${c}: ${e instanceof Error ? `${e.name}: ${e.message}` : String(e)}`);
      refused++;
    }
  }
  return { read, refused };
}

describe('damaged materials', () => {
  it('MI_BlueCube with its .uexp damaged: a material or a FormatError, 150 times', async () => {
    const mappings = parseUsmap(loadCorpus('cooked/uapi54_BlankGame_Dumper-7.usmap'), 'BlankGame');
    const files = [
      { ext: 'uasset', bytes: new Uint8Array(readFileSync(corpus('cooked/uapi54_MI_BlueCube.uasset'))), from: 0 },
      { ext: 'uexp', bytes: new Uint8Array(readFileSync(corpus('cooked/uapi54_MI_BlueCube.uexp'))), from: 0 },
    ];
    const t0 = performance.now();
    const r = await tryAll('bluecube', files, 'uexp', { mappings }, 150);
    expect(r.read + r.refused).toBe(150);
    expect(r.read).toBeGreaterThan(0);
    expect(performance.now() - t0).toBeLessThan(20_000);
  });

  it('the editor M_UE4Man_ChestLogo with its export data damaged: a material or a FormatError, 150 times', async () => {
    const bytes = new Uint8Array(readFileSync(corpus('uncooked/ue50_M_UE4Man_ChestLogo.uasset')));
    // Export data starts after the header (TotalHeaderSize 8028, MANIFEST.tsv).
    const r = await tryAll('chestlogo', [{ ext: 'uasset', bytes, from: 8028 }], 'uasset', {}, 150);
    expect(r.read + r.refused).toBe(150);
    expect(r.read).toBeGreaterThan(0);
  });

  it('cue58\'s M_Fixture as a Zen package file, damaged: a material or a FormatError, 150 times', async () => {
    const bytes = await withInstall(corpus('cue58/IoStore/Tagged/Zlib'), async (packages) => {
      const loc = packages.locate('/Game/Fixtures/Materials/M_Fixture');
      return loc.archive.read(loc.ref);
    });
    // Undamaged, read without the install, its cached parameters are there (CUE4Parse's fixture value).
    writeFileSync(join(temp, 'M_Fixture.uasset'), bytes);
    const whole = await readMaterial({ file: join(temp, 'M_Fixture.uasset') }, undefined);
    expect(whole.parameters.find((p) => p.name === 'FixtureRoughness')!.value).toBe(0.375);
    const r = await tryAll('mfixture', [{ ext: 'uasset', bytes, from: 0 }], 'uasset', {}, 150);
    expect(r.read + r.refused).toBe(150);
    expect(r.read).toBeGreaterThan(0);
  });
});

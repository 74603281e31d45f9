/**
 * Damaged effect assets: cue58's MS_Source and NS_Fixture (tagged Zen packages, as `pakscope cat`
 * writes them) with bytes changed (a fixed seed: every run tries the same damage). Each read
 * gives a document or a FormatError, at once: never another exception, never a hang.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { readMetaSound } from '../../../src/core/assets/metasound/read.js';
import { readNiagaraSystem } from '../../../src/core/assets/niagara/read.js';
import { FormatError } from '../../../src/core/errors.js';
import { corpus } from '../../support/corpus.js';
import { withInstall } from '../../properties/helpers.js';

const temp = mkdtempSync(join(tmpdir(), 'pakscope-effect-mutated-'));
afterAll(() => rmSync(temp, { recursive: true, force: true }));

function random(seed: number): () => number {
  let x = seed >>> 0 || 1;
  return () => {
    x ^= x << 13; x >>>= 0; x ^= x >>> 17; x ^= x << 5; x >>>= 0;
    return x / 0x100000000;
  };
}

const CASES = 120;

describe('damaged effect assets', () => {
  // Undamaged, without the install (classes and types named by script import hash), each reads whole.
  for (const [name, read, whole] of [
    ['MS_Source', (file: string) => readMetaSound({ file }, undefined), async (file: string) => {
      const d = await readMetaSound({ file }, undefined);
      expect([d.class, d.outputFormat, d.graphs[0]!.nodes.map((n) => n.class?.name)]).toEqual(['MetaSoundSource', 'Mono', ['Input.Trigger', 'Output.Trigger', 'Output.Audio']]);
    }],
    ['NS_Fixture', (file: string) => readNiagaraSystem({ file }, undefined), async (file: string) => {
      const s = await readNiagaraSystem({ file }, undefined);
      expect([s.class, s.userParameters.map((p) => [p.name, p.type, typeof p.value === 'number' ? p.value : p.dataInterface?.references.length])])
        .toEqual(['NiagaraSystem', [['FixtureScale', 'float', 3.25], ['FixtureTexture', '?0x41c293df1e6b452e', 1]]]);
    }],
  ] as const) {
    it(`${name} as a Zen package file, damaged: a result or a FormatError, ${CASES} times`, async () => {
      const bytes = await withInstall(corpus('cue58/IoStore/Tagged/Zlib'), async (packages) => {
        const loc = packages.locate(`/Game/Fixtures/Effects/${name}`);
        return loc.archive.read(loc.ref);
      });
      writeFileSync(join(temp, `${name}.uasset`), bytes);
      await whole(join(temp, `${name}.uasset`));
      const rnd = random(0xfe + name.length);
      let ok = 0, refused = 0;
      const t0 = performance.now();
      for (let c = 0; c < CASES; c++) {
        const b = bytes.slice();
        const flips = 1 + Math.floor(rnd() * 4);
        for (let k = 0; k < flips; k++) b[Math.floor(rnd() * b.length)] = Math.floor(rnd() * 256);
        const path = join(temp, `${name}_${c}.uasset`);
        writeFileSync(path, b);
        try {
          await read(path);
          ok++;
        } catch (e) {
          if (!(e instanceof FormatError)) throw new Error(`case ${c}: ${e instanceof Error ? `${e.name}: ${e.message}` : String(e)}`);
          refused++;
        }
      }
      expect(ok + refused).toBe(CASES);
      expect(ok).toBeGreaterThan(0);
      expect(performance.now() - t0).toBeLessThan(20_000);
    });
  }
});

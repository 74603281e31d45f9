// `pakscope locres`: every culture of the cue58 Pak's localization (values from CUE4Parse's
// FixturePakTests.cs), one culture, one file, and a file that does not read.
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { corpus } from '../support/corpus.js';
import { makeTempDir, removeTempDirs } from '../fixtures/toc-writer.js';
import { buildCli, pakscope } from './run-cli.js';

const PAK = corpus('cue58/Pak/Uncompressed');
const NS = 'CUE4ParseFixtures.Tests';

beforeAll(buildCli);
afterAll(removeTempDirs);

describe('pakscope locres', () => {
  it('--json prints every culture by namespace and key; --culture keeps one', async () => {
    const all = await pakscope(['locres', PAK, '--json']);
    expect([all.code, all.stderr]).toEqual([0, '']);
    const { cultures } = JSON.parse(all.out) as { cultures: Record<string, Record<string, Record<string, string>>> };
    expect(Object.keys(cultures).sort()).toEqual(['de', 'en']);
    expect(cultures['en']![NS]!['CityGreeting']).toBe('Greetings from Frankfurt');
    expect(cultures['de']![NS]!['CityGreeting']).toBe('Grüße aus Frankfurt');
    const de = await pakscope(['locres', PAK, '--culture', 'de']);
    expect(de.out).toContain('    Unicode = "Unicode-Übersetzung – 日本語 – Ω – 🚀"');
    expect(de.out).not.toContain('Greetings from Frankfurt');
  });

  it('a .locres whose counts run past its end: exit 2 with the file and the reason', async () => {
    const bad = join(await makeTempDir(), 'en', 'Game.locres');
    await (await import('node:fs/promises')).mkdir(join(bad, '..'), { recursive: true });
    await writeFile(bad, new Uint8Array([0xff, 0xff, 0xff, 0x0f, 1, 2, 3]));
    const r = await pakscope(['locres', bad]);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/Game\.locres.*namespace count \d+ needs at least/);
  });
});

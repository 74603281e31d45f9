// `pakscope extract --format convert` of the cue58 Pak: the .locres files as JSON (the texts of
// CUE4Parse's FixturePakTests.cs), AssetRegistry.bin as JSON (assets, package data and
// dependencies), DefaultGame.ini as stored (byte for byte what `cat` gives).
import { readdir, readFile } from 'node:fs/promises';
import { join, relative } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { corpus } from '../support/corpus.js';
import { makeTempDir, removeTempDirs } from '../fixtures/toc-writer.js';
import { buildCli, pakscope } from './run-cli.js';

const PAK = corpus('cue58/Pak/Oodle');
const LOC = 'CUE4ParseFixtures/Content/Localization/CUE4ParseFixtures';

beforeAll(buildCli);
afterAll(removeTempDirs);

describe('pakscope extract --format convert of plain game data files', () => {
  it('writes .locres and AssetRegistry.bin as .json and the .ini as stored', async () => {
    const out = join(await makeTempDir(), 'out');
    const r = await pakscope(['extract', PAK, '--out', out, '--format', 'convert']);
    expect([r.code, r.stderr]).toEqual([0, '']);
    const files = (await readdir(out, { recursive: true, withFileTypes: true })).filter((e) => e.isFile())
      .map((e) => relative(out, join(e.parentPath, e.name)).replaceAll('\\', '/')).sort();
    expect(files).toEqual(['CUE4ParseFixtures/AssetRegistry.json', 'CUE4ParseFixtures/Config/DefaultGame.ini', `${LOC}/de/CUE4ParseFixtures.json`, `${LOC}/en/CUE4ParseFixtures.json`]);

    const de = JSON.parse(await readFile(join(out, LOC, 'de/CUE4ParseFixtures.json'), 'utf8')) as { cultures: Record<string, Record<string, Record<string, string>>> };
    expect(de.cultures['de']!['CUE4ParseFixtures.Tests']!['CityGreeting']).toBe('Grüße aus Frankfurt');
    const en = JSON.parse(await readFile(join(out, LOC, 'en/CUE4ParseFixtures.json'), 'utf8')) as typeof de;
    expect(en.cultures['en']!['CUE4ParseFixtures.Tests']!['Unicode']).toBe('Unicode source text – 日本語 – Ω – 🚀');

    const reg = JSON.parse(await readFile(join(out, 'CUE4ParseFixtures/AssetRegistry.json'), 'utf8')) as {
      version: number; assets: { object: string; class: string; tags: Record<string, string> }[]; packages: { name: string }[]; dependencies: { node: string }[];
    };
    expect(reg.version).toBe(24);
    const primary = reg.assets.find((a) => a.object === '/Game/Fixtures/Properties/DA_PrimaryAsset.DA_PrimaryAsset')!;
    expect([primary.class, primary.tags['RegistryMarker']]).toEqual(['/Script/CUE4ParseFixtures.FixturePrimaryAsset', 'Primary_Registry_0x13579BDF']);
    expect(reg.packages.some((p) => p.name === '/Game/Fixtures/Properties/DA_PrimaryAsset')).toBe(true);
    expect(reg.dependencies.some((d) => d.node === '/Game/Fixtures/Properties/DA_AllProperties')).toBe(true);

    const ini = await readFile(join(out, 'CUE4ParseFixtures/Config/DefaultGame.ini'), 'utf8');
    expect(ini).toContain('Text=Greetings from Frankfurt – 日本語 – Ω – 🚀');
    expect(ini).toBe((await pakscope(['cat', PAK, 'CUE4ParseFixtures/Config/DefaultGame.ini'])).out);
  });
});

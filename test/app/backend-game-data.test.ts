/**
 * The game data views' API: fileDetails names the view of a .locres and an AssetRegistry.bin;
 * localization lays every culture of the target side by side (the cue58 Pak's en and de as
 * CUE4Parse's FixturePakTests.cs asserts them, a French file written here with two of the five
 * keys, a Spanish one that does not read); assetRegistry lists the registry's assets with class,
 * tags and a link to each package the install holds; fileDetails of a package carries what the
 * registry says of it once the registry has been read in the background (in a worker with the pool).
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Backend } from '../../src/backend/backend.js';
import { ApiValidationError, validateRequest } from '../../src/shared/api.js';
import { createWorkerPool } from '../../src/core/workers/pool.js';
import { ensureWorkerBundle } from '../workers/worker-bundle.js';
import { FRENCH, FRENCH_TEXT, LOCALIZATION, LOCRES_NS, makeGameDataInstall } from '../support/game-data-install.js';

const info = { name: 'PakScope', version: '0', electron: null, chrome: null, mode: 'web' as const };
let configDir: string;
let dir: string;
let backend: Backend;
let installId: string;
beforeAll(async () => {
  configDir = await mkdtemp(join(tmpdir(), 'pakscope-data-'));
  dir = makeGameDataInstall();
  backend = new Backend({ configDir, dialogs: { pickFolder: async () => null, pickFile: async () => null }, info, anyPath: true });
  installId = (await backend.openInstall({ path: dir })).id;
});
afterAll(async () => {
  await backend.close();
  await rm(configDir, { recursive: true, force: true });
  await rm(dir, { recursive: true, force: true });
});

/**
 * The first fileDetails of a package answers at once, saying the registry is being read; the
 * registry-ready event follows, and then the answer has T_BC1's facts.
 */
async function expectRegistryFacts(b: Backend, id: string): Promise<void> {
  const ready = new Promise<void>((resolve) => {
    const off = b.onEvent((e) => { if (e.type === 'registry-ready' && e.installId === id) { off(); resolve(); } });
  });
  const path = 'CUE4ParseFixtures/Content/Fixtures/Textures/T_BC1.uasset';
  const first = await b.fileDetails({ installId: id, path });
  expect([first.registryLoading, first.registry]).toEqual([true, undefined]);
  await ready;
  const d = await b.fileDetails({ installId: id, path });
  expect(d.registryLoading).toBeUndefined();
  expect(d.registry?.map((f) => [f.registry, f.object, f.class])).toEqual([
    ['CUE4ParseFixtures/AssetRegistry.bin', '/Game/Fixtures/Textures/T_BC1.T_BC1', '/Script/Engine.Texture2D'],
  ]);
  // 64x64, as CUE4Parse's FixtureTestUtilities.cs lists T_BC1.
  expect(d.registry![0]!.tags).toContainEqual(['Dimensions', '64x64']);
}

describe('localization', () => {
  it('every culture of the target side by side, untranslated keys counted, a file that does not read named', async () => {
    expect((await backend.fileDetails({ installId, path: `${LOCALIZATION}/de/CUE4ParseFixtures.locres` })).view).toBe('localization');
    expect((await backend.fileDetails({ installId, path: 'CUE4ParseFixtures/Config/DefaultGame.ini' })).view).toBeUndefined();
    const v = await backend.localization({ installId, path: `${LOCALIZATION}/de/CUE4ParseFixtures.locres` });
    expect(v.target).toBe(LOCALIZATION);
    // No .locmeta: en first, then by name.
    expect(v.cultures).toEqual(['en', 'de', 'es', 'fr']);
    expect(v.files.map((f) => [f.culture, f.version, f.entries, f.error === undefined])).toEqual([
      ['de', 'OptimizedCityHash64Utf16', 5, true], ['en', 'OptimizedCityHash64Utf16', 5, true], ['es', undefined, undefined, false], ['fr', 'Legacy', 2, true],
    ]);
    expect(v.files[2]!.error).toMatch(/es\/CUE4ParseFixtures\.locres: .*namespace count/);
    const row = (key: string) => v.rows.find((r) => r.namespace === LOCRES_NS && r.key === key)!.texts;
    expect(row('CityGreeting')).toEqual(['Greetings from Frankfurt', 'Grüße aus Frankfurt', null, FRENCH['CityGreeting']]);
    expect(row('Unicode')).toEqual(['Unicode source text – 日本語 – Ω – 🚀', 'Unicode-Übersetzung – 日本語 – Ω – 🚀', null, null]);
    expect(v.rows).toHaveLength(5);
    expect(v.untranslated).toEqual([0, 0, 5, 3]);
    // "" gathers the whole install: the same files here.
    expect((await backend.localization({ installId, path: '' })).cultures).toEqual(['en', 'de', 'es', 'fr']);
  });
});

describe('assetRegistry', () => {
  it('the assets with class and tags, classes counted, packages the install holds linked', async () => {
    expect((await backend.fileDetails({ installId, path: 'CUE4ParseFixtures/AssetRegistry.bin' })).view).toBe('registry');
    const r = await backend.assetRegistry({ installId, path: 'CUE4ParseFixtures/AssetRegistry.bin' });
    expect([r.version, r.versionName, r.assets.length, r.warnings]).toEqual([24, 'MemoryMappedTagDataStore', 306, []]);
    const primary = r.assets.find((a) => a.package === '/Game/Fixtures/Properties/DA_PrimaryAsset')!;
    expect(primary.class).toBe('/Script/CUE4ParseFixtures.FixturePrimaryAsset');
    expect(primary.tags).toContainEqual(['RegistryMarker', 'Primary_Registry_0x13579BDF']);
    expect(primary.packagePath).toBe('CUE4ParseFixtures/Content/Fixtures/Properties/DA_PrimaryAsset.uasset');
    // Engine packages are not in this install: no link.
    expect(r.assets.find((a) => a.package.startsWith('/Engine/'))!.packagePath).toBeNull();
    expect(r.classes.reduce((n, c) => n + c.count, 0)).toBe(306);
    expect(r.classes.find((c) => c.class === '/Script/Engine.World')!.count).toBe(8);
  });

  it('fileDetails of a package the registry lists: its class and tags, without opening the package', async () => {
    await expectRegistryFacts(backend, installId);
    // A file that is no package gets none.
    const ini = await backend.fileDetails({ installId, path: 'CUE4ParseFixtures/Config/DefaultGame.ini' });
    expect([ini.registry, ini.registryLoading]).toEqual([undefined, undefined]);
  });

  it('with the worker pool, the registry is parsed in a worker, the same facts', async () => {
    const pool = createWorkerPool({ threads: 1, workerFile: ensureWorkerBundle() });
    const own = new Backend({ configDir, dialogs: { pickFolder: async () => null, pickFile: async () => null }, info, anyPath: true, decoder: pool });
    try {
      await expectRegistryFacts(own, (await own.openInstall({ path: dir })).id);
    } finally {
      await own.close();
      await pool.destroy();
    }
  }, 60_000);

  it('a file that is no registry: its FormatError; the request shapes are checked', async () => {
    await expect(backend.assetRegistry({ installId, path: 'CUE4ParseFixtures/Config/DefaultGame.ini' })).rejects.toThrow(/DefaultGame\.ini: asset registry header at byte 0: no asset registry version GUID/);
    expect(() => validateRequest('assetRegistry', { installId, path: 'x', extra: 1 })).toThrow(ApiValidationError);
    expect(() => validateRequest('localization', { installId })).toThrow(ApiValidationError);
  });
});

describe('packageProperties in a culture', () => {
  const DA = 'CUE4ParseFixtures/Content/Fixtures/Properties/DA_AllProperties.uasset';
  const text = (v: Awaited<ReturnType<Backend['packageProperties']>>) => v.exports.find((e) => e.name === 'DA_AllProperties')!.properties.find((p) => p.name === 'Text')!;

  it('a literal text the culture translates shows the translation and notes the stored string; as stored without a culture', async () => {
    const stored = await backend.packageProperties({ installId, path: DA });
    expect([stored.cultures, stored.culture, stored.localizedTexts]).toEqual([['de', 'en', 'es', 'fr'], null, 0]);
    // FixturePropertyAssetTests.cs: the stored text.
    expect(text(stored).value).toBe('Localized-ish fixture text Ω');
    const fr = await backend.packageProperties({ installId, path: DA, culture: 'fr' });
    expect([fr.culture, fr.localizedTexts]).toEqual(['fr', 1]);
    expect(text(fr).value).toBe(FRENCH_TEXT);
    expect(text(fr).note).toBe('fr; stored: "Localized-ish fixture text Ω"');
    // de has no entry for the key: as stored.
    const de = await backend.packageProperties({ installId, path: DA, culture: 'de' });
    expect([de.localizedTexts, text(de).value]).toEqual([0, 'Localized-ish fixture text Ω']);
    // The cached view without a culture was not changed by the French one.
    expect(text(await backend.packageProperties({ installId, path: DA })).value).toBe('Localized-ish fixture text Ω');
  });
});

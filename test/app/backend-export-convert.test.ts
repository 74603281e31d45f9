// The app's export with format 'convert' (the export dialog's "Converted"): textures written as PNG, one per slice, their .ubulk left out; progress counts every selected file; a material as JSON.
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Backend } from '../../src/backend/backend.js';
import { validateRequest, type ApiEvent, type ExportProgress, type ExportRequest, type ExportResult, type InstallSummary } from '../../src/shared/api.js';
import { corpus } from '../support/corpus.js';
import { readReferenceImage } from '../support/reference-image.js';
import { makeTempDir, removeTempDirs } from '../fixtures/toc-writer.js';
import { listTree } from '../export/helpers.js';

const TEXTURES = 'CUE4ParseFixtures/Content/Fixtures/Textures';
afterAll(removeTempDirs);

async function runExport(backend: Backend, req: ExportRequest): Promise<{ result: ExportResult; progress: ExportProgress[]; filesTotal: number }> {
  const events: ApiEvent[] = [];
  const off = backend.onEvent((e) => events.push(e));
  try {
    const started = await backend.startExport(req);
    const done = (): ExportResult | undefined => events.flatMap((e) => (e.type === 'export-done' && e.result.exportId === started.exportId ? [e.result] : []))[0];
    const t0 = Date.now();
    while (!done()) {
      if (Date.now() - t0 > 30_000) throw new Error('export did not finish');
      await new Promise((r) => setTimeout(r, 5));
    }
    const progress = events.flatMap((e) => (e.type === 'export-progress' && e.exportId === started.exportId ? [e.progress] : []));
    return { result: done()!, progress, filesTotal: started.filesTotal };
  } finally {
    off();
  }
}

describe("the app's export, format 'convert'", () => {
  let backend: Backend;
  let summary: InstallSummary;
  beforeAll(async () => {
    backend = new Backend({ configDir: await makeTempDir(), dialogs: { pickFolder: async () => null, pickFile: async () => null }, info: { name: 'PakScope', version: '0', electron: null, chrome: null, mode: 'web' }, anyPath: true });
    summary = await backend.openInstall({ path: corpus('cue58/IoStore/Tagged/Uncompressed') });
  });
  afterAll(() => backend.close());

  it('writes T_Cube as six PNGs and T_Streaming as one, without the .uasset and .ubulk, progress to the end', async () => {
    const out = join(await makeTempDir(), 'out');
    const req: ExportRequest = {
      installId: summary.id, paths: [`${TEXTURES}/T_Cube.uasset`, `${TEXTURES}/T_Streaming.uasset`], destination: out, format: 'convert', output: 'folder', conflict: 'skip',
    };
    expect(() => validateRequest('startExport', req)).not.toThrow();
    const { result, progress, filesTotal } = await runExport(backend, req);
    expect(filesTotal).toBe(3); // the two packages and T_Streaming's .ubulk
    expect(result).toMatchObject({ files: 7, cancelled: false, failedCount: 0, skippedCount: 0 });
    expect(await listTree(out)).toEqual([...[0, 1, 2, 3, 4, 5].map((s) => `${TEXTURES}/T_Cube_${s}.png`), `${TEXTURES}/T_Streaming.png`]);
    expect(progress.at(-1)).toMatchObject({ filesDone: 3, filesTotal: 3 });
    const face = readReferenceImage(join(out, TEXTURES, 'T_Cube_2.png'));
    // slice 2 of the fixtures' pattern at (0, 0)
    expect([...face.rgba.subarray(0, 4)]).toEqual([82, 134, 194, 255 - 14]);
    expect([readReferenceImage(join(out, TEXTURES, 'T_Streaming.png')).width]).toEqual([512]);
  });

  it('writes a material as .json: MI_Fixture with its chain followed through the install', async () => {
    const out = join(await makeTempDir(), 'out');
    const MATERIALS = 'CUE4ParseFixtures/Content/Fixtures/Materials';
    const { result } = await runExport(backend, { installId: summary.id, paths: [`${MATERIALS}/MI_Fixture.uasset`], destination: out, format: 'convert', output: 'folder', conflict: 'skip' });
    expect(result).toMatchObject({ files: 1, failedCount: 0 });
    expect(await listTree(out)).toEqual([`${MATERIALS}/MI_Fixture.json`]);
    const json = JSON.parse(await readFile(join(out, MATERIALS, 'MI_Fixture.json'), 'utf8')) as { chain: { name: string }[]; parameters: { name: string; value: unknown }[] };
    expect(json.chain.map((l) => l.name)).toEqual(['MI_Fixture', 'M_Fixture']);
    // CUE4Parse's FixtureRenderableAssetTests.cs: the instance's override, and the base's AlternateColor.
    expect(json.parameters.find((p) => p.name === 'FixtureRoughness')!.value).toBe(0.8125);
    expect(json.parameters.find((p) => p.name === 'AlternateColor')!.value).toEqual({ r: 0.9, g: 0.15, b: 0.05, a: 1 });
  });
});

describe("the app's export, format 'convert', of an unversioned install", () => {
  let backend: Backend;
  let summary: InstallSummary;
  beforeAll(async () => {
    backend = new Backend({ configDir: await makeTempDir(), dialogs: { pickFolder: async () => null, pickFile: async () => null }, info: { name: 'PakScope', version: '0', electron: null, chrome: null, mode: 'web' }, anyPath: true });
    summary = await backend.openInstall({ path: corpus('cue58/IoStore/Unversioned/Zlib') });
    await backend.setMappings({ installId: summary.id, path: corpus('cue58/Mappings/CUE4ParseFixtures-Uncompressed.usmap'), confirmed: true });
  });
  afterAll(() => backend.close());

  // The export used the install's mappings only for JSON: every unversioned material, table, level... failed "mappings needed".
  it('reads the packages with the mappings the install has: MI_Fixture as .json with its parameters', async () => {
    const out = join(await makeTempDir(), 'out');
    const MATERIALS = 'CUE4ParseFixtures/Content/Fixtures/Materials';
    const { result } = await runExport(backend, { installId: summary.id, paths: [`${MATERIALS}/MI_Fixture.uasset`], destination: out, format: 'convert', output: 'folder', conflict: 'skip' });
    expect(result.failed).toEqual([]);
    const json = JSON.parse(await readFile(join(out, MATERIALS, 'MI_Fixture.json'), 'utf8')) as { chain: { name: string }[]; parameters: { name: string; value: unknown }[] };
    expect(json.chain.map((l) => l.name)).toEqual(['MI_Fixture', 'M_Fixture']);
    // CUE4Parse's FixtureRenderableAssetTests.cs
    expect(json.parameters.find((p) => p.name === 'FixtureRoughness')!.value).toBe(0.8125);
  });
});

describe("the app's export, format 'convert', of a UT2004 static mesh package (.usx)", () => {
  // UE2's StaticMesh shares UE4's class name: the mesh kind was offered for it, its tab failed
  // "read by the UE1/2 reader" and the export of the whole .usx failed, its textures with it.
  it('offers its textures and no mesh tab, and writes every texture', async () => {
    const backend = new Backend({ configDir: await makeTempDir(), dialogs: { pickFolder: async () => null, pickFile: async () => null }, info: { name: 'PakScope', version: '0', electron: null, chrome: null, mode: 'web' }, anyPath: true });
    try {
      const { id } = await backend.openInstall({ path: corpus('legacy/ut2004_tablechairs.usx') });
      const view = await backend.openPackage({ installId: id, path: 'ut2004_tablechairs.usx' });
      expect(view.totals.exports).toBe(14); // MANIFEST.tsv: Exports=14
      const meshes = view.model.exports.filter((e) => e.class === 'StaticMesh').map((e) => e.name);
      expect(meshes).toEqual(['cafetable', 'chair1', 'coffetab', 'chairplain', 'tablesmall', 'tablebig']);
      expect(view.assets.map((a) => a.kind)).not.toContain('mesh');
      const textures = view.assets.filter((a) => a.kind === 'texture').map((a) => a.name);
      expect(textures).toEqual(expect.arrayContaining(['wooddark', 'coffeetab', 'chairskin', 'cafetable', 'Wall']));
      const out = join(await makeTempDir(), 'out');
      const { result } = await runExport(backend, { installId: id, paths: ['ut2004_tablechairs.usx'], destination: out, format: 'convert', output: 'folder', conflict: 'skip' });
      expect([result.failedCount, result.files]).toEqual([0, textures.length]);
    } finally {
      await backend.close();
    }
  });
});

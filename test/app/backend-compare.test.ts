/**
 * Comparing two builds through the app's API (backend/compare.ts) on the cue58 Patch fixture: the
 * base container against the folder with its _P patch. The merged tree marks the patched file and
 * counts it in every folder above; the package's two sides differ where CUE4Parse's
 * FixturePatchPrecedenceTests say (Integer 100 -> 200); the change list as CSV and JSON, a moved
 * file with its size (in-memory builds).
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Backend } from '../../src/backend/backend.js';
import { CompareService, type ComparedSide } from '../../src/backend/compare.js';
import type { Archive, ArchiveFile } from '../../src/core/archive.js';
import { Install } from '../../src/core/install/install.js';
import { validateRequest } from '../../src/shared/api.js';
import { corpus } from '../support/corpus.js';

const PATCH_PAK = corpus('cue58/Patch/Pak');
const TARGET = 'CUE4ParseFixtures/Content/PatchFixtures/DA_PatchTarget.uasset';

let configDir: string;
let backend: Backend;
beforeAll(async () => {
  configDir = await mkdtemp(join(tmpdir(), 'pakscope-compare-'));
  backend = new Backend({ configDir, dialogs: { pickFolder: async () => null, pickFile: async () => null }, info: { name: 'PakScope', version: '0', electron: null, chrome: null, mode: 'web' }, anyPath: true });
});
afterAll(async () => {
  await backend.close();
  await rm(configDir, { recursive: true, force: true });
});

describe('comparing two builds in the app', () => {
  it('the patched files marked in the merged tree, with counts per folder; the package side by side; the change list', async () => {
    const oldI = await backend.openInstall({ path: `${PATCH_PAK}/CUE4ParseFixtures-PatchBase.pak` });
    const newI = await backend.openInstall({ path: PATCH_PAK });
    const s = await backend.compareInstalls(validateRequest('compareInstalls', { oldId: oldI.id, newId: newI.id }));
    expect(s).toMatchObject({ added: 0, removed: 0, changed: 2, moved: 0, unchanged: 2, unreadable: [] });

    const top = await backend.comparisonDir({ comparisonId: s.comparisonId, path: '' });
    expect(top.map((e) => [e.name, e.diff])).toEqual([['CUE4ParseFixtures', { status: 'changed', added: 0, removed: 0, changed: 2, moved: 0 }]]);
    const folder = await backend.comparisonDir({ comparisonId: s.comparisonId, path: 'CUE4ParseFixtures/Content/PatchFixtures' });
    expect(folder.map((e) => [e.name, e.diff?.status, e.diff?.oldSize, e.size])).toEqual([
      ['DA_PatchReferencer.uasset', null, undefined, 1228],
      ['DA_PatchReferencer.uexp', null, undefined, 311],
      ['DA_PatchTarget.uasset', 'changed', 936, 937],
      ['DA_PatchTarget.uexp', 'changed', 192, 194],
    ]);
    const only = await backend.comparisonDir(validateRequest('comparisonDir', { comparisonId: s.comparisonId, path: 'CUE4ParseFixtures/Content/PatchFixtures', changesOnly: true }));
    expect(only.map((e) => e.name)).toEqual(['DA_PatchTarget.uasset', 'DA_PatchTarget.uexp']);

    const p = await backend.comparePackage({ comparisonId: s.comparisonId, path: TARGET });
    expect(p.changes).toContainEqual({ where: 'DA_PatchTarget.Integer', old: 100, new: 200 });
    expect(p.old!.properties[0]!.entries.find((e) => e.name === 'Integer')!.value).toBe(100);
    expect(p.new!.properties[0]!.entries.find((e) => e.name === 'Integer')!.value).toBe(200);
    expect(JSON.parse(p.new!.json).exports[0].properties.find((x: { name: string }) => x.name === 'BaseString').value).toBe('Patch version');
    expect(p.old!.names).toContain('Base_Target');
    expect(JSON.parse(JSON.stringify(p))).toEqual(p);

    const csv = await backend.comparisonChanges({ comparisonId: s.comparisonId, format: 'csv' });
    expect(csv.text.split('\r\n')).toEqual([
      'change,path,oldPath,oldSize,newSize',
      `changed,${TARGET},${TARGET},936,937`,
      'changed,CUE4ParseFixtures/Content/PatchFixtures/DA_PatchTarget.uexp,CUE4ParseFixtures/Content/PatchFixtures/DA_PatchTarget.uexp,192,194',
      '',
    ]);
    const json = JSON.parse((await backend.comparisonChanges({ comparisonId: s.comparisonId, format: 'json' })).text);
    expect(json).toMatchObject({ added: [], removed: [], moved: [], unchanged: 2 });
    expect(json.changed).toHaveLength(2);
  });

  it('an install compared with itself: a clear refusal', async () => {
    const i = await backend.openInstall({ path: PATCH_PAK });
    await expect(backend.compareInstalls({ oldId: i.id, newId: i.id })).rejects.toThrow(/^old and new are the same install \(.*Patch\/Pak\): nothing to compare/);
  });
});

describe('the change list of a comparison with a moved file', () => {
  /** An in-memory archive of text files (as test/diff/compare-installs.test.ts makes them). */
  function bytesArchive(path: string, files: Record<string, string>): Archive {
    const entries = Object.entries(files).map(([p, text]) => ({ p, bytes: new TextEncoder().encode(text) }));
    const list: ArchiveFile[] = entries.map((e, ref) => ({ path: e.p, size: e.bytes.length, ref }));
    return {
      kind: 'pak', path, name: path.replace(/\.pak$/, ''), mountPoint: '', status: { state: 'ok' },
      files: () => list,
      read: async (ref) => entries[ref]!.bytes,
      storage: (ref) => ({ offset: 0, size: list[ref]!.size, compressedSize: list[ref]!.size, codecs: { None: 1 }, encrypted: false }),
      verify: async () => null,
      describe: () => ({ kind: 'pak', path, fields: {} }),
      close: async () => undefined,
    };
  }
  const side = (id: string, install: Install): ComparedSide => ({
    id, root: id, install, packages: () => { throw new Error('not read here'); }, mappings: async () => undefined,
  });

  it('gives the moved file its size (the export of the added and changed files counts its bytes)', async () => {
    const a = new Install(['old'], [bytesArchive('old.pak', { 'G/A.uasset': 'alpha', 'G/B.uasset': 'beta!!' })], []);
    const b = new Install(['new'], [bytesArchive('new.pak', { 'G/A.uasset': 'alphA', 'G/Moved/B.uasset': 'beta!!', 'G/D.uasset': 'delta' })], []);
    const service = new CompareService();
    const s = await service.compare(side('old', a), side('new', b));
    expect(s).toMatchObject({ added: 1, changed: 1, moved: 1 });
    const json = JSON.parse(service.changes({ comparisonId: s.comparisonId, format: 'json' }).text);
    expect(json.moved).toEqual([{ oldPath: 'G/B.uasset', newPath: 'G/Moved/B.uasset', size: 6 }]);
    expect(json.added).toEqual([{ path: 'G/D.uasset', size: 5 }]);
    const csv = service.changes({ comparisonId: s.comparisonId, format: 'csv' }).text.split('\r\n');
    expect(csv).toContain('moved,G/Moved/B.uasset,G/B.uasset,6,6');
  });
});

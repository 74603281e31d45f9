// The backend's export: startExport / events / cancelExport / exportFileList on real installs,
// and the destination rules (absolute, outside the install, picked in Electron).
import { mkdir, readdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { unzipSync } from 'fflate';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Backend } from '../../src/backend/backend.js';
import type { Dialogs } from '../../src/backend/dialogs.js';
import { validateRequest, type ApiEvent, type ExportProgress, type ExportRequest, type ExportResult, type InstallSummary } from '../../src/shared/api.js';
import { corpus } from '../support/corpus.js';
import { writePak } from '../fixtures/pak-writer.js';
import { makeTempDir, removeTempDirs, writeContainer } from '../fixtures/toc-writer.js';
import { listTree, sha256 } from '../export/helpers.js';

const UNCOMPRESSED = corpus('cue58/IoStore/Tagged/Uncompressed');
const ANIMS = 'CUE4ParseFixtures/Content/Fixtures/Animations';
const AC_FIXTURE = `${ANIMS}/AC_Fixture.uasset`;
const DT = 'CUE4ParseFixtures/Content/Fixtures/DataTables/DT_AllProperties.uasset';

afterAll(removeTempDirs);

function makeBackend(configDir: string, dialogs: Dialogs = { pickFolder: async () => null, pickFile: async () => null }): Backend {
  return new Backend({ configDir, dialogs, info: { name: 'PakScope', version: '0', electron: null, chrome: null, mode: 'web' }, anyPath: true });
}

/** Starts an export and resolves its result and the progress events it sent. */
async function runExport(backend: Backend, req: ExportRequest, onStarted?: (id: string) => void): Promise<{ result: ExportResult; progress: ExportProgress[]; started: Awaited<ReturnType<Backend['startExport']>> }> {
  const events: ApiEvent[] = [];
  const off = backend.onEvent((e) => events.push(e));
  try {
    const started = await backend.startExport(req);
    onStarted?.(started.exportId);
    const done = (): ExportResult | undefined => {
      for (const e of events) if (e.type === 'export-done' && e.result.exportId === started.exportId) return e.result;
      return undefined;
    };
    const t0 = Date.now();
    while (!done()) {
      if (Date.now() - t0 > 20_000) throw new Error('export did not finish');
      await new Promise((r) => setTimeout(r, 5));
    }
    const progress = events.flatMap((e) => (e.type === 'export-progress' && e.exportId === started.exportId ? [e.progress] : []));
    return { result: done()!, progress, started };
  } finally {
    off();
  }
}

describe('export from the cue58 uncompressed IoStore install', () => {
  let backend: Backend;
  let summary: InstallSummary;
  const original = new Map<string, Uint8Array>();

  beforeAll(async () => {
    backend = makeBackend(await makeTempDir());
    summary = await backend.openInstall({ path: UNCOMPRESSED });
    for (const e of await backend.listDir({ installId: summary.id, path: ANIMS })) {
      original.set(e.path, (await backend.readFile({ installId: summary.id, path: e.path })).bytes);
    }
    original.set(DT, (await backend.readFile({ installId: summary.id, path: DT })).bytes);
  });
  afterAll(() => backend.close());

  const base = (destination: string): ExportRequest => ({
    installId: summary.id, paths: [DT, ANIMS], destination, format: 'raw', output: 'folder', conflict: 'skip',
  });

  it('writes a file and a folder byte for byte, with progress to the end', async () => {
    const out = join(await makeTempDir(), 'out');
    const { result, progress, started } = await runExport(backend, base(out));
    expect(started).toMatchObject({ target: out, filesTotal: 8, bytesTotal: [...original.values()].reduce((n, b) => n + b.length, 0) });
    expect(result).toMatchObject({ target: out, files: 8, cancelled: false, failedCount: 0, skippedCount: 0, failed: [], skipped: [] });
    expect(result.error).toBeUndefined();
    expect(await listTree(out)).toEqual([...original.keys()].sort());
    for (const [path, bytes] of original) expect(sha256(await readFile(join(out, path))), path).toBe(sha256(bytes));
    expect(result.bytes).toBe(started.bytesTotal);
    expect(progress.at(-1)).toMatchObject({ filesDone: 8, filesTotal: 8, bytesDone: started.bytesTotal, bytesTotal: started.bytesTotal });
  });

  it('writes one .zip named after the install, holding the same bytes', async () => {
    const dir = await makeTempDir();
    const { result } = await runExport(backend, { ...base(dir), output: 'zip' });
    expect(result.target).toBe(join(dir, 'Uncompressed-export.zip'));
    expect(result.files).toBe(8);
    expect(await readdir(dir)).toEqual(['Uncompressed-export.zip']);
    const zip = unzipSync(new Uint8Array(await readFile(result.target)));
    expect(Object.keys(zip).sort()).toEqual([...original.keys()].sort());
    for (const [path, bytes] of original) expect(sha256(zip[path]!), path).toBe(sha256(bytes));
    // keep-both never touches the first zip: a numbered one is written beside it.
    const again = await runExport(backend, { ...base(dir), output: 'zip', conflict: 'keep-both', zipName: 'Uncompressed-export' });
    expect(again.result.target).toBe(join(dir, 'Uncompressed-export (2).zip'));
    expect((await readdir(dir)).sort()).toEqual(['Uncompressed-export (2).zip', 'Uncompressed-export.zip']);
  });

  it('exports only the files matching the tree filter below a folder', async () => {
    const out = join(await makeTempDir(), 'out');
    const { result } = await runExport(backend, { ...base(out), paths: ['CUE4ParseFixtures/Content/Fixtures'], filter: '**/A?_Fixture.uasset' });
    expect(result.files).toBe(3);
    expect(await listTree(out)).toEqual([`${ANIMS}/AC_Fixture.uasset`, `${ANIMS}/AM_Fixture.uasset`, `${ANIMS}/AS_Fixture.uasset`]);
  });

  it('never overwrites silently: skip lists the file, keep-both numbers it, overwrite replaces it', async () => {
    const out = join(await makeTempDir(), 'out');
    await mkdir(join(out, ANIMS), { recursive: true });
    await writeFile(join(out, AC_FIXTURE), 'mine');
    const one = { ...base(out), paths: [AC_FIXTURE] };

    const skip = await runExport(backend, one);
    expect(skip.result).toMatchObject({ files: 0, skippedCount: 1, skipped: [{ path: AC_FIXTURE, reason: 'exists in the output folder (not overwritten)' }] });
    expect(await readFile(join(out, AC_FIXTURE), 'utf8')).toBe('mine');

    const both = await runExport(backend, { ...one, conflict: 'keep-both' });
    expect(both.result).toMatchObject({ files: 1, skippedCount: 0 });
    expect(await readFile(join(out, AC_FIXTURE), 'utf8')).toBe('mine');
    expect(sha256(await readFile(join(out, ANIMS, 'AC_Fixture (2).uasset')))).toBe(sha256(original.get(AC_FIXTURE)!));

    const over = await runExport(backend, { ...one, conflict: 'overwrite' });
    expect(over.result).toMatchObject({ files: 1, skippedCount: 0 });
    expect(sha256(await readFile(join(out, AC_FIXTURE)))).toBe(sha256(original.get(AC_FIXTURE)!));
  });

  it('cancels at once: the export ends cancelled, before all files are written', async () => {
    const out = join(await makeTempDir(), 'out');
    const { result, started } = await runExport(backend, { ...base(out), paths: [] }, (id) => void backend.cancelExport({ exportId: id }));
    expect(started.filesTotal).toBe(111);
    expect(result.cancelled).toBe(true);
    expect(result.files).toBeLessThan(111);
    // No half-written file is left: whatever is there is whole.
    for (const p of await listTree(out).catch(() => [])) {
      expect(p).not.toMatch(/\.partial$/);
      const bytes = (await backend.readFile({ installId: summary.id, path: p })).bytes;
      expect(sha256(await readFile(join(out, p)))).toBe(sha256(bytes));
    }
    await backend.cancelExport({ exportId: started.exportId }); // finished: harmless
  });

  it('writes the file list as CSV and JSON, and keeps an existing one under keep-both', async () => {
    const dir = await makeTempDir();
    const req = { installId: summary.id, paths: [ANIMS], destination: dir, conflict: 'keep-both' as const };
    const csv = await backend.exportFileList({ ...req, format: 'csv' });
    expect(csv).toEqual({ path: join(dir, 'Uncompressed-files.csv'), files: 7 });
    const lines = (await readFile(csv.path!, 'utf8')).trimEnd().split('\r\n');
    expect(lines[0]).toBe('path,size,container,chunkId,chunkType');
    expect(lines[1]).toBe(`${AC_FIXTURE},1721,CUE4ParseFixtures-Minimal-Uncompressed-Windows.utoc,e8620d51d9463ec000000001,ExportBundleData`);
    expect(lines).toHaveLength(8);
    const json = await backend.exportFileList({ ...req, format: 'json' });
    const parsed = JSON.parse(await readFile(json.path!, 'utf8')) as { files: { path: string; size: number }[] };
    expect(parsed.files.map((f) => f.path)).toEqual([...original.keys()].filter((p) => p.startsWith(ANIMS)));
    const second = await backend.exportFileList({ ...req, format: 'csv' });
    expect(second.path).toBe(join(dir, 'Uncompressed-files (2).csv'));
    const skipped = await backend.exportFileList({ ...req, format: 'csv', conflict: 'skip' });
    expect(skipped).toEqual({ path: null, files: 7 });
  });

  it('refuses destinations that are relative, inside the install, or hold its containers', async () => {
    const req = base('');
    await expect(backend.startExport(req)).rejects.toThrow('choose a destination folder');
    await expect(backend.startExport({ ...req, destination: 'relative/out' })).rejects.toThrow(/must be an absolute path .* not "relative\/out"/);
    await expect(backend.startExport({ ...req, destination: join(UNCOMPRESSED, 'Export') })).rejects.toThrow(`is inside the install (${UNCOMPRESSED})`);
    await expect(backend.startExport({ ...req, destination: corpus('cue58') })).rejects.toThrow(/holds containers of this install/);
    await expect(backend.startExport({ ...req, destination: '/tmp/x\u0007y' })).rejects.toThrow(/control character/);
    // NUL never reaches the backend: the request is refused when validated.
    expect(() => validateRequest('startExport', { ...req, destination: '/tmp/a\0b' })).toThrow(/field "destination"/);
    expect(() => validateRequest('startExport', { ...req, destination: '/tmp/a', format: 'exe' })).toThrow(/field "format"/);
    expect(() => validateRequest('startExport', { ...req, destination: '/tmp/a', paths: ['a\0b'] })).toThrow(/field "paths"/);
    const file = join(await makeTempDir(), 'a-file');
    await writeFile(file, 'x');
    await expect(backend.startExport({ ...req, destination: file })).rejects.toThrow(`${file} is a file, not a folder`);
    await expect(backend.startExport({ ...req, destination: await makeTempDir(), output: 'zip', zipName: 'CON' })).rejects.toThrow(/reserved Windows device name/);
  });

  // Issue 25, finding 1: a zip name is one file name in the destination, never a path out of it.
  it('refuses zip names that leave the destination, and writes nothing outside it', async () => {
    const parent = await makeTempDir();
    const dest = join(parent, 'a', 'b');
    await mkdir(dest, { recursive: true });
    const req = { ...base(dest), output: 'zip' as const };
    for (const zipName of ['../../evil.zip', '../evil', `../${UNCOMPRESSED}/x.zip`, 'sub/x.zip', '..', 'a\\b.zip', '/tmp/evil.zip']) {
      await expect(backend.startExport({ ...req, zipName }), zipName).rejects.toThrow(/the zip name .* cannot be used/);
    }
    expect(await readdir(parent)).toEqual(['a']);
    expect(await readdir(join(parent, 'a'))).toEqual(['b']);
    expect(await readdir(dest)).toEqual([]);
  });
});

describe('export: picked folders only in Electron', () => {
  it('refuses a destination that was not chosen in the folder dialog', async () => {
    const picked = await makeTempDir();
    const backend = makeBackend(await makeTempDir(), { pickFolder: async () => null, pickFile: async () => null, pickExportFolder: async () => picked });
    try {
      const s = await backend.openInstall({ path: UNCOMPRESSED });
      const req: ExportRequest = { installId: s.id, paths: [AC_FIXTURE], destination: picked, format: 'raw', output: 'folder', conflict: 'skip' };
      await expect(backend.startExport({ ...req, destination: await makeTempDir() })).rejects.toThrow(/was not chosen in the folder dialog/);
      await expect(backend.startExport(req)).rejects.toThrow(/was not chosen in the folder dialog/);
      expect(await backend.pickExportFolder()).toBe(picked);
      const { result } = await runExport(backend, req);
      expect(result.files).toBe(1);
      expect(await listTree(picked)).toEqual([AC_FIXTURE]);
    } finally {
      await backend.close();
    }
  });
});

describe('export of a hostile and partly encrypted install', () => {
  it('refuses the hostile name, lists the encrypted file as failed, writes the rest', async () => {
    const dir = await makeTempDir();
    const text = (s: string) => new TextEncoder().encode(s);
    await writeContainer([
      { path: 'Game/good.txt', bytes: text('good'), chunkType: 'BulkData' },
      { path: 'Game/x/../../../evil.txt', bytes: text('evil'), chunkType: 'BulkData' },
    ], { version: 8, dir, name: 'Hostile-Windows' });
    const key = new Uint8Array(32).fill(7);
    const pak = writePak([
      { name: 'Secret/locked.txt', data: text('secret'.repeat(10)), encrypt: true },
      { name: 'Secret/open.txt', data: text('open') },
    ], { version: 11, mountPoint: '../../../Game/', key });
    await writeFile(join(dir, 'Secret-Windows.pak'), pak.bytes);

    const backend = makeBackend(await makeTempDir());
    try {
      const s = await backend.openInstall({ path: dir });
      expect(s.fileCount).toBe(4);
      const parent = await makeTempDir();
      const out = join(parent, 'out');
      const { result } = await runExport(backend, { installId: s.id, paths: [], destination: out, format: 'raw', output: 'folder', conflict: 'skip' });
      expect(result.files).toBe(2);
      expect(result.failedCount).toBe(2);
      expect(result.failed[0]).toMatchObject({ path: 'Game/Secret/locked.txt' });
      expect(result.failed[0]!.error).toMatch(/encrypted .*no AES key given/);
      expect(result.failed[1]).toMatchObject({ path: 'Game/x/../../../evil.txt' });
      expect(result.failed[1]!.error).toMatch(/^refused: parent folder segment/);
      expect(await listTree(out)).toEqual(['Game/Secret/open.txt', 'Game/good.txt']);
      expect(await readdir(parent)).toEqual(['out']); // nothing escaped the folder
    } finally {
      await backend.close();
    }
  });
});

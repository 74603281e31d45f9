import { blake3 } from 'hash-wasm';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Backend, MAX_READ } from '../../src/backend/backend.js';
import { MAX_RECENT, RecentList } from '../../src/backend/recent.js';
import { isTextPath } from '../../src/backend/text-types.js';
import type { ApiEvent, InstallSummary } from '../../src/shared/api.js';
import { corpus, CUE58_AES_KEY } from '../support/corpus.js';

const UNCOMPRESSED = corpus('cue58/IoStore/Tagged/Uncompressed');
const TAGGED = corpus('cue58/IoStore/Tagged');
const CONTAINER = 'CUE4ParseFixtures-Minimal-Uncompressed-Windows';
const AC_FIXTURE = 'CUE4ParseFixtures/Content/Fixtures/Animations/AC_Fixture.uasset';

const temps: string[] = [];
async function tempDir(): Promise<string> {
  const d = await mkdtemp(join(tmpdir(), 'pakscope-backend-'));
  temps.push(d);
  return d;
}
afterAll(async () => {
  await Promise.all(temps.map((d) => rm(d, { recursive: true, force: true })));
});

function makeBackend(configDir: string, dialogs = { pickFolder: async () => '/picked/folder', pickFile: async () => null }): Backend {
  return new Backend({ configDir, dialogs, info: { name: 'PakScope', version: '9.9.9', electron: null, chrome: null, mode: 'web' }, anyPath: true });
}

describe('Backend on the cue58 uncompressed IoStore install', () => {
  let backend: Backend;
  let summary: InstallSummary;
  let configDir: string;
  const events: ApiEvent[] = [];

  beforeAll(async () => {
    configDir = await tempDir();
    backend = makeBackend(configDir);
    backend.onEvent((e) => events.push(e));
    summary = await backend.openInstall({ path: UNCOMPRESSED });
  });
  afterAll(() => backend.close());

  it('summarizes the install and its one container', () => {
    expect(summary.root).toBe(UNCOMPRESSED);
    expect(summary.fileCount).toBe(111);
    expect(summary.totalSize).toBe(2_465_829);
    expect(summary.containers).toHaveLength(1);
    const c = summary.containers[0]!;
    expect(c).toMatchObject({ name: CONTAINER, kind: 'iostore', fileCount: 111, status: { state: 'ok' } });
    expect(c.path).toBe(join(UNCOMPRESSED, `${CONTAINER}.utoc`));
    expect(Object.keys(c.fields).length).toBeGreaterThan(0);
  });

  it('reports progress for this install, ending with done', () => {
    const progress = events.filter((e) => e.type === 'progress');
    expect(progress.length).toBeGreaterThan(0);
    expect(progress.every((e) => e.type === 'progress' && e.installId === summary.id)).toBe(true);
    expect(progress.at(-1)).toMatchObject({ phase: 'done', done: 111, total: 111 });
  });

  it('answers the same install when the same path is opened again', async () => {
    const again = await backend.openInstall({ path: `${UNCOMPRESSED}/` });
    expect(again.id).toBe(summary.id);
  });

  it('lists the top level and folders with file counts and total sizes', async () => {
    const top = await backend.listDir({ installId: summary.id, path: '' });
    expect(top).toEqual([{ name: 'CUE4ParseFixtures', path: 'CUE4ParseFixtures', isDir: true, size: 2_465_829, fileCount: 111 }]);
    const anims = await backend.listDir({ installId: summary.id, path: '/CUE4ParseFixtures/Content/Fixtures/Animations/' });
    expect(anims.map((e) => e.name)).toEqual([
      'AC_Fixture.uasset', 'AM_Fixture.uasset', 'AS_Additive.uasset', 'AS_Fixture.uasset', 'BS_Fixture.uasset', 'PA_Fixture.uasset', 'SKEL_Fixture.uasset',
    ]);
    expect(anims[0]).toEqual({ name: 'AC_Fixture.uasset', path: AC_FIXTURE, isDir: false, size: 1721, fileCount: 1, container: CONTAINER, overrides: 0 });
  });

  it('filters by substring and by glob, with totals of the matches', async () => {
    const sub = await backend.listDir({ installId: summary.id, path: '', filter: '.uasset' });
    expect(sub[0]).toMatchObject({ name: 'CUE4ParseFixtures', fileCount: 89 });
    const all = await backend.listDir({ installId: summary.id, path: 'CUE4ParseFixtures/Content/Fixtures/Animations' });
    const matching = all.filter((e) => /^A._Fixture\.uasset$/.test(e.name));
    expect(matching.map((e) => e.name)).toEqual(['AC_Fixture.uasset', 'AM_Fixture.uasset', 'AS_Fixture.uasset']);
    const glob = await backend.listDir({ installId: summary.id, path: 'CUE4ParseFixtures/Content/Fixtures', filter: '**/Animations/A*_Fixture.uasset' });
    expect(glob).toEqual([{
      name: 'Animations', path: 'CUE4ParseFixtures/Content/Fixtures/Animations', isDir: true, fileCount: 3,
      size: matching.reduce((n, e) => n + e.size, 0),
    }]);
    const none = await backend.listDir({ installId: summary.id, path: '', filter: 'no-such-file-anywhere' });
    expect(none).toEqual([]);
  });

  it('describes a file: container, chunk id and type, storage', async () => {
    const d = await backend.fileDetails({ installId: summary.id, path: AC_FIXTURE });
    expect(d).toMatchObject({
      path: AC_FIXTURE,
      size: 1721,
      container: CONTAINER,
      containerPath: join(UNCOMPRESSED, `${CONTAINER}.utoc`),
      chunkId: 'e8620d51d9463ec000000001',
      chunkType: 'ExportBundleData',
      overridden: [],
      isText: false,
    });
    expect(d.storage).toMatchObject({ offset: 0x530000, size: 1721, compressedSize: 1721, codecs: { None: 1 }, encrypted: false });
    expect(d.storage.storedHash).toBe('1a3c5b0f03f9a7c101d70fdd2a47cfa4b82eeebc');
  });

  it('reads the bytes whose BLAKE3 the container stores, and ranges of them', async () => {
    const whole = await backend.readFile({ installId: summary.id, path: AC_FIXTURE });
    expect(whole.total).toBe(1721);
    expect(whole.bytes.length).toBe(1721);
    expect((await blake3(whole.bytes)).slice(0, 40)).toBe('1a3c5b0f03f9a7c101d70fdd2a47cfa4b82eeebc');
    const part = await backend.readFile({ installId: summary.id, path: AC_FIXTURE, offset: 100, length: 50 });
    expect(part.total).toBe(1721);
    expect([...part.bytes]).toEqual([...whole.bytes.subarray(100, 150)]);
    const tail = await backend.readFile({ installId: summary.id, path: AC_FIXTURE, offset: 1700, length: 1000 });
    expect(tail.bytes.length).toBe(21);
    await expect(backend.readFile({ installId: summary.id, path: AC_FIXTURE, offset: 1722 })).rejects.toThrow(/past the end/);
  });

  it('never answers more than MAX_READ bytes', async () => {
    expect(MAX_READ).toBe(16 * 1024 * 1024);
    const r = await backend.readFile({ installId: summary.id, path: AC_FIXTURE, length: Number.MAX_SAFE_INTEGER });
    expect(r.bytes.length).toBe(1721);
  });

  it('verifies the stored hash', async () => {
    const check = await backend.verifyFile({ installId: summary.id, path: AC_FIXTURE });
    expect(check).toMatchObject({ ok: true, algorithm: 'BLAKE3', expected: '1a3c5b0f03f9a7c101d70fdd2a47cfa4b82eeebc' });
  });

  it('names what is wrong: an unknown file, an unknown install', async () => {
    await expect(backend.fileDetails({ installId: summary.id, path: 'Nope/x.uasset' })).rejects.toThrow('no file "Nope/x.uasset" in this install');
    await expect(backend.listDir({ installId: 'nope', path: '' })).rejects.toThrow('no open install with id "nope"');
  });

  it('remembers the install in recent.json, most recent first', async () => {
    expect(await backend.recentInstalls()).toEqual([UNCOMPRESSED]);
    const stored = JSON.parse(await readFile(join(configDir, 'recent.json'), 'utf8')) as { recent: string[] };
    expect(stored.recent).toEqual([UNCOMPRESSED]);
  });

  it('reports app info and delegates pickPath to the dialogs', async () => {
    expect(await backend.appInfo()).toEqual({ name: 'PakScope', version: '9.9.9', electron: null, chrome: null, mode: 'web', node: process.versions.node });
    expect(await backend.pickPath({ kind: 'folder' })).toBe('/picked/folder');
    expect(await backend.pickPath({ kind: 'file' })).toBeNull();
  });

  it('closes an install: its id no longer answers', async () => {
    const other = makeBackend(await tempDir());
    const s = await other.openInstall({ path: UNCOMPRESSED });
    await other.closeInstall({ installId: s.id });
    await expect(other.listDir({ installId: s.id, path: '' })).rejects.toThrow(/no open install/);
    await other.closeInstall({ installId: s.id }); // twice is harmless
  });
});

describe('Backend with encrypted and broken containers', () => {
  it('marks a container locked without its key and opens it with the key', async () => {
    const backend = makeBackend(await tempDir());
    try {
      const locked = await backend.openInstall({ path: TAGGED });
      const enc = locked.containers.find((c) => c.name === 'CUE4ParseFixtures-Minimal-OodleEncrypted-Windows');
      expect(enc?.status.state).toBe('locked');
      expect(enc?.status.state === 'locked' && enc.status.message).toMatch(/no AES key/);
      const unlocked = await backend.openInstall({ path: TAGGED, aesKeys: [CUE58_AES_KEY] });
      expect(unlocked.id).not.toBe(locked.id); // other keys: another install
      expect(unlocked.containers.find((c) => c.name === 'CUE4ParseFixtures-Minimal-OodleEncrypted-Windows')?.status.state).toBe('ok');
      // The 111 files are in each of the five project containers (global.utoc lists none):
      // the winner overrides the other four.
      const withFiles = unlocked.containers.filter((c) => c.fileCount > 0);
      expect(withFiles.map((c) => c.fileCount)).toEqual([111, 111, 111, 111, 111]);
      const anims = await backend.listDir({ installId: unlocked.id, path: 'CUE4ParseFixtures/Content/Fixtures/Animations' });
      expect(anims[0]?.overrides).toBe(4);
      const d = await backend.fileDetails({ installId: unlocked.id, path: AC_FIXTURE });
      expect(d.overridden.length).toBe(anims[0]!.overrides);
      // Asked for by path alone (the browser host opened it with --aes-key, then the page asks):
      // the unlocked install, not a new locked one.
      const byPath = await backend.openInstall({ path: TAGGED });
      expect(byPath.id).toBe(unlocked.id);
      expect(byPath.containers.find((c) => c.name === 'CUE4ParseFixtures-Minimal-OodleEncrypted-Windows')?.status.state).toBe('ok');
    } finally {
      await backend.close();
    }
  });

  it('refuses a malformed AES key before opening anything', async () => {
    const backend = makeBackend(await tempDir());
    await expect(backend.openInstall({ path: UNCOMPRESSED, aesKeys: ['0x1234'] })).rejects.toThrow(/not 32 bytes/);
  });

  it('shows a damaged container as an error that names the file, structure and offset', async () => {
    const dir = await tempDir();
    const bad = join(dir, 'Broken-Windows.utoc');
    await writeFile(bad, Buffer.alloc(200, 0x41));
    const backend = makeBackend(await tempDir());
    try {
      // Opened alone, the file is the install: the open fails with the parser's message.
      await expect(backend.openInstall({ path: bad })).rejects.toThrow(`${bad}: utoc header at byte 0: magic is`);
      // Opened with its folder, it shows in the container list as an error.
      const s = await backend.openInstall({ path: dir });
      expect(s.fileCount).toBe(0);
      const c = s.containers.find((x) => x.path === bad);
      expect(c?.status.state).toBe('error');
      const message = c?.status.state === 'error' ? c.status.message : '';
      expect(message).toContain('Broken-Windows.utoc');
      expect(message).toMatch(/at byte \d+/);
    } finally {
      await backend.close();
    }
  });

  it('says a folder has no game files, and what it looked for', async () => {
    const dir = await tempDir();
    await mkdir(join(dir, 'Saved'));
    await writeFile(join(dir, 'Saved', 'notes.txt'), 'not a game file');
    const backend = makeBackend(await tempDir());
    try {
      const open = backend.openInstall({ path: dir });
      await expect(open).rejects.toThrow(`no game files in ${dir}: looked for IoStore containers (.utoc with its .ucas), .pak archives and loose packages`);
      await expect(open).rejects.toThrow(/in it and every folder below it$/);
      expect(await backend.recentInstalls()).toEqual([]);
    } finally {
      await backend.close();
    }
  });

  it('fails to open a path that does not exist, and keeps nothing of it', async () => {
    const backend = makeBackend(await tempDir());
    const missing = join(await tempDir(), 'not-here');
    await expect(backend.openInstall({ path: missing })).rejects.toThrow(`cannot open ${missing}: no such file or folder`);
    expect(await backend.recentInstalls()).toEqual([]);
    // Nothing is kept: the same path fails again (not a cached install).
    await expect(backend.openInstall({ path: missing })).rejects.toThrow(/no such file/);
    await expect(backend.openInstall({ path: '  ' })).rejects.toThrow(/no path given/);
  });
});

describe('RecentList', () => {
  it('keeps the 10 most recent paths, newest first, without duplicates', async () => {
    const dir = await tempDir();
    const recent = new RecentList(dir);
    for (let i = 0; i < 12; i++) await recent.add(`/games/${i}`);
    await recent.add('/games/5');
    const list = await recent.list();
    expect(list).toHaveLength(MAX_RECENT);
    expect(list[0]).toBe('/games/5');
    expect(list[1]).toBe('/games/11');
    expect(list.filter((p) => p === '/games/5')).toHaveLength(1);
    expect(list).not.toContain('/games/0');
  });

  it('reads a damaged file as an empty list', async () => {
    const dir = await tempDir();
    await writeFile(join(dir, 'recent.json'), '{not json');
    expect(await new RecentList(dir).list()).toEqual([]);
    await writeFile(join(dir, 'recent.json'), JSON.stringify({ recent: ['/a', 3, null, '/b'] }));
    expect(await new RecentList(dir).list()).toEqual(['/a', '/b']);
  });
});

describe('isTextPath', () => {
  it('opens config and text files in the text view, not packages', () => {
    for (const p of ['Game/Config/DefaultGame.ini', 'a.JSON', 'x/y.uproject', 'p.uplugin', 'n.txt', 'l.csv', 'r.xml', 'log.log', 'README.md', 'c.yaml', 's.lua']) {
      expect(isTextPath(p), p).toBe(true);
    }
    for (const p of ['A.uasset', 'B.uexp', 'C.ubulk', 'D.umap', 'shader.ushaderbytecode', 'noext', '.ini/x']) {
      expect(isTextPath(p), p).toBe(false);
    }
  });
});

// Issue 25, finding 4: a page that runs foreign script must not read the user's files through the
// API. Only paths the user gave open; the answer to any other does not tell whether it exists.
describe('what the page may ask the backend to open', () => {
  const info = { name: 'PakScope', version: '0', electron: null, chrome: null, mode: 'web' as const };
  const strict = (configDir: string, dialogs: ConstructorParameters<typeof Backend>[0]['dialogs'] = { pickFolder: async () => null, pickFile: async () => null }) =>
    new Backend({ configDir, dialogs, info });

  it('refuses a path the user did not give, the same way whether it exists or not, and remembers nothing', async () => {
    const configDir = await tempDir();
    const backend = strict(configDir);
    try {
      const answers: string[] = [];
      for (const path of ['/etc/passwd', '/no/such/thing', UNCOMPRESSED]) {
        const err = await backend.openInstall({ path }).then(() => null, (e: Error & { status?: number }) => e);
        expect(err, path).toMatchObject({ name: 'NeedsConfirmation', status: 403 });
        answers.push(err!.message.replace(path, '<path>'));
      }
      expect(new Set(answers).size).toBe(1);
      expect(await backend.recentInstalls()).toEqual([]);
    } finally {
      await backend.close();
    }
  });

  it('opens what the user picked, what came from outside the page, the recent list, and a path confirmed in the page', async () => {
    const configDir = await tempDir();
    const picked = strict(configDir, { pickFolder: async () => UNCOMPRESSED, pickFile: async () => null });
    try {
      expect(await picked.pickPath({ kind: 'folder' })).toBe(UNCOMPRESSED);
      expect((await picked.openInstall({ path: UNCOMPRESSED })).root).toBe(UNCOMPRESSED);
    } finally {
      await picked.close();
    }
    // A second run: the recent list holds it.
    const again = strict(configDir);
    try {
      expect((await again.openInstall({ path: UNCOMPRESSED })).root).toBe(UNCOMPRESSED);
      await expect(again.openInstall({ path: TAGGED })).rejects.toThrow(/was not chosen by you/);
      again.grantPath(TAGGED); // the command line, a drop, `npm run web <path>`
      expect((await again.openInstall({ path: TAGGED })).root).toBe(TAGGED);
    } finally {
      await again.close();
    }
    // No native dialog (the browser host): the page's own confirmation counts.
    const typed = strict(await tempDir());
    try {
      expect((await typed.openInstall({ path: UNCOMPRESSED, confirmed: true })).root).toBe(UNCOMPRESSED);
    } finally {
      await typed.close();
    }
  });

  it('asks the native question where there is one (Electron), and then ignores the page\'s "confirmed"', async () => {
    const asked: string[] = [];
    let answer = false;
    const backend = strict(await tempDir(), {
      pickFolder: async () => null, pickFile: async () => null,
      confirmOpen: async (path, use) => { asked.push(`${use} ${path}`); return answer; },
    });
    try {
      await expect(backend.openInstall({ path: UNCOMPRESSED, confirmed: true })).rejects.toThrow(/was not chosen by you/);
      answer = true;
      expect((await backend.openInstall({ path: UNCOMPRESSED })).root).toBe(UNCOMPRESSED);
      expect(asked).toEqual([`install ${UNCOMPRESSED}`, `install ${UNCOMPRESSED}`]);
    } finally {
      await backend.close();
    }
  });

  it('refuses device files and other non-regular files with a 4xx, even when confirmed', async () => {
    const backend = strict(await tempDir());
    try {
      for (const path of ['/dev/zero', '/dev/null']) {
        await expect(backend.openInstall({ path, confirmed: true }), path).rejects.toMatchObject({
          name: 'RequestError', status: 400, message: `${path} is not a folder or a regular file (a device, a pipe or a socket cannot be opened)`,
        });
      }
    } finally {
      await backend.close();
    }
  });

  it('setMappings does not tell whether a path exists or what it is', async () => {
    const backend = strict(await tempDir(), { pickFolder: async () => UNCOMPRESSED, pickFile: async () => null });
    try {
      await backend.pickPath({ kind: 'folder' });
      const { id } = await backend.openInstall({ path: UNCOMPRESSED });
      const answers: string[] = [];
      for (const path of ['/etc/passwd', '/etc', '/no/such/file.usmap', '/dev/zero']) {
        const err = await backend.setMappings({ installId: id, path }).then(() => null, (e: Error & { status?: number }) => e);
        expect(err, path).toMatchObject({ name: 'NeedsConfirmation', status: 403 });
        answers.push(err!.message.replace(path, '<path>'));
      }
      expect(new Set(answers).size).toBe(1);
      expect(await backend.mappingsStatus({ installId: id })).toMatchObject({ path: null });
    } finally {
      await backend.close();
    }
  });
});

// AES keys in the app: the encrypted cue58 containers unlock in the open install when their key
// is added, wrong keys are refused with the reason, and working keys are remembered per install
// (keys.json mode 0600 in browser mode, safeStorage-encrypted keys.bin in Electron).
import { chmod, readFile, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { Backend } from '../../src/backend/backend.js';
import { FileKeyStore, SafeStorageKeyStore, type KeyStore } from '../../src/backend/keys.js';
import { startApp, type AppConfig } from '../../src/main/app.js';
import type { InstallSummary } from '../../src/shared/api.js';
import { corpus, CUE58_AES_KEY } from '../support/corpus.js';
import { makeTempDir, removeTempDirs } from '../fixtures/toc-writer.js';
import { FakeShell } from './fake-electron.js';

afterAll(removeTempDirs);

const IOSTORE = corpus('cue58/IoStore/Tagged');
const LEGACY = corpus('cue58/LegacyPak/Tagged');
const IOSTORE_ENCRYPTED = 'CUE4ParseFixtures-Minimal-OodleEncrypted-Windows';
const PAK_ENCRYPTED = 'CUE4ParseFixtures-Legacy-Tagged-OodleEncrypted';
const WRONG_KEY = `0x${'11'.repeat(32)}`;
const KEY_HEX = CUE58_AES_KEY.slice(2);
const KEY_BASE64 = Buffer.from(KEY_HEX, 'hex').toString('base64');
const ANIMS = 'CUE4ParseFixtures/Content/Fixtures/Animations';
const isWindows = process.platform === 'win32';

function makeBackend(configDir: string, keyStore?: KeyStore): Backend {
  return new Backend({
    configDir,
    dialogs: { pickFolder: async () => null, pickFile: async () => null },
    info: { name: 'PakScope', version: '0', electron: null, chrome: null, mode: 'web' },
    ...(keyStore ? { keyStore } : {}),
    anyPath: true,
  });
}

const container = (s: InstallSummary, name: string) => s.containers.find((c) => c.name === name)!;

describe('adding keys to an open install', () => {
  it('unlocks the encrypted cue58 IoStore container without reopening the install, and remembers the key', async () => {
    const configDir = await makeTempDir();
    const backend = makeBackend(configDir);
    try {
      const before = await backend.openInstall({ path: IOSTORE });
      expect(container(before, IOSTORE_ENCRYPTED).status.state).toBe('locked');
      expect(container(before, IOSTORE_ENCRYPTED).fileCount).toBe(0);
      const status = await backend.keyStatus({ installId: before.id });
      expect(status.locked).toEqual([{
        name: IOSTORE_ENCRYPTED, path: join(IOSTORE, 'OodleEncrypted', `${IOSTORE_ENCRYPTED}.utoc`), kind: 'iostore',
        keyGuid: '0'.repeat(32), reason: 'encrypted with the zero key GUID (main key); no AES key given for it',
      }]);
      expect(status.keys).toEqual([]);
      expect(status.storage).toBe(`${join(configDir, 'keys.json')} (readable only by you)`);
      const anims = await backend.listDir({ installId: before.id, path: ANIMS });
      expect(anims[0]?.overrides).toBe(3); // four readable project containers hold it

      // A wrong key and a malformed one are refused with the reason; nothing is stored.
      const wrong = await backend.addKeys({ installId: before.id, keys: [WRONG_KEY, '0x1234'] });
      expect(wrong.checks).toEqual([
        { input: '0x1111…1111', ok: false, unlocked: [], message: `wrong key: it opens none of the 1 locked container (${IOSTORE_ENCRYPTED})` },
        { input: '0x1234', ok: false, unlocked: [], message: 'AES key "0x1234" is not 32 bytes as 64 hex digits or base64' },
      ]);
      expect(wrong.status.keys).toEqual([]);
      await expect(stat(join(configDir, 'keys.json'))).rejects.toThrow(/ENOENT/);
      // A key bound to another GUID is not even tried.
      const otherGuid = await backend.addKeys({ installId: before.id, keys: [`${'AB'.repeat(16)}:${CUE58_AES_KEY}`] });
      expect(otherGuid.checks[0]).toMatchObject({ ok: false, message: `no locked container uses key GUID ${'AB'.repeat(16)} (they use the main key (zero GUID))` });

      // The right key (base64 here) opens it: same install, more files, one more override.
      const added = await backend.addKeys({ installId: before.id, keys: [KEY_BASE64] });
      expect(added.checks).toEqual([{ input: '0x4355…3839', ok: true, unlocked: [IOSTORE_ENCRYPTED], message: `opens ${IOSTORE_ENCRYPTED}` }]);
      expect(added.saveError).toBeUndefined();
      expect(added.summary.id).toBe(before.id);
      expect(container(added.summary, IOSTORE_ENCRYPTED)).toMatchObject({ status: { state: 'ok' }, fileCount: 111 });
      expect(added.status.locked).toEqual([]);
      expect(added.status.keys).toEqual([{ id: expect.stringMatching(/^any-[0-9a-f]{16}$/), guid: null, label: '0x4355…3839' }]);
      const after = await backend.listDir({ installId: before.id, path: ANIMS });
      expect(after[0]?.overrides).toBe(4);
      const ac = await backend.fileDetails({ installId: before.id, path: `${ANIMS}/AC_Fixture.uasset` });
      expect(ac.overridden.map((o) => o.container)).toContain(IOSTORE_ENCRYPTED);
      // Opening the same path again answers the unlocked install.
      expect(container(await backend.openInstall({ path: IOSTORE }), IOSTORE_ENCRYPTED).status.state).toBe('ok');
      // Adding it again: nothing left to unlock.
      const again = await backend.addKeys({ installId: before.id, keys: [CUE58_AES_KEY] });
      expect(again.checks[0]).toMatchObject({ ok: false, message: 'not needed: no container of this install is locked' });

      // Stored canonically, readable only by the user.
      const file = join(configDir, 'keys.json');
      if (!isWindows) expect((await stat(file)).mode & 0o777).toBe(0o600);
      expect(JSON.parse(await readFile(file, 'utf8'))).toEqual({ version: 1, installs: { [IOSTORE]: [CUE58_AES_KEY] } });
    } finally {
      await backend.close();
    }

    // A new session: the remembered key applies when the install is opened.
    const next = makeBackend(configDir);
    try {
      const s = await next.openInstall({ path: IOSTORE });
      expect(container(s, IOSTORE_ENCRYPTED)).toMatchObject({ status: { state: 'ok' }, fileCount: 111 });
      // Forgetting it takes effect the next time the install is opened.
      const keyId = (await next.keyStatus({ installId: s.id })).keys[0]!.id;
      expect((await next.forgetKey({ installId: s.id, keyId })).keys).toEqual([]);
      await next.closeInstall({ installId: s.id });
      expect(container(await next.openInstall({ path: IOSTORE }), IOSTORE_ENCRYPTED).status.state).toBe('locked');
    } finally {
      await next.close();
    }
  });

  it('unlocks the encrypted cue58 legacy pak in place', async () => {
    const backend = makeBackend(await makeTempDir());
    try {
      const s = await backend.openInstall({ path: LEGACY });
      expect(s.fileCount).toBe(11);
      expect(container(s, PAK_ENCRYPTED).status).toEqual({ state: 'locked', message: 'index encrypted with the zero key GUID (main key); no AES key given for it' });
      const wrong = await backend.addKeys({ installId: s.id, keys: [WRONG_KEY] });
      expect(wrong.checks[0]).toMatchObject({ ok: false, message: `wrong key: it opens none of the 1 locked container (${PAK_ENCRYPTED})` });
      expect(container(wrong.summary, PAK_ENCRYPTED).status.state).toBe('locked');
      const added = await backend.addKeys({ installId: s.id, keys: [`00000000-0000-0000-0000-000000000000:${KEY_HEX}`] });
      expect(added.checks[0]).toMatchObject({ ok: true, unlocked: [PAK_ENCRYPTED] });
      expect(container(added.summary, PAK_ENCRYPTED)).toMatchObject({ status: { state: 'ok' }, fileCount: 11 });
      const umap = await backend.fileDetails({ installId: s.id, path: 'CUE4ParseFixtures/Content/Fixtures/Maps/Empty.umap' });
      expect([umap.container, ...umap.overridden.map((o) => o.container)]).toContain(PAK_ENCRYPTED);
      // A file only the encrypted pak provided before is readable through the winner now.
      const bytes = await backend.readFile({ installId: s.id, path: 'CUE4ParseFixtures/Content/Fixtures/Maps/Empty.umap' });
      expect(bytes.total).toBe(umap.size);
      expect(added.status.keys).toEqual([{ id: expect.stringMatching(/^0{32}-[0-9a-f]{16}$/), guid: '0'.repeat(32), label: '0x4355…3839' }]);
    } finally {
      await backend.close();
    }
  });
});

describe('key stores', () => {
  it('FileKeyStore: keys per install, mode 0600 (also for a file made wider), damaged file reads as empty', async () => {
    const dir = join(await makeTempDir(), 'config');
    const store = new FileKeyStore(dir);
    expect(await store.load('/games/A')).toEqual([]);
    await store.save('/games/A', ['0xaa', 'GUID:0xbb']);
    await store.save('/games/B/', ['0xcc']);
    expect(await store.load('/games/A')).toEqual(['0xaa', 'GUID:0xbb']);
    expect(await new FileKeyStore(dir).load('/games/B')).toEqual(['0xcc']); // paths are resolved
    const file = join(dir, 'keys.json');
    if (!isWindows) {
      expect((await stat(file)).mode & 0o777).toBe(0o600);
      expect((await stat(dir)).mode & 0o777).toBe(0o700);
      await chmod(file, 0o644);
      await store.save('/games/A', ['0xaa']);
      expect((await stat(file)).mode & 0o777).toBe(0o600);
    }
    await store.save('/games/A', []);
    expect(JSON.parse(await readFile(file, 'utf8'))).toEqual({ version: 1, installs: { '/games/B': ['0xcc'] } });
    await writeFile(file, '{broken');
    expect(await store.load('/games/B')).toEqual([]);
  });

  it('SafeStorageKeyStore: nothing in clear on disk, round-trips, refuses to store without OS encryption', async () => {
    const dir = await makeTempDir();
    const shell = new FakeShell();
    const store = new SafeStorageKeyStore(dir, shell.safeStorage);
    await store.save('/games/A', [CUE58_AES_KEY]);
    const raw = await readFile(join(dir, 'keys.bin'));
    expect(raw.subarray(0, 4).toString()).toBe('ENC:');
    expect(raw.toString('latin1')).not.toContain(KEY_HEX);
    if (!isWindows) expect((await stat(join(dir, 'keys.bin'))).mode & 0o777).toBe(0o600);
    expect(await new SafeStorageKeyStore(dir, shell.safeStorage).load('/games/A')).toEqual([CUE58_AES_KEY]);
    expect(store.description).toMatch(/OS key store/);
    shell.safeStorage.available = false;
    expect(store.description).toMatch(/kept until the app closes/);
    await expect(store.save('/games/A', [])).rejects.toThrow(/not remembered/);
    expect(await store.load('/games/A')).toEqual([]);
  });

  it('Electron hands the backend a safeStorage key store and an export folder dialog', async () => {
    const shell = new FakeShell();
    let deps: Parameters<AppConfig['createBackend']>[0] | undefined;
    const backend = makeBackend(await makeTempDir());
    await startApp(shell, {
      argv: ['/opt/PakScope/pakscope'], cwd: '/', preloadPath: '/app/p.cjs', rendererFile: '/app/index.html',
      createBackend: (d) => { deps = d; return backend; },
    });
    expect(deps?.keyStore).toBeInstanceOf(SafeStorageKeyStore);
    expect(deps?.keyStore.description).toMatch(/OS key store/);
    shell.dialogAnswer = { canceled: false, filePaths: ['/home/me/Export'] };
    expect(await deps?.dialogs.pickExportFolder?.()).toBe('/home/me/Export');
    expect(shell.dialogCalls.at(-1)).toEqual({ title: 'Export to folder', buttonLabel: 'Export here', properties: ['openDirectory', 'createDirectory'] });
    await backend.close();
  });
});

// Install.updateArchives: containers unlocked after the install was opened join the merged tree
// without reopening it (the app's Keys dialog).
import { describe, expect, it } from 'vitest';
import { KeyRing } from '../../src/core/crypto/keys.js';
import { Install, openInstall } from '../../src/core/install/install.js';
import { openIoStoreContainer } from '../../src/core/iostore/container.js';
import { PakArchive } from '../../src/core/pak/pak-archive.js';
import { corpus, CUE58_AES_KEY } from '../support/corpus.js';
import { fakeArchive } from './fake-archive.js';

const ENCRYPTED_UTOC = corpus('cue58/IoStore/Tagged/OodleEncrypted/CUE4ParseFixtures-Minimal-OodleEncrypted-Windows.utoc');
const AC_FIXTURE = 'CUE4ParseFixtures/Content/Fixtures/Animations/AC_Fixture.uasset';

describe('Install.updateArchives', () => {
  it('swaps a container for another and merges the tree again, with priorities', () => {
    const base = fakeArchive('/g/pakchunk0.pak', [['Game/a.txt', 1], ['Game/b.txt', 2]]);
    const locked = fakeArchive('/g/pakchunk0_P.pak', [], { state: 'locked', message: 'no key' });
    const install = new Install(['/g'], [base, locked], [{ path: '/g/broken.utoc', message: 'bad magic', fatal: true }, { path: locked.path, message: 'no key', fatal: true }]);
    expect(install.fileCount).toBe(2);
    const open = fakeArchive('/g/pakchunk0_P.pak', [['Game/a.txt', 10], ['Game/c.txt', 3]]);
    install.updateArchives([[locked, open]]);
    expect(install.archives).toEqual([base, open]);
    expect(install.fileCount).toBe(3);
    expect(install.totalSize).toBe(10 + 2 + 3);
    // The patch container now wins the path both hold.
    expect(install.file('game/A.txt')?.providers.map((p) => p.archive)).toEqual([open, base]);
    expect(install.listDir('Game').map((e) => `${e.name}:${e.size}`)).toEqual(['a.txt:10', 'b.txt:2', 'c.txt:3']);
    // The container's "no key" problem is gone; the problem of a file without archive stays.
    expect(install.problems).toEqual([{ path: '/g/broken.utoc', message: 'bad magic', fatal: true }]);
  });

  it('refuses to replace a container that is not in the install', () => {
    const a = fakeArchive('/g/a.pak', [['x', 1]]);
    const install = new Install(['/g'], [a], []);
    expect(() => install.updateArchives([[fakeArchive('/g/other.pak', []), a]])).toThrow('/g/other.pak is not a container of this install');
  });

  it('adds the files of the cue58 encrypted IoStore container reopened with its key', async () => {
    const install = await openInstall([corpus('cue58/IoStore/Tagged/OodleEncrypted')]);
    try {
      const [locked] = install.archives;
      expect(locked?.status.state).toBe('locked');
      expect(install.fileCount).toBe(0);
      expect(install.problems).toHaveLength(1);
      const open = await openIoStoreContainer(ENCRYPTED_UTOC, { keys: KeyRing.fromArgs([CUE58_AES_KEY]) });
      expect(open.status.state).toBe('ok');
      install.updateArchives([[locked!, open]]);
      await locked!.close();
      expect(install.fileCount).toBe(111);
      expect(install.problems).toEqual([]);
      const file = install.file(AC_FIXTURE)!;
      expect(file.size).toBe(1721);
      const bytes = await file.providers[0]!.archive.read(file.providers[0]!.file.ref);
      expect(bytes.length).toBe(1721);
      // Decrypted with the key the container was reopened with: the stored hash matches.
      expect((await file.providers[0]!.archive.verify(file.providers[0]!.file.ref))?.ok).toBe(true);
    } finally {
      await install.close();
    }
  });

  it('merges the cue58 encrypted pak unlocked in place', async () => {
    const install = await openInstall([corpus('cue58/LegacyPak/Tagged')]);
    try {
      const pak = install.archives.find((a) => a.name === 'CUE4ParseFixtures-Legacy-Tagged-OodleEncrypted') as PakArchive;
      expect(pak).toBeInstanceOf(PakArchive);
      expect(pak.status.state).toBe('locked');
      expect(install.problems.map((p) => p.path)).toEqual([pak.path]);
      const providersBefore = install.file('CUE4ParseFixtures/Content/Fixtures/Maps/Empty.umap')!.providers.length;
      expect(await pak.unlock(KeyRing.fromArgs([CUE58_AES_KEY]))).toEqual({ state: 'ok' });
      install.updateArchives();
      expect(install.problems).toEqual([]);
      expect(pak.files()).toHaveLength(11);
      expect(install.file('CUE4ParseFixtures/Content/Fixtures/Maps/Empty.umap')!.providers.length).toBe(providersBefore + 1);
    } finally {
      await install.close();
    }
  });
});

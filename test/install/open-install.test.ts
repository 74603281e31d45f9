import { copyFile, readFile, symlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { packageIdValue } from '../../src/core/hash/cityhash64.js';
import { mountPathToPackageName, pluginMounts } from '../../src/core/install/game-path.js';
import { openInstall, type InstallProgress } from '../../src/core/install/install.js';
import { KeyRing } from '../../src/core/crypto/keys.js';
import { corpus, CUE58_AES_KEY } from '../support/corpus.js';
import { writePak } from '../fixtures/pak-writer.js';
import { makeTempDir, removeTempDirs, writeContainer } from '../fixtures/toc-writer.js';

afterAll(removeTempDirs);

/** The first 8 bytes of an IoStore package chunk id: its package id, little-endian. */
function packageIdHexLE(name: string): string {
  const v = packageIdValue(name);
  let s = '';
  for (let i = 0n; i < 8n; i++) s += Number((v >> (8n * i)) & 0xffn).toString(16).padStart(2, '0');
  return s;
}

describe('openInstall on real containers', () => {
  it('opens the corpus iostore folder: stub paks skipped, containers without .ucas as warnings', async () => {
    const progress: InstallProgress[] = [];
    const install = await openInstall([corpus('iostore')], { onProgress: (p) => progress.push(p) });
    try {
      const names = install.archives.map((a) => a.name);
      expect(names).toEqual([
        'aws_global', 'isle_pakchunk333-Windows', 'isle_pakchunk334-Windows', 'isle_pakchunk55-Windows_P',
        'isle_pakchunk999-WindowsClient_P', 'm3d_android_MODEL_3D-Android_ASTC', 'ue501_tog_Colliderproject-Windows',
        'ue501_tog_global', 'wotn_global',
      ]);
      // The four .pak files are IoStore stubs with empty indexes (MANIFEST.tsv): no archive of their own.
      expect(install.archives.every((a) => a.kind === 'iostore')).toBe(true);
      expect(install.problems.map((p) => [p.path.replace(/^.*\//, ''), p.fatal])).toEqual([
        ['m3d_android_MODEL_3D-Android_ASTC.utoc', false],
        ['ue501_tog_Colliderproject-Windows.utoc', false],
      ]);
      expect(install.problems[0]!.message).toMatch(/m3d_android_MODEL_3D-Android_ASTC\.ucas/);
      // Entry counts from MANIFEST.tsv minus the container header chunk, which has no path.
      expect(install.archives.slice(1, 5).map((a) => a.files().length)).toEqual([2 - 1, 12 - 1, 50 - 1, 13 - 1]);
      expect(install.fileCount).toBe(1444);
      expect(progress[0]!.phase).toBe('scan');
      expect(progress.filter((p) => p.phase === 'index').map((p) => p.done)).toEqual([...Array(13).keys()].map((i) => i + 1));
      expect(progress.at(-1)).toEqual({ phase: 'done', done: 13, total: 13 });
    } finally {
      await install.close();
    }
  });

  it('lets isle_pakchunk999-WindowsClient_P win the paths it shares with isle_pakchunk55-Windows_P (equal order: the later name)', async () => {
    const install = await openInstall([corpus('iostore/isle_pakchunk55-Windows_P.utoc'), corpus('iostore/isle_pakchunk999-WindowsClient_P.utoc')]);
    try {
      const f = install.file('TheIsle/Content/TheIsle/Core/Characters/Dinosaurs/Allosaurus/Attributes/ATT_Allosaurus_SprintSpeed.uasset')!;
      expect(f.providers.map((p) => p.archive.name)).toEqual(['isle_pakchunk999-WindowsClient_P', 'isle_pakchunk55-Windows_P']);
      expect(f.size).toBe(569);
      const union = new Set(install.archives.flatMap((a) => a.files().map((x) => x.path.toLowerCase())));
      expect(install.fileCount).toBe(union.size);
      expect(install.fileCount).toBe(49 + 12 - 7);
    } finally {
      await install.close();
    }
  });

  it('lets the _0_P patch win over its base in cue58/Patch/IoStore', async () => {
    const install = await openInstall([corpus('cue58/Patch/IoStore')]);
    try {
      expect(install.fileCount).toBe(2);
      const target = install.file('CUE4ParseFixtures/Content/PatchFixtures/DA_PatchTarget.uasset')!;
      expect(target.providers.map((p) => [p.archive.name, p.file.size])).toEqual([
        ['CUE4ParseFixtures-PatchBase_0_P', 714],
        ['CUE4ParseFixtures-PatchBase', 704],
      ]);
      const bytes = await target.providers[0]!.archive.read(target.providers[0]!.file.ref);
      expect(bytes.length).toBe(714);
    } finally {
      await install.close();
    }
  });

  it('maps every cue58 package path to the package names of manifest.json and to its chunk id', async () => {
    const manifest = JSON.parse(await readFile(corpus('cue58/manifest.json'), 'utf8')) as {
      testContainerPackages: string[];
      testContainerBulkPaths: string[];
    };
    const install = await openInstall([corpus('cue58/IoStore/Tagged/Zlib')]);
    try {
      const files = [...install.files()];
      expect(files).toHaveLength(97 + 14);
      const packages = files.filter((f) => f.providers[0]!.file.chunkType === 'ExportBundleData');
      expect(packages.map((f) => mountPathToPackageName(f.path)).sort()).toEqual([...manifest.testContainerPackages].sort());
      for (const f of packages) {
        expect(f.providers[0]!.file.chunkId).toBe(`${packageIdHexLE(mountPathToPackageName(f.path)!)}00000001`);
      }
      expect(files.filter((f) => f.path.endsWith('.ubulk')).map((f) => f.path).sort()).toEqual([...manifest.testContainerBulkPaths].sort());
    } finally {
      await install.close();
    }
  });

  it('maps plugin content by the .uplugin name where it differs from the folder (ue501 Interchange/Runtime)', async () => {
    const install = await openInstall([corpus('iostore/m3d_android_MODEL_3D-Android_ASTC.utoc')]);
    try {
      const f = [...install.files()].find((x) => x.path.startsWith('Engine/Plugins/Interchange/Runtime/Content/') && x.path.endsWith('.uasset'))!;
      const mounts = pluginMounts(['Engine/Plugins/Interchange/Runtime/Interchange.uplugin']);
      const name = mountPathToPackageName(f.path, mounts)!;
      expect(name.startsWith('/Interchange/')).toBe(true);
      expect(f.providers[0]!.file.chunkId!.slice(0, 16)).toBe(packageIdHexLE(name));
      expect(f.providers[0]!.file.chunkId!.slice(0, 16)).not.toBe(packageIdHexLE(mountPathToPackageName(f.path)!));
    } finally {
      await install.close();
    }
  });

  it('lists an encrypted container with its key, and reports it locked (fatal) without', async () => {
    const dir = corpus('cue58/IoStore/Tagged/OodleEncrypted');
    const locked = await openInstall([dir]);
    expect(locked.fileCount).toBe(0);
    expect(locked.problems).toHaveLength(1);
    expect(locked.problems[0]!.fatal).toBe(true);
    expect(locked.archives[0]!.status.state).toBe('locked');
    await locked.close();
    const open = await openInstall([dir], { keys: KeyRing.fromArgs([CUE58_AES_KEY]) });
    expect(open.fileCount).toBe(111);
    expect(open.problems).toEqual([]);
    await open.close();
  });
});

describe('openInstall on written containers', () => {
  it('reports a truncated container as fatal and still opens the rest', async () => {
    const dir = await makeTempDir();
    const good = await writeContainer([{ path: 'Game/Content/A.uasset', bytes: new Uint8Array(100) }], { version: 8, dir, name: 'good' });
    const bytes = await readFile(good.utocPath);
    await writeFile(join(dir, 'bad.utoc'), bytes.subarray(0, 150));
    const install = await openInstall([dir]);
    try {
      expect(install.archives.map((a) => a.name)).toEqual(['good']);
      expect(install.problems).toHaveLength(1);
      expect(install.problems[0]).toMatchObject({ path: join(dir, 'bad.utoc'), fatal: true });
      expect(install.problems[0]!.message).toMatch(/bad\.utoc: .+ at byte \d+: /);
      expect(install.problems[0]!.internal).toBeUndefined();
      expect(install.fileCount).toBe(1);
    } finally {
      await install.close();
    }
  });

  it('keeps a stub .pak beside its .utoc only when it lists files', async () => {
    const dir = await makeTempDir();
    await writeContainer([{ path: 'Game/Content/A.uasset', bytes: new Uint8Array(10) }], { version: 8, dir, name: 'pakchunk1-Windows', mountPoint: '../../../' });
    await writeFile(join(dir, 'pakchunk1-Windows.pak'), writePak([], { version: 11 }).bytes);
    await writeContainer([{ path: 'Game/Content/B.uasset', bytes: new Uint8Array(10) }], { version: 8, dir, name: 'pakchunk2-Windows', mountPoint: '../../../' });
    await writeFile(join(dir, 'pakchunk2-Windows.pak'), writePak([{ name: 'Config/DefaultGame.ini', data: new Uint8Array(5) }], { version: 11, mountPoint: '../../../Game/' }).bytes);
    const install = await openInstall([dir]);
    try {
      expect(install.archives.map((a) => `${a.name}.${a.kind}`)).toEqual(['pakchunk1-Windows.iostore', 'pakchunk2-Windows.pak', 'pakchunk2-Windows.iostore']);
      expect([...install.files()].map((f) => f.path)).toEqual(['Game/Config/DefaultGame.ini', 'Game/Content/A.uasset', 'Game/Content/B.uasset']);
      expect(install.problems).toEqual([]);
    } finally {
      await install.close();
    }
  });

  it('applies a patch pak\'s delete records to the containers below it, not above', async () => {
    const dir = await makeTempDir();
    const bytes = (n: number) => new Uint8Array(n).fill(n);
    // Base: an IoStore container and a pak; the patch deletes one file of each (spelled in
    // another case) and a file a later patch brings back.
    await writeContainer([
      { path: 'Game/Content/A.uasset', bytes: bytes(10) }, { path: 'Game/Content/Keep.uasset', bytes: bytes(11) },
    ], { version: 8, dir, name: 'pakchunk0-Windows', mountPoint: '../../../' });
    await writeFile(join(dir, 'pakchunk1-Windows.pak'), writePak([
      { name: 'Content/B.uasset', data: bytes(12) }, { name: 'Content/C.uasset', data: bytes(13) },
    ], { version: 11, mountPoint: '../../../Game/' }).bytes);
    await writeFile(join(dir, 'pakchunk0-Windows_0_P.pak'), writePak([
      { name: 'Content/New.uasset', data: bytes(14) },
      { name: 'Content/a.uasset', data: new Uint8Array(0), deleted: true },
      { name: 'Content/B.uasset', data: new Uint8Array(0), deleted: true },
      { name: 'Content/C.uasset', data: new Uint8Array(0), deleted: true },
    ], { version: 11, mountPoint: '../../../Game/' }).bytes);
    await writeFile(join(dir, 'pakchunk0-Windows_1_P.pak'), writePak([{ name: 'Content/C.uasset', data: bytes(15) }], { version: 11, mountPoint: '../../../Game/' }).bytes);
    const install = await openInstall([dir]);
    try {
      const listed = [...install.files()].map((f) => `${f.path} ${f.size} ${f.providers.map((p) => p.archive.name).join(',')}`);
      expect(listed).toEqual([
        'Game/Content/C.uasset 15 pakchunk0-Windows_1_P',
        'Game/Content/Keep.uasset 11 pakchunk0-Windows',
        'Game/Content/New.uasset 14 pakchunk0-Windows_0_P',
      ]);
      expect(install.listDir('Game/Content').map((e) => e.name)).toEqual(['C.uasset', 'Keep.uasset', 'New.uasset']);
      expect(install.file('Game/Content/A.uasset')).toBeUndefined();
    } finally {
      await install.close();
    }
  });

  it('takes a loose file as an archive of one file, and survives a symlink loop in the folder', async () => {
    const dir = await makeTempDir();
    await copyFile(corpus('cooked/retoc55_SM_Cube.uasset'), join(dir, 'SM_Cube.uasset'));
    await symlink(dir, join(dir, 'loop'));
    await writeContainer([{ path: 'Game/Content/A.uasset', bytes: new Uint8Array(7) }], { version: 8, dir, name: 'c' });
    const install = await openInstall([dir, join(dir, 'SM_Cube.uasset')]);
    try {
      expect(install.archives.map((a) => a.kind)).toEqual(['iostore', 'loose']);
      const cube = install.file('SM_Cube.uasset')!;
      expect(cube.size).toBe(1639);
      expect((await cube.providers[0]!.archive.read(0)).length).toBe(1639);
      expect(install.fileCount).toBe(2);
    } finally {
      await install.close();
    }
  });

  it('rejects when aborted and closes what it opened', async () => {
    const ac = new AbortController();
    const p = openInstall([corpus('iostore')], { signal: ac.signal, onProgress: (e) => { if (e.phase === 'index' && e.done === 2) ac.abort(); } });
    await expect(p).rejects.toMatchObject({ name: 'AbortError' });
  });
});

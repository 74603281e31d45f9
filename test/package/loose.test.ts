// Loose package files in installs: a project's Content folder and a UT99-style install (Maps/,
// System/) show in the tree next to containers, and their packages open by name and by path.
// The folders are laid out in a temp dir with copies of corpus files.
import { copyFile, mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openInstall } from '../../src/core/install/install.js';
import { contentFolderMountPath, looseMountPath } from '../../src/core/install/loose-folder.js';
import { InstallPackages, openPackageFile } from '../../src/core/package/open-package.js';
import { installPackageProperties } from '../../src/core/properties/open.js';
import { corpus } from '../support/corpus.js';
import { makeTempDir, removeTempDirs, writeContainer } from '../fixtures/toc-writer.js';

let dir: string;
const PROJECT_FILES = [
  'MyProject/Content/Materials/TestMaterial.uasset',
  'MyProject/Content/Meshes/SM_Cube.uasset',
  'MyProject/Content/Meshes/SM_Cube.ubulk',
  'MyProject/Content/Meshes/SM_Cube.uexp',
];

beforeAll(async () => {
  dir = await makeTempDir();
  const put = async (from: string, to: string): Promise<void> => {
    await mkdir(join(dir, to, '..'), { recursive: true });
    await copyFile(corpus(from), join(dir, to));
  };
  await put('uncooked/uapi427_TestMaterial.uasset', 'MyProject/Content/Materials/TestMaterial.uasset');
  for (const ext of ['uasset', 'uexp', 'ubulk']) await put(`cooked/retoc55_SM_Cube.${ext}`, `MyProject/Content/Meshes/SM_Cube.${ext}`);
  await writeFile(join(dir, 'MyProject/Content/notes.txt'), 'not a package');
  await put('legacy/ut99_1HH-TestBox-Large.unr', 'UT/Maps/TestBox.unr');
  await put('legacy/ut99_EnergySword.u', 'UT/System/EnergySword.u');
  await writeFile(join(dir, 'UT/System/UnrealTournament.ini'), '[Engine.Engine]\n');
});
afterAll(removeTempDirs);

describe('where loose files show in the tree', () => {
  it('keeps the folder above Content, else the path below the root', () => {
    expect(contentFolderMountPath('/p/MyProject/Content/Maps')).toBe('MyProject/Content/Maps');
    expect(contentFolderMountPath('/p/MyProject/content')).toBe('MyProject/content');
    expect(contentFolderMountPath('/p/MyProject')).toBe('');
    expect(contentFolderMountPath('/Content')).toBe(''); // nothing above it to name the project
    expect(looseMountPath('/p/MyProject', '/p/MyProject/Content/A.uasset')).toBe('MyProject/Content/A.uasset');
    expect(looseMountPath('/p/MyProject/Content/Maps', '/p/MyProject/Content/Maps/Sub/L.umap')).toBe('MyProject/Content/Maps/Sub/L.umap');
    expect(looseMountPath('/games/UT', '/games/UT/Maps/DM-Deck16.unr')).toBe('Maps/DM-Deck16.unr');
  });
});

describe('a project folder with loose packages', () => {
  it('lists the packages and their companions, from the project, its Content folder or a folder below', async () => {
    for (const root of ['MyProject', 'MyProject/Content']) {
      const install = await openInstall([join(dir, root)]);
      try {
        expect(install.problems).toEqual([]);
        expect(install.archives.map((a) => a.kind)).toEqual(['loose']);
        expect([...install.files()].map((f) => f.path)).toEqual(PROJECT_FILES);
        expect(install.file('MyProject/Content/Meshes/SM_Cube.uexp')!.size).toBe(9795);
        expect(install.listDir('MyProject/Content').map((e) => [e.name, e.fileCount])).toEqual([['Materials', 1], ['Meshes', 3]]);
      } finally {
        await install.close();
      }
    }
    const below = await openInstall([join(dir, 'MyProject/Content/Meshes')]);
    expect([...below.files()].map((f) => f.path)).toEqual(PROJECT_FILES.slice(1));
    await below.close();
  });

  it('opens the packages by the names their paths give, a cooked one with its .uexp', async () => {
    const install = await openInstall([join(dir, 'MyProject')]);
    const packages = new InstallPackages(install);
    try {
      expect([...packages.index.packages()].map((p) => [p.name, p.kind])).toEqual([
        ['/Game/Materials/TestMaterial', 'uasset'], ['/Game/Meshes/SM_Cube', 'uasset'],
      ]);
      const cube = await packages.open('/Game/Meshes/SM_Cube');
      expect(cube.path).toBe('MyProject/Content/Meshes/SM_Cube.uasset');
      expect(cube.model.name).toBe('/Game/Meshes/SM_Cube');
      expect(cube.model.details.companionFiles).toEqual(['MyProject/Content/Meshes/SM_Cube.uexp', 'MyProject/Content/Meshes/SM_Cube.ubulk']);
      expect(cube.model.exports.map((e) => [e.serialOffset, e.dataFile])).toEqual([[1639, 'uexp'], [3907, 'uexp'], [4371, 'uexp']]);
      // Saved as /Game/TestMaterial, found here as /Game/Materials/TestMaterial: the path names it.
      const material = await packages.open('MyProject/Content/Materials/TestMaterial.uasset');
      expect(material.model.name).toBe('/Game/Materials/TestMaterial');
      expect(material.model.exports[0]!.path).toBe('/Game/Materials/TestMaterial.TestMaterial');
      await expect(packages.open('MyProject/Content/Meshes/SM_Cube.uexp')).rejects.toThrow(/not a package header/);
    } finally {
      await install.close();
    }
  });

  it('names a single file below a Content folder the same way', async () => {
    const file = join(dir, 'MyProject/Content/Meshes/SM_Cube.uasset');
    const install = await openInstall([file]);
    expect([...install.files()].map((f) => f.path)).toEqual(['MyProject/Content/Meshes/SM_Cube.uasset']);
    await install.close();
    const { model } = await openPackageFile(file);
    expect(model.name).toBe('/Game/Meshes/SM_Cube');
    expect(model.details.companionFiles).toEqual([join(dir, 'MyProject/Content/Meshes/SM_Cube.uexp'), join(dir, 'MyProject/Content/Meshes/SM_Cube.ubulk')]);
  });
});

describe('a UE1 install with Maps/ and System/', () => {
  it('lists its packages (not its .ini) and opens them by file name', async () => {
    const install = await openInstall([join(dir, 'UT')]);
    const packages = new InstallPackages(install);
    try {
      expect([...install.files()].map((f) => [f.path, f.size])).toEqual([['Maps/TestBox.unr', 286699], ['System/EnergySword.u', 33954]]);
      const sword = await packages.open('EnergySword');
      expect(sword.path).toBe('System/EnergySword.u');
      expect(sword.model).toMatchObject({ format: 'ue12', name: 'EnergySword' });
      const map = await packages.open('Maps/TestBox.unr');
      expect(map.model.imports[0]).toMatchObject({ path: 'Botpack', class: 'Package' });
    } finally {
      await install.close();
    }
  });
});

describe('loose files beside containers', () => {
  it('shows both in one tree', async () => {
    const root = await makeTempDir();
    await writeContainer([{ path: 'Game/Content/A.uasset', bytes: new Uint8Array(7) }], { version: 8, dir: root, name: 'c', mountPoint: '../../../' });
    await mkdir(join(root, 'Game/Content/Loose'), { recursive: true });
    await copyFile(corpus('legacy/ut99_EnergySword.u'), join(root, 'Game/Content/Loose/EnergySword.u'));
    const install = await openInstall([root]);
    try {
      expect(install.archives.map((a) => a.kind)).toEqual(['iostore', 'loose']);
      expect([...install.files()].map((f) => f.path)).toEqual(['Game/Content/A.uasset', 'Game/Content/Loose/EnergySword.u']);
    } finally {
      await install.close();
    }
  });
});

describe('Zen packages exported raw into a folder', () => {
  it('open from the folder as they open from their container', async () => {
    // A raw export writes a Zen package's chunk as .uasset: it has no package tag.
    await mkdir(join(dir, 'Exported/Game/Meshes'), { recursive: true });
    await copyFile(corpus('cooked/zen55_SM_Cube.uzenasset'), join(dir, 'Exported/Game/Meshes/SM_Cube.uasset'));
    const install = await openInstall([join(dir, 'Exported')]);
    try {
      const opened = await new InstallPackages(install).open('Game/Meshes/SM_Cube.uasset');
      expect(opened.model.format).toBe('zen');
      expect(opened.model.name).toBe('/Game/Meshes/SM_Cube');
      expect(opened.container).toBe(join(dir, 'Exported'));
      expect(opened.warnings[0]).toMatch(/read as a Zen package with the \w+ layout/);
      // The export map in stored order, as the container holds it.
      expect(opened.model.exports.map((e) => e.name)).toEqual(['BodySetup_0', 'NavCollision_0', 'SM_Cube']);
      // Its properties read the same way (pakscope props, the Properties tab).
      const props = await installPackageProperties(new InstallPackages(install), 'Game/Meshes/SM_Cube.uasset');
      expect(props.warnings[0]).toMatch(/read as a Zen package/);
      expect(props.properties.exports.map((e) => e.name)).toEqual(['BodySetup_0', 'NavCollision_0', 'SM_Cube']);
    } finally {
      await install.close();
    }
  });
});

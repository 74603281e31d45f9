// Opening packages of every format from installs and from files on disk, into the shared model,
// with the values read from the real corpus files.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openInstall, type Install } from '../../src/core/install/install.js';
import { InstallPackages, openPackageFile, PackageLookupError } from '../../src/core/package/open-package.js';
import { findThumbnail } from '../../src/core/package/thumbnail.js';
import { packageChunkIdHex, packageIdOfChunkId } from '../../src/core/package/package-index.js';
import { packageInfoJson } from '../../src/core/package-model.js';
import { packageIdFromName } from '../../src/core/hash/cityhash64.js';
import { corpus } from '../support/corpus.js';

const UNCOMPRESSED = 'cue58/IoStore/Tagged/Uncompressed/CUE4ParseFixtures-Minimal-Uncompressed-Windows.utoc';
const ISLE999 = 'iostore/isle_pakchunk999-WindowsClient_P.utoc';

async function withPackages(path: string, use: (p: InstallPackages, install: Install) => Promise<void>): Promise<void> {
  const install = await openInstall([corpus(path)]);
  const packages = new InstallPackages(install);
  try {
    await use(packages, install);
  } finally {
    await packages.close();
    await install.close();
  }
}

describe('package ids and chunk ids', () => {
  it('turn into each other (the chunk id holds the package id little-endian)', () => {
    const id = packageIdFromName('/Game/Mods/BP_ModLoader');
    // `ls --json` prints this chunk id for BP_ModLoader (test/cli/cli.test.ts).
    expect(packageChunkIdHex(id, 1)).toBe('b92176370913473900000001');
    expect(packageIdOfChunkId('b92176370913473900000001')).toBe(id);
  });
});

describe('Zen packages (cue58 UE5.8, global.utoc one folder up)', () => {
  let packages: InstallPackages;
  let install: Install;
  beforeAll(async () => {
    install = await openInstall([corpus(UNCOMPRESSED)]);
    packages = new InstallPackages(install);
  });
  afterAll(async () => {
    await packages.close();
    await install.close();
  });

  it('names /Script imports through the global container beside the install and package imports through their packages', async () => {
    const { model, warnings, path } = await packages.open('/Game/Fixtures/Blueprints/BP_ComponentsChild');
    expect(warnings).toEqual([]);
    expect(path).toBe('CUE4ParseFixtures/Content/Fixtures/Blueprints/BP_ComponentsChild.uasset');
    expect(model.details.scriptObjects).toBe(corpus('cue58/IoStore/Tagged/global.utoc'));
    const json = packageInfoJson(model);
    expect(Object.keys(json)).toEqual(['format', 'name', 'version', 'names', 'imports', 'exports']);
    expect(json).toMatchObject({ format: 'zen', name: '/Game/Fixtures/Blueprints/BP_ComponentsChild' });
    expect(json.version).toMatchObject({ zenLayout: 'VerseCells', engine: '5.6-5.8', containerHeaderVersion: 5, tocVersion: 8, zenVersion: 3, fileVersionUE5: 1018 });
    // The name batch as stored: its own name last, the imported package first.
    expect(json.names).toHaveLength(41);
    expect(json.names[0]).toBe('/Game/Fixtures/Blueprints/BP_Components');
    expect(json.names[40]).toBe('/Game/Fixtures/Blueprints/BP_ComponentsChild');
    // Every import in stored order, the null entry included.
    expect(json.imports).toHaveLength(19);
    expect(json.imports.slice(0, 5)).toEqual([
      { path: '/Game/Fixtures/Blueprints/BP_Components.BP_Components_C', class: 'BlueprintGeneratedClass' },
      { path: '/Script/Engine.Default__BlueprintGeneratedClass', class: 'BlueprintGeneratedClass' },
      { path: '/Game/Fixtures/Blueprints/BP_Components.Default__BP_Components_C', class: 'BP_Components_C' },
      { path: '/Script/CoreUObject.Object', class: '' },
      { path: '/Script/Engine.BlueprintGeneratedClass', class: 'Class' },
    ]);
    expect(json.imports[11]).toEqual({ path: 'None', class: '' });
    expect(json.imports[12]).toEqual({ path: '/Script/CoreUObject', class: 'Package' });
    expect(json.exports[0]).toEqual({
      name: 'BP_ComponentsChild_C', class: 'BlueprintGeneratedClass', outer: null,
      path: '/Game/Fixtures/Blueprints/BP_ComponentsChild.BP_ComponentsChild_C', serialOffset: 0, serialSize: json.exports[0]!.serialSize,
    });
    expect(json.exports.map((e) => e.serialOffset)).toEqual([...json.exports.map((e) => e.serialOffset)].sort((a, b) => a - b));
  });

  it('finds one package by name, object path, path as ls prints it, and package id', async () => {
    const byName = packages.locate('/Game/Fixtures/Properties/DA_AllProperties');
    expect(byName).toMatchObject({ kind: 'zen', packageId: 'cdb15c9250e9af86', path: 'CUE4ParseFixtures/Content/Fixtures/Properties/DA_AllProperties.uasset' });
    expect(packages.locate('/game/fixtures/properties/da_allproperties.DA_AllProperties').ref).toBe(byName.ref);
    expect(packages.locate('CUE4ParseFixtures/Content/Fixtures/Properties/DA_AllProperties.uasset').ref).toBe(byName.ref);
    expect(packages.locate('CDB15C9250E9AF86').ref).toBe(byName.ref);
    expect(packages.index.size).toBe(97);
  });

  it('refuses what is not a package of the install', () => {
    expect(() => packages.locate('/Game/Nope')).toThrow(PackageLookupError);
    expect(() => packages.locate('0123456789abcdef')).toThrow(/no such package/);
    const bulk = [...install.files()].find((f) => f.providers[0]!.file.chunkType === 'BulkData')!;
    expect(() => packages.locate(bulk.path)).toThrow(/BulkData chunk, not a package/);
  });

  it('reads with a forced engine layout (4.27 does not fit a 5.8 package)', async () => {
    await expect(packages.open('/Game/Fixtures/Properties/DA_AllProperties', { engine: '4.27' })).rejects.toThrow(/^CUE4ParseFixtures\/Content\/Fixtures\/Properties\/DA_AllProperties\.uasset: .+ at byte \d+: /);
    const ok = await packages.open('/Game/Fixtures/Properties/DA_AllProperties', { engine: '5.8' });
    expect(ok.model.version).toMatchObject({ zenLayout: 'VerseCells', engine: '5.8' });
  });
});

describe('Zen packages without a global container (The Isle, UE5.4)', () => {
  it('shows /Script imports and imports of packages the install lacks by hash, and says so', () =>
    withPackages(ISLE999, async (packages) => {
      const { model, warnings } = await packages.open('TheIsle/Content/Mods/BP_ModLoader.uasset');
      const json = packageInfoJson(model);
      expect(json.version).toMatchObject({ zenLayout: 'BulkDataMapPadding', engine: '5.4', containerHeaderVersion: 3, tocVersion: 6, unversionedPackage: true });
      expect([json.names.length, json.imports.length, json.exports.length]).toEqual([30, 27, 8]);
      expect(json.imports[0]).toEqual({ path: '/Script/?0x7471a1909f4060aa', class: '' });
      // UE5.3+ headers name their imported packages: the package shows, the object by its export hash.
      expect(json.imports[1]).toEqual({ path: '/Game/TheIsle/Core/GameMode/BP_SurvivalGameMode.?0x388c0a7a68d0c564', class: '' });
      expect(json.exports[1]).toMatchObject({ name: 'Default__BP_ModLoader_C', class: 'BP_ModLoader_C', serialOffset: 366, serialSize: 49 });
      expect(warnings).toEqual([
        'no global container (global.utoc) with script objects found: 23 /Script imports are shown as /Script/?0x<hash>',
        '1 imported package(s) not in the install, their objects shown by export hash: /Game/TheIsle/Core/GameMode/BP_SurvivalGameMode',
      ]);
    }));
});

describe('classic packages', () => {
  it('reads an uncooked .uasset with its thumbnail', async () => {
    const { model } = await openPackageFile(corpus('uncooked/uapi427_TestMaterial.uasset'));
    const json = packageInfoJson(model);
    expect(json).toMatchObject({ format: 'uasset', name: '/Game/TestMaterial' });
    expect([json.names.length, json.imports.length, json.exports.length]).toEqual([34, 7, 4]);
    expect(json.exports[0]).toEqual({ name: 'TestMaterial', class: 'Material', outer: null, path: '/Game/TestMaterial.TestMaterial', serialOffset: 99781, serialSize: 433 });
    const t = findThumbnail(model)!;
    expect(t).toMatchObject({ object: 'TestMaterial', class: 'Material', format: 'png', width: 256, height: 256, extensions: ['.png'] });
    expect(t.data.length).toBe(97441);
    expect(findThumbnail(model, 'Nothing')).toBeUndefined();
    // UE5 editors may save JPEG thumbnails (a negative height in the table).
    const jpeg = findThumbnail((await openPackageFile(corpus('uncooked/ue53_M_Solid.uasset'))).model, 'm_solid')!;
    expect(jpeg).toMatchObject({ object: 'M_Solid', format: 'jpeg', width: 256, height: 256, extensions: ['.jpg', '.jpeg'] });
    expect([jpeg.data.length, jpeg.data[0], jpeg.data[1]]).toEqual([4175, 0xff, 0xd8]);
  });

  it('reads a cooked .uasset with the .uexp beside it as one package', async () => {
    const { model } = await openPackageFile(corpus('cooked/retoc55_SM_Cube.uasset'));
    expect(model.details.companionFiles).toEqual([corpus('cooked/retoc55_SM_Cube.uexp'), corpus('cooked/retoc55_SM_Cube.ubulk')]);
    // Export offsets count across .uasset (1639 bytes) + .uexp: the first export starts the .uexp.
    expect(model.exports.map((e) => [e.path, e.serialOffset, e.serialSize, e.dataFile])).toEqual([
      ['/Game/Meshes/SM_Cube.SM_Cube:BodySetup_0', 1639, 2268, 'uexp'],
      ['/Game/Meshes/SM_Cube.SM_Cube:NavCollision_0', 3907, 464, 'uexp'],
      ['/Game/Meshes/SM_Cube.SM_Cube', 4371, 7059, 'uexp'],
    ]);
    expect(findThumbnail(model)).toBeUndefined();
  });

  it('reads UE1 and UE2 packages', async () => {
    const map = packageInfoJson((await openPackageFile(corpus('legacy/ut99_1HH-TestBox-Large.unr'))).model);
    expect(map).toMatchObject({ format: 'ue12', name: 'ut99_1HH-TestBox-Large', version: { fileVersion: 69, generation: 'Unreal Engine 1' } });
    expect([map.names.length, map.imports.length, map.exports.length]).toEqual([283, 74, 119]);
    expect(map.imports[0]).toEqual({ path: 'Botpack', class: 'Package' });
    expect(map.exports[0]).toEqual({ name: 'Light0', class: 'Light', outer: null, path: 'Light0', serialOffset: 4577, serialSize: 62 });
    const code = packageInfoJson((await openPackageFile(corpus('legacy/ut2004_OUGamePack.u'))).model);
    expect(code.version).toMatchObject({ fileVersion: 128, licenseeVersion: 29, knownGame: 'Unreal Tournament 2004' });
    expect([code.names.length, code.imports.length, code.exports.length]).toEqual([59, 35, 25]);
    expect(code.imports.slice(0, 3).map((i) => i.path)).toEqual(['Core', 'Engine', 'XGame']);
  });

  it('refuses a UE3 package and a file that is none, naming the file', async () => {
    await expect(openPackageFile(corpus('legacy/uelib_TestUC3.u'))).rejects.toThrow(/uelib_TestUC3\.u: package header at byte 4: .*Unreal Engine 3/);
    await expect(openPackageFile(corpus('cooked/retoc55_SM_Cube.uexp'))).rejects.toThrow(/not an Unreal package/);
  });

  it('reads a Zen package saved as a file with the newest layout that fits', async () => {
    const { model, warnings } = await openPackageFile(corpus('cooked/zen56_SM_Cube.uzenasset'));
    expect(model).toMatchObject({ format: 'zen', name: '/Game/LevelPrototyping/Meshes/SM_Cube', version: { zenLayout: 'VerseCells' } });
    expect(model.exports.map((e) => e.path)).toEqual([
      '/Game/LevelPrototyping/Meshes/SM_Cube.SM_Cube:BodySetup_1',
      '/Game/LevelPrototyping/Meshes/SM_Cube.SM_Cube:NavCollision_2',
      '/Game/LevelPrototyping/Meshes/SM_Cube.SM_Cube',
    ]);
    expect(warnings[0]).toMatch(/read as a Zen package with the VerseCells layout/);
    const ue4 = await openPackageFile(corpus('cooked/zen427_T_Emissive.uasset'));
    expect(ue4.model).toMatchObject({ format: 'zen', name: '/Engine/Engine_MI_Shaders/T_Emissive', version: { zenLayout: 'PackageSummary' } });
  });

  it('reads packages inside a pak with their .uexp (cue58 LegacyPak, UE5.8), like their IoStore twins', async () => {
    await withPackages('cue58/LegacyPak/Tagged/Uncompressed', async (packages) => {
      const { model, path } = await packages.open('/Game/Fixtures/Properties/DA_AllProperties');
      expect(path).toBe('CUE4ParseFixtures/Content/Fixtures/Properties/DA_AllProperties.uasset');
      expect(model.details.companionFiles).toEqual(['CUE4ParseFixtures/Content/Fixtures/Properties/DA_AllProperties.uexp']);
      const json = packageInfoJson(model);
      expect(json).toMatchObject({ format: 'uasset', name: '/Game/Fixtures/Properties/DA_AllProperties' });
      expect([json.names.length, json.imports.length, json.exports.length]).toEqual([147, 15, 2]);
      // The .uasset is 4574 bytes: the exports' data follows it in the .uexp.
      expect(json.exports.map((e) => [e.path, e.serialOffset, e.serialSize])).toEqual([
        ['/Game/Fixtures/Properties/DA_AllProperties.DA_AllProperties:InlineFixture', 4574, 372],
        ['/Game/Fixtures/Properties/DA_AllProperties.DA_AllProperties', 4946, 7445],
      ]);
      await withPackages(UNCOMPRESSED, async (zen) => {
        const twin = packageInfoJson((await zen.open('/Game/Fixtures/Properties/DA_AllProperties')).model);
        // The cooker turned the classic import map into the Zen one: the same objects in the same
        // order, the entries of imported /Game packages left null (Zen imports them by package id).
        expect(twin.imports.map((i) => i.path)).toEqual(json.imports.map((i) => (i.class === 'Package' && i.path.startsWith('/Game/') ? 'None' : i.path)));
        expect(twin.exports.map((e) => [e.path, e.serialSize])).toEqual(json.exports.map((e) => [e.path, e.serialSize]));
      });
    });
  });
});

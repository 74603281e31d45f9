// pakscope info <path> <package>, info <file>, deps and thumbnail, run as a user would.
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { corpus } from '../support/corpus.js';
import { makeTempDir, removeTempDirs } from '../fixtures/toc-writer.js';
import { buildCli, pakscope } from './run-cli.js';

interface InfoJson {
  format: string;
  name: string;
  version: Record<string, unknown>;
  names: string[];
  imports: { path: string; class: string }[];
  exports: { name: string; class: string; outer: string | null; path: string; serialOffset: number; serialSize: number }[];
}
interface DepsJson { package: string; dependsOn: { package: string; depth: number }[]; referencedBy: { package: string; depth: number }[] }

const UNCOMPRESSED = corpus('cue58/IoStore/Tagged/Uncompressed');
const ISLE999 = corpus('iostore/isle_pakchunk999-WindowsClient_P.utoc');

beforeAll(buildCli);
afterAll(removeTempDirs);

describe('pakscope info <path> <package>', () => {
  it('prints a Zen package as JSON, /Script names from the global.utoc one folder up', async () => {
    const r = await pakscope(['info', UNCOMPRESSED, '/Game/Fixtures/Blueprints/BP_ComponentsChild', '--json']);
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    const j = JSON.parse(r.out) as InfoJson;
    expect(Object.keys(j)).toEqual(['format', 'name', 'version', 'names', 'imports', 'exports']);
    expect(j).toMatchObject({ format: 'zen', name: '/Game/Fixtures/Blueprints/BP_ComponentsChild', version: { zenLayout: 'VerseCells', engine: '5.6-5.8' } });
    expect([j.names.length, j.imports.length, j.exports.length]).toEqual([41, 19, 7]);
    expect(j.imports.filter((i) => i.path.startsWith('/Script/?'))).toEqual([]);
    expect(j.imports.find((i) => i.path.endsWith(':FixtureMesh_GEN_VARIABLE'))).toEqual({
      path: '/Game/Fixtures/Blueprints/BP_Components.BP_Components_C:FixtureMesh_GEN_VARIABLE', class: 'StaticMeshComponent',
    });
    expect(Object.keys(j.exports[0]!)).toEqual(['name', 'class', 'outer', 'path', 'serialOffset', 'serialSize']);
  });

  it('prints a package of The Isle container by path, with what stays unnamed on stderr', async () => {
    const r = await pakscope(['info', ISLE999, 'TheIsle/Content/Mods/BP_ModLoader.uasset', '--json']);
    expect(r.code).toBe(0);
    const j = JSON.parse(r.out) as InfoJson;
    expect(j).toMatchObject({ format: 'zen', name: '/Game/Mods/BP_ModLoader', version: { zenLayout: 'BulkDataMapPadding', engine: '5.4' } });
    expect([j.names.length, j.imports.length, j.exports.length]).toEqual([30, 27, 8]);
    expect(j.imports.filter((i) => i.path.startsWith('/Script/?0x'))).toHaveLength(23);
    expect(r.stderr.trim().split('\n')).toEqual([
      'warning: /Game/Mods/BP_ModLoader: no global container (global.utoc) with script objects found: 23 /Script imports are shown as /Script/?0x<hash>',
      'warning: /Game/Mods/BP_ModLoader: 1 imported package(s) not in the install, their objects shown by export hash: /Game/TheIsle/Core/GameMode/BP_SurvivalGameMode',
    ]);
  });

  it('prints a classic package inside a pak as text: summary, then every name, import and export', async () => {
    const r = await pakscope(['info', corpus('cue58/LegacyPak/Tagged/Uncompressed'), '/Game/Fixtures/Properties/DA_AllProperties']);
    expect(r.code).toBe(0);
    const lines = r.out.split('\n');
    expect(lines[0]).toBe('/Game/Fixtures/Properties/DA_AllProperties');
    expect(lines).toContain('Names (147):');
    expect(lines).toContain('Imports (15):');
    expect(lines).toContain('Exports (2):');
    expect(lines).toContain('  0  /Game/Fixtures/Properties/DA_AllProperties.DA_AllProperties:InlineFixture  (FixtureInlineObject)  offset 4574  size 372');
    expect(lines).toContain('   5  /Game/Fixtures/DataTables/DT_AllProperties  (Package)');
  });
});

describe('versions apart from property encoding', () => {
  it('names the header\'s versions and the properties\' encoding (the PKG_UnversionedProperties flag) apart', async () => {
    const [tagged, unversioned, taggedJson, unversionedJson] = await Promise.all([
      pakscope(['info', UNCOMPRESSED, '/Game/Fixtures/Textures/T_BC7']),
      pakscope(['info', corpus('cue58/IoStore/Unversioned/Zlib'), '/Game/Fixtures/Textures/T_BC7']),
      pakscope(['info', UNCOMPRESSED, '/Game/Fixtures/Textures/T_BC7', '--json']),
      pakscope(['info', corpus('cue58/IoStore/Unversioned/Zlib'), '/Game/Fixtures/Textures/T_BC7', '--json']),
    ]);
    // cue58's README: the Tagged containers hold tagged properties, the Unversioned ones unversioned.
    expect(tagged.out).toMatch(/^ {2}version\.propertyEncoding +tagged \(no PKG_UnversionedProperties flag: each property stored with its name and type\)$/m);
    expect(tagged.out).toMatch(/^ {2}version\.unversionedPackage +false \(the header states its file versions\)$/m);
    expect(unversioned.out).toMatch(/^ {2}version\.propertyEncoding +unversioned \(PKG_UnversionedProperties: stored by class schema, read with mappings\)$/m);
    expect(unversioned.out).toMatch(/^ {2}Package flags .*PKG_UnversionedProperties/m);
    expect(tagged.out).not.toMatch(/^ {2}version\.unversioned /m);
    expect((JSON.parse(taggedJson.out) as InfoJson).version).toMatchObject({ unversionedPackage: false, propertyEncoding: 'tagged' });
    expect((JSON.parse(unversionedJson.out) as InfoJson).version).toMatchObject({ unversionedPackage: true, propertyEncoding: 'unversioned' });
  });
});

describe('a package by its short name', () => {
  it('resolves in info, props and deps when one package has that name', async () => {
    const [info, withExt, props, propsFull, deps] = await Promise.all([
      pakscope(['info', UNCOMPRESSED, 'T_BC7', '--json']),
      pakscope(['info', UNCOMPRESSED, 't_bc7.uasset', '--json']),
      pakscope(['props', UNCOMPRESSED, 'DA_AllProperties', '--json']),
      pakscope(['props', UNCOMPRESSED, '/Game/Fixtures/Properties/DA_AllProperties', '--json']),
      pakscope(['deps', UNCOMPRESSED, 'SM_Fixture', '--json']),
    ]);
    for (const r of [info, withExt, props, propsFull, deps]) expect([r.code, r.stderr]).toEqual([0, '']);
    expect((JSON.parse(info.out) as InfoJson).name).toBe('/Game/Fixtures/Textures/T_BC7');
    expect((JSON.parse(withExt.out) as InfoJson).name).toBe('/Game/Fixtures/Textures/T_BC7');
    expect(props.out).toBe(propsFull.out);
    expect((JSON.parse(deps.out) as DepsJson).package).toMatch(/^\/Game\/Fixtures\/Meshes\/SM_Fixture\b/);
  });

  it('lists the candidates when several packages have it, exit 2', async () => {
    // The tog container holds Weapons/Meshes/Ka47/Ak47 and Weapon/Ak47 (ls lists both).
    const r = await pakscope(['info', corpus('iostore'), 'Ak47']);
    expect(r.code).toBe(2);
    const error = r.stderr.trim().split('\n').at(-1)!;
    expect(error).toBe('error: Ak47: 2 packages have this name (/Game/Game/FPS_Weapon_Bundle/Weapons/Meshes/Ka47/Ak47, /Game/Game/Weapon/Ak47); name one of them in full');
  });
});

describe('pakscope info <file>', () => {
  it('prints loose package files of every kind, and a container as before', async () => {
    const [uncooked, cooked, map, code, container] = await Promise.all([
      pakscope(['info', corpus('uncooked/uapi427_TestMaterial.uasset'), '--json']),
      pakscope(['info', corpus('cooked/retoc55_SM_Cube.uasset'), '--json']),
      pakscope(['info', corpus('legacy/ut99_1HH-TestBox-Large.unr'), '--json']),
      pakscope(['info', corpus('legacy/ut2004_OUGamePack.u'), '--json']),
      pakscope(['info', ISLE999, '--json']),
    ]);
    for (const r of [uncooked, cooked, map, code, container]) expect([r.code, r.stderr]).toEqual([0, '']);
    const u = JSON.parse(uncooked.out) as InfoJson;
    expect(u).toMatchObject({ format: 'uasset', name: '/Game/TestMaterial', version: { engine: '4.27' } });
    expect(u.exports[0]).toEqual({ name: 'TestMaterial', class: 'Material', outer: null, path: '/Game/TestMaterial.TestMaterial', serialOffset: 99781, serialSize: 433 });
    const c = JSON.parse(cooked.out) as InfoJson;
    expect(c.exports.map((e) => e.serialOffset)).toEqual([1639, 3907, 4371]); // counted across .uasset + .uexp
    const m = JSON.parse(map.out) as InfoJson;
    expect(m).toMatchObject({ format: 'ue12', name: 'ut99_1HH-TestBox-Large' });
    expect([m.names.length, m.imports.length, m.exports.length]).toEqual([283, 74, 119]);
    expect((JSON.parse(code.out) as InfoJson).imports.slice(0, 2)).toEqual([{ path: 'Core', class: 'Package' }, { path: 'Engine', class: 'Package' }]);
    expect(JSON.parse(container.out)).toMatchObject({ kind: 'iostore', fields: { 'TOC version': '6 (OnDemandMetaData)', Files: 12 } });
  });
});

describe('loose folders', () => {
  it('list, draw and open their packages like container files', async () => {
    const legacy = corpus('legacy');
    const [ls, tree, info] = await Promise.all([
      pakscope(['ls', legacy, '--json']),
      pakscope(['tree', legacy]),
      pakscope(['info', legacy, 'ut99_EnergySword', '--json']),
    ]);
    const files = (JSON.parse(ls.out) as { files: { path: string; size: number; container: string }[] }).files;
    expect(files).toHaveLength(9);
    expect(files[8]).toEqual({ path: 'ut99_EnergySword.u', size: 33954, container: 'legacy', chunkId: null, chunkType: null });
    expect(tree.out.split('\n')[0]).toBe(`${legacy} (9 files, 1.50 MiB)`);
    expect(JSON.parse(info.out)).toMatchObject({ format: 'ue12', name: 'ut99_EnergySword', version: { fileVersion: 69 } });
  });
});

describe('pakscope deps', () => {
  it('answers both directions from the container header', async () => {
    const r = await pakscope(['deps', UNCOMPRESSED, '/Game/Fixtures/Properties/DA_AllProperties', '--json']);
    expect([r.code, r.stderr]).toEqual([0, '']);
    expect(JSON.parse(r.out)).toEqual({
      package: '/Game/Fixtures/Properties/DA_AllProperties',
      dependsOn: [
        { package: '/Game/Fixtures/DataTables/DT_AllProperties', depth: 1 },
        { package: '/Game/Fixtures/StringTables/ST_Fixed', depth: 1 },
        { package: '/Game/Fixtures/Textures/T_BC7', depth: 1 },
      ],
      referencedBy: [{ package: '/Game/Fixtures/Blueprints/BP_Fixture', depth: 1 }],
    });
  });

  it('follows --depth 2 levels, naming /Engine packages the install lacks from the importing headers', async () => {
    const r = await pakscope(['deps', UNCOMPRESSED, 'CUE4ParseFixtures/Content/Fixtures/Meshes/SM_Fixture.uasset', '--depth', '2', '--json']);
    expect(r.code).toBe(0);
    const j = JSON.parse(r.out) as DepsJson;
    expect(j.package).toBe('/Game/Fixtures/Meshes/SM_Fixture');
    expect(j.dependsOn).toEqual([{ package: '/Engine/EngineMaterials/WorldGridMaterial', depth: 1 }]);
    expect(j.referencedBy.filter((e) => e.depth === 1)).toHaveLength(7);
    expect(j.referencedBy.filter((e) => e.depth === 2)).toEqual([{ package: '/Game/Fixtures/Blueprints/BP_ComponentsChild', depth: 2 }]);
    const text = await pakscope(['deps', UNCOMPRESSED, '4e8c5f45d96f0dac', '--depth', '2']);
    expect(text.out.split('\n').slice(0, 3)).toEqual([
      '/Game/Fixtures/Meshes/SM_Fixture (4e8c5f45d96f0dac)',
      'Depends on (1 package):',
      '  /Engine/EngineMaterials/WorldGridMaterial  (not in the install)',
    ]);
    expect(text.out).toContain('\n    /Game/Fixtures/Blueprints/BP_ComponentsChild\n');
  });

  it('reads import maps where there is no container header (LegacyPak)', async () => {
    const r = await pakscope(['deps', corpus('cue58/LegacyPak/Tagged/Uncompressed'), '/Game/Fixtures/DataTables/DT_AllProperties', '--json']);
    expect(r.code).toBe(0);
    expect(JSON.parse(r.out)).toMatchObject({ referencedBy: [{ package: '/Game/Fixtures/Properties/DA_AllProperties', depth: 1 }] });
  });
});

describe('pakscope thumbnail', () => {
  it('writes the 256x256 PNG of an uncooked material', async () => {
    const out = join(await makeTempDir(), 'TestMaterial.png');
    const r = await pakscope(['thumbnail', corpus('uncooked/uapi427_TestMaterial.uasset'), '-o', out, '--json']);
    expect(r.code).toBe(0);
    expect(JSON.parse(r.out)).toEqual({ file: out, object: 'TestMaterial', class: 'Material', format: 'png', width: 256, height: 256, size: 97441 });
    const png = await readFile(out);
    expect(png.length).toBe(97441);
    expect([...png.subarray(0, 8)]).toEqual([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
    // IHDR: width and height, big-endian, at 16 and 20.
    expect([png.readUInt32BE(16), png.readUInt32BE(20)]).toEqual([256, 256]);
    const stdout = await pakscope(['thumbnail', corpus('uncooked'), 'uapi427_TestMaterial.uasset', '-o', '-']);
    expect(stdout.code).toBe(0);
    expect(stdout.stdout.equals(png)).toBe(true);
  });
});

describe('bad input: exit 2 with one line on stderr', () => {
  it('refuses missing packages, non-packages, a wrong image extension, a package without thumbnail, bad options', async () => {
    const dir = await makeTempDir();
    const cases = await Promise.all([
      pakscope(['info', UNCOMPRESSED, '/Game/Nope']),
      pakscope(['info', corpus('cue58/LegacyPak/Tagged/Uncompressed'), 'CUE4ParseFixtures/Content/Fixtures/Properties/DA_AllProperties.uexp']),
      pakscope(['info', corpus('legacy/uelib_TestUC3.u')]),
      pakscope(['info', UNCOMPRESSED, '/Game/Fixtures/Properties/DA_AllProperties', '--engine', '9.9']),
      pakscope(['thumbnail', corpus('uncooked/uapi427_TestMaterial.uasset'), '-o', join(dir, 'x.jpg')]),
      pakscope(['thumbnail', corpus('cooked/retoc55_SM_Cube.uasset'), '-o', join(dir, 'x.png')]),
      pakscope(['thumbnail', corpus('uncooked/uapi427_TestMaterial.uasset')]),
      pakscope(['deps', UNCOMPRESSED, '/Game/Nope']),
      pakscope(['deps', UNCOMPRESSED, '/Game/Fixtures/Properties/DA_AllProperties', '--depth', '0']),
    ]);
    for (const r of cases) {
      expect(r.code, r.stderr).toBe(2);
      expect(r.stderr.trim().split('\n'), r.stderr).toHaveLength(1);
      expect(r.stderr.startsWith('error: ')).toBe(true);
    }
    expect(cases[0]!.stderr).toMatch(/\/Game\/Nope: no such package/);
    expect(cases[1]!.stderr).toMatch(/DA_AllProperties\.uexp is data of the package/);
    expect(cases[2]!.stderr).toMatch(/Unreal Engine 3 package/);
    expect(cases[3]!.stderr).toMatch(/--engine takes an engine release/);
    expect(cases[4]!.stderr).toMatch(/the thumbnail is a PNG image: name the output \.png, not "\.jpg"/);
    expect(cases[5]!.stderr).toMatch(/retoc55_SM_Cube\.uasset: no thumbnail/);
    expect(cases[6]!.stderr).toMatch(/-o FILE/);
    expect(cases[7]!.stderr).toMatch(/\/Game\/Nope: no such package/);
    expect(cases[8]!.stderr).toMatch(/--depth takes a whole number/);
  });
});

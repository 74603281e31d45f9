/**
 * The package view's and the dependency graph's API on real installs: a UE5.8 IoStore install
 * (its global.utoc one folder up), uncooked and cooked loose .uasset files, and UE1/2 packages.
 */
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Backend } from '../../src/backend/backend.js';
import { finishRegions, RegionList, zenRegions } from '../../src/backend/package-regions.js';
import { jsonSafe } from '../../src/backend/packages.js';
import { openPackageFile } from '../../src/core/package/open-package.js';
import { validateRequest, type PackageByteRegion, type PackageView } from '../../src/shared/api.js';
import { corpus } from '../support/corpus.js';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';

const UNCOMPRESSED = corpus('cue58/IoStore/Tagged/Uncompressed');
const AC_FIXTURE = 'CUE4ParseFixtures/Content/Fixtures/Animations/AC_Fixture.uasset';
const SKEL_FIXTURE = 'CUE4ParseFixtures/Content/Fixtures/Animations/SKEL_Fixture.uasset';

let configDir: string;
let backend: Backend;
beforeAll(async () => {
  configDir = await mkdtemp(join(tmpdir(), 'pakscope-packages-'));
  backend = new Backend({ configDir, dialogs: { pickFolder: async () => null, pickFile: async () => null }, info: { name: 'PakScope', version: '0', electron: null, chrome: null, mode: 'web' }, anyPath: true });
});
afterAll(async () => {
  await backend.close();
  await rm(configDir, { recursive: true, force: true });
});

/** Regions are in order, never overlap, and cover every byte of every section. */
function expectWellFormed(v: PackageView): void {
  let end = 0;
  for (const r of v.regions) {
    expect(r.start, r.label).toBeGreaterThanOrEqual(end);
    expect(r.end, r.label).toBeGreaterThan(r.start);
    end = r.end;
  }
  expect(end).toBeLessThanOrEqual(v.size);
  for (const s of v.model.sections) {
    let at = s.offset;
    for (const r of v.regions) if (r.start <= at && r.end > at) at = r.end;
    expect(at, `section ${s.name} covered`).toBeGreaterThanOrEqual(s.offset + s.size);
  }
  // What travels over IPC and HTTP: plain JSON, nothing lost on the way.
  expect(JSON.parse(JSON.stringify(v))).toEqual(v);
}

const region = (v: PackageView, label: string): PackageByteRegion | undefined => v.regions.find((r) => r.label === label);

describe('a Zen package (cue58 UE5.8, uncompressed IoStore)', () => {
  let installId: string;
  let view: PackageView;
  beforeAll(async () => {
    installId = (await backend.openInstall({ path: UNCOMPRESSED })).id;
    view = await backend.openPackage({ installId, path: AC_FIXTURE });
  });

  it('gives every tab its data', () => {
    expect(view).toMatchObject({ path: AC_FIXTURE, format: 'zen', name: '/Game/Fixtures/Animations/AC_Fixture', packageId: 'c03e46d9510d62e8', engine: null, size: 1721 });
    expect(view.container).toBe(join(UNCOMPRESSED, 'CUE4ParseFixtures-Minimal-Uncompressed-Windows.utoc'));
    expect(view.totals).toMatchObject({ names: 25, imports: 7, exports: 1 });
    expect(view.model.version).toMatchObject({ zenLayout: 'VerseCells', engine: '5.6-5.8', containerHeaderVersion: 5, tocVersion: 8, fileVersionUE5: 1018 });
    expect(view.model.summary).toMatchObject({ headerSize: 1058, cookedHeaderSize: 1482, exportDataEnd: 1717, hasPackageTag: true });
    expect(view.model.packageFlags.names).toEqual(['PKG_Cooked', 'PKG_FilterEditorOnly']);
    expect(view.model.names[0]).toBe('/Script/CoreUObject');
    // /Script imports are named through global.utoc one folder up.
    expect(view.model.imports[0]).toMatchObject({ path: '/Script/Engine.Default__AnimComposite', class: 'AnimComposite' });
    expect(view.model.imports[6]!.path).toBe('/Game/Fixtures/Animations/SKEL_Fixture.SKEL_Fixture');
    expect(view.model.exports[0]).toMatchObject({ name: 'AC_Fixture', class: 'AnimComposite', serialSize: 659, dataFileOffset: 1058, flags: ['RF_Public', 'RF_Standalone'] });
    expect(view.warnings).toEqual([]);
    expect(view.parts).toEqual([{ path: AC_FIXTURE, offset: 0, size: 1721 }]);
  });

  it('has the format tables: imported packages, export bundles, dependencies, public exports', () => {
    const byId = new Map(view.tables.map((t) => [t.id, t]));
    expect([...byId.keys()]).toEqual(['imported-packages', 'export-bundles', 'dependency-bundles', 'public-exports']);
    expect(byId.get('imported-packages')!.rows.map((r) => r.cells)).toEqual([
      [0, 'a9dd7032867f7e58', '/Game/Fixtures/Animations/SKEL_Fixture', 'header'],
      [1, 'adc3f782449e1f33', '/Game/Fixtures/Animations/AS_Fixture', 'header'],
    ]);
    expect(byId.get('export-bundles')!.rows.map((r) => r.cells[2])).toEqual(['create', 'serialize']);
    expect(byId.get('dependency-bundles')!.rows.map((r) => r.cells.slice(1))).toEqual([
      ['create before serialize', '/Game/Fixtures/Animations/AS_Fixture.AS_Fixture'],
      ['create before serialize', '/Game/Fixtures/Animations/SKEL_Fixture.SKEL_Fixture'],
    ]);
    expect(byId.get('public-exports')!.rows[0]!.cells).toEqual(['0: AC_Fixture', '28e1a14ceefff6f8', '']);
  });

  it('names the header field by field and the tables entry by entry', () => {
    expectWellFormed(view);
    expect(view.regions[0]).toEqual({ start: 0, end: 4, label: 'has versioning info', group: 'zen package summary' });
    expect(region(view, 'header size')).toMatchObject({ start: 4, end: 8, ref: 'field:headerSize' });
    expect(region(view, 'custom version 2: version')).toMatchObject({ start: 128, end: 132, group: 'versioning info' });
    expect(region(view, 'name 0: /Script/CoreUObject')).toMatchObject({ start: 406, end: 425, group: 'name batch', ref: 'name:0' });
    expect(region(view, 'name 24: /Game/Fixtures/Animations/AC_Fixture')).toMatchObject({ start: 694, end: 730 });
    expect(region(view, 'import 6: /Game/Fixtures/Animations/SKEL_Fixture.SKEL_Fixture')).toMatchObject({ start: 816, end: 824, ref: 'import:6' });
    expect(region(view, 'export 0 (AC_Fixture): class')).toMatchObject({ start: 856, end: 864, group: 'export map' });
    expect(region(view, 'imported package 1: /Game/Fixtures/Animations/AS_Fixture')).toMatchObject({ start: 1014, end: 1050 });
    expect(region(view, 'export 0 data: AC_Fixture (AnimComposite)')).toMatchObject({ start: 1058, end: 1717, ref: 'export-data:0' });
    expect(view.regions.at(-1)).toEqual({ start: 1717, end: 1721, label: 'package tag', group: 'package tag' });
    // Every byte of the chunk is named.
    expect(view.regions.reduce((n, r) => n + r.end - r.start, 0)).toBe(1721);
    expect(view.totals.regions).toBe(view.regions.length);
  });

  it('reads the package bytes in pieces', async () => {
    const tail = await backend.readPackageBytes({ installId, path: AC_FIXTURE, offset: 1717 });
    expect(tail.total).toBe(1721);
    expect([...tail.bytes]).toEqual([0xc1, 0x83, 0x2a, 0x9e]);
    const whole = await backend.readFile({ installId, path: AC_FIXTURE });
    const mid = await backend.readPackageBytes({ installId, path: AC_FIXTURE, offset: 800, length: 64 });
    expect(mid.bytes).toEqual(whole.bytes.subarray(800, 864));
    await expect(backend.readPackageBytes({ installId, path: AC_FIXTURE, offset: 5000 })).rejects.toThrow(/past the end of the package \(1721 bytes\)/);
  });

  it('reads an unversioned layout with the engine asked for, and says when an engine is no IoStore release', async () => {
    const v = await backend.openPackage({ installId, path: AC_FIXTURE, engine: '5.8' });
    expect(v.engine).toBe('5.8');
    expect(v.model.version).toMatchObject({ engine: '5.8' });
    const odd = await backend.openPackage({ installId, path: AC_FIXTURE, engine: '4.18' });
    expect(odd.warnings.join('\n')).toMatch(/4\.18 is not a release with IoStore packages/);
  });

  it('opens a package by its name, as the Imports table and references name it', async () => {
    const v = await backend.openPackage({ installId, path: '/Game/Fixtures/Animations/AC_Fixture' });
    expect(v.path).toBe(AC_FIXTURE);
    expect(v.name).toBe('/Game/Fixtures/Animations/AC_Fixture');
  });

  it('opens the package of a bulk data file', async () => {
    const v = await backend.openPackage({ installId, path: 'CUE4ParseFixtures/Content/Fixtures/Audio/SW_Format_PCM.ubulk' });
    expect(v.path).toBe('CUE4ParseFixtures/Content/Fixtures/Audio/SW_Format_PCM.uasset');
    expect(v.model.exports[0]?.class).toBe('SoundWave');
  });

  it('refuses a file that is no package, naming it', async () => {
    await expect(backend.openPackage({ installId, path: 'No/Such/File.uasset' })).rejects.toThrow(/no such package/);
    const { id } = await backend.openInstall({ path: corpus('pak/repak_pack_v11.pak') });
    await expect(backend.openPackage({ installId: id, path: 'mount/point/root/test.txt' })).rejects.toThrow(/test\.txt.*not an Unreal package/);
  });

  it('walks the graph both ways from the container headers', async () => {
    const g = await backend.packageGraph({ installId, package: AC_FIXTURE, direction: 'both', depth: 2 });
    expect(g.center).toMatchObject({ id: 'c03e46d9510d62e8', name: '/Game/Fixtures/Animations/AC_Fixture', held: true, path: AC_FIXTURE, depth: 0, imports: 2, referencedBy: 0 });
    expect(g.nodes.map((n) => [n.name, n.depth])).toEqual([
      ['/Game/Fixtures/Animations/AC_Fixture', 0],
      ['/Game/Fixtures/Animations/AS_Fixture', 1],
      ['/Game/Fixtures/Animations/SKEL_Fixture', 1],
      // Not in the install: named from the importing package's header (UE5.3+).
      ['/Engine/Animation/DefaultAnimBoneCompressionSettings', 2],
      ['/Engine/Animation/DefaultAnimCurveCompressionSettings', 2],
      ['/Engine/Animation/DefaultVariableFrameStrippingSettings', 2],
    ]);
    expect(g.nodes.find((n) => n.id === '40cd012b73ceae19')).toMatchObject({ held: false, path: null });
    expect(g).toMatchObject({ dependencyCount: 5, referencerCount: 0, truncated: false });
    expect(g.edges).toContainEqual({ from: 'c03e46d9510d62e8', to: 'a9dd7032867f7e58' });
    expect(g.edges).toContainEqual({ from: 'adc3f782449e1f33', to: '40cd012b73ceae19' });
    for (const e of g.edges) expect(g.nodes.some((n) => n.id === e.from) && g.nodes.some((n) => n.id === e.to)).toBe(true);

    const refs = await backend.packageGraph({ installId, package: '/Game/Fixtures/Animations/SKEL_Fixture', direction: 'referencers', depth: 3 });
    expect(refs.referencerCount).toBe(9);
    expect(refs.nodes.filter((n) => n.depth === -1)).toHaveLength(8);
    expect(refs.nodes.find((n) => n.depth === -2)?.name).toBe('/Game/Fixtures/PoseSearch/PSD_Fixture');
    // A tree path, a package name and an id name the same package.
    const byId = await backend.packageGraph({ installId, package: 'a9dd7032867f7e58', direction: 'referencers' });
    expect(byId.center.path).toBe(SKEL_FIXTURE);
    await expect(backend.packageGraph({ installId, package: '/Game/Nope', direction: 'both' })).rejects.toThrow(/\/Game\/Nope: not in this install's dependency graph/);
  });

  it('counts the graph, lists the most referenced, finds packages and the chain between two', async () => {
    const stats = await backend.graphStats({ installId });
    expect(stats).toMatchObject({ packages: 97, referencedOnly: 5, edges: 59, problems: [] });
    expect(stats.mostReferenced.slice(0, 3).map((n) => [n.name, n.count])).toEqual([
      ['/Game/Fixtures/Animations/SKEL_Fixture', 8], ['/Game/Fixtures/Meshes/SM_Fixture', 7], ['/Game/Fixtures/Animations/AS_Fixture', 5],
    ]);
    const found = await backend.graphFind({ installId, query: 'skel' });
    expect(found.matches.map((m) => m.path)).toEqual([SKEL_FIXTURE]);
    expect((await backend.graphFind({ installId, query: 'a9dd7032867f7e58' })).matches[0]!.name).toBe('/Game/Fixtures/Animations/SKEL_Fixture');
    // Packages the install only references are found too, by the names their importers' headers give.
    const engine = await backend.graphFind({ installId, query: 'DefaultAnimBone' });
    expect(engine.matches.map((m) => [m.name, m.held])).toEqual([['/Engine/Animation/DefaultAnimBoneCompressionSettings', false]]);
    const path = await backend.graphPath({ installId, from: AC_FIXTURE, to: '40cd012b73ceae19' });
    expect(path.path?.map((n) => n.name)).toEqual([
      '/Game/Fixtures/Animations/AC_Fixture', '/Game/Fixtures/Animations/AS_Fixture', '/Engine/Animation/DefaultAnimBoneCompressionSettings',
    ]);
    expect((await backend.graphPath({ installId, from: SKEL_FIXTURE, to: AC_FIXTURE })).path).toBeNull();
  });
});

describe('classic packages (loose .uasset files)', () => {
  it('shows an uncooked UE4.27 material with its PNG thumbnail and every summary field', async () => {
    const { id } = await backend.openInstall({ path: corpus('uncooked') });
    const v = await backend.openPackage({ installId: id, path: 'uapi427_TestMaterial.uasset' });
    expect(v).toMatchObject({ format: 'uasset', name: '/Game/TestMaterial', size: 100_495, totals: { names: 34, imports: 7, exports: 4 } });
    expectWellFormed(v);
    const t = v.model.thumbnails[0]!;
    expect(t).toMatchObject({ object: 'TestMaterial', format: 'png', dataSize: 97_441 });
    const png = Buffer.from(t.base64!, 'base64');
    expect(png.length).toBe(97_441);
    expect(png.subarray(0, 8)).toEqual(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]));
    expect(png).toEqual((await readFile(corpus('uncooked/uapi427_TestMaterial.uasset'))).subarray(t.dataOffset, t.dataOffset + t.dataSize));
    expect(v.regions.find((r) => r.ref === 'thumbnail:0')).toMatchObject({ start: t.dataOffset, end: t.dataOffset + t.dataSize });
    expect(v.regions.slice(0, 3).map((r) => [r.label, r.start, r.end])).toEqual([['tag', 0, 4], ['legacyFileVersion', 4, 8], ['legacyUE3Version', 8, 12]]);
    expect(v.regions.find((r) => r.ref === 'field:totalHeaderSize')).toMatchObject({ start: 164, end: 168 });
    expect(v.tables.map((x) => x.title)).toEqual(['Depends']);
    // Outside a Content folder the file maps to no package name: the graph is the package's own imports.
    const g = await backend.packageGraph({ installId: id, package: 'ue54_BP_MyCharacter.uasset', direction: 'both' });
    expect(g.note).toMatch(/not in the install's dependency graph/);
    expect(g.center.name).toBe('/Game/Blueprints/Characters/BP_MyCharacter');
    expect(g.nodes.length).toBe(1 + g.dependencyCount);
  });

  it('reads a cooked UE5.5 .uasset and its .uexp as one stream, whose offsets the exports use', async () => {
    const { id } = await backend.openInstall({ path: corpus('cooked') });
    // Opening the .uexp opens its package.
    const v = await backend.openPackage({ installId: id, path: 'retoc55_SM_Cube.uexp' });
    expect(v).toMatchObject({ path: 'retoc55_SM_Cube.uasset', name: '/Game/Meshes/SM_Cube', size: 1639 + 9795 });
    expect(v.parts).toEqual([{ path: 'retoc55_SM_Cube.uasset', offset: 0, size: 1639 }, { path: 'retoc55_SM_Cube.uexp', offset: 1639, size: 9795 }]);
    expectWellFormed(v);
    expect(v.regions.filter((r) => r.group === 'export data').map((r) => [r.label, r.start, r.end])).toEqual([
      ['export 0 data: BodySetup_0 (BodySetup)', 1639, 3907],
      ['export 1 data: NavCollision_0 (NavCollision)', 3907, 4371],
      ['export 2 data: SM_Cube (StaticMesh)', 4371, 11430],
    ]);
    const across = await backend.readPackageBytes({ installId: id, path: v.path, offset: 1635, length: 8 });
    const uasset = await readFile(corpus('cooked/retoc55_SM_Cube.uasset'));
    const uexp = await readFile(corpus('cooked/retoc55_SM_Cube.uexp'));
    expect(Buffer.from(across.bytes)).toEqual(Buffer.concat([uasset.subarray(1635), uexp.subarray(0, 4)]));
    const end = await backend.readPackageBytes({ installId: id, path: v.path, offset: 11430 });
    expect([...end.bytes]).toEqual([0xc1, 0x83, 0x2a, 0x9e]);
  });
});

describe('UE1/2 packages', () => {
  it('shows a UT99 map: header fields, tables, generations; its graph comes from the import maps', async () => {
    const { id } = await backend.openInstall({ path: corpus('legacy') });
    const v = await backend.openPackage({ installId: id, path: 'ut99_1HH-TestBox-Large.unr' });
    expect(v).toMatchObject({ format: 'ue12', name: 'ut99_1HH-TestBox-Large', size: 286_699, totals: { names: 283, imports: 74, exports: 119 } });
    expect(v.model.version).toMatchObject({ fileVersion: 69, knownGame: 'Unreal Tournament (UT99)' });
    expect(v.model.imports[0]).toMatchObject({ path: 'Botpack', class: 'Package' });
    expect(v.model.exports.map((e) => e.path)).toContain('LevelInfo0');
    expectWellFormed(v);
    expect(region(v, 'import offset')).toMatchObject({ start: 32, end: 36, ref: 'field:importOffset' });
    expect(region(v, 'name 1: PrunedPaths')?.group).toBe('name table');
    expect(v.regions.find((r) => r.ref === 'export-data:0')).toMatchObject({ start: 4577, end: 4639 });
    expect(v.tables.find((t) => t.id === 'generations')!.rows[0]!.cells).toEqual([0, 119, 283]);

    const g = await backend.packageGraph({ installId: id, package: 'ut99_1HH-TestBox-Large.unr', direction: 'dependencies' });
    expect(g.note).toBeUndefined();
    expect(g.nodes.slice(1).map((n) => n.name)).toContain('Botpack');
    expect(g.dependencyCount).toBe(13);
    const stats = await backend.graphStats({ installId: id });
    expect(stats.mostReferenced.slice(0, 2).map((n) => [n.name, n.count])).toEqual([['Core', 6], ['Engine', 6]]);
  });
});

describe('regions', () => {
  it('splits a UE4.27 Zen package (FPackageSummary, name pairs, name hashes)', async () => {
    const file = corpus('cooked/zen427_T_Emissive.uasset');
    const { model } = await openPackageFile(file);
    const { regions } = zenRegions(model, new Uint8Array(await readFile(file)));
    expect(regions.slice(0, 3).map((r) => r.label)).toEqual(['package name', 'source package name', 'package flags']);
    expect(regions.find((r) => r.label === 'name 0: /Engine/Engine_MI_Shaders/T_Emissive')).toMatchObject({ start: 66, end: 102, group: 'names' });
    expect(regions.find((r) => r.label === 'hash algorithm id')?.group).toBe('name hashes');
  });

  it('keeps the first of overlapping regions, fills the rest of each section, and counts past the cap', () => {
    const list = new RegionList(2);
    list.add(4, 4, 'b', 's');
    list.add(0, 6, 'a', 's');
    list.add(20, 4, 'dropped by the cap', 's');
    expect(list.total).toBe(3);
    const out = finishRegions(list, [{ name: 's', offset: 0, size: 12 }]);
    expect(out.map((r) => [r.label, r.start, r.end])).toEqual([['a', 0, 6], ['s', 6, 12]]);
  });

  it('makes parsed values JSON-safe', () => {
    expect(jsonSafe({ a: 1n << 60n, b: new Uint8Array(3), m: new Map([[1, 'x']]), l: [2n] })).toEqual({ a: '1152921504606846976', m: { 1: 'x' }, l: ['2'] });
  });

  it('validates the requests', () => {
    expect(() => validateRequest('packageGraph', { installId: 'i', package: 'p', direction: 'sideways' })).toThrow(/direction/);
    expect(() => validateRequest('readPackageBytes', { installId: 'i', path: 'p', offset: -1 })).toThrow(/offset/);
    expect(validateRequest('openPackage', { installId: 'i', path: 'p', engine: '5.4' })).toEqual({ installId: 'i', path: 'p', engine: '5.4' });
  });
});

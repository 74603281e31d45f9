// The shared package model both classic formats fill, and the info JSON the CLI prints from it.
import { describe, expect, it } from 'vitest';
import { FormatError } from '../../src/core/errors.js';
import {
  detectClassicPackage, packageInfoJson, parseClassicPackageModel, toPackageModel,
} from '../../src/core/package-model.js';
import { parseUAsset } from '../../src/core/uasset/parse.js';
import { parseUe12Package } from '../../src/core/ue12/package.js';
import { loadCorpus } from '../support/corpus.js';

const load = loadCorpus;

describe('detectClassicPackage', () => {
  it('tells UE4/5, UE1/2, UE3 and other files apart from the first 8 bytes', () => {
    expect(detectClassicPackage(load('uncooked/ue53_M_Solid.uasset'))).toEqual({ kind: 'uasset', fileVersion: -8, licensee: null });
    expect(detectClassicPackage(load('legacy/ut99_EnergySword.u'))).toEqual({ kind: 'ue12', fileVersion: 69, licensee: 0 });
    expect(detectClassicPackage(load('legacy/ut2004_2PP.utx'))).toEqual({ kind: 'ue12', fileVersion: 128, licensee: 29 });
    expect(detectClassicPackage(load('legacy/uelib_TestUC3.u'))).toEqual({ kind: 'ue3', fileVersion: 868, licensee: 0 });
    expect(detectClassicPackage(load('cooked/retoc55_SM_Cube.uexp')).kind).toBe('unknown');
    expect(detectClassicPackage(new Uint8Array(3)).kind).toBe('unknown');
  });
});

describe('uasset model', () => {
  const bytes = load('uncooked/uapi427_TestMaterial.uasset');
  const m = toPackageModel(parseUAsset(bytes, 'TestMaterial.uasset'), bytes);

  it('keeps every table in stored order', () => {
    const pkg = parseUAsset(bytes, 'TestMaterial.uasset');
    expect(m.format).toBe('uasset');
    expect(m.name).toBe('/Game/TestMaterial');
    expect(m.names).toEqual(pkg.names.map((n) => n.name));
    expect(m.imports.map((i) => i.index)).toEqual(pkg.imports.map((_, i) => i));
    expect(m.exports.map((e) => e.path)).toEqual(pkg.exports.map((e) => e.path));
  });

  it('carries versions, decoded flags, thumbnails with their bytes', () => {
    expect(m.version).toMatchObject({ legacyFileVersion: -7, fileVersionUE4: 522, objectVersionUE4Name: 'CORRECT_LICENSEE_FLAG', engine: '4.27', unversionedPackage: false, propertyEncoding: 'tagged' });
    expect((m.version.customVersions as unknown[]).length).toBe(7);
    expect(m.packageFlags).toEqual({ value: 0, names: [] });
    expect(m.thumbnails).toHaveLength(1);
    const t = m.thumbnails[0]!;
    expect(t).toMatchObject({ object: 'TestMaterial', class: 'Material', format: 'png', width: 256, height: 256 });
    expect(t.data).toBeInstanceOf(Uint8Array);
    expect(t.data!.length).toBe(t.dataSize);
    expect([...t.data!.subarray(1, 4)]).toEqual([0x50, 0x4e, 0x47]);
    const material = m.exports.find((e) => e.class === 'Material')!;
    expect(material).toMatchObject({ path: '/Game/TestMaterial.TestMaterial', outer: null, isAsset: true, dataFile: 'uasset' });
    expect(material.flags).toEqual(['RF_Public', 'RF_Standalone', 'RF_Transactional']);
  });

  it('resolves the depends map and preload dependencies to paths', () => {
    expect(m.dependencies).toHaveLength(m.exports.length);
    const cooked = toPackageModel(parseUAsset(load('cooked/retoc55_SM_Cube.uasset'), 'SM_Cube.uasset', { uexpSize: 9795 }));
    const mesh = cooked.dependencies.find((d) => cooked.exports[d.export]!.class === 'StaticMesh')!;
    expect(mesh.preload).toBeDefined();
    const all = Object.values(mesh.preload!).flat();
    expect(all.length).toBeGreaterThan(0);
    expect(all.every((p) => p.startsWith('/'))).toBe(true);
  });

  it('prints the info JSON: format, version, names, imports {path, class}, exports {name, class, outer, path, serialOffset, serialSize}', () => {
    const json = packageInfoJson(m);
    expect(Object.keys(json)).toEqual(['format', 'name', 'version', 'names', 'imports', 'exports']);
    expect(Object.keys(json.imports[0]!)).toEqual(['path', 'class']);
    expect(Object.keys(json.exports[0]!)).toEqual(['name', 'class', 'outer', 'path', 'serialOffset', 'serialSize']);
    expect(json.imports.find((i) => i.path === '/Script/Engine.Material')).toEqual({ path: '/Script/Engine.Material', class: 'Class' });
    // Plain JSON: a round trip changes nothing.
    expect(JSON.parse(JSON.stringify(json))).toEqual(json);
  });
});

describe('ue12 model', () => {
  it('fills the same shape', () => {
    const bytes = load('legacy/ut99_DeveloperMutator.u');
    const m = toPackageModel(parseUe12Package(bytes, 'DeveloperMutator.u'));
    expect(m).toMatchObject({ format: 'ue12', name: 'DeveloperMutator', version: { fileVersion: 69, licenseeVersion: 0, generation: 'Unreal Engine 1' } });
    expect(m.packageFlags).toEqual({ value: 1, names: ['PKG_AllowDownload'] });
    expect(m.names).toHaveLength(63);
    expect(m.exports).toHaveLength(34);
    expect(m.imports[0]).toMatchObject({ path: 'Engine', class: 'Package', outer: null });
    expect(m.exports[0]).toMatchObject({ name: 'actualDamage', class: 'IntProperty', path: 'DeveloperMutator.MutatorTakeDamage.actualDamage', outer: 'DeveloperMutator.MutatorTakeDamage' });
    expect(Object.keys(packageInfoJson(m).exports[0]!)).toEqual(['name', 'class', 'outer', 'path', 'serialOffset', 'serialSize']);
  });
});

describe('parseClassicPackageModel', () => {
  it('opens either format', () => {
    expect(parseClassicPackageModel(load('legacy/ut2004_tablechairs.usx'), 'tablechairs.usx').format).toBe('ue12');
    expect(parseClassicPackageModel(load('cooked/uapi54_MI_BlueCube.uasset'), 'MI_BlueCube.uasset', { uexpSize: 141 }).format).toBe('uasset');
  });

  it('says what a UE3 package or another file is', () => {
    expect(() => parseClassicPackageModel(load('legacy/uelib_TestUC3.u'), 'TestUC3.u')).toThrow(FormatError);
    expect(() => parseClassicPackageModel(load('legacy/uelib_TestUC3.u'), 'TestUC3.u')).toThrow(/Unreal Engine 3 package: UE3 packages are not supported yet/);
    expect(() => parseClassicPackageModel(load('cooked/uapi54_MI_BlueCube.uexp'), 'MI_BlueCube.uexp')).toThrow(/not an Unreal package/);
  });
});

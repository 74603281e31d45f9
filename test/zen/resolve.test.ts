import { beforeAll, describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { parseZenPackage } from '../../src/core/zen/zen-package.js';
import { parseLegacyScriptObjects, parseScriptObjects, type ScriptObjects } from '../../src/core/zen/script-objects.js';
import { resolveObjectRef, resolvePackage } from '../../src/core/zen/resolve.js';
import { legacyPackageImportIndex } from '../../src/core/zen/object-index.js';
import type { ZenPackage } from '../../src/core/zen/types.js';
import { ZenLayout } from '../../src/core/engine-versions.js';
import { corpus } from '../support/corpus.js';

const zen = (file: string, layout: ZenLayout): ZenPackage => parseZenPackage(readFileSync(corpus('cooked', file)), file, { layout });

describe('resolving Zen packages', () => {
  let ue5: ScriptObjects;
  let ue4: ScriptObjects;
  beforeAll(() => {
    ue5 = parseScriptObjects(readFileSync(corpus('headers/retoc53_ScriptObjects.bin')), 'retoc53_ScriptObjects.bin');
    ue4 = parseLegacyScriptObjects(readFileSync(corpus('headers/retoc427_LoaderInitialLoadMeta.bin')),
      readFileSync(corpus('headers/retoc427_LoaderGlobalNames.bin')), 'retoc427_LoaderInitialLoadMeta.bin');
  });

  it('names a UE5.6 static mesh\'s exports, classes, outers and templates', () => {
    const r = resolvePackage(zen('zen56_SM_Cube.uzenasset', ZenLayout.VerseCells), { scriptObjects: ue5 });
    expect(r.name).toBe('/Game/LevelPrototyping/Meshes/SM_Cube');
    expect(r.exports).toEqual([
      {
        index: 0, name: 'BodySetup_1', path: '/Game/LevelPrototyping/Meshes/SM_Cube.SM_Cube:BodySetup_1',
        className: 'BodySetup', classPath: '/Script/Engine.BodySetup', outerPath: '/Game/LevelPrototyping/Meshes/SM_Cube.SM_Cube',
        superPath: undefined, templatePath: '/Script/Engine.Default__BodySetup',
      },
      {
        index: 1, name: 'NavCollision_2', path: '/Game/LevelPrototyping/Meshes/SM_Cube.SM_Cube:NavCollision_2',
        className: 'NavCollision', classPath: '/Script/NavigationSystem.NavCollision', outerPath: '/Game/LevelPrototyping/Meshes/SM_Cube.SM_Cube',
        superPath: undefined, templatePath: '/Script/NavigationSystem.Default__NavCollision',
      },
      {
        index: 2, name: 'SM_Cube', path: '/Game/LevelPrototyping/Meshes/SM_Cube.SM_Cube',
        className: 'StaticMesh', classPath: '/Script/Engine.StaticMesh', outerPath: undefined,
        superPath: undefined, templatePath: '/Script/Engine.Default__StaticMesh',
      },
    ]);
    expect(r.imports.slice(0, 8).map((i) => i.path)).toEqual([
      '/Script/Engine.Default__BodySetup', '/Script/Engine.BodySetup', '/Script/Engine.StaticMesh',
      '/Script/NavigationSystem.NavCollision', '/Game/LevelPrototyping/Materials/MI_PrototypeGrid_Gray.?0x74c741bc53ad6917',
      '/Script/NavigationSystem.Default__NavCollision', 'None', '/Script/Engine',
    ]);
    const unresolved = r.imports.filter((i) => !i.resolved);
    expect(unresolved.map((i) => [i.kind, i.packageName])).toEqual([['package', '/Game/LevelPrototyping/Materials/MI_PrototypeGrid_Gray']]);
    expect(r.imports[0]!.classPath).toBe('/Script/Engine.BodySetup'); // a CDO names its class
  });

  it('prints subobjects of a CDO and of a class the engine\'s way', () => {
    const r = resolvePackage(zen('zen56_BP_ThirdPersonCharacter.uzenasset', ZenLayout.VerseCells), { scriptObjects: ue5 });
    const byName = new Map(r.exports.map((e) => [e.name, e]));
    expect(byName.get('BP_ThirdPersonCharacter_C')).toMatchObject({
      path: '/Game/ThirdPerson/Blueprints/BP_ThirdPersonCharacter.BP_ThirdPersonCharacter_C',
      classPath: '/Script/Engine.BlueprintGeneratedClass', superPath: '/Script/Engine.Character',
    });
    expect(byName.get('CollisionCylinder')).toMatchObject({
      path: '/Game/ThirdPerson/Blueprints/BP_ThirdPersonCharacter.Default__BP_ThirdPersonCharacter_C:CollisionCylinder',
      templatePath: '/Script/Engine.Default__Character:CollisionCylinder',
    });
    expect(byName.get('Default__BP_ThirdPersonCharacter_C')!.classPath).toBe('/Game/ThirdPerson/Blueprints/BP_ThirdPersonCharacter.BP_ThirdPersonCharacter_C');
  });

  it('prints UE4.27 exports at the paths their global import indices hash', () => {
    for (const file of ['zen427_T_Emissive.uasset', 'zen427_BP_SpicyChoppingDamage.uasset', 'zen427_TestModUI.uzenasset']) {
      const pkg = zen(file, ZenLayout.PackageSummary);
      const r = resolvePackage(pkg, { scriptObjects: ue4 });
      const pub = pkg.exports.filter((e) => e.isPublic);
      expect(pub.length).toBeGreaterThan(0);
      for (const e of pub) expect(legacyPackageImportIndex(r.exports[e.index]!.path), r.exports[e.index]!.path).toBe(e.publicExportHash);
    }
    const t = resolvePackage(zen('zen427_T_Emissive.uasset', ZenLayout.PackageSummary), { scriptObjects: ue4 });
    expect(t.exports[0]).toMatchObject({ path: '/Engine/Engine_MI_Shaders/T_Emissive.T_Emissive', classPath: '/Script/Engine.Texture2D' });
    expect(t.imports.map((i) => i.path)).toEqual(['/Script/Engine.Texture2D', '/Script/Engine', '/Script/Engine.Default__Texture2D']);
  });

  it('resolves a UE4.27 package import through the imported package', () => {
    const texture = zen('zen427_T_Emissive.uasset', ZenLayout.PackageSummary);
    const bp = zen('zen427_BP_SpicyChoppingDamage.uasset', ZenLayout.PackageSummary);
    // A package importing T_Emissive by its global import index.
    const importer: ZenPackage = { ...bp, imports: [{ kind: 'globalImport', raw: texture.exports[0]!.publicExportHash }], importedPackageIds: [texture.packageId] };
    const r = resolveObjectRef(importer, importer.imports[0]!, { scriptObjects: ue4, importedPackages: (id) => (id === texture.packageId ? texture : undefined) });
    expect(r).toEqual({
      path: '/Engine/Engine_MI_Shaders/T_Emissive.T_Emissive', name: 'T_Emissive', resolved: true, kind: 'globalImport',
      packageName: '/Engine/Engine_MI_Shaders/T_Emissive', packageId: '7b688c86ccf36760', classPath: '/Script/Engine.Texture2D',
    });
    const missing = resolveObjectRef(bp, bp.imports[0]!, { scriptObjects: ue4 });
    expect(missing).toMatchObject({ resolved: false, kind: 'globalImport', path: `/?0x${bp.imports[0]!.raw}` });
  });

  it('prints placeholders without script objects', () => {
    const r = resolvePackage(zen('zen56_T_Quinn_01_D.uzenasset', ZenLayout.VerseCells));
    expect(r.exports[0]!.path).toBe('/Game/Characters/Mannequins/Textures/Quinn/T_Quinn_01_D.T_Quinn_01_D');
    expect(r.exports[0]!.className).toBeUndefined();
    expect(r.exports[0]!.classPath).toMatch(/^\/Script\/\?0x[4-7][0-9a-f]{15}$/);
    expect(r.imports.every((i) => !i.resolved)).toBe(true);
  });
});

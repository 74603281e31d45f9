// Object resolution: import and export paths, classes, outers, supers, templates, names with
// numbers, package names.
import { existsSync, readFileSync, statSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { parseUAsset } from '../../src/core/uasset/parse.js';
import { fnameText } from '../../src/core/uasset/names.js';
import { corpus } from '../support/corpus.js';

function parse(rel: string, opts: { packageName?: string } = {}) {
  const uexp = corpus(rel.replace(/\.(uasset|umap)$/, '.uexp'));
  return parseUAsset(readFileSync(corpus(rel)), rel, { ...opts, ...(existsSync(uexp) ? { uexpSize: statSync(uexp).size } : {}) });
}

describe('FName text', () => {
  it('prints number n as _(n-1), as the engine does', () => {
    expect(fnameText('K2Node_Event', 0)).toBe('K2Node_Event');
    expect(fnameText('K2Node_Event', 1)).toBe('K2Node_Event_0');
    expect(fnameText('BookMark', 3)).toBe('BookMark_2');
  });
});

describe('UE4.27 Blueprint (uapi427_TestActorBP)', () => {
  const pkg = parse('uncooked/uapi427_TestActorBP.uasset');

  it('finds its package name in the name map', () => {
    expect(pkg.packageName).toBe('/Game/TestActorBP');
    expect(pkg.packageNameSource).toBe('name map');
    expect(pkg.names[0]!.name).toBe('/Game/TestActorBP');
    expect(pkg.names[105]!.name).toBe('Vector2D');
  });

  it('resolves imports through their outer packages', () => {
    expect(pkg.imports[0]).toMatchObject({ path: '/Script/Engine.Default__Actor', className: 'Actor', classPath: '/Script/Engine.Actor', outer: '/Script/Engine' });
    expect(pkg.imports[6]).toMatchObject({ path: '/Script/Engine.Actor', className: 'Class', classPath: '/Script/CoreUObject.Class' });
    const engine = pkg.imports.find((i) => i.path === '/Script/Engine')!;
    expect(engine).toMatchObject({ className: 'Package', outer: null, outerIndex: 0 });
  });

  it('resolves exports: classes, outers with ":" after a top-level object, numbered names, supers', () => {
    expect(pkg.exports[0]).toMatchObject({ path: '/Game/TestActorBP.TestActorBP', className: 'Blueprint', classPath: '/Script/Engine.Blueprint', outer: null, isAsset: true, serialOffset: 14011, serialSize: 942 });
    expect(pkg.exports[0]!.objectFlagNames).toEqual(['RF_Public', 'RF_Standalone', 'RF_Transactional']);
    expect(pkg.exports[1]).toMatchObject({ path: '/Game/TestActorBP.TestActorBP_C', className: 'BlueprintGeneratedClass', superPath: '/Script/Engine.Actor' });
    expect(pkg.exports[2]).toMatchObject({ path: '/Game/TestActorBP.TestActorBP:EventGraph', outer: '/Game/TestActorBP.TestActorBP', className: 'EdGraph' });
    // FName number 1 prints as _0.
    expect(pkg.exports[4]).toMatchObject({ objectName: 'K2Node_Event_0', path: '/Game/TestActorBP.TestActorBP:EventGraph.K2Node_Event_0', outer: '/Game/TestActorBP.TestActorBP:EventGraph' });
    expect(pkg.exports[6]!.objectName).toBe('K2Node_Event_2');
  });

  it('reads the sections after the export map', () => {
    expect(pkg.dependsMap).toHaveLength(14);
    expect(pkg.dependsMap[0]).toEqual([13, 3, 4, 11, 2]);
    expect(pkg.softPackageReferences).toEqual(['/Game/TestActorBP']);
    expect(pkg.gatherableText).toHaveLength(1);
    expect(pkg.gatherableText[0]).toMatchObject({ namespace: 'SCS', sourceString: 'Default' });
    expect(pkg.gatherableText[0]!.sites[0]!.siteDescription).toBe('/Game/TestActorBP.TestActorBP_C:SimpleConstructionScript_0.SCS_Node_0.CategoryName');
    expect(pkg.assetRegistry!.objects[0]).toMatchObject({ objectPath: 'TestActorBP', objectClassName: 'Blueprint' });
    expect(pkg.assetRegistry!.objects[0]!.tags.ParentClass).toBe("Class'/Script/Engine.Actor'");
    expect(pkg.assetRegistry!.dependencyDataOffset).toBe(13995);
    expect(pkg.summary.localizationId).toBe('D9C9644F42FF1A92C53A39A59FD9DE22');
    expect(pkg.summary.savedByEngineVersion!.text).toBe('4.27.2-18319896+++UE4+Release-4.27');
    expect(pkg.summary.customVersions.map((c) => c.name)).toEqual([
      'FAnimPhysObjectVersion', 'FCoreObjectVersion', 'FReleaseObjectVersion', 'FBlueprintsObjectVersion', 'FFrameworkObjectVersion', 'FEditorObjectVersion',
    ]);
    expect(pkg.sections.map((s) => s.name).slice(0, 6)).toEqual(['summary', 'name map', 'gatherable text', 'import map', 'export map', 'depends map']);
  });
});

describe('UE4.25 map (ue425_Level_01)', () => {
  const pkg = parse('uncooked/ue425_Level_01.umap');
  it('puts actors under World:PersistentLevel', () => {
    expect(pkg.packageName).toBe('/Game/Levels/Level_01');
    expect(pkg.exports[11]).toMatchObject({ path: '/Game/Levels/Level_01.Level_01:PersistentLevel.Brush_1', className: 'Brush', outer: '/Game/Levels/Level_01.Level_01:PersistentLevel' });
    expect(pkg.exports[7]!.path).toBe('/Game/Levels/Level_01.Level_01:PersistentLevel.WorldSettings_1.BookMark_0');
    expect(pkg.imports[7]).toMatchObject({ path: '/Script/Engine.Default__Brush:BrushComponent0', outer: '/Script/Engine.Default__Brush' });
    expect(pkg.imports[4]).toMatchObject({ path: '/Engine/EngineSky/BP_Sky_Sphere.BP_Sky_Sphere_C', className: 'BlueprintGeneratedClass' });
  });
});

describe('UE5.6 cooked Blueprint (retoc56_BP_ThirdPersonCharacter)', () => {
  const pkg = parse('cooked/retoc56_BP_ThirdPersonCharacter.uasset');
  it('resolves templates and the CDO', () => {
    expect(pkg.packageName).toBe('/Game/ThirdPerson/Blueprints/BP_ThirdPersonCharacter');
    expect(pkg.packageNameSource).toBe('summary');
    expect(pkg.exports[0]).toMatchObject({ className: 'BlueprintGeneratedClass', superPath: '/Script/Engine.Character', templatePath: '/Script/Engine.Default__BlueprintGeneratedClass' });
    expect(pkg.exports[1]).toMatchObject({ path: '/Game/ThirdPerson/Blueprints/BP_ThirdPersonCharacter.Default__BP_ThirdPersonCharacter_C', className: 'BP_ThirdPersonCharacter_C', templatePath: '/Script/Engine.Default__Character' });
    expect(pkg.exports[3]).toMatchObject({ path: '/Game/ThirdPerson/Blueprints/BP_ThirdPersonCharacter.Default__BP_ThirdPersonCharacter_C:CollisionCylinder', templatePath: '/Script/Engine.Default__Character:CollisionCylinder' });
    expect(pkg.exports[7]).toMatchObject({ objectName: 'ExecuteUbergraph_BP_ThirdPersonCharacter', className: 'Function', serialOffset: 10852, serialSize: 5630, dataFile: 'uexp', dataFileOffset: 10852 - 9704 });
  });
  it('has preload dependencies in range', () => {
    expect(pkg.preloadDependencies.length).toBe(pkg.summary.preloadDependencyCount);
    for (const d of pkg.preloadDependencies) expect(d >= -pkg.imports.length && d <= pkg.exports.length && d !== 0).toBe(true);
  });
});

describe('package names', () => {
  it('takes the caller\'s name first', () => {
    const pkg = parse('uncooked/uapi427_TestSoundClass.uasset', { packageName: '/Game/X/Y' });
    expect(pkg.exports.map((e) => e.path)).toEqual(['/Game/X/Y.PackageMetaData', '/Game/X/Y.TestSoundClass']);
  });
  it('finds a renamed file\'s package by its top-level asset (uapi423_Items → /Game/Globals/StringTables/Items)', () => {
    expect(parse('cooked/uapi423_Items.uasset').packageName).toBe('/Game/Globals/StringTables/Items');
  });
  it('falls back to the file name when nothing better is there', () => {
    // The corpus renamed this external actor package; its path in the name map ends with the old
    // name, but no top-level export confirms it, so the file name stands.
    const pkg = parse('uncooked/ue53_Z4CTQ4LG3YV10EKPD0UE8Q.uasset');
    expect(pkg.names.some((n) => n.name === '/Game/__ExternalActors__/ThirdPerson/Maps/ThirdPersonMap/D/SY/Z4CTQ4LG3YV10EKPD0UE8Q')).toBe(true);
    expect(pkg.packageName).toBe('ue53_Z4CTQ4LG3YV10EKPD0UE8Q');
    expect(pkg.packageNameSource).toBe('file name');
  });
});

describe('soft object paths', () => {
  it('reads FString sub-paths before UE5.6 and UTF-8 ones after', () => {
    const p51 = parse('uncooked/ue51_Blueprint_CeilingLight.uasset');
    expect(p51.softObjectPaths[0]!.path).toBe('/Game/StarterContent/Blueprints/Blueprint_CeilingLight.Blueprint_CeilingLight:EventGraph');
    const p57 = parse('uncooked/uapi57_BP_FP_CameraManager.uasset');
    expect(p57.softObjectPaths).toHaveLength(7);
    expect(p57.softObjectPaths.map((p) => p.subPath)).toEqual(['UserConstructionScript', 'EventGraph', 'ReceiveActorBeginOverlap', 'ReceiveTick', 'UserConstructionScript', '', '']);
  });
});

describe('UE5 package trailer', () => {
  it('locates the texture source payload of ue53_T_GridChecker_A', () => {
    const pkg = parse('uncooked/ue53_T_GridChecker_A.uasset');
    expect(pkg.trailer).toMatchObject({ offset: 6720, version: 2, headerLength: 77, payloadsDataLength: 2872, trailerLength: 2969 });
    expect(pkg.trailer!.payloads).toEqual([expect.objectContaining({ accessMode: 'Local', absoluteOffset: 6797, compressedSize: 2872, rawSize: 1050852 })]);
  });
});

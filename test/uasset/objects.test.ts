// Object resolution: import and export paths, classes, outers, supers, templates, names with
// numbers, package names.
import { existsSync, readFileSync, statSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { parseUAsset } from '../../src/core/uasset/parse.js';
import { displayName } from '../../src/core/zen/name-batch.js';
import { corpus } from '../support/corpus.js';

function parse(rel: string, opts: { packageName?: string } = {}) {
  const uexp = corpus(rel.replace(/\.(uasset|umap)$/, '.uexp'));
  return parseUAsset(readFileSync(corpus(rel)), rel, { ...opts, ...(existsSync(uexp) ? { uexpSize: statSync(uexp).size } : {}) });
}

describe('FName text', () => {
  it('prints number n as _(n-1), as the engine does (the name map stores K2Node_Event with number 1)', () => {
    expect(displayName('K2Node_Event', 1)).toBe('K2Node_Event_0');
    const pkg = parse('uncooked/uapi427_TestActorBP.uasset');
    expect(pkg.names.some((n) => n.name === 'K2Node_Event')).toBe(true);
    expect(pkg.names.some((n) => n.name === 'K2Node_Event_0')).toBe(false);
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

describe('UE5 data resources', () => {
  // BULKDATA_PayloadInSeperateFile: the payload lives in the .ubulk.
  const IN_SEPARATE_FILE = 0x100;
  for (const [rel, ubulk] of [['cooked/retoc55_SM_Cube.uasset', 'cooked/retoc55_SM_Cube.ubulk'], ['cooked/retoc56_SM_Cube.uasset', 'cooked/retoc56_SM_Cube.ubulk'], ['cooked/retoc56_T_Quinn_01_D.uasset', 'cooked/retoc56_T_Quinn_01_D.ubulk']] as const) {
    it(`${rel}: the .ubulk payloads fill the .ubulk back to back`, () => {
      const pkg = parse(rel);
      expect(pkg.dataResources!.version).toBe(2);
      const inBulk = pkg.dataResources!.resources.filter((d) => d.legacyBulkDataFlags & IN_SEPARATE_FILE).sort((a, b) => a.serialOffset - b.serialOffset);
      expect(inBulk.length).toBeGreaterThan(0);
      let at = 0;
      for (const d of inBulk) {
        expect(d.serialOffset).toBe(at);
        at += d.serialSize;
      }
      expect(at).toBe(statSync(corpus(ubulk)).size);
      for (const d of pkg.dataResources!.resources) expect(d.outerIndex).toBeGreaterThan(0);
    });
  }

  it('reads version 1 entries (no cooked index) of UE5.3', () => {
    const pkg = parse('cooked/uapi53_Entry.umap');
    expect(pkg.dataResources!.version).toBe(1);
    expect(pkg.dataResources!.resources).toHaveLength(4);
    expect(pkg.dataResources!.resources[0]).toMatchObject({ cookedIndex: null, serialOffset: 53, serialSize: 434, rawSize: 434, outerIndex: 1 });
  });
});

describe('cooked split packages', () => {
  const rel = 'cooked/retoc56_SM_Cube.uasset';
  const header = new Uint8Array(readFileSync(corpus(rel)));
  const uexp = new Uint8Array(readFileSync(corpus('cooked/retoc56_SM_Cube.uexp')));

  it('parses a .uasset without its .uexp, with the data marked missing', () => {
    const pkg = parseUAsset(header, rel);
    expect(pkg.issues).toEqual([]);
    expect(pkg.exportData).toMatchObject({ file: 'missing', uexpSize: null, start: 1744, end: 1744 + 6807 - 4 });
    expect(pkg.exports.every((e) => e.dataFile === 'missing')).toBe(true);
    expect(pkg.exports[0]!.dataFileOffset).toBe(pkg.exports[0]!.serialOffset - 1744);
  });

  it('reads the stored ranges the same from the .uasset and .uexp as one stream', () => {
    const joined = new Uint8Array(header.length + uexp.length);
    joined.set(header);
    joined.set(uexp, header.length);
    const pkg = parseUAsset(joined, rel);
    const split = parseUAsset(header, rel, { uexpSize: uexp.length });
    expect(pkg.exports.map((e) => [e.serialOffset, e.serialSize])).toEqual(split.exports.map((e) => [e.serialOffset, e.serialSize]));
    expect(pkg.exports.every((e) => e.dataFile === 'uasset' && e.dataFileOffset === e.serialOffset)).toBe(true);
    expect(split.exports.every((e) => e.dataFile === 'uexp')).toBe(true);
  });

  it('says so when the .uexp is shorter than the exports need', () => {
    const pkg = parseUAsset(header, rel, { uexpSize: 100 });
    expect(pkg.issues.length).toBeGreaterThan(0);
    expect(pkg.issues[0]!.detail).toMatch(/is outside the export data \(1744\.\.1844\)/);
  });
});

describe('a short .uexp', () => {
  it('is the data\'s fault, not the layout\'s', () => {
    const pkg = parseUAsset(new Uint8Array(readFileSync(corpus('cooked/retoc56_SM_Cube.uasset'))), 'x', { uexpSize: 100 });
    expect(pkg.version).toMatchObject({ engine: '5.6', source: 'layout' });
    expect(pkg.warnings).toEqual([]);
    expect(pkg.issues.length).toBeGreaterThan(0);
    for (const i of pkg.issues) expect(i).toMatchObject({ structure: 'export map', detail: expect.stringContaining('is outside the export data (1744..1844)') });
  });
});

describe('header sections', () => {
  it('tile a UE4 texture package from the summary to the tag', () => {
    const pkg = parse('uncooked/ue4old_T_FPGun_M.uasset');
    expect(pkg.sections.map((s) => s.name)).toEqual([
      'summary', 'name map', 'import map', 'export map', 'depends map', 'thumbnail T_FPGun_M', 'thumbnail table',
      'asset registry data', 'export data', 'bulk data', 'package tag',
    ]);
    let at = 0;
    for (const s of pkg.sections) {
      expect(s.offset, s.name).toBe(at);
      at += s.size;
    }
    expect(at).toBe(pkg.fileSize);
  });

  it('never overlap, in any corpus package', () => {
    for (const rel of ['uncooked/uapi57_BP_FP_CameraManager.uasset', 'uncooked/ue53_T_GridChecker_A.uasset', 'cooked/uapi427_Map_FrontEnd_Hotel_LS_Night.umap', 'cooked/retoc56_T_Quinn_01_D.uasset']) {
      const pkg = parse(rel);
      let end = 0;
      for (const s of pkg.sections) {
        expect(s.offset, `${rel} ${s.name}`).toBeGreaterThanOrEqual(end);
        end = s.offset + s.size;
      }
      expect(end).toBeLessThanOrEqual(pkg.fileSize);
    }
  });
});

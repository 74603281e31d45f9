import { describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import {
  findScriptObject, isScriptPackage, parseLegacyScriptObjects, parseScriptObjects, scriptObjectPath, type ScriptObjects,
} from '../../src/core/zen/script-objects.js';
import { scriptImportIndex } from '../../src/core/zen/object-index.js';
import { FormatError } from '../../src/core/errors.js';
import { corpus } from '../support/corpus.js';
import { readMiniChunk, readMiniToc } from './mini-utoc.js';

const pathOf = (so: ScriptObjects, globalIndex: string): string => scriptObjectPath(so, findScriptObject(so, globalIndex)!);

/**
 * Each object's global index is the hash of the path we print for it, so names and outer chains
 * are right (every `step`th object, to keep the test fast on the big global containers).
 */
function expectIndicesMatchPaths(so: ScriptObjects, step = 1): void {
  let mismatches = 0;
  for (let i = 0; i < so.objects.length; i += step) {
    if (scriptImportIndex(scriptObjectPath(so, i)) !== so.objects[i]!.globalIndex) mismatches++;
  }
  expect(mismatches).toBe(0);
}

describe('script objects', () => {
  const ue53 = parseScriptObjects(readFileSync(corpus('headers/retoc53_ScriptObjects.bin')), 'retoc53_ScriptObjects.bin');

  it('reads the UE5.3 ScriptObjects chunk and prints /Script paths', () => {
    expect(ue53.names.length).toBe(29083);
    expect(ue53.objects.length).toBe(30977);
    expect(ue53.objects.filter((o) => o.outer === undefined).length).toBe(355); // /Script packages
    expect(scriptObjectPath(ue53, 0)).toBe('/Script/GeometryCollectionEngine.GeometryCollectionActor');
    expect(pathOf(ue53, '407cde1a593e47cf')).toBe('/Script/Engine.StaticMesh');
    expect(pathOf(ue53, '7f4f75b2e5b5c556')).toBe('/Script/CoreUObject.Object');
    // A function's outer is a class, whose outer is the package: ':' (UObject::GetPathName).
    const fn = findScriptObject(ue53, scriptImportIndex('/Script/ACLPlugin.AnimationCompressionLibraryDatabase:GetVisualFidelity'))!;
    expect(scriptObjectPath(ue53, fn)).toBe('/Script/ACLPlugin.AnimationCompressionLibraryDatabase:GetVisualFidelity');
    expect(isScriptPackage(ue53, findScriptObject(ue53, scriptImportIndex('/Script/Engine'))!)).toBe(true);
    // A CDO names its class.
    const cdo = ue53.objects[findScriptObject(ue53, scriptImportIndex('/Script/Engine.Default__StaticMesh'))!]!;
    expect(cdo.cdoClass).toBe('407cde1a593e47cf');
    expectIndicesMatchPaths(ue53);
  });

  it('reads UE4.27 LoaderInitialLoadMeta with LoaderGlobalNames and their hashes', () => {
    const so = parseLegacyScriptObjects(
      readFileSync(corpus('headers/retoc427_LoaderInitialLoadMeta.bin')),
      readFileSync(corpus('headers/retoc427_LoaderGlobalNames.bin')),
      'retoc427_LoaderInitialLoadMeta.bin',
      { globalNameHashes: readFileSync(corpus('headers/retoc427_LoaderGlobalNameHashes.bin')) },
    );
    expect(so.names.length).toBe(21550);
    expect(so.objects.length).toBe(23393);
    expect(scriptObjectPath(so, 0)).toBe('/Script/AccelByteUe4Sdk');
    expect(scriptObjectPath(so, 2)).toBe('/Script/AccelByteUe4Sdk.ABAchievement:ClaimGlobalAchievements');
    expect(pathOf(so, '407cde1a593e47cf')).toBe('/Script/Engine.StaticMesh');
    expect(pathOf(so, '7f4f75b2e5b5c556')).toBe('/Script/CoreUObject.Object');
    expectIndicesMatchPaths(so);
  });

  it('reads the ScriptObjects chunk of UE5.0, UE5.2-5.3, UE5.5+ and UE5.8 global containers', () => {
    for (const [base, names, objects] of [
      ['iostore/ue501_tog_global', 24122, 25703],
      ['iostore/aws_global', 30892, 32914],
      ['iostore/wotn_global', 38092, 40410],
      ['cue58/IoStore/Tagged/global', 34639, 36979],
    ] as const) {
      const toc = readMiniToc(corpus(`${base}.utoc`));
      expect(toc.chunks[0]!.type).toBe(5); // ScriptObjects
      const so = parseScriptObjects(readMiniChunk(toc, corpus(`${base}.ucas`), toc.chunks[0]!), base);
      expect(so.names.length).toBe(names);
      expect(so.objects.length).toBe(objects);
      expect(pathOf(so, '407cde1a593e47cf')).toBe('/Script/Engine.StaticMesh');
      expectIndicesMatchPaths(so, 13);
    }
  });

  it('ends a broken outer chain with "?" instead of looping', () => {
    const so: ScriptObjects = {
      file: 'loop', names: [], paths: [],
      objects: [
        { name: 'A', globalIndex: '4000000000000001', outer: '4000000000000002' },
        { name: 'B', globalIndex: '4000000000000002', outer: '4000000000000001' },
        { name: 'C', globalIndex: '4000000000000003', outer: '4000000000000009' },
      ],
      byIndex: new Map([['4000000000000001', 0], ['4000000000000002', 1], ['4000000000000003', 2]]),
    };
    expect(scriptObjectPath(so, 0)).toBe('?.B.A');
    expect(scriptObjectPath(so, 2)).toBe('?.C');
  });

  it('rejects bad entries with the file, structure and offset', () => {
    const bytes = readFileSync(corpus('headers/retoc53_ScriptObjects.bin'));
    // Find the entries: the name batch is followed by the u32 object count.
    const so = ue53;
    const entriesAt = bytes.length - so.objects.length * 32;
    const bad = Uint8Array.from(bytes);
    const dv = new DataView(bad.buffer);
    dv.setUint32(entriesAt + 16 + 4, 0x80000000, true); // object 0's outer: a package import
    let err: unknown;
    try { parseScriptObjects(bad, 'bad.bin'); } catch (e) { err = e; }
    expect(err).toBeInstanceOf(FormatError);
    expect((err as FormatError).structure).toBe('script object entries');
    expect((err as FormatError).offset).toBe(entriesAt + 16);
    expect((err as FormatError).file).toBe('bad.bin');

    const cut = bytes.subarray(0, bytes.length - 10);
    expect(() => parseScriptObjects(cut, 'cut.bin')).toThrow(FormatError);
  });
});

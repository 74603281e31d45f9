// Version tables and the engine of unversioned packages, decided by the bytes.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { ENGINE_RELEASES } from '../../src/core/engine-versions.js';
import { customVersionName } from '../../src/core/uasset/custom-versions.js';
import { nameHashesMatch, strCrc32, strihashDeprecated } from '../../src/core/uasset/name-hash.js';
import { candidateLayouts, parseUAsset } from '../../src/core/uasset/parse.js';
import {
  CLASSIC_ENGINE_RELEASES, UE4Version, UE5Version, findClassicEngineRelease, ue4VersionName, ue5VersionName,
} from '../../src/core/uasset/versions.js';
import { corpus } from '../support/corpus.js';

describe('object version tables', () => {
  it('UE4: every version from 214 (oldest loadable) to 522, each once', () => {
    const values = Object.values(UE4Version).sort((a, b) => a - b);
    expect(values).toHaveLength(522 - 214 + 1);
    values.forEach((v, i) => expect(v).toBe(214 + i));
    expect(UE4Version.NAME_HASHES_SERIALIZED).toBe(504);
    expect(UE4Version.PRELOAD_DEPENDENCIES_IN_COOKED_EXPORTS).toBe(507);
    expect(UE4Version.TEMPLATE_INDEX_IN_COOKED_EXPORTS).toBe(508);
    expect(UE4Version.ADDED_SEARCHABLE_NAMES).toBe(510);
    expect(UE4Version.EXPORTMAP_64BIT_SERIALSIZES).toBe(511);
    expect(UE4Version.ADDED_PACKAGE_SUMMARY_LOCALIZATION_ID).toBe(516);
    expect(UE4Version.NON_OUTER_PACKAGE_IMPORT).toBe(520);
    expect(ue4VersionName(522)).toBe('CORRECT_LICENSEE_FLAG');
    expect(ue4VersionName(213)).toBeUndefined();
  });

  it('UE5: 1000 to 1018', () => {
    expect(Object.values(UE5Version)).toEqual(Array.from({ length: 19 }, (_, i) => 1000 + i));
    expect(ue5VersionName(1016)).toBe('PACKAGE_SAVED_HASH');
    expect(ue5VersionName(1018)).toBe('IMPORT_TYPE_HIERARCHIES');
  });

  it('agrees with engine-versions.ts on every release both know', () => {
    for (const r of ENGINE_RELEASES) {
      const label = r.label.replace(/^UE/, '');
      const mine = findClassicEngineRelease(label);
      expect(mine, label).toBeDefined();
      expect([mine!.ue4, mine!.ue5], label).toEqual([r.fileVersionUE4, r.fileVersionUE5]);
    }
  });

  it('reads engine names in the usual spellings', () => {
    expect(findClassicEngineRelease('4.27')?.ue4).toBe(522);
    expect(findClassicEngineRelease('UE5.3')?.ue5).toBe(1009);
    expect(findClassicEngineRelease('GAME_UE4_14')?.ue4).toBe(508);
    expect(findClassicEngineRelease('ue5_6')?.ue5).toBe(1017);
    expect(findClassicEngineRelease('6.1')).toBeUndefined();
    expect(CLASSIC_ENGINE_RELEASES.at(-1)).toMatchObject({ engine: '6.0', ue5: 1018, importPackageNameAlways: true });
  });

  it('groups releases with the same layout into one candidate', () => {
    const ue5 = candidateLayouts(-9);
    expect(ue5[0]).toMatchObject({ ue5: 1018, importPackageNameAlways: true, engines: ['5.8', '6.0'] });
    expect(ue5[1]).toMatchObject({ ue5: 1018, importPackageNameAlways: false, engines: ['5.7'] });
    expect(ue5[2]).toMatchObject({ ue5: 1017, engines: ['5.6'] });
    expect(candidateLayouts(-8).find((l) => l.ue5 === 1009)!.engines).toEqual(['5.2', '5.3']);
    expect(candidateLayouts(-7, findClassicEngineRelease('4.20'))[0]).toMatchObject({ ue4: 516, engines: ['4.19', '4.20'] });
  });
});

describe('custom version names', () => {
  it('names well-known keys', () => {
    expect(customVersionName('E4B068EDF49442E9A231DA0B2E46BB41')).toBe('FEditorObjectVersion');
    expect(customVersionName('601D1886AC644F84AA16D3DE0DEAC7D6')).toBe('FFortniteMainBranchObjectVersion');
    expect(customVersionName('00000000000000000000000000000000')).toBeNull();
  });
});

describe('name map hashes', () => {
  it('are the engine\'s CRCs of the name', () => {
    // Values stored in uapi427_TestActorBP's name map.
    const pkg = parseUAsset(readFileSync(corpus('uncooked/uapi427_TestActorBP.uasset')), 'x');
    const none = pkg.names.find((n) => n.name === 'None')!;
    expect(strihashDeprecated('None') & 0xffff).toBe(none.nonCasePreservingHash);
    expect(strCrc32('None') & 0xffff).toBe(none.casePreservingHash);
    expect(nameHashesMatch('None', none.nonCasePreservingHash, none.casePreservingHash)).toBe(true);
    expect(nameHashesMatch('NONE', none.nonCasePreservingHash, none.casePreservingHash)).toBe(false);
    expect(pkg.nameHashes).toEqual({ matched: 106, zeroed: 0, mismatched: [] });
  });

  it('tells zeros written by tools from hashes', () => {
    const pkg = parseUAsset(readFileSync(corpus('cooked/retoc54_BP_Table_Lamp.uasset')), 'x', { uexpSize: 561 });
    expect(pkg.nameHashes).toEqual({ matched: 0, zeroed: 35, mismatched: [] });
  });
});

describe('the engine of an unversioned package', () => {
  const parse = (rel: string, opts: { engine?: string; uexpSize?: number } = {}) =>
    parseUAsset(readFileSync(corpus(rel)), rel, opts);

  it('is read from the layout that fits the bytes', () => {
    const cases: [string, number, string, string[]][] = [
      ['cooked/retoc56_SK_Mannequin.uasset', 51338, '5.6', ['5.6']],
      ['cooked/uapi57_EmptyMap.umap', 3624, '5.7', ['5.7']],
      ['cooked/uapi51_BP_InteractableBox.uasset', 122, '5.1', ['5.1']],
      ['cooked/uapi414_MP00_GateTutorial.uasset', 0, '4.14', ['4.14']],
      ['cooked/retoc55_SM_Cube.uasset', 9795, '5.2-5.5', ['5.2', '5.3', '5.4', '5.5']],
    ];
    for (const [rel, uexpSize, engine, candidates] of cases) {
      const pkg = parse(rel, uexpSize ? { uexpSize } : {});
      expect(pkg.version, rel).toMatchObject({ unversioned: true, source: 'layout', engine, engineCandidates: candidates });
      expect(pkg.warnings, rel).toEqual([]);
    }
  });

  it('tells 5.6 (no import type hierarchies) from 5.7, and 5.7 from 5.8 (import package names)', () => {
    const p56 = parse('cooked/uapi56_MI_Quinn_01.uasset', { uexpSize: 287 });
    expect(p56.version).toMatchObject({ ue5: 1017, engine: '5.6' });
    expect(p56.summary.importTypeHierarchiesCount).toBeNull();
    expect(p56.summary.savedHash).toMatch(/^[0-9a-f]{40}$/);
    const p57 = parse('cooked/uapi57_BP_WorldWeapon.uasset', { uexpSize: 382 });
    expect(p57.version).toMatchObject({ ue5: 1018, engine: '5.7' });
    expect(p57.summary.importTypeHierarchiesCount).toBe(0);
    expect(p57.imports.every((i) => i.packageName === null)).toBe(true);
  });

  it('takes the caller\'s engine among layouts that all fit', () => {
    const pkg = parse('cooked/uapi423_Items.uasset', { engine: '4.23', uexpSize: 24447 });
    expect(pkg.version).toMatchObject({ source: 'engine-option', engine: '4.23', ue4: 517, engineCandidates: ['4.21', '4.22', '4.23'] });
    expect(pkg.warnings).toEqual([]);
    expect(parse('cooked/uapi423_Items.uasset', { uexpSize: 24447 }).version).toMatchObject({ source: 'layout', engine: '4.16-4.27', ue4: 522 });
  });

  it('lets the bytes overrule a caller\'s engine that does not fit', () => {
    const pkg = parse('cooked/retoc56_SM_Cube.uasset', { engine: '5.3', uexpSize: 6807 });
    expect(pkg.version).toMatchObject({ engine: '5.6', ue5: 1017 });
    expect(pkg.warnings).toEqual(['the bytes do not fit a UE5.3 layout; read as UE5.6']);
  });

  it('never from the file\'s name', () => {
    const bytes = readFileSync(corpus('cooked/retoc56_T_Quinn_01_D.uasset'));
    for (const name of ['ue427_T.uasset', 'UE5.3/T.uasset', 'GAME_UE4_27.uasset']) {
      expect(parseUAsset(bytes, name, { uexpSize: 3045 }).version.engine).toBe('5.6');
    }
  });

  it('leaves versioned packages alone, naming the release from the saved engine version', () => {
    const pkg = parse('uncooked/ue422_BP_Goal.uasset', { engine: '5.3' });
    expect(pkg.version).toMatchObject({ unversioned: false, source: 'header', ue4: 517, engine: '4.22', engineCandidates: ['4.21', '4.22', '4.23'] });
    const lic = parse('cooked/uapi_Assault_M1A1Thompson_WW2_DrumSuppressor.uasset');
    expect(lic.version).toMatchObject({ ue4: 506, licensee: 7, engine: null, engineCandidates: [] });
  });
});

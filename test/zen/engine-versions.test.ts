import { describe, expect, it } from 'vitest';
import {
  ContainerHeaderVersion as H, ENGINE_RELEASES, EngineVersion as E, TocVersion as T, ZenLayout as Z, containerHeaderVersionFor,
  engineRelease, enginesFor, parseEngineVersion, zenLayoutFor,
} from '../../src/core/engine-versions.js';
import { ENGINE_CHOICES } from '../../src/renderer/src/lib/package-view.js';

describe('engine versions', () => {
  it('lists every release once, in order, with the versions retoc and the corpus show', () => {
    expect(ENGINE_RELEASES.map((r) => r.label)).toEqual([
      'UE4.25', 'UE4.26', 'UE4.27', 'UE5.0', 'UE5.1', 'UE5.2', 'UE5.3', 'UE5.4', 'UE5.5', 'UE5.6', 'UE5.7', 'UE5.8', 'UE6.0',
    ]);
    // UE6.0 (CUE4Parse's GAME_UE6_0): the .utoc version 10, the rest as 5.8.
    expect(engineRelease(E.UE6_0)).toMatchObject({ tocVersion: T.ContainerEncryptionMethod, containerHeaderVersion: H.SoftPackageReferencesOffset, zenLayout: Z.VerseCells });
    expect(enginesFor({ tocVersion: T.ContainerEncryptionMethod, containerHeaderVersion: H.SoftPackageReferencesOffset }).map((r) => r.label)).toEqual(['UE6.0']);
    expect(enginesFor({ tocVersion: T.ReplaceIoChunkHashWithIoHash, containerHeaderVersion: H.SoftPackageReferencesOffset }).map((r) => r.label)).toEqual(['UE5.6', 'UE5.7', 'UE5.8']);
    expect(engineRelease(E.UE4_27)).toMatchObject({ tocVersion: T.PartitionSize, containerHeaderVersion: H.Initial, zenLayout: Z.PackageSummary });
    expect(engineRelease(E.UE5_4)).toMatchObject({ tocVersion: T.OnDemandMetaData, containerHeaderVersion: H.NoExportInfo, zenLayout: Z.BulkDataMapPadding });
    expect(containerHeaderVersionFor(E.UE5_5)).toBe(H.SoftPackageReferences);
    expect(engineRelease(E.UE5_8).zenLayout).toBe(Z.VerseCells);
  });

  it('offers every release of the table in the app\'s Engine list', () => {
    expect(ENGINE_CHOICES).toEqual(ENGINE_RELEASES.map((r) => r.label.slice(2)));
  });

  it('picks the Zen layout from the container header and .utoc versions (formats.md)', () => {
    expect(zenLayoutFor({ containerHeaderVersion: H.PreInitial })).toBe(Z.PackageSummary);
    expect(zenLayoutFor({ containerHeaderVersion: H.Initial })).toBe(Z.PackageSummary);
    expect(zenLayoutFor({ containerHeaderVersion: H.LocalizedPackages })).toBe(Z.ZenSummary);
    expect(zenLayoutFor({ containerHeaderVersion: H.OptionalSegmentPackages })).toBe(Z.ZenSummary);
    expect(zenLayoutFor({ containerHeaderVersion: H.NoExportInfo, tocVersion: T.PerfectHashWithOverflow })).toBe(Z.DependencyBundles);
    expect(zenLayoutFor({ containerHeaderVersion: H.NoExportInfo, tocVersion: T.OnDemandMetaData })).toBe(Z.BulkDataMapPadding);
    expect(zenLayoutFor({ containerHeaderVersion: H.SoftPackageReferences })).toBe(Z.BulkDataMapPadding);
    expect(zenLayoutFor({ containerHeaderVersion: H.SoftPackageReferencesOffset })).toBe(Z.VerseCells);
    // An explicit engine version wins.
    expect(zenLayoutFor({ containerHeaderVersion: H.NoExportInfo, tocVersion: T.OnDemandMetaData, engine: E.UE5_3 })).toBe(Z.DependencyBundles);
    expect(zenLayoutFor({ engine: E.UE5_2 })).toBe(Z.BulkDataMap);
  });

  it('parses engine version text and lists the releases sharing a version', () => {
    expect(parseEngineVersion('5.4')).toBe(E.UE5_4);
    expect(parseEngineVersion('UE4.27')).toBe(E.UE4_27);
    expect(parseEngineVersion('ue5_8')).toBe(E.UE5_8);
    expect(parseEngineVersion('5.9')).toBeUndefined();
    expect(parseEngineVersion('6.0')).toBe(E.UE6_0);
    expect(parseEngineVersion('banana')).toBeUndefined();
    expect(enginesFor({ tocVersion: T.PerfectHashWithOverflow }).map((r) => r.label)).toEqual(['UE5.0', 'UE5.1', 'UE5.2', 'UE5.3']);
  });
});

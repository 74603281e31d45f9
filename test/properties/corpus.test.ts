/**
 * Tagged properties of every uncooked asset (UE4.4 to UE5.5 editor packages) and every versioned
 * or tagged cooked asset of the corpus: each export's stream is read to its terminator inside its
 * serial range, and UE5.4+ editor exports end where the engine's own script serialization
 * offsets (in the export map) say they do.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { uassetProperties } from '../../src/core/properties/package.js';
import type { PackageProperties } from '../../src/core/properties/types.js';
import { PackageFlags } from '../../src/core/uasset/flags.js';
import { parseUAsset } from '../../src/core/uasset/parse.js';
import { corpus } from '../support/corpus.js';
import { intField, manifest } from '../uasset/manifest.js';
import { oracleCounts } from '../uasset/summary-oracle.js';
import { allEntries, entry, exportNamed, looseProperties, prop } from './helpers.js';

const packagesIn = (dir: string): string[] => readdirSync(corpus(dir)).filter((f) => /\.(uasset|umap)$/.test(f)).sort().map((f) => corpus(dir, f));

function summary(files: string[]): { exports: number; withProperties: number; errors: string[]; raw: string[] } {
  let exports = 0, withProperties = 0;
  const errors: string[] = [], raw: string[] = [];
  for (const f of files) {
    const p = looseProperties(f);
    for (const e of p.exports) {
      exports++;
      if (e.properties.length > 0) withProperties++;
      if (e.error) errors.push(e.error);
      expect(e.propertyStart + e.propertyBytes, `${f} ${e.name}`).toBeLessThanOrEqual(e.serialSize);
      for (const x of allEntries(e.properties)) if (x.raw) raw.push(`${f} ${e.name} ${x.name}`);
    }
  }
  return { exports, withProperties, errors, raw };
}

/** Exports whose data does not start with the "None" that ends an empty tagged property list. */
function exportsNotStartingWithNone(files: string[]): number {
  let n = 0;
  for (const f of files) {
    const bytes = new Uint8Array(readFileSync(f));
    const pkg = parseUAsset(bytes, f);
    const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
    for (const x of pkg.exports) {
      if (x.serialSize === 0) continue;
      let at = x.serialOffset;
      // UAssetImportData::Serialize writes its source files as a JSON FString first (editor data,
      // from VER_UE4_ASSET_IMPORT_DATA_AS_JSON = 464).
      if (/ImportData$/.test(x.className) && pkg.version.ue4 >= 464) {
        const len = view.getInt32(at, true);
        at += 4 + (len < 0 ? -2 * len : len);
      }
      // Then UObject's tagged properties. EUnrealEngineObjectUE5Version::PROPERTY_TAG_EXTENSION_AND_OVERRIDABLE_SERIALIZATION (1011):
      // a control byte, and one more when its bit 0x02 is set.
      if (pkg.version.ue5 >= 1011) at += bytes[at]! & 0x02 ? 2 : 1;
      if (pkg.names[view.getInt32(at, true)]?.name !== 'None' || view.getInt32(at + 4, true) !== 0) n++;
    }
  }
  return n;
}

describe('uncooked corpus', () => {
  const files = packagesIn('uncooked');

  it('reads every export of every editor package to its terminator, no value left raw', () => {
    expect(files.length).toBe(41);
    // Exports: the sum of the manifest's ExportCount readings (its collector's, not this code's).
    const manifestExports = files.reduce((n, f) => n + intField(manifest().get(`uncooked/${f.split('/').pop()}`)!, 'Exports')!, 0);
    expect(manifestExports).toBe(1057);
    // With properties: the exports whose tagged stream does not end at once, told by the first
    // FName of their data not being "None" (after UE5.4's serialization control byte), read here
    // from the bytes without the property reader.
    expect(summary(files)).toEqual({ exports: manifestExports, withProperties: exportsNotStartingWithNone(files), errors: [], raw: [] });
  });

  it('ends every property stream where the export map says (UE5.4+ script serialization offsets)', () => {
    let checked = 0;
    for (const f of files) {
      const bytes = new Uint8Array(readFileSync(f));
      const pkg = parseUAsset(bytes, f);
      const props = uassetProperties(pkg, bytes);
      pkg.exports.forEach((x, i) => {
        if (x.scriptSerializationEndOffset === null) return;
        const e = props.exports[i]!;
        expect([e.propertyStart, e.propertyStart + e.propertyBytes], `${f} ${x.objectName}`)
          .toEqual([x.scriptSerializationStartOffset, x.scriptSerializationEndOffset]);
        checked++;
      });
    }
    expect(checked).toBe(279);
  });

  it('a Blueprint names its parent class', () => {
    const statue = exportNamed(looseProperties(corpus('uncooked', 'ue50_BP_Statue.uasset')), 'BP_Statue');
    expect(statue.class).toBe('Blueprint');
    expect(prop(statue, 'ParentClass')).toBe('/Script/Engine.Actor');
    expect(prop(statue, 'GeneratedClass')).toBe('/Game/BP_Guide/BP_Statue.BP_Statue_C');
    const gameMode = exportNamed(looseProperties(corpus('uncooked', 'uapi57_BP_FirstPersonGameMode.uasset')), 'BP_FirstPersonGameMode');
    expect(prop(gameMode, 'ParentClass')).toBe('/Script/Engine.GameModeBase');
    expect(prop(gameMode, 'BlueprintDescription')).toBe('GameMode that specified the pawn and HUD Blueprints to use');
  });

  it('materials name their parameters; inputs are native structs', () => {
    const names = (p: PackageProperties): string[] => p.exports.flatMap((e) => e.properties.filter((x) => x.name === 'ParameterName').map((x) => x.value as string));
    const solid = looseProperties(corpus('uncooked', 'ue53_M_Solid.uasset'));
    expect(names(solid)).toEqual(['Metallic', 'Roughness', 'Base Color']);
    expect(names(looseProperties(corpus('uncooked', 'ue4old_M_FPGun.uasset')))).toEqual(['NormalMap', 'MasksMap', 'BodyColor']);
    const editorData = exportNamed(solid, 'M_SolidEditorOnlyData');
    expect(prop(editorData, 'Metallic')).toMatchObject({
      Expression: '/Game/Enviroment/Materials/M_Solid.M_Solid:MaterialExpressionScalarParameter_0', OutputIndex: 0, UseConstant: false,
    });
    expect(entry(editorData, 'BaseColor').type).toBe('StructProperty<ColorMaterialInput>');
  });

  it('a texture\'s size and settings; its import data starts with JSON before the properties', () => {
    const p = looseProperties(corpus('uncooked', 'ue53_T_GridChecker_A.uasset'));
    const texture = exportNamed(p, 'T_GridChecker_A');
    expect(prop(texture, 'ImportedSize')).toEqual({ X: 512, Y: 512 });
    expect(prop(prop(texture, 'Source'), 'SizeX')).toBe(512);
    expect(prop(texture, 'CompressionSettings')).toBe('TC_Masks');
    expect(prop(texture, 'SRGB')).toBe(false);
    const importData = exportNamed(p, 'AssetImportData');
    expect(importData.propertyStart).toBe(187);
    expect(importData.notes).toEqual(['the import data\'s source files come first, as 187 bytes of JSON']);
    expect(importData.error).toBeNull();
  });
});

describe('cooked corpus with tagged properties', () => {
  const files = packagesIn('cooked').filter((f) => {
    const bytes = new Uint8Array(readFileSync(f));
    try {
      return (parseUAsset(bytes, f).summary.packageFlags & PackageFlags.PKG_UnversionedProperties) === 0;
    } catch {
      return false; // Zen packages saved as files
    }
  });

  it('reads every export of the tagged cooked packages (UE4.14 to UE5.5) with no error', () => {
    expect(files.map((f) => f.split('/').pop())).toEqual([
      'uapi414_MP00_GateTutorial.uasset', 'uapi417_AM_MedChar_Reload_RingLauncher.uasset', 'uapi419_MF_CharacterEffects.uasset',
      'uapi423_Items.uasset', 'uapi423_ResourceProgressCurve.uasset', 'uapi425_ABP_SMG_A.uasset',
      'uapi426_MainChar_BellySlice_BR.uasset', 'uapi427_Map_FrontEnd_Hotel_LS_Night.umap', 'uapi55_T_pl01_001_body_D.uasset',
      'uapi_Assault_M1A1Thompson_WW2_DrumSuppressor.uasset',
    ]);
    const s = summary(files);
    // The sum of their ExportCounts as the independent Python reading of the summaries states them.
    const rels = files.map((f) => `cooked/${f.split('/').pop()}`);
    const oracleExports = rels.reduce((n, rel) => n + oracleCounts(rels).get(rel)!.exports, 0);
    expect(oracleExports).toBe(217);
    expect(s.exports).toBe(oracleExports);
    expect(s.errors).toEqual([]);
    // UE4.14's event section keys (NameCurveKey, written natively) read too: nothing is raw.
    expect(s.raw).toEqual([]);
  });

  it('reads a cooked level sequence reference map and a curve (unversioned header, tagged properties)', () => {
    const curve = looseProperties(corpus('cooked', 'uapi423_ResourceProgressCurve.uasset'));
    expect(curve.exports[0]!.error).toBeNull();
    expect(curve.exports[0]!.properties.map((p) => p.type)).toEqual(['StructProperty<RichCurve>']);
    const keys = prop(prop(curve.exports[0]!, 'FloatCurve'), 'Keys') as { Time: number; Value: number }[];
    // The three FRichCurveKey records as the engine writes them natively (RichCurve.cpp operator<<:
    // InterpMode, TangentMode, TangentWeightMode as bytes, then Time, Value, ArriveTangent,
    // ArriveTangentWeight, LeaveTangent, LeaveTangentWeight as floats), 27 bytes each at file
    // offsets 0x31d, 0x338 and 0x353, decoded by hand (Python struct '<3B6f'): Cubic, User tangents.
    const expected = [
      [0x31d, 0, 0, 1.9519790, 1.9519845], [0x338, 0.50039148, 0.50442696, 0.52696937, 0.52697188], [0x353, 1, 1, 1.9011718, 1.9011871],
    ];
    expect(keys).toHaveLength(3);
    keys.forEach((k, i) => {
      const [, time, value, arrive, leave] = expected[i]!;
      expect(k).toMatchObject({ InterpMode: 2, TangentMode: 1, TangentWeightMode: 0, ArriveTangentWeight: 0, LeaveTangentWeight: 0 });
      expect(k.Time).toBeCloseTo(time!, 6);
      expect(k.Value).toBeCloseTo(value!, 6);
      expect((k as unknown as Record<string, number>).ArriveTangent).toBeCloseTo(arrive!, 6);
      expect((k as unknown as Record<string, number>).LeaveTangent).toBeCloseTo(leave!, 6);
    });
  });
});

/**
 * UE1/UE2 properties of every UT99 and UT2004 package of the corpus: map actors with state
 * frames, textures, and the default properties of classes, checked against the UnrealScript
 * source UELib compiled its test packages from (Test/upk/TestUC1 and TestUC2, DefaultProperties.uc).
 */
import { readdirSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { ue12Properties } from '../../src/core/properties/ue12.js';
import type { PackageProperties, PropertyValue } from '../../src/core/properties/types.js';
import { parseUe12Package } from '../../src/core/ue12/package.js';
import { corpus } from '../support/corpus.js';
import { allEntries, exportNamed, prop } from './helpers.js';

function read(file: string): PackageProperties {
  const bytes = new Uint8Array(readFileSync(corpus('legacy', file)));
  return ue12Properties(parseUe12Package(bytes, file), bytes);
}
/** A static array's elements, by index. */
const elements = (p: PackageProperties, exp: string, name: string): [number, PropertyValue][] =>
  exportNamed(p, exp).properties.filter((x) => x.name === name).map((x) => [x.arrayIndex ?? 0, x.value]);

describe('UE1/UE2 properties', () => {
  const files = readdirSync(corpus('legacy')).filter((f) => !f.startsWith('uelib_TestUC3')).sort();

  it('reads every export of every UT99 and UT2004 package, class defaults included', () => {
    let exports = 0, properties = 0, classes = 0, classDefaults = 0;
    const errors: string[] = [], raw: string[] = [];
    for (const f of files) {
      const p = read(f);
      for (const e of p.exports) {
        exports++;
        properties += e.properties.length;
        if (e.error) errors.push(`${f} ${e.name}: ${e.error}`);
        expect(e.propertyStart + e.propertyBytes, `${f} ${e.name}`).toBeLessThanOrEqual(e.serialSize);
        if (e.class === 'Class') {
          classes++;
          // Defaults end the class's data.
          if (e.notes?.[0]?.includes('found after its script')) { classDefaults++; expect(e.propertyStart + e.propertyBytes).toBe(e.serialSize); }
        }
        for (const x of allEntries(e.properties)) if (x.raw) raw.push(`${f} ${e.name} ${x.name}`);
      }
    }
    expect(files.length).toBe(8);
    expect({ exports, properties, classes, classDefaults, errors }).toEqual({ exports: 568, properties: 1526, classes: 20, classDefaults: 20, errors: [] });
    // Arrays whose element type only the class definition gives, and a binary struct of UE1.
    expect(raw.length).toBe(7);
    expect(raw).toContain('uelib_TestUC1.u DefaultProperties Struct');
  });

  it('UT99 map actors: the state frame comes first', () => {
    const light = exportNamed(read('ut99_1HH-TestBox-Large.unr'), 'Light0');
    expect([light.class, light.propertyStart, light.propertyBytes, light.serialSize]).toEqual(['Light', 15, 47, 62]);
    expect(light.notes).toEqual(['a state frame (15 bytes) comes before the properties']);
    expect(prop(light, 'Level')).toBe('LevelInfo0');
    expect(prop(light, 'Tag')).toBe('Light');
    expect(prop(light, 'Region')).toEqual({ Zone: 'LevelInfo0', iLeaf: 173, ZoneNumber: 1 });
    expect(prop(light, 'Location')).toEqual({ X: -864, Y: 16, Z: -18.900002 }); // the shortest decimal of the stored float32
  });

  it('UT2004 textures', () => {
    const t = exportNamed(read('ut2004_2PP.utx'), 'green_carpet');
    expect(t.class).toBe('Texture');
    expect(prop(t, 'Palette')).toBe('Floors.Palette2');
    expect(prop(t, 'MipZero')).toEqual({ R: 110, G: 93, B: 69, A: 255 });
    expect([prop(t, 'USize'), prop(t, 'VSize'), prop(t, 'UBits'), prop(t, 'VBits')]).toEqual([256, 256, 8, 8]);
  });

  it('UT99 class defaults (version 69): what DefaultProperties.uc sets', () => {
    const p = read('uelib_TestUC1.u');
    const d = exportNamed(p, 'DefaultProperties');
    expect([prop(d, 'Byte'), prop(d, 'Int'), prop(d, 'NameProperty'), prop(d, 'String')]).toEqual([255, 1000, 'Name', 'String_"']);
    expect(prop(d, 'Float')).toBeCloseTo(0.0123456789, 9);
    expect([prop(d, 'Object'), prop(d, 'MetaClass'), prop(d, 'BoolTrue'), prop(d, 'BoolFalse')]).toEqual(['DefaultProperties', 'DefaultProperties', true, false]);
    expect(elements(p, 'DefaultProperties', 'IntFixedArray')).toEqual([[0, 1], [1, 2]]);
    // UE1 stores every struct as raw bytes, in field order (Plane's own W before Vector's X, Y, Z).
    expect(prop(d, 'Vector')).toEqual({ X: 1, Y: 2, Z: 3 });
    expect(prop(d, 'Plane')).toEqual({ W: 0, X: 1, Y: 2, Z: 3 });
    expect(prop(d, 'Rotator')).toEqual({ Pitch: 180, Yaw: 90, Roll: 45 });
    expect(prop(d, 'Coords')).toEqual({ Origin: { X: 0.2, Y: 0.4, Z: 1 }, XAxis: { X: 1, Y: 0, Z: 0 }, YAxis: { X: 0, Y: 1, Z: 0 }, ZAxis: { X: 0, Y: 0, Z: 1 } });
    expect(prop(d, 'Scale')).toEqual({ Scale: { X: 1, Y: 2, Z: 3 }, SheerRate: 5, SheerAxis: 6 }); // SHEER_ZY
    expect(prop(d, 'Color')).toEqual({ R: 80, G: 40, B: 20, A: 160 });
    expect(prop(d, 'Enum')).toBe(1);
  });

  it('UT2004 class defaults (version 128): tagged structs, delegates, strings with escapes', () => {
    const p = read('uelib_TestUC2.u');
    const d = exportNamed(p, 'DefaultProperties');
    expect(d.propertyStart + d.propertyBytes).toBe(d.serialSize);
    expect(prop(d, 'String')).toBe('String_"\\0abfnrtv');
    // From version 118 only Vector, Rotator, Color and PointRegion stay binary.
    expect(prop(d, 'Vector')).toEqual({ X: 1, Y: 2, Z: 3 });
    expect(prop(prop(d, 'Quat'), 'W')).toBe(4);
    expect([prop(prop(d, 'Range'), 'Min'), prop(prop(d, 'Range'), 'Max')]).toEqual([80, 40]);
    expect(prop(prop(prop(d, 'Matrix'), 'WPlane'), 'X')).toBe(13);
    expect(prop(prop(d, 'Struct'), 'String')).toBe('String');
    expect(prop(d, '__OnDelegate__Delegate')).toEqual({ object: 'DefaultProperties', function: 'InternalOnDelegate' });
    expect(exportNamed(p, 'DefaultProperties').properties.find((x) => x.name === '__OnDelegate__Delegate')!.type).toBe('DelegateProperty');
  });

  it('mod classes: UT99 weapon and mutator defaults, UT2004 game types', () => {
    const sword = exportNamed(read('ut99_EnergySword.u'), 'EnergySword');
    expect([prop(sword, 'Damage'), prop(sword, 'Range'), prop(sword, 'AIRating')]).toEqual([50, 120, 0.73]);
    expect(prop(sword, 'DeathMessage')).toBe('%o was sliced and diced by %k\'s %w.');
    expect(prop(sword, 'NameColor')).toEqual({ R: 255, G: 255, B: 0, A: 0 });
    expect(elements(read('ut99_EnergySword.u'), 'EnergySword', 'HitAnims').map(([, v]) => v)).toEqual(['Hit1', 'Hit2', 'Hit3', 'HIT4', 'Hit5']);
    expect(prop(exportNamed(read('ut99_DeveloperMutator.u'), 'DeveloperMutator'), 'LocalPlayerDamageMultiplier')).toBe(10000);
    expect(prop(exportNamed(read('ut2004_OUGamePack.u'), 'DMAssaultRifleNoRestart'), 'GameName')).toBe('Death Match - Assault Rifle, No Server Restart');
  });
});

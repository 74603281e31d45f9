// Unreal Engine 1/2 packages: every file in corpus/legacy (UT99, UT2004, UELib's TestUC*),
// layouts the corpus lacks (written here), and bad input.
import { readdirSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { parseUe12Package } from '../../src/core/ue12/package.js';
import { corpus, loadCorpus } from '../support/corpus.js';
import { formatError, withI32 } from '../support/format-error.js';
import { intField, manifest } from '../uasset/manifest.js';
import { compactIndex, type PackageSpec, writeUe12Package } from './writer.js';

const load = loadCorpus;
const FILES = readdirSync(corpus('legacy')).sort().map((f) => `legacy/${f}`);

describe('UE1/2 packages in the corpus', () => {
  it('has UT99, UT2004 and UELib test packages', () => {
    expect(FILES).toHaveLength(9);
  });

  for (const rel of FILES.filter((f) => !f.includes('TestUC3'))) {
    it(rel, () => {
      const bytes = load(rel);
      const pkg = parseUe12Package(bytes, rel);
      const m = manifest().get(rel)!;
      expect(pkg.header.fileVersion).toBe(intField(m, 'FileVersion'));
      expect(pkg.header.licenseeVersion).toBe(intField(m, 'Licensee'));
      expect(pkg.header.packageFlags).toBe(intField(m, 'PackageFlags'));
      expect(pkg.names).toHaveLength(intField(m, 'Names')!);
      expect(pkg.exports).toHaveLength(intField(m, 'Exports')!);
      expect(pkg.imports).toHaveLength(intField(m, 'Imports')!);
      expect(pkg.issues).toEqual([]);
      // Version 68 on: a GUID and one generation with the current counts.
      expect(pkg.header.guid).toMatch(/^[0-9A-F]{32}$/);
      expect(pkg.header.generations).toEqual([{ exportCount: pkg.exports.length, nameCount: pkg.names.length }]);
      expect(pkg.names[0]!.name).toBe('None');
      // Export data fills the file between the name table and the import table, back to back;
      // the export table ends the file.
      const names = pkg.sections.find((s) => s.name === 'name table')!;
      const withData = pkg.exports.filter((e) => e.serialSize > 0).sort((a, b) => a.serialOffset - b.serialOffset);
      let at = names.offset + names.size;
      for (const e of withData) {
        expect(e.serialOffset, e.path).toBe(at);
        at += e.serialSize;
      }
      expect(at).toBe(pkg.header.importOffset);
      const exportTable = pkg.sections.find((s) => s.name === 'export table')!;
      expect(exportTable.offset + exportTable.size).toBe(bytes.length);
      // Every path is its outer's path plus its name.
      for (const o of [...pkg.imports, ...pkg.exports]) {
        expect(o.path).toBe(o.outer === null ? o.objectName : `${o.outer}.${o.objectName}`);
      }
    });
  }

  it('UT99 script package: names, imports, exports with their outer chains', () => {
    const pkg = parseUe12Package(load('legacy/ut99_EnergySword.u'), 'EnergySword.u');
    expect(pkg).toMatchObject({ packageName: 'EnergySword', generation: 'Unreal Engine 1', knownGame: 'Unreal Tournament (UT99)' });
    expect(pkg.names.slice(0, 4).map((n) => n.name)).toEqual(['None', 'Begin', 'AltFire', 'PlayUnwind']);
    expect(pkg.names.at(-1)!.name).toBe('swordwall1');
    expect(pkg.names[0]!.flags).toBe(0x04070410);
    expect(pkg.imports.slice(0, 5).map((i) => i.path)).toEqual(['Engine', 'Core', 'Engine.Actor', 'Engine.Pawn', 'Engine.Actor.Owner']);
    expect(pkg.imports[4]).toMatchObject({ className: 'ObjectProperty', classPath: 'Core.ObjectProperty', outer: 'Engine.Actor' });
    expect(pkg.exports[0]).toMatchObject({ path: 'EnergySword.OldMeleeFire.Victims', className: 'ObjectProperty', serialOffset: 3101, serialSize: 13 });
    expect(pkg.exports[5]).toMatchObject({ path: 'EnergySword.Damage', className: 'IntProperty', outer: 'EnergySword' });
    const cls = pkg.exports.find((e) => e.objectName === 'EnergySword')!;
    expect(cls).toMatchObject({ className: 'Class', classPath: 'Core.Class', outer: null });
    expect(cls.superPath).toMatch(/^Botpack\./);
  });

  it('UT99 map: actors, their classes and flags', () => {
    const pkg = parseUe12Package(load('legacy/ut99_1HH-TestBox-Large.unr'), '1HH-TestBox-Large.unr');
    expect(pkg.exports[0]).toMatchObject({ path: 'Light0', className: 'Light', classPath: 'Engine.Light', serialOffset: 4577, serialSize: 62 });
    expect(pkg.exports[0]!.objectFlagNames).toContain('RF_Transactional');
    expect(pkg.imports[2]).toMatchObject({ path: 'Botpack.Ammocount.AmmoLed', className: 'ScriptedTexture', classPath: 'Engine.ScriptedTexture' });
    expect(pkg.names.at(-1)!.name).toBe('InventorySpot44');
  });

  it('UT2004 packages: version 128, licensee 29', () => {
    const usx = parseUe12Package(load('legacy/ut2004_tablechairs.usx'), 'tablechairs.usx');
    expect(usx).toMatchObject({ generation: 'Unreal Engine 2', knownGame: 'Unreal Tournament 2004', packageFlagNames: ['PKG_AllowDownload'] });
    expect(usx.exports[0]).toMatchObject({ path: 'wooddark', className: 'Texture', serialOffset: 589, serialSize: 87606 });
    expect(usx.names.at(-1)!.name).toBe('tablechairs');
    const utx = parseUe12Package(load('legacy/ut2004_2PP.utx'), '2PP.utx');
    expect(utx.exports[0]).toMatchObject({ path: 'Floors.Palette8', className: 'Palette', outer: 'Floors' });
    expect(utx.names.slice(0, 3).map((n) => n.name)).toEqual(['None', 'InternalTime', 'Color']);
  });

  it('UELib test packages compiled by UT99 and UT2004', () => {
    const uc1 = parseUe12Package(load('legacy/uelib_TestUC1.u'), 'TestUC1.u');
    expect(uc1.names.at(-1)!.name).toBe('Const3');
    expect(uc1.exports[0]).toMatchObject({ path: 'ExprTokens.Backslash_PreStr', className: 'Function', serialOffset: 1713, serialSize: 30 });
    const uc2 = parseUe12Package(load('legacy/uelib_TestUC2.u'), 'TestUC2.u');
    expect(uc2.header).toMatchObject({ fileVersion: 128, licenseeVersion: 29 });
    expect(uc2.names.at(-1)!.name).toBe('mystring3');
    expect(uc2.exports.find((e) => e.objectName === 'DefaultProperties')).toMatchObject({ className: 'Class', superPath: 'DefaultPropertiesBase' });
  });

  it('reports the UE3 test package as not supported yet', () => {
    const e = formatError(() => parseUe12Package(load('legacy/uelib_TestUC3.u'), 'TestUC3.u'));
    expect(e.message).toBe('TestUC3.u: package header at byte 4: file version 868 (licensee 0) makes this an Unreal Engine 3 package: UE3 packages are not supported yet');
  });

  it('sends UE4/UE5 packages to the .uasset reader', () => {
    const e = formatError(() => parseUe12Package(load('uncooked/ue53_M_Solid.uasset'), 'M_Solid.uasset'));
    expect(e.message).toContain('LegacyFileVersion -8 makes this a UE4/UE5 package');
  });
});

describe('layouts before UT99 (written here)', () => {
  const guid = (n: number): number[] => Array.from({ length: 16 }, (_, i) => (n * 16 + i) & 0xff);
  const spec = (version: number): PackageSpec => ({
    version,
    names: [{ name: 'None', flags: 0x10 }, { name: 'Core' }, { name: 'Package' }, { name: 'Class' }, { name: 'MyPkg' },
      { name: 'DroneChopper' }, { name: 'explosionRadius' }, { name: 'FloatProperty' }, { name: 'Object' }],
    imports: [
      { classPackage: 1, className: 2, outer: 0, objectName: 1 }, // Core (a package)
      { classPackage: 1, className: 3, outer: -1, objectName: 7 }, // Core.FloatProperty (a class)
      { classPackage: 1, className: 3, outer: -1, objectName: 8 }, // Core.Object
    ],
    exports: [
      { classIndex: 0, superIndex: -3, outer: 0, objectName: 5, flags: 0x4, data: [1, 2, 3, 4] }, // class DroneChopper
      { classIndex: -2, superIndex: 0, outer: 1, objectName: 6, data: [5, 6] }, // DroneChopper.explosionRadius
    ],
    heritage: [guid(1), guid(2)],
  });

  it('version 61: NUL-terminated names and a heritage table', () => {
    const pkg = parseUe12Package(writeUe12Package(spec(61)), 'MyPkg.u');
    expect(pkg.header).toMatchObject({ fileVersion: 61, heritageCount: 2, guid: null, generations: [] });
    expect(pkg.heritage).toEqual(['13121110171615141B1A19181F1E1D1C', '23222120272625242B2A29282F2E2D2C']);
    expect(pkg.names.map((n) => n.name)).toEqual(['None', 'Core', 'Package', 'Class', 'MyPkg', 'DroneChopper', 'explosionRadius', 'FloatProperty', 'Object']);
    expect(pkg.names[0]!.flags).toBe(0x10);
    expect(pkg.exports.map((e) => e.path)).toEqual(['DroneChopper', 'DroneChopper.explosionRadius']);
    expect(pkg.exports[1]).toMatchObject({ className: 'FloatProperty', classPath: 'Core.FloatProperty', outer: 'DroneChopper', serialSize: 2 });
    expect(pkg.exports[0]).toMatchObject({ className: 'Class', superPath: 'Core.Object', objectFlagNames: ['RF_Public'] });
    expect(pkg.sections.map((s) => s.name)).toEqual(['header', 'name table', 'import table', 'export table', 'heritage table']);
  });

  it('version 66: length-prefixed names, still a heritage table', () => {
    const bytes = writeUe12Package(spec(66));
    expect(bytes[44]).toBe(5); // "None" + NUL, as a compact index
    const pkg = parseUe12Package(bytes, 'MyPkg.u');
    expect(pkg.heritage).toHaveLength(2);
    expect(pkg.names[6]!.name).toBe('explosionRadius');
    expect(pkg.exports[1]!.path).toBe('DroneChopper.explosionRadius');
  });

  it('rejects versions older than any reader handles', () => {
    expect(formatError(() => parseUe12Package(writeUe12Package(spec(45)), 'old.u')).message).toContain('file version 45 is older than the oldest supported (61)');
  });
});

describe('bad UE1/2 input', () => {
  const bytes = load('legacy/ut99_DeveloperMutator.u');
  const pkg = parseUe12Package(bytes, 'x');

  it('fails at every truncation that cuts a table, with the offset inside the bytes given', () => {
    for (let n = 0; n < bytes.length; n++) {
      const e = formatError(() => parseUe12Package(bytes.subarray(0, n), 'cut.u'));
      expect(e.file).toBe('cut.u');
      expect(e.offset).toBeLessThanOrEqual(n);
    }
  });

  const cases: [string, number, number, string, RegExp][] = [
    ['negative name count', 12, -1, 'name table', /name table count -1 is negative/],
    ['huge name count', 12, 0x7fffffff, 'name table', /needs at least/],
    ['export offset past the end', 24, 1 << 30, 'export table', /export table offset 1073741824 is outside/],
    ['huge import count', 28, 50000000, 'import table', /import table count 50000000 needs at least/],
    ['huge generation count', 52, 0x7fffffff, 'package header', /generation count/],
  ];
  for (const [what, at, value, structure, message] of cases) {
    it(what, () => {
      const e = formatError(() => parseUe12Package(withI32(bytes, at, value), 'bad.u'));
      expect(e.structure).toBe(structure);
      expect(e.offset).toBe(at);
      expect(e.message).toMatch(message);
    });
  }

  it('a name index outside the name table', () => {
    const spec: PackageSpec = { version: 128, licensee: 29, names: [{ name: 'None' }, { name: 'Core' }], imports: [{ classPackage: 1, className: 4000, outer: 0, objectName: 1 }], exports: [] };
    const bytes = writeUe12Package(spec);
    const e = formatError(() => parseUe12Package(bytes, 'bad.u'));
    expect(e.structure).toBe('import table');
    expect(e.offset).toBe(new DataView(bytes.buffer).getInt32(32, true) + 1);
    expect(e.message).toContain('name index 4000 is outside the name table (2 names)');
  });

  it('an export that is its own outer, and a two-export cycle', () => {
    // Export entries: class (compact), super (compact), outer (int32)...
    const outerAt = (i: number): number => {
      const e = pkg.exports[i]!;
      return e.offset + compactIndex(e.classIndex).length + compactIndex(e.superIndex).length;
    };
    const self = formatError(() => parseUe12Package(withI32(bytes, outerAt(3), 4), 'cycle.u'));
    expect(self.structure).toBe('export table');
    expect(self.offset).toBe(pkg.exports[3]!.offset);
    expect(self.message).toContain('the outer chain loops back to it');
    const two = formatError(() => parseUe12Package(withI32(withI32(bytes, outerAt(1), 3), outerAt(2), 2), 'cycle.u'));
    expect(two.message).toContain('the outer chain loops back');
  });

  it('a class index past the import table', () => {
    const spec: PackageSpec = { version: 69, names: [{ name: 'None' }, { name: 'A' }], imports: [], exports: [{ classIndex: -5, superIndex: 0, outer: 0, objectName: 1 }] };
    const e = formatError(() => parseUe12Package(writeUe12Package(spec), 'bad.u'));
    expect(e.message).toContain('class index -5 points past the 0 imports');
  });

  it('a compact index longer than 32 bits', () => {
    const spec: PackageSpec = { version: 69, names: [{ name: 'None' }], imports: [], exports: [{ classIndex: 0, superIndex: 0, outer: 0, objectName: 0 }] };
    const good = writeUe12Package(spec);
    const exportOffset = new DataView(good.buffer).getInt32(24, true);
    const bad = Uint8Array.from([...good.subarray(0, exportOffset), 0x40, 0xff, 0xff, 0xff, 0xff, ...good.subarray(exportOffset + 1)]);
    expect(formatError(() => parseUe12Package(bad, 'bad.u')).message).toContain('compact index overflows 32 bits');
  });

  it('export data outside the file is an issue, the tables still read', () => {
    const spec: PackageSpec = { version: 69, names: [{ name: 'None' }, { name: 'A' }], imports: [], exports: [{ classIndex: 0, superIndex: 0, outer: 0, objectName: 1, data: [1, 2, 3], serialOffset: 100000 }] };
    const pkg = parseUe12Package(writeUe12Package(spec), 'bad.u');
    expect(pkg.exports[0]).toMatchObject({ path: 'A', serialOffset: 100000, serialSize: 3 });
    expect(pkg.issues).toEqual([expect.objectContaining({ structure: 'export table', detail: expect.stringContaining('data 100000+3 is outside') })]);
  });
});

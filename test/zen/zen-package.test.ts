import { describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { parseZenPackage, peekZenHeaderSize, PACKAGE_FILE_TAG } from '../../src/core/zen/zen-package.js';
import type { ZenPackage } from '../../src/core/zen/types.js';
import { EngineVersion, ZenLayout } from '../../src/core/engine-versions.js';
import { parseContainerHeader, findStoreEntry } from '../../src/core/iostore/container-header.js';
import { packageIdFromName } from '../../src/core/hash/cityhash64.js';
import { corpus } from '../support/corpus.js';
import { readLegacyExports } from './legacy-export-map.js';

const parse = (file: string, layout: ZenLayout, extra = {}): { bytes: Uint8Array; pkg: ZenPackage } => {
  const bytes = readFileSync(corpus('cooked', file));
  return { bytes, pkg: parseZenPackage(bytes, file, { layout, ...extra }) };
};

/** Export data must tile [HeaderSize, end) exactly, in some order, with no gap or overlap. */
function expectExportDataTiles(pkg: ZenPackage, end: number): void {
  const ranges = [...pkg.exports.map((e) => [e.dataOffset, e.cookedSerialSize]), ...pkg.cellExports.map((c) => [c.dataOffset, c.cookedSerialSize])]
    .sort((a, b) => a[0]! - b[0]!);
  let pos = pkg.headerSize;
  for (const [start, size] of ranges) {
    expect(start).toBe(pos);
    pos += size!;
  }
  expect(pos).toBe(end);
  expect(pkg.exportDataEnd).toBe(end);
}

interface Expect {
  file: string;
  layout: ZenLayout;
  name: string;
  names: [number, string, string];
  imports: number;
  importKinds: Record<string, number>;
  exports: string[] | [number, string, string];
  headerSize: number;
}

const CASES: Expect[] = [
  {
    file: 'zen427_BP_SpicyChoppingDamage.uasset', layout: ZenLayout.PackageSummary,
    name: '/Game/Blueprints/Attacks/DamageTypes/BP_SpicyChoppingDamage',
    names: [25, '/Game/Blueprints/Attacks/DamageTypes/BP_SpicyChoppingDamage', 'UInt32Property'],
    imports: 12, importKinds: { globalImport: 4, script: 5, null: 3 },
    exports: ['BP_SpicyChoppingDamage_C', 'Default__BP_SpicyChoppingDamage_C'], headerSize: 1176,
  },
  {
    file: 'zen427_T_Emissive.uasset', layout: ZenLayout.PackageSummary, name: '/Engine/Engine_MI_Shaders/T_Emissive',
    names: [15, '/Engine/Engine_MI_Shaders/T_Emissive', 'Texture2D'], imports: 3, importKinds: { script: 3 },
    exports: ['T_Emissive'], headerSize: 532,
  },
  {
    file: 'zen427_TestModUI.uzenasset', layout: ZenLayout.PackageSummary, name: '/Game/_AssemblyStorm/TestMod/TestModUI',
    names: [522, '/Game/_AssemblyStorm/Common/Logger/LOG_Lib', 'WindowWidget'], imports: 229,
    importKinds: { globalImport: 29, script: 191, null: 9 },
    exports: [220, 'ExecuteUbergraph_TestModUI', 'WidgetTree'], headerSize: 39472,
  },
  {
    file: 'zen54_BP_Table_Lamp.uzenasset', layout: ZenLayout.BulkDataMapPadding, name: '/Game/Billiards/Blueprints/BP_Table_Lamp',
    names: [17, '/Game/Billiards/Static_meshes/SM_table_lamp', '/Game/Billiards/Blueprints/BP_Table_Lamp'], imports: 19,
    importKinds: { script: 17, null: 1, package: 1 }, exports: [9, 'BP_Table_Lamp_C', 'SM_table_lamp_GEN_VARIABLE'], headerSize: 1889,
  },
  {
    file: 'zen55_BP_ThirdPersonCharacter.uzenasset', layout: ZenLayout.BulkDataMapPadding,
    name: '/Game/ThirdPerson/Blueprints/BP_ThirdPersonCharacter',
    names: [76, 'ActionValue', '/Game/ThirdPerson/Blueprints/BP_ThirdPersonCharacter'], imports: 71,
    importKinds: { package: 7, script: 58, null: 6 }, exports: [19, 'BP_ThirdPersonCharacter_C', 'SpringArmComponent_0__A9892D03'], headerSize: 6043,
  },
  {
    file: 'zen55_SM_Cube.uzenasset', layout: ZenLayout.BulkDataMapPadding, name: '/Game/Meshes/SM_Cube',
    names: [9, 'BlockAll', '/Game/Meshes/SM_Cube'], imports: 12, importKinds: { script: 8, package: 2, null: 2 },
    exports: ['BodySetup_0', 'NavCollision_0', 'SM_Cube'], headerSize: 974,
  },
  {
    file: 'zen56_BP_ThirdPersonCharacter.uzenasset', layout: ZenLayout.VerseCells,
    name: '/Game/ThirdPerson/Blueprints/BP_ThirdPersonCharacter',
    names: [74, 'ActionValue', '/Game/ThirdPerson/Blueprints/BP_ThirdPersonCharacter'], imports: 66,
    importKinds: { package: 9, script: 50, null: 7 }, exports: [25, 'BP_ThirdPersonCharacter_C', 'SpringArmComponent_0__A9892D03'], headerSize: 6551,
  },
  {
    file: 'zen56_M_Mannequin.uzenasset', layout: ZenLayout.VerseCells, name: '/Game/Characters/Mannequins/Materials/M_Mannequin',
    names: [23, '/Game/Characters/Mannequins/Textures/Manny/T_Manny_01_BN', '/Game/Characters/Mannequins/Materials/M_Mannequin'],
    imports: 19, importKinds: { script: 5, package: 7, null: 7 }, exports: ['M_Mannequin'], headerSize: 1641,
  },
  {
    file: 'zen56_SK_Mannequin.uzenasset', layout: ZenLayout.VerseCells, name: '/Game/Characters/Mannequins/Meshes/SK_Mannequin',
    names: [253, 'AdditiveGroup', '/Game/Characters/Mannequins/Meshes/SK_Mannequin'], imports: 9, importKinds: { script: 9 },
    exports: [12, 'AnimCurveMetaData_0', 'SK_Mannequin'], headerSize: 7564,
  },
  {
    file: 'zen56_SM_Cube.uzenasset', layout: ZenLayout.VerseCells, name: '/Game/LevelPrototyping/Meshes/SM_Cube',
    names: [8, 'BlockAll', '/Game/LevelPrototyping/Meshes/SM_Cube'], imports: 10, importKinds: { script: 8, package: 1, null: 1 },
    exports: ['BodySetup_1', 'NavCollision_2', 'SM_Cube'], headerSize: 988,
  },
  {
    file: 'zen56_T_Quinn_01_D.uzenasset', layout: ZenLayout.VerseCells, name: '/Game/Characters/Mannequins/Textures/Quinn/T_Quinn_01_D',
    names: [4, 'None', '/Game/Characters/Mannequins/Textures/Quinn/T_Quinn_01_D'], imports: 3, importKinds: { script: 3 },
    exports: ['T_Quinn_01_D'], headerSize: 704,
  },
];

describe('Zen packages in corpus/cooked', () => {
  for (const c of CASES) {
    it(`${c.file}: names, imports, exports and export data`, () => {
      const { bytes, pkg } = parse(c.file, c.layout);
      expect(pkg.name).toBe(c.name);
      expect(pkg.layout).toBe(c.layout);
      expect(pkg.names.length).toBe(c.names[0]);
      expect(pkg.names[0]).toBe(c.names[1]);
      expect(pkg.names.at(-1)).toBe(c.names[2]);
      expect(pkg.imports.length).toBe(c.imports);
      const kinds: Record<string, number> = {};
      for (const i of pkg.imports) kinds[i.kind] = (kinds[i.kind] ?? 0) + 1;
      expect(kinds).toEqual(c.importKinds);
      if (typeof c.exports[0] === 'number') {
        expect(pkg.exports.length).toBe(c.exports[0]);
        expect(pkg.exports[0]!.name).toBe(c.exports[1]);
        expect(pkg.exports.at(-1)!.name).toBe(c.exports[2]);
      } else {
        expect(pkg.exports.map((e) => e.name)).toEqual(c.exports);
      }
      expect(pkg.headerSize).toBe(c.headerSize);
      expect(peekZenHeaderSize(bytes.subarray(0, 64), c.file, c.layout)).toBe(c.headerSize);
      expect(pkg.warnings).toEqual([]);
      // Every export is created and serialized once.
      expect(pkg.exportBundleEntries.length).toBe(pkg.exports.length * 2);
      if (c.layout >= ZenLayout.DependencyBundles) {
        // UE5.3+: export data tiles [HeaderSize, end - 4) and the chunk ends with the package tag.
        expect(pkg.hasPackageTag).toBe(true);
        expect(new DataView(bytes.buffer, bytes.byteOffset).getUint32(bytes.length - 4, true)).toBe(PACKAGE_FILE_TAG);
        expectExportDataTiles(pkg, bytes.length - 4);
        expect(pkg.dependencyBundleHeaders.length).toBe(pkg.exports.length);
      } else {
        // UE4.27: bundles laid out back to back up to the chunk's end, no tag.
        expect(pkg.hasPackageTag).toBeUndefined();
        expectExportDataTiles(pkg, bytes.length);
      }
      // Regions are in file order and do not overlap.
      for (let i = 1; i < pkg.regions.length; i++) {
        expect(pkg.regions[i]!.offset).toBeGreaterThanOrEqual(pkg.regions[i - 1]!.offset + pkg.regions[i - 1]!.size);
      }
    });
  }

  it('reads the UE4.27 graph data: the imported packages of the store entry, bundle headers', () => {
    const { pkg } = parse('zen427_BP_SpicyChoppingDamage.uasset', ZenLayout.PackageSummary);
    expect(pkg.sourceName).toBe('/Game/Blueprints/Attacks/DamageTypes/BP_SpicyChoppingDamage');
    expect(pkg.packageId).toBe('22fd32646e72d32d');
    expect(pkg.cookedHeaderSize).toBe(1562);
    expect(pkg.packageFlags).toBe(0x80000000);
    expect(pkg.exportBundleHeaders).toEqual([{ firstEntryIndex: 0, entryCount: 4 }]);
    expect(pkg.legacyPackageArcs.map((p) => p.packageId).sort()).toEqual(['1ab317fd99266914', '27dd07ff85f1a390', 'c6c0df0096a21d37']);
    // UE4 exports keep their legacy serial offsets; public ones carry a global import index.
    expect(pkg.exports.map((e) => [e.cookedSerialOffset, e.cookedSerialSize, e.dataOffset])).toEqual([[1562, 80, 1176], [1642, 82, 1256]]);
    expect(pkg.exports.every((e) => e.isPublic)).toBe(true);
    expect(pkg.exports[0]!.publicExportHash).toMatch(/^[89ab]/); // package import type bits
  });

  it('agrees with the store entries retoc recorded (metadata.json) for every UE4.27 chunk', () => {
    for (const [chunk, meta] of [
      ['zen427_TestModUI.uzenasset', 'zen427_TestModUI.metadata.json'],
      ['zen427_T_Emissive.uasset', 'zen427_T_Emissive.metadata.json'],
      ['zen427_BP_SpicyChoppingDamage.uasset', 'zen427_BP_SpicyChoppingDamage.metadata.json'],
    ]) {
      const text = readFileSync(corpus('cooked', meta!), 'utf8');
      const num = (key: string): number => Number(new RegExp(`"${key}":\\s*(\\d+)`).exec(text)![1]);
      const ids = (/"imported_packages":\s*\[([^\]]*)\]/.exec(text)![1]!.match(/\d+/g) ?? [])
        .map((d) => BigInt(d).toString(16).padStart(16, '0'));
      const { bytes, pkg } = parse(chunk!, ZenLayout.PackageSummary);
      expect(pkg.exports.length, chunk).toBe(num('export_count'));
      expect(pkg.exportBundleHeaders.length, chunk).toBe(num('export_bundle_count'));
      expect(bytes.length, chunk).toBe(num('export_bundles_size'));
      // The graph data names the imported packages (sorted by id); the store entry in import order.
      expect(pkg.importedPackageIds.slice().sort(), chunk).toEqual(ids.slice().sort());
    }
  });

  it('uses the store entry from the container header when given', () => {
    const header = parseContainerHeader(readFileSync(corpus('headers/retoc427_ContainerHeader.bin')), 'retoc427_ContainerHeader.bin');
    const entry = findStoreEntry(header, '22fd32646e72d32d')!;
    const { pkg } = parse('zen427_BP_SpicyChoppingDamage.uasset', ZenLayout.PackageSummary, { storeEntry: entry });
    expect(pkg.importedPackageIds).toEqual(['c6c0df0096a21d37', '1ab317fd99266914', '27dd07ff85f1a390']);
    expect(pkg.exports.length).toBe(entry.exportCount);
    expect(pkg.exportBundleHeaders.length).toBe(entry.exportBundleCount);
    expect(pkg.chunkSize).toBe(entry.exportBundlesSize);
  });

  it('reads UE5.4+ imported package names, public export hashes, bulk data and dependency bundles', () => {
    const { pkg } = parse('zen55_SM_Cube.uzenasset', ZenLayout.BulkDataMapPadding);
    expect(pkg.importedPackageNames).toEqual(['/Game/Meshes/M_Cube_2', '/Game/Meshes/M_Cube_1']);
    // Without a store entry the ids come from the names.
    expect(pkg.importedPackageIds).toEqual(pkg.importedPackageNames.map(packageIdFromName));
    expect(pkg.importedPublicExportHashes.length).toBe(2);
    expect(pkg.bulkData.length).toBe(5);
    // The mesh's separate bulk data is the whole legacy .ubulk (121292 bytes).
    expect(pkg.bulkData[4]).toEqual({ serialOffset: 0, duplicateSerialOffset: -1, serialSize: 121292, flags: 0x10501, cookedIndex: 0 });
    expect(pkg.bulkData[0]).toEqual({ serialOffset: 524, duplicateSerialOffset: -1, serialSize: 1744, flags: 0x48, cookedIndex: 0 });
    expect(pkg.cookedHeaderSize).toBe(1639); // the legacy .uasset's size
    expect(pkg.dependencyBundleHeaders.length).toBe(3);
    expect(pkg.dependencyBundleEntries.length).toBe(6);
    const sm = pkg.exports[2]!;
    expect(sm.name).toBe('SM_Cube');
    expect(sm.isPublic).toBe(true);
    expect(sm.outer.kind).toBe('null');
    expect(pkg.exports[0]!.outer).toEqual({ kind: 'export', raw: '0000000000000002', index: 2 });
    expect(pkg.exports.map((e) => e.cookedSerialOffset)).toEqual([0, 2268, 2732]);
  });

  it('reads a UE5.6 package with the cell offsets and no cells', () => {
    const { pkg } = parse('zen56_T_Quinn_01_D.uzenasset', ZenLayout.VerseCells);
    expect(pkg.regions.some((r) => r.name === 'cell offsets' && r.size === 8)).toBe(true);
    expect(pkg.cellImports).toEqual([]);
    expect(pkg.cellExports).toEqual([]);
    expect(pkg.bulkData.length).toBe(11);
    // The mips stored apart add up to the legacy .ubulk (696320 bytes), back to back.
    const apart = pkg.bulkData.filter((b) => b.flags === 0x10501);
    expect(apart.map((b) => b.serialOffset)).toEqual([0, 524288, 655360, 688128]);
    expect(apart.reduce((s, b) => s + b.serialSize, 0)).toBe(696320);
    expect(pkg.versioning).toBeUndefined();
  });

  it('lets an explicit engine version choose the layout', () => {
    const bytes = readFileSync(corpus('cooked/zen56_SM_Cube.uzenasset'));
    const pkg = parseZenPackage(bytes, 'zen56_SM_Cube', { layout: ZenLayout.PackageSummary, engine: EngineVersion.UE5_6 });
    expect(pkg.layout).toBe(ZenLayout.VerseCells);
    expect(pkg.exports.length).toBe(3);
  });

  it('parses the header alone when given the chunk size', () => {
    const bytes = readFileSync(corpus('cooked/zen56_SK_Mannequin.uzenasset'));
    const size = peekZenHeaderSize(bytes, 'SK_Mannequin', ZenLayout.VerseCells);
    const pkg = parseZenPackage(bytes.subarray(0, size), 'SK_Mannequin', { layout: ZenLayout.VerseCells, chunkSize: bytes.length });
    expect(pkg.exports.length).toBe(12);
    expect(pkg.hasPackageTag).toBeUndefined();
    expect(pkg.exportDataEnd).toBe(bytes.length - 4);
  });
});

describe('Zen packages against their legacy twins', () => {
  const TWINS: [string, string, number, ZenLayout][] = [
    ['retoc427_TestModUI', 'zen427_TestModUI.uzenasset', 0, ZenLayout.PackageSummary],
    ['retoc54_BP_Table_Lamp', 'zen54_BP_Table_Lamp.uzenasset', 1012, ZenLayout.BulkDataMapPadding],
    ['retoc55_SM_Cube', 'zen55_SM_Cube.uzenasset', 1013, ZenLayout.BulkDataMapPadding],
    ['retoc55_BP_ThirdPersonCharacter', 'zen55_BP_ThirdPersonCharacter.uzenasset', 1013, ZenLayout.BulkDataMapPadding],
    ['retoc56_SM_Cube', 'zen56_SM_Cube.uzenasset', 1017, ZenLayout.VerseCells],
    ['retoc56_M_Mannequin', 'zen56_M_Mannequin.uzenasset', 1017, ZenLayout.VerseCells],
    ['retoc56_T_Quinn_01_D', 'zen56_T_Quinn_01_D.uzenasset', 1017, ZenLayout.VerseCells],
    ['retoc56_BP_ThirdPersonCharacter', 'zen56_BP_ThirdPersonCharacter.uzenasset', 1017, ZenLayout.VerseCells],
    ['retoc56_SK_Mannequin', 'zen56_SK_Mannequin.uzenasset', 1017, ZenLayout.VerseCells],
  ];
  for (const [legacy, zen, ue5, layout] of TWINS) {
    it(`${zen} has ${legacy}'s exports, sizes and bytes`, () => {
      const uasset = readFileSync(corpus('cooked', `${legacy}.uasset`));
      const uexp = readFileSync(corpus('cooked', `${legacy}.uexp`));
      const old = readLegacyExports(corpus('cooked', `${legacy}.uasset`), ue5).exports;
      const { bytes, pkg } = parse(zen, layout);
      expect(pkg.exports.map((e) => e.name)).toEqual(old.map((e) => e.name));
      expect(pkg.exports.map((e) => e.cookedSerialSize)).toEqual(old.map((e) => e.serialSize));
      pkg.exports.forEach((e, i) => {
        // UE4 keeps the legacy offset; from UE5.3 it counts from the export data (legacy offset - .uasset size).
        const legacyOffset = old[i]!.serialOffset;
        expect(e.cookedSerialOffset).toBe(layout >= ZenLayout.DependencyBundles ? legacyOffset - uasset.length : legacyOffset);
        const inUexp = legacyOffset - uasset.length;
        expect(Buffer.compare(bytes.subarray(e.dataOffset, e.dataOffset + e.cookedSerialSize), uexp.subarray(inUexp, inUexp + e.cookedSerialSize))).toBe(0);
      });
    });
  }
});


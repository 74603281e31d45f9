/**
 * AssetRegistry.bin: the cue58 Pak's registry (UE5.8, MemoryMappedTagDataStore) lists every
 * package of the fixture containers (cue58/manifest.json testContainerPackages), each asset with
 * the class its package's export has (read through the package reader from the IoStore
 * containers, not from the registry), and the primary asset, bundle, dependencies and package
 * data CUE4Parse's FixturePakTests.cs asserts. Bad input: an unknown version, a file without the
 * version GUID, counts and offsets past the end.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { readInstallRegistries } from '../../src/core/asset-registry/install.js';
import { identifierText, registryJson } from '../../src/core/asset-registry/json.js';
import { parseAssetRegistry } from '../../src/core/asset-registry/read.js';
import type { AssetRegistry } from '../../src/core/asset-registry/types.js';
import { AssetRegistryVersion } from '../../src/core/asset-registry/version.js';
import { FormatError } from '../../src/core/errors.js';
import { openInstall } from '../../src/core/install/install.js';
import { withInstall } from '../properties/helpers.js';
import { corpus } from '../support/corpus.js';

const manifest = JSON.parse(readFileSync(corpus('cue58/manifest.json'), 'utf8')) as { testContainerPackages: string[] };
const REGISTRY_PATH = 'CUE4ParseFixtures/AssetRegistry.bin';

async function registryBytes(variant: string): Promise<Uint8Array> {
  const install = await openInstall([corpus(`cue58/Pak/${variant}`)]);
  try {
    const p = install.file(REGISTRY_PATH)!.providers[0]!;
    return await p.archive.read(p.file.ref);
  } finally {
    await install.close();
  }
}

const fixtures = (reg: AssetRegistry): AssetRegistry['assets'] => reg.assets.filter((a) => a.package.startsWith('/Game/Fixtures/'));

describe.each(['Uncompressed', 'Oodle'])('the AssetRegistry.bin of the cue58 %s pak', (variant) => {
  it('lists every package of the fixture containers, each asset with its class', async () => {
    const install = await openInstall([corpus(`cue58/Pak/${variant}`)]);
    let files;
    try {
      files = await readInstallRegistries(install);
    } finally {
      await install.close();
    }
    expect(files.map((f) => [f.path, f.error])).toEqual([[REGISTRY_PATH, undefined]]);
    const reg = files[0]!.registry!;
    expect([reg.version, reg.versionName, reg.filterEditorOnly, reg.warnings]).toEqual([AssetRegistryVersion.MemoryMappedTagDataStore, 'MemoryMappedTagDataStore', true, []]);
    expect([...new Set(fixtures(reg).map((a) => a.package))].sort()).toEqual([...manifest.testContainerPackages].sort());
    const empty = reg.assets.find((a) => a.package === '/Game/Fixtures/Maps/Empty')!;
    expect([empty.object, empty.name, empty.class]).toEqual(['/Game/Fixtures/Maps/Empty.Empty', 'Empty', '/Script/Engine.World']);
  });

  it('the primary asset: its class, tag, bundle, dependencies and package data (FixturePakTests.cs)', async () => {
    const reg = parseAssetRegistry(await registryBytes(variant), REGISTRY_PATH);
    const primary = reg.assets.filter((a) => a.package === '/Game/Fixtures/Properties/DA_PrimaryAsset');
    expect(primary).toHaveLength(1);
    expect(primary[0]!.class).toBe('/Script/CUE4ParseFixtures.FixturePrimaryAsset');
    expect(primary[0]!.tags['RegistryMarker']).toBe('Primary_Registry_0x13579BDF');
    expect(primary[0]!.bundles).toEqual([{ name: 'Fixture', assets: ['/Game/Fixtures/Properties/DA_AllProperties.DA_AllProperties'] }]);

    const nodeOf = (pkg: string): number => {
      const found = reg.dependencies.flatMap((n, i) => (n.id.packageName === pkg ? [i] : []));
      expect(found, pkg).toHaveLength(1);
      return found[0]!;
    };
    const primaryNode = nodeOf('/Game/Fixtures/Properties/DA_PrimaryAsset');
    const propertyNode = nodeOf('/Game/Fixtures/Properties/DA_AllProperties');
    const dependency = (from: number, pkg: string): number[] => {
      const deps = reg.dependencies[from]!.packages.filter((d) => reg.dependencies[d.node]!.id.packageName === pkg);
      expect(deps, pkg).toHaveLength(1);
      return deps[0]!.properties;
    };
    expect(reg.dependencies[primaryNode]!.packages.map((d) => d.node)).toContain(propertyNode);
    // A hard reference to the data table, only soft ones to the BC6H texture.
    expect(dependency(propertyNode, '/Game/Fixtures/DataTables/DT_AllProperties').some((p) => (p & 1) !== 0)).toBe(true);
    expect(dependency(propertyNode, '/Game/Fixtures/Textures/T_BC6H').every((p) => (p & 1) === 0)).toBe(true);
    expect(reg.dependencies[propertyNode]!.referencers).toContain(primaryNode);
    expect(identifierText(reg.dependencies[primaryNode]!.id)).toBe('/Game/Fixtures/Properties/DA_PrimaryAsset');

    const data = reg.packages.filter((p) => p.name === '/Game/Fixtures/Properties/DA_PrimaryAsset');
    expect(data).toHaveLength(1);
    expect(data[0]!.diskSize).toBeGreaterThan(0);
    expect(data[0]!.extension).toBe('.uasset');
    expect(data[0]!.importedClasses!.length).toBeGreaterThan(0);
    // Every package with a node has package data, and the other way round.
    expect(reg.packages.every((p) => p.fileVersionUE5 !== undefined && p.savedHash?.length === 40)).toBe(true);
  });

  it('JSON as the CLI prints it: the issue\'s shape, --class by path or name', async () => {
    const reg = parseAssetRegistry(await registryBytes(variant), REGISTRY_PATH);
    const json = registryJson(reg, { class: 'curvefloat' }) as { version: number; assets: unknown[] };
    expect(json.version).toBe(24);
    expect(json.assets).toEqual([{
      object: '/Game/Fixtures/Curves/Curve_Float.Curve_Float', class: '/Script/Engine.CurveFloat', package: '/Game/Fixtures/Curves/Curve_Float', tags: expect.any(Object),
    }]);
    // The worlds: the fixture maps of the containers (with World Partition's generated cell).
    const worlds = registryJson(reg, { class: '/Script/Engine.World' }).assets as { package: string }[];
    expect(worlds.map((w) => w.package).sort()).toEqual(manifest.testContainerPackages.filter((p) => p.startsWith('/Game/Fixtures/Maps/')).sort());
    const full = registryJson(reg, { full: true }) as { packages: unknown[]; dependencies: { node: string; packages: { node: string; properties: string[][] }[] }[] };
    expect(full.packages).toHaveLength(reg.packages.length);
    const da = full.dependencies.find((d) => d.node === '/Game/Fixtures/Properties/DA_AllProperties')!;
    expect(da.packages.find((p) => p.node === '/Game/Fixtures/DataTables/DT_AllProperties')!.properties.some((s) => s.includes('Hard'))).toBe(true);
  });
});

describe('registry classes against the packages themselves', () => {
  // A cooked package has no Blueprint export (it is editor-only): the registry still lists the
  // Blueprint, and its generated class _C is the export.
  it('each fixture asset\'s class is the class of the export of that name in the IoStore package', async () => {
    const reg = parseAssetRegistry(await registryBytes('Uncompressed'), REGISTRY_PATH);
    await withInstall(corpus('cue58/IoStore/Tagged/Uncompressed'), async (packages) => {
      let checked = 0;
      for (const a of fixtures(reg)) {
        const opened = await packages.open(a.package);
        const shortClass = a.class.slice(a.class.lastIndexOf('.') + 1);
        const exp = opened.model.exports.find((e) => e.name === (shortClass === 'Blueprint' ? `${a.name}_C` : a.name));
        expect(exp, a.object).toBeDefined();
        expect(shortClass === 'Blueprint' ? 'BlueprintGeneratedClass' : shortClass, a.object).toBe(exp!.class);
        checked++;
      }
      expect(checked).toBe(fixtures(reg).length);
    });
  });
});

describe('bad input', () => {
  it('an unknown version: a FormatError naming it and the versions PakScope reads', async () => {
    const bytes = (await registryBytes('Uncompressed')).slice();
    bytes[16] = 99;
    expect(() => parseAssetRegistry(bytes, 'AssetRegistry.bin')).toThrow(/AssetRegistry\.bin: asset registry header at byte 16: asset registry version 99 is not one PakScope reads \(1 to 24/);
  });

  it('no version GUID: a registry from before UE4.17 or another file', () => {
    expect(() => parseAssetRegistry(new Uint8Array(64), 'Old.bin')).toThrow(/Old\.bin: asset registry header at byte 0: no asset registry version GUID/);
  });

  it('cut anywhere, or a count raised past the end: a FormatError, never a hang or a huge allocation', async () => {
    const bytes = await registryBytes('Uncompressed');
    for (const n of [20, 30, 100, 60000, 105000, 128500, bytes.length - 1]) {
      expect(() => parseAssetRegistry(bytes.subarray(0, n), 'cut.bin'), `cut at ${n}`).toThrow(FormatError);
    }
    // The asset count (after the tag store) set to 2^30.
    const reg = parseAssetRegistry(bytes, 'x');
    expect(reg.assets.length).toBe(306);
    const big = bytes.slice();
    const view = new DataView(big.buffer);
    const at = findAssetCount(bytes, 306);
    view.setInt32(at, 1 << 30, true);
    expect(() => parseAssetRegistry(big, 'big.bin')).toThrow(/big\.bin: asset registry assets at byte \d+: asset count 1073741824 needs at least/);
  });
});

/** The offset of the i32 asset count: the first place 306 is stored right after the tag store's end magic. */
function findAssetCount(bytes: Uint8Array, count: number): number {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  for (let i = 0; i + 8 <= bytes.length; i++) {
    if (view.getUint32(i, true) === 0x87654321 && view.getInt32(i + 4, true) === count) return i + 4;
  }
  throw new Error('no asset count after the tag store');
}

// `pakscope registry`: the cue58 Pak's AssetRegistry.bin (classes and the primary asset's tag as
// CUE4Parse's FixturePakTests.cs asserts them), --class, --all, and a registry of an unknown version.
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { corpus } from '../support/corpus.js';
import { makeTempDir, removeTempDirs } from '../fixtures/toc-writer.js';
import { buildCli, pakscope } from './run-cli.js';

const PAK = corpus('cue58/Pak/Oodle');

beforeAll(buildCli);
afterAll(removeTempDirs);

describe('pakscope registry', () => {
  it('--json --class: the issue\'s shape, only that class', async () => {
    const r = await pakscope(['registry', PAK, '--json', '--class', 'FixturePrimaryAsset']);
    expect([r.code, r.stderr]).toEqual([0, '']);
    const json = JSON.parse(r.out) as { version: number; versionName: string; assets: { object: string; class: string; package: string; tags: Record<string, string> }[] };
    expect([json.version, json.versionName]).toEqual([24, 'MemoryMappedTagDataStore']);
    expect(json.assets.map((a) => [a.object, a.class, a.package, a.tags['RegistryMarker']])).toEqual([
      ['/Game/Fixtures/Properties/DA_PrimaryAsset.DA_PrimaryAsset', '/Script/CUE4ParseFixtures.FixturePrimaryAsset', '/Game/Fixtures/Properties/DA_PrimaryAsset', 'Primary_Registry_0x13579BDF'],
    ]);
  });

  it('text: one asset per line with its class; --tags under it; --all adds packages and dependencies', async () => {
    const r = await pakscope(['registry', PAK, '--class', 'World', '--tags']);
    expect(r.code).toBe(0);
    expect(r.out).toMatch(/^\/Game\/Fixtures\/Maps\/Empty\.Empty +\/Script\/Engine\.World$/m);
    expect(r.out).toContain('    PrimaryAssetType = Map');
    expect(r.stderr).toContain('CUE4ParseFixtures/AssetRegistry.bin: MemoryMappedTagDataStore (version 24)');
    const all = JSON.parse((await pakscope(['registry', PAK, '--json', '--all'])).out) as { packages: { name: string; extension: string }[]; dependencies: { node: string; referencers?: string[] }[] };
    expect(all.packages.find((p) => p.name === '/Game/Fixtures/Properties/DA_PrimaryAsset')!.extension).toBe('.uasset');
    expect(all.dependencies.find((d) => d.node === '/Game/Fixtures/Properties/DA_AllProperties')!.referencers).toContain('/Game/Fixtures/Properties/DA_PrimaryAsset');
  });

  it('a registry of an unknown version: exit 2 with the file, the version and the versions read', async () => {
    const dir = await makeTempDir();
    await mkdir(dir, { recursive: true });
    const bad = join(dir, 'AssetRegistry.bin');
    const bytes = new Uint8Array(64);
    new DataView(bytes.buffer).setUint32(0, 0x717f9ee7, true);
    new DataView(bytes.buffer).setUint32(4, 0xe9b0493a, true);
    new DataView(bytes.buffer).setUint32(8, 0x88b39132, true);
    new DataView(bytes.buffer).setUint32(12, 0x1b388107, true);
    new DataView(bytes.buffer).setUint32(16, 31, true);
    await writeFile(bad, bytes);
    const r = await pakscope(['registry', bad]);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/AssetRegistry\.bin: asset registry header at byte 16: asset registry version 31 is not one PakScope reads \(1 to 24/);
  });
});

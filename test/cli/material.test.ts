// `pakscope material`: the chain and parameters of cue58's MI_Fixture (values from CUE4Parse's
// FixtureRenderableAssetTests.cs) as text and JSON, a single instance whose parent is not at
// hand, and `extract --format convert` writing materials as .json through the converter registry.
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { corpus } from '../support/corpus.js';
import { makeTempDir, removeTempDirs } from '../fixtures/toc-writer.js';
import { buildCli, pakscope } from './run-cli.js';

const TAGGED = corpus('cue58/IoStore/Tagged/Zlib');
const UNVERSIONED = corpus('cue58/IoStore/Unversioned/Zlib');
const USMAP = corpus('cue58/Mappings/CUE4ParseFixtures-Uncompressed.usmap');

beforeAll(buildCli);
afterAll(removeTempDirs);

describe('pakscope material', () => {
  it('prints MI_Fixture\'s chain and each parameter\'s effective value with where it comes from', async () => {
    const r = await pakscope(['material', TAGGED, '/Game/Fixtures/Materials/MI_Fixture']);
    expect([r.code, r.stderr]).toEqual([0, '']);
    expect(r.out).toContain('  parent  /Game/Fixtures/Materials/M_Fixture.M_Fixture (Material)');
    expect(r.out).toContain('scalar  FixtureRoughness = 0.8125  (this asset)');
    expect(r.out).toContain('vector  AlternateColor = (0.9, 0.15, 0.05, 1)  (M_Fixture)');
    expect(r.out).toContain('switch  UseAlternateColor = true  (this asset)');
  });

  it('--json is the same from tagged and unversioned packages', async () => {
    const tagged = await pakscope(['material', TAGGED, '/Game/Fixtures/Materials/MI_Fixture', '--json']);
    const unversioned = await pakscope(['material', UNVERSIONED, '/Game/Fixtures/Materials/MI_Fixture', '--json', '--usmap', USMAP]);
    expect([tagged.code, unversioned.code]).toEqual([0, 0]);
    const t = JSON.parse(tagged.out) as { parameters: { name: string; value: unknown; from: number }[] };
    expect(t.parameters.find((p) => p.name === 'PrimaryColor')).toMatchObject({ value: { r: 0.25, g: 0.75, b: 0.5, a: 0.875 }, from: 0 });
    expect(JSON.parse(unversioned.out)).toEqual(t);
  });

  it('an unversioned material without mappings is a clear error', async () => {
    const r = await pakscope(['material', UNVERSIONED, '/Game/Fixtures/Materials/MI_Fixture']);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/mappings \(\.usmap\) are needed to read its material/);
  });

  it('a package file alone: its parent named, not followed, with a note', async () => {
    const r = await pakscope(['material', corpus('uncooked/ue50_M_UE4Man_ChestLogo.uasset')]);
    expect(r.code).toBe(0);
    expect(r.out).toContain('  parent  /Game/Mannequin/Character/Materials/M_UE4Man_Body.M_UE4Man_Body (not read)');
    expect(r.stderr).toContain('note: parent /Game/Mannequin/Character/Materials/M_UE4Man_Body.M_UE4Man_Body not followed');
  });

  it('extract --format convert writes each material as .json', async () => {
    const out = join(await makeTempDir(), 'out');
    const r = await pakscope(['extract', TAGGED, '--out', out, '--format', 'convert', '--filter', '**/Materials/M*_Fixture*', '--json']);
    expect([r.code, r.stderr]).toEqual([0, '']);
    const dir = join(out, 'CUE4ParseFixtures/Content/Fixtures/Materials');
    const mi = JSON.parse(await readFile(join(dir, 'MI_Fixture.json'), 'utf8')) as { chain: { name: string }[] };
    expect(mi.chain.map((l) => l.name)).toEqual(['MI_Fixture', 'M_Fixture']);
    const m = JSON.parse(await readFile(join(dir, 'M_Fixture.json'), 'utf8')) as { parameters: { name: string; value: unknown }[] };
    expect(m.parameters.find((p) => p.name === 'FixtureRoughness')!.value).toBe(0.375);
  });
});

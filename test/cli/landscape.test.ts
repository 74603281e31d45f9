// `pakscope landscape`: cue58's landscape map (values from CUE4Parse's FixtureWorldAssetTests.cs
// LandscapeMapPreservesHeightAndMeshData, and the component's CachedLocalBox for the heights) as
// text and JSON, tagged and unversioned, and -o writing the heightmap and weights (.png, read back
// by Pillow), the terrain (.glb) and the facts (.json).
import { execFileSync } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { corpus } from '../support/corpus.js';
import { makeTempDir, removeTempDirs } from '../fixtures/toc-writer.js';
import { buildCli, pakscope } from './run-cli.js';
import { parseGlb, validateGlb } from '../support/gltf-validator.js';

const TAGGED = corpus('cue58/IoStore/Tagged/Zlib');
const UNVERSIONED = corpus('cue58/IoStore/Unversioned/Zlib');
const USMAP = corpus('cue58/Mappings/CUE4ParseFixtures-Uncompressed.usmap');
const MAP = '/Game/Fixtures/Maps/Landscape';

beforeAll(buildCli);
afterAll(removeTempDirs);

describe('pakscope landscape', () => {
  it('prints the actor\'s sizes, material, the component, the heights\' range and the layer', async () => {
    const r = await pakscope(['landscape', TAGGED, MAP]);
    expect(r.code).toBe(0);
    expect(r.out.split('\n')).toEqual(expect.arrayContaining([
      '/Game/Fixtures/Maps/Landscape (Landscape Landscape_0)',
      '  1 component of 63 quads (1x1 subsection of 63), 64x64 vertices',
      '  material /Game/Fixtures/Landscape/M_Landscape.M_Landscape',
      // CachedLocalBox Z: -124.90625 to 124.953125.
      '  heights 16780 to 48762 (-124.906 to 124.953 cm)',
      '  layer FixtureLayer  /Game/Fixtures/Landscape/LI_Fixture.LI_Fixture',
      '  LandscapeComponent_0  section (0, 0)  heightmap Heightmap_0 at (0, 0)  layers FixtureLayer (Weightmap_0 R)',
    ]));
  });

  it('--json is the same from tagged and unversioned packages; unversioned without mappings is a clear error', async () => {
    const t = await pakscope(['landscape', TAGGED, MAP, '--json']);
    const u = await pakscope(['landscape', UNVERSIONED, MAP, '--json', '--usmap', USMAP]);
    expect([t.code, u.code]).toEqual([0, 0]);
    const info = JSON.parse(t.out);
    expect(info).toMatchObject({ componentSizeQuads: 63, subsectionSizeQuads: 63, numSubsections: 1, width: 64, height: 64, localHeightRange: { min: -124.90625, max: 124.953125 } });
    expect(info.components[0]).toMatchObject({ sectionBaseX: 0, sectionBaseY: 0 });
    expect(JSON.parse(u.out)).toEqual(info);
    const bad = await pakscope(['landscape', UNVERSIONED, MAP]);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toMatch(/mappings \(\.usmap\) are needed to read its landscape/);
  });

  it('-o FILE.png writes the 16-bit heightmap and FILE_FixtureLayer.png, as Pillow reads them', async () => {
    const dir = await makeTempDir();
    const r = await pakscope(['landscape', TAGGED, MAP, '-o', join(dir, 'L.png')]);
    expect(r.code).toBe(0);
    expect(r.stderr).toMatch(/wrote .*L\.png: PNG 64x64, 16-bit heightmap/);
    expect(r.stderr).toMatch(/wrote .*L_FixtureLayer\.png: PNG 64x64, weights of layer FixtureLayer/);
    const py = 'import sys\nfrom PIL import Image\nfor p in sys.argv[1:]:\n    im = Image.open(p)\n    print(open(p, "rb").read()[24], im.size, im.getextrema())';
    const out = execFileSync('/usr/bin/python3', ['-c', py, join(dir, 'L.png'), join(dir, 'L_FixtureLayer.png')], { encoding: 'utf8' });
    expect(out.trim().split('\n')).toEqual(['16 (64, 64) (16780, 48762)', '8 (64, 64) (0, 255)']);
  });

  it('-o FILE.glb writes a valid terrain of 63 x 63 x 2 triangles; --lod 1 thins it', async () => {
    const dir = await makeTempDir();
    const r = await pakscope(['landscape', UNVERSIONED, MAP, '--usmap', USMAP, '-o', join(dir, 'L.glb')]);
    expect(r.code).toBe(0);
    expect(r.stderr).toMatch(/wrote .*L\.glb: glTF 2\.0 binary, 4096 vertices, 7938 triangles/);
    const glb = new Uint8Array(await readFile(join(dir, 'L.glb')));
    expect((await validateGlb(glb)).errors).toEqual([]);
    expect(parseGlb(glb).json.materials[0].name).toBe('M_Landscape');
    const thin = await pakscope(['landscape', TAGGED, MAP, '--lod', '1', '-o', join(dir, 'L1.glb')]);
    // Every 2nd vertex of 64 and the last: 33 x 33.
    expect(thin.stderr).toMatch(/1089 vertices, 2048 triangles \(every 2nd vertex\)/);
  });

  it('a map without a landscape, and a bad -o, are usage errors', async () => {
    const r = await pakscope(['landscape', TAGGED, '/Game/Fixtures/Maps/Streaming']);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/holds no landscape/);
    const o = await pakscope(['landscape', TAGGED, MAP, '-o', 'x.tga']);
    expect(o.code).toBe(2);
    expect(o.stderr).toMatch(/-o names the \.png, \.glb or \.json file/);
  });
});

describe('pakscope landscape -o .glb --lod on a terrain too big for one mesh', () => {
  it('refuses a --lod that would keep more than 16M vertices as bad input (exit 2) naming the least that fits, and takes that one', async () => {
    const { glbLod } = await import('../../src/cli/commands/landscape.js');
    const { UsageError } = await import('../../src/cli/usage-error.js');
    const big = { width: 8192, height: 8192 };
    expect(() => glbLod(big, 1)).toThrow(UsageError);
    expect(() => glbLod(big, 1)).toThrow('--lod 1: 8192x8192 heights at every 2nd vertex are more than 16777216 vertices; use --lod 2 or more');
    expect(glbLod(big, 2)).toBe(2);
    expect(glbLod(big, undefined)).toBe(2);
    expect(glbLod({ width: 64, height: 64 }, 0)).toBe(0);
  });
});

// `pakscope extract --format convert`: textures written as PNG where their packages would be (one per slice), their .uexp/.ubulk left out, other files as stored.
import { copyFile, mkdir, readdir, readFile, rm } from 'node:fs/promises';
import { join, relative } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { corpus } from '../support/corpus.js';
import { channelErrors, readReferenceImages } from '../support/reference-image.js';
import { parseGlb, validateGlb } from '../support/gltf-validator.js';
import { makeTempDir, removeTempDirs } from '../fixtures/toc-writer.js';
import { buildCli, pakscope } from './run-cli.js';

interface Summary { files: number; bytes: number; failed: { path: string; error: string }[]; skipped: { path: string; reason: string }[] }

const TAGGED = corpus('cue58/IoStore/Tagged/Uncompressed');
const TEXTURES = 'CUE4ParseFixtures/Content/Fixtures/Textures';

async function listFiles(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { recursive: true, withFileTypes: true });
  return entries.filter((e) => e.isFile()).map((e) => relative(dir, join(e.parentPath, e.name)).replaceAll('\\', '/')).sort();
}

beforeAll(buildCli);
afterAll(removeTempDirs);

describe('pakscope extract --format convert', () => {
  it('writes every texture as PNG (one per slice), leaves out its .uasset and .ubulk, and writes other files as stored', async () => {
    const out = join(await makeTempDir(), 'out');
    const r = await pakscope(['extract', TAGGED, '--out', out, '--format', 'convert', '--filter', '**/Textures/**', '--filter', '**/DA_AllProperties*', '--json']);
    expect([r.code, r.stderr]).toEqual([0, '']);
    const files = await listFiles(out);
    const textures = files.filter((f) => f.startsWith(`${TEXTURES}/`)).map((f) => f.slice(TEXTURES.length + 1));
    const slices = (name: string, n: number): string[] => Array.from({ length: n }, (_, i) => `${name}_${i}.png`);
    expect(textures).toEqual([
      ...slices('T_Array', 4), 'T_BC1.png', 'T_BC3.png', 'T_BC4.png', 'T_BC5.png', 'T_BC6H.png', 'T_BC7.png', 'T_BGRA8.png',
      ...slices('T_CubeArray', 12), ...slices('T_Cube', 6), 'T_CurveAtlas.png', 'T_FloatRGBA.png', 'T_G16.png', 'T_G8.png', 'T_IES.png',
      'T_Mips.png', 'T_R16F.png', 'T_Streaming.png', 'T_UDIM.png', 'T_Virtual.png', ...slices('T_Volume', 4),
    ].sort());
    // Not a texture: as stored.
    expect(files).toContain('CUE4ParseFixtures/Content/Fixtures/Properties/DA_AllProperties.uasset');
    const summary = JSON.parse(r.out) as Summary;
    expect([summary.files, summary.failed, summary.skipped]).toEqual([files.length, [], []]);

    // The PNGs hold the decoded values: T_BC1 against its source art, T_Cube_4 exact to its pattern.
    const [bc1, rgb, cube4] = readReferenceImages([join(out, TEXTURES, 'T_BC1.png'), corpus('cue58/SourceTextures/rgb.png'), join(out, TEXTURES, 'T_Cube_4.png')]);
    const e = channelErrors(bc1!.rgba, rgb!.rgba);
    for (let c = 0; c < 4; c++) expect([e.mean[c]! <= 1.5, e.max[c]! <= 8]).toEqual([true, true]);
    const px = [...cube4!.rgba.subarray((3 * 16 + 5) * 4, (3 * 16 + 5) * 4 + 4)];
    expect(px).toEqual([(17 * 5 + 41 * 4) & 255, (29 * 3 + 67 * 4) & 255, (11 * 8 + 97 * 4) & 255, 255 - ((15 + 15 + 28) & 127)]);
  });

  it('writes a static mesh as glTF binary: SM_Fixture.glb (LOD 0), valid, in metres', async () => {
    const out = join(await makeTempDir(), 'out');
    const r = await pakscope(['extract', TAGGED, '--out', out, '--format', 'convert', '--filter', '**/Meshes/SM_Fixture*', '--json']);
    expect([r.code, r.stderr]).toEqual([0, '']);
    expect(await listFiles(out)).toEqual(['CUE4ParseFixtures/Content/Fixtures/Meshes/SM_Fixture.glb']);
    const glb = new Uint8Array(await readFile(join(out, 'CUE4ParseFixtures/Content/Fixtures/Meshes/SM_Fixture.glb')));
    expect((await validateGlb(glb)).errors).toEqual([]);
    const gltf = parseGlb(glb);
    // The corner vertices (-50,-50,0) and (50,50,20) cm, in glTF's metres and axes.
    const position = gltf.json.accessors[gltf.json.meshes[0].primitives[0].attributes.POSITION];
    expect(position.count).toBe(6);
    [...position.min, ...position.max].forEach((v: number, i: number) => expect(v).toBeCloseTo([-0.5, 0, -0.5, 0.5, 0.2, 0.5][i]!, 6));
  });

  it('writes an unversioned offline font (read with --usmap) as the PNG of its texture page, which is rgba.png', async () => {
    const out = join(await makeTempDir(), 'out');
    const r = await pakscope(['extract', corpus('cue58/IoStore/Unversioned/Zlib'), '--out', out, '--format', 'convert', '--filter', '**/Font_Fixture*',
      '--usmap', corpus('cue58/Mappings/CUE4ParseFixtures-Uncompressed.usmap'), '--json']);
    expect([r.code, r.stderr]).toEqual([0, '']);
    expect(await listFiles(out)).toEqual(['CUE4ParseFixtures/Content/Fixtures/Fonts/Font_Fixture.png']);
    const [page, rgba] = readReferenceImages([join(out, 'CUE4ParseFixtures/Content/Fixtures/Fonts/Font_Fixture.png'), corpus('cue58/SourceTextures/rgba.png')]);
    expect(Buffer.from(page!.rgba).equals(Buffer.from(rgba!.rgba))).toBe(true);
  });

  it('a .ubulk selected without its package is written as stored', async () => {
    const out = join(await makeTempDir(), 'out');
    const r = await pakscope(['extract', TAGGED, '--out', out, '--format', 'convert', '--filter', '**/T_Streaming.ubulk', '--json']);
    expect(r.code).toBe(0);
    expect(await listFiles(out)).toEqual([`${TEXTURES}/T_Streaming.ubulk`]);
  });

  it('a texture whose .ubulk is missing: listed as failed with the reason, exit 2, the other textures written', async () => {
    // A loose cooked folder: T_Streaming without its .ubulk, T_BC6H whole (from the legacy pak).
    const raw = join(await makeTempDir(), 'raw');
    const x = await pakscope(['extract', corpus('cue58/LegacyPak/Tagged/Uncompressed'), '--out', raw, '--filter', '**/Textures/**']);
    expect(x.code).toBe(0);
    const content = join(await makeTempDir(), 'Game', 'Content', 'Textures');
    await mkdir(content, { recursive: true });
    for (const f of ['T_Streaming.uasset', 'T_Streaming.uexp', 'T_BC6H.uasset', 'T_BC6H.uexp']) await copyFile(join(raw, TEXTURES, f), join(content, f));
    const out = join(await makeTempDir(), 'out');
    const r = await pakscope(['extract', join(content, '..', '..'), '--out', out, '--format', 'convert', '--json']);
    expect(r.code).toBe(2);
    const summary = JSON.parse(r.out) as Summary;
    expect(summary.failed).toHaveLength(1);
    expect(summary.failed[0]!.path).toMatch(/T_Streaming\.uasset$/);
    expect(summary.failed[0]!.error).toMatch(/\.ubulk/);
    expect((await listFiles(out)).map((f) => f.split('/').pop())).toEqual(['T_BC6H.png']);

    // pakscope texture says the same, exit 2.
    const t = await pakscope(['texture', join(content, 'T_Streaming.uasset'), '-o', join(out, 'x.png')]);
    expect(t.code).toBe(2);
    expect(t.stderr).toMatch(/\.ubulk/);
    await rm(raw, { recursive: true, force: true });
    expect((await readFile(join(content, 'T_BC6H.uexp'))).length).toBeGreaterThan(0);
  });
});

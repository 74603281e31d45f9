// `pakscope texture`: facts as JSON, images written as PNG / DDS / HDR and read back by Pillow and ImageMagick, bad input exit 2.
import { execFileSync } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { corpus } from '../support/corpus.js';
import { channelErrors, readReferenceImage } from '../support/reference-image.js';
import { buildCli, pakscope } from './run-cli.js';

const TAGGED = corpus('cue58/IoStore/Tagged/Uncompressed');
const UNVERSIONED = corpus('cue58/IoStore/Unversioned/Zlib');
const USMAP = corpus('cue58/Mappings/CUE4ParseFixtures-Uncompressed.usmap');
const T = (name: string): string => `/Game/Fixtures/Textures/${name}`;
/** The sliced-texture pattern (CUE4Parse's MakeFixtureColor). */
const pattern = (x: number, y: number, s: number): number[] =>
  [(17 * x + 41 * s) & 255, (29 * y + 67 * s) & 255, (11 * (x + y) + 97 * s) & 255, 255 - ((3 * x + 5 * y + 7 * s) & 127)];

let temp: string;
beforeAll(async () => {
  buildCli();
  temp = await mkdtemp(join(tmpdir(), 'pakscope-texture-'));
});
afterAll(() => rm(temp, { recursive: true, force: true }));

describe('pakscope texture', () => {
  it('--json: the facts as the issue lists them, the same from tagged and from unversioned packages with their mappings', async () => {
    const [cube, tagged, unversioned] = await Promise.all([
      pakscope(['texture', TAGGED, T('T_Cube'), '--json']),
      pakscope(['texture', TAGGED, T('T_Mips'), '--json']),
      pakscope(['texture', UNVERSIONED, T('T_Mips'), '--json', '--usmap', USMAP]),
    ]);
    expect(cube.code).toBe(0);
    expect(JSON.parse(cube.out)).toEqual({
      class: 'TextureCube', pixelFormat: 'PF_B8G8R8A8', width: 16, height: 16, depth: 1, slices: 6, cube: true, virtual: false, srgb: true,
      mips: [{ width: 16, height: 16, depth: 1, bytes: 16 * 16 * 4 * 6 }],
    });
    expect([tagged.code, unversioned.code]).toEqual([0, 0]);
    const mips = JSON.parse(tagged.out) as { pixelFormat: string; mips: { width: number }[] };
    expect(mips.pixelFormat).toBe('PF_DXT1');
    expect(mips.mips.map((m) => m.width)).toEqual([64, 32, 16, 8, 4, 2, 1]); // T_Mips: 7 mips
    expect(JSON.parse(unversioned.out)).toEqual(mips);
  });

  it('-o x.png --slice N: the slice, exact to its pattern (Pillow reads it)', async () => {
    const file = join(temp, 'cube3.png');
    const r = await pakscope(['texture', TAGGED, T('T_Cube'), '--slice', '3', '-o', file]);
    expect(r.code).toBe(0);
    expect(r.stderr).toContain(`wrote ${file}: PNG 16x16, mip 0, slice 3`);
    const img = readReferenceImage(file);
    expect([img.mode, img.width, img.height]).toEqual(['RGBA', 16, 16]);
    for (let y = 0; y < 16; y++) for (let x = 0; x < 16; x++) expect([...img.rgba.subarray((y * 16 + x) * 4, (y * 16 + x) * 4 + 4)]).toEqual(pattern(x, y, 3));
  });

  it('-o x.png of T_BC7 matches its source art within 1.0 mean, 20 largest per channel', async () => {
    const file = join(temp, 'bc7.png');
    expect((await pakscope(['texture', TAGGED, T('T_BC7'), '-o', file])).code).toBe(0);
    const e = channelErrors(readReferenceImage(file).rgba, readReferenceImage(corpus('cue58/SourceTextures/rgba.png')).rgba);
    for (let c = 0; c < 4; c++) {
      expect(e.mean[c]).toBeLessThanOrEqual(1.0);
      expect(e.max[c]).toBeLessThanOrEqual(20);
    }
  });

  it('-o x.dds: every mip as stored (Pillow reads mip 0), -o x.hdr: the floats of BC6H (ImageMagick reads it)', async () => {
    const dds = join(temp, 's.dds');
    const r = await pakscope(['texture', TAGGED, T('T_Streaming'), '-o', dds]);
    expect(r.code).toBe(0);
    expect(r.stderr).toContain('DDS 10 mips from 512x512');
    const img = readReferenceImage(dds);
    expect([img.format, img.width, img.height]).toEqual(['DDS', 512, 512]);
    const e = channelErrors(img.rgba, readReferenceImage(corpus('cue58/SourceTextures/streaming.png')).rgba);
    for (let c = 0; c < 3; c++) expect([e.mean[c]! <= 1.5, e.max[c]! <= 40]).toEqual([true, true]);

    const hdr = join(temp, 'bc6h.hdr');
    expect((await pakscope(['texture', TAGGED, T('T_BC6H'), '-o', hdr])).code).toBe(0);
    expect(execFileSync('identify', ['-format', '%m %w %h', hdr]).toString()).toBe('HDR 64 64');
  });

  it('bad input: exit 2 with the reason', async () => {
    const cases: [string[], RegExp][] = [
      [['texture', TAGGED, T('T_Cube'), '--slice', '6', '-o', join(temp, 'x.png')], /has 6 slices in mip 0 \(0 to 5\): there is no slice 6/],
      [['texture', TAGGED, T('T_BC1'), '--mip', '1', '-o', join(temp, 'x.png')], /has 1 mip \(0\): there is no mip 1/],
      [['texture', TAGGED, T('T_BC1'), '-o', join(temp, 'x.jpg')], /-o names a .png, .dds or .hdr file/],
      [['texture', TAGGED, T('T_BC1'), '-o', join(temp, 'x.hdr')], /PF_DXT1, not an HDR format/],
      [['texture', TAGGED, T('T_BC1'), '--mip', 'two'], /--mip takes a whole number/],
      [['texture', TAGGED, '/Game/Fixtures/Properties/DA_AllProperties'], /holds no texture \(its exports are FixtureInlineObject, ParserFixtureData\)/],
    ];
    for (const [args, message] of cases) {
      const r = await pakscope(args);
      expect(r.code, args.join(' ')).toBe(2);
      expect(r.stderr).toMatch(message);
    }
  });
});

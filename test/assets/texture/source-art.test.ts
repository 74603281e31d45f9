/**
 * Every cue58 texture converted to PNG through the converter registry (as `extract --format
 * convert` and `pakscope texture` do), read back by Pillow and compared per channel with the
 * source art in cue58/SourceTextures (also read by Pillow), within CUE4Parse's tolerances
 * (FixtureTextureDecodeTests.cs, and the list): IoStore Tagged, IoStore Unversioned with
 * the cue58 mappings, LegacyPak and the Android pak.
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { convertExport, convertibleExports } from '../../../src/core/assets/index.js';
import { KeyRing } from '../../../src/core/crypto/keys.js';
import { openInstall, type Install } from '../../../src/core/install/install.js';
import { InstallPackages } from '../../../src/core/package/open-package.js';
import { parseUsmap } from '../../../src/core/usmap/parse.js';
import type { Usmap } from '../../../src/core/usmap/types.js';
import { corpus, loadCorpus } from '../../support/corpus.js';
import { channelErrors, readReferenceImages, type ReferenceImage } from '../../support/reference-image.js';

const FIXTURES = 'CUE4ParseFixtures/Content/Fixtures/Textures';
const ANDROID = 'CUE4ParseFixtures/Content/PlatformFixtures/Android';
const SOURCE = (name: string): string => corpus('cue58/SourceTextures', name);

/** What a PNG is compared with, and the per-channel limits: [mean, largest]. */
interface Expectation {
  texture: string;
  /** A source image, 'udim' (the four tiles laid out) or 'bc6h' (CUE4Parse's formula). */
  source: string;
  /** How the source becomes the expected PNG: as is, its red as gray, or X/Y with Z rebuilt. */
  expect?: 'gray' | 'normal';
  mean: number;
  max: number;
  /** Channels compared (default all four). */
  channels?: number[];
}

const ZEN: Expectation[] = [
  { texture: 'T_BC1', source: 'rgb.png', mean: 1.5, max: 8 },
  { texture: 'T_BC3', source: 'rgba.png', mean: 1.5, max: 20 },
  { texture: 'T_BC4', source: 'grayscale.png', expect: 'gray', mean: 1.5, max: 12, channels: [0] },
  { texture: 'T_BC5', source: 'normal.png', expect: 'normal', mean: 1.0, max: 4 },
  { texture: 'T_BC6H', source: 'bc6h', mean: 2, max: 80 },
  { texture: 'T_BC7', source: 'rgba.png', mean: 1.0, max: 20 },
  { texture: 'T_BGRA8', source: 'rgba.png', mean: 1.0, max: 20 },
  { texture: 'T_G8', source: 'grayscale.png', expect: 'gray', mean: 0, max: 0 },
  { texture: 'T_Mips', source: 'rgb.png', mean: 1.5, max: 8 },
  { texture: 'T_Streaming', source: 'streaming.png', mean: 1.5, max: 40 },
  { texture: 'T_Virtual', source: 'streaming.png', mean: 1.5, max: 40 },
  { texture: 'T_UDIM', source: 'udim', mean: 2, max: 70 },
];

const LEGACY = ZEN.filter((e) => e.texture === 'T_Streaming' || e.texture === 'T_BC6H');

const ANDROID_TEXTURES: Expectation[] = [
  { texture: 'T_ASTC_4x4', source: 'rgba.png', mean: 5, max: 60 },
  { texture: 'T_ASTC_6x6', source: 'rgba.png', mean: 8, max: 80 },
  { texture: 'T_ASTC_8x8', source: 'rgba.png', mean: 10, max: 100 },
  { texture: 'T_ASTC_10x10', source: 'rgba.png', mean: 12, max: 180 },
  { texture: 'T_ASTC_12x12', source: 'rgba.png', mean: 16, max: 150 },
  // X and Y against the source's red and green (CUE4Parse checks these and alpha; the PNG's alpha is opaque)
  { texture: 'T_ASTC_Normal', source: 'normal.png', expect: 'normal', mean: 8, max: 80, channels: [0, 1, 3] },
  { texture: 'T_ETC2_RGB', source: 'rgb.png', mean: 8, max: 80 },
  { texture: 'T_ETC2_RGBA', source: 'rgba.png', mean: 8, max: 80 },
  { texture: 'T_EAC_R11', source: 'grayscale.png', expect: 'gray', mean: 5, max: 40, channels: [0] },
  { texture: 'T_EAC_RG11', source: 'normal.png', expect: 'normal', mean: 5, max: 40, channels: [0, 1] },
];

/** The four UDIM tiles laid out 1001 top left, 1002 top right, 1011 bottom left, 1012 bottom right. */
function udimComposite(tiles: ReferenceImage[]): Uint8Array {
  const out = new Uint8Array(256 * 256 * 4);
  tiles.forEach((t, i) => {
    const ox = (i % 2) * 128, oy = Math.floor(i / 2) * 128;
    for (let y = 0; y < 128; y++) out.set(t.rgba.subarray(y * 128 * 4, (y + 1) * 128 * 4), ((oy + y) * 256 + ox) * 4);
  });
  return out;
}

/** CUE4Parse's expected BC6H bitmap: R = 16x/63, G = 8y/63, B = 4(x+y)/126, each clamped, x255, truncated. */
function bc6hExpected(): Uint8Array {
  const byte = (v: number): number => Math.trunc(Math.min(1, Math.max(0, v)) * 255);
  const out = new Uint8Array(64 * 64 * 4);
  for (let y = 0; y < 64; y++) {
    for (let x = 0; x < 64; x++) out.set([byte((16 * x) / 63), byte((8 * y) / 63), byte((4 * (x + y)) / 126), 255], (y * 64 + x) * 4);
  }
  return out;
}

/** The source as the PNG rules write it: gray from red, or X, Y and the rebuilt Z. */
function expectedFrom(source: ReferenceImage, how: Expectation['expect']): Uint8Array {
  const out = new Uint8Array(source.rgba);
  for (let p = 0; p < out.length; p += 4) {
    if (how === 'gray') {
      out[p + 1] = out[p + 2] = out[p]!;
      out[p + 3] = 255;
    } else if (how === 'normal') {
      const x = (2 * out[p]!) / 255 - 1, y = (2 * out[p + 1]!) / 255 - 1;
      out[p + 2] = Math.trunc((255 * (Math.sqrt(Math.max(0, 1 - x * x - y * y)) + 1)) / 2);
      out[p + 3] = 255;
    }
  }
  return out;
}

let temp: string;
let sources: Map<string, Uint8Array>;
let mappings: Usmap;
beforeAll(async () => {
  temp = await mkdtemp(join(tmpdir(), 'pakscope-source-art-'));
  const names = ['rgb.png', 'rgba.png', 'grayscale.png', 'normal.png', 'streaming.png', 'udim.1001.png', 'udim.1002.png', 'udim.1011.png', 'udim.1012.png'];
  const read = readReferenceImages(names.map(SOURCE));
  sources = new Map(names.map((n, i) => [n, read[i]!.rgba]));
  sources.set('udim', udimComposite(read.slice(5)));
  sources.set('bc6h', bc6hExpected());
  mappings = parseUsmap(loadCorpus('cue58/Mappings/CUE4ParseFixtures-Uncompressed.usmap'), 'cue58.usmap');
});
afterAll(() => rm(temp, { recursive: true, force: true }));

/** Converts each texture of the install to PNG through the registry, and compares what Pillow reads with the source. */
async function checkInstall(root: string, folder: string, list: Expectation[], opts: { mappings?: Usmap } = {}): Promise<void> {
  const install: Install = await openInstall([corpus(root)], { keys: new KeyRing() });
  const packages = new InstallPackages(install);
  const files: string[] = [];
  try {
    for (const e of list) {
      const path = `${folder}/${e.texture}.uasset`;
      const { model } = await packages.open(path);
      const [exp] = convertibleExports(model);
      expect(exp?.kind.kind, e.texture).toBe('texture');
      const converted = await convertExport({ packages, ref: path }, exp!, 'png', opts);
      expect(converted.map((f) => [f.suffix, f.extension]), e.texture).toEqual([['', 'png']]);
      const file = join(temp, `${root.replace(/\W/g, '_')}-${e.texture}.png`);
      await writeFile(file, converted[0]!.data);
      files.push(file);
    }
  } finally {
    await packages.close();
    await install.close();
  }
  const images = readReferenceImages(files);
  const report: string[] = [];
  list.forEach((e, i) => {
    const source = sources.get(e.source)!;
    const expected = e.expect ? expectedFrom({ rgba: source } as ReferenceImage, e.expect) : source;
    const got = images[i]!;
    expect(got.width * got.height * 4, e.texture).toBe(expected.length);
    const { mean, max } = channelErrors(got.rgba, expected);
    for (const c of e.channels ?? [0, 1, 2, 3]) {
      if (mean[c]! > e.mean || max[c]! > e.max) report.push(`${e.texture} channel ${'RGBA'[c]}: mean ${mean[c]!.toFixed(3)} (limit ${e.mean}), largest ${max[c]} (limit ${e.max})`);
    }
  });
  expect(report).toEqual([]);
}

describe('cue58 textures as PNG against their source art', () => {
  it('IoStore, tagged', () => checkInstall('cue58/IoStore/Tagged/Uncompressed', FIXTURES, ZEN));
  it('IoStore, unversioned with the cue58 mappings', () => checkInstall('cue58/IoStore/Unversioned/Zlib', FIXTURES, ZEN, { mappings }));
  it('LegacyPak, tagged and unversioned: T_Streaming and T_BC6H', async () => {
    await checkInstall('cue58/LegacyPak/Tagged/Zlib', FIXTURES, LEGACY);
    await checkInstall('cue58/LegacyPak/Unversioned/Zlib', FIXTURES, LEGACY, { mappings });
  });
  it('the Android pak: ASTC, ETC2 and EAC', () => checkInstall('cue58/AndroidPak', ANDROID, ANDROID_TEXTURES));
});

describe('cue58 sliced and specialized textures as PNG', () => {
  /** The pattern of slice s (CUE4Parse's MakeFixtureColor). */
  const pattern = (x: number, y: number, s: number): number[] =>
    [(17 * x + 41 * s) & 255, (29 * y + 67 * s) & 255, (11 * (x + y) + 97 * s) & 255, 255 - ((3 * x + 5 * y + 7 * s) & 127)];

  async function pngs(root: string, name: string, opts: { mappings?: Usmap } = {}): Promise<{ suffix: string; image: ReferenceImage }[]> {
    const install = await openInstall([corpus(root)], { keys: new KeyRing() });
    const packages = new InstallPackages(install);
    try {
      const path = `${FIXTURES}/${name}.uasset`;
      const [exp] = convertibleExports((await packages.open(path)).model);
      const files = await convertExport({ packages, ref: path }, exp!, undefined, opts);
      const paths = await Promise.all(files.map(async (f, i) => {
        const file = join(temp, `${name}-${root.replace(/\W/g, '_')}-${i}.${f.extension}`);
        await writeFile(file, f.data);
        return file;
      }));
      return readReferenceImages(paths).map((image, i) => ({ suffix: files[i]!.suffix, image }));
    } finally {
      await packages.close();
      await install.close();
    }
  }

  for (const [root, opts] of [['cue58/IoStore/Tagged/Uncompressed', {}], ['cue58/IoStore/Unversioned/Zlib', 'mappings']] as const) {
    it(`T_Cube, T_Array, T_Volume and T_CubeArray: one PNG per slice, every pixel exact to the pattern (${root})`, async () => {
      const o = opts === 'mappings' ? { mappings } : {};
      for (const [name, slices, size] of [['T_Cube', 6, 16], ['T_Array', 4, 16], ['T_Volume', 4, 8], ['T_CubeArray', 12, 16]] as const) {
        const files = await pngs(root, name, o);
        expect(files.map((f) => f.suffix), name).toEqual(Array.from({ length: slices }, (_, s) => `_${s}`));
        for (const [s, { image }] of files.entries()) {
          expect([image.width, image.height], name).toEqual([size, size]);
          const want = new Uint8Array(size * size * 4);
          for (let y = 0; y < size; y++) for (let x = 0; x < size; x++) want.set(pattern(x, y, s), (y * size + x) * 4);
          expect(Buffer.from(image.rgba).equals(Buffer.from(want)), `${name} slice ${s}`).toBe(true);
        }
      }
    });

    it(`T_G16, T_R16F, T_FloatRGBA and T_IES at the pixels CUE4Parse's tests name (${root})`, async () => {
      const o = opts === 'mappings' ? { mappings } : {};
      const px = (img: ReferenceImage, x: number, y: number): number[] => [...img.rgba.subarray((y * img.width + x) * 4, (y * img.width + x) * 4 + 4)];
      const [g16] = await pngs(root, 'T_G16', o);
      expect([g16!.image.mode, px(g16!.image, 0, 0), px(g16!.image, 15, 15)]).toEqual(['L', [0, 0, 0, 255], [255, 255, 255, 255]]);
      const [r16f] = await pngs(root, 'T_R16F', o);
      expect([r16f!.image.mode, px(r16f!.image, 0, 0), px(r16f!.image, 15, 15)]).toEqual(['L', [0, 0, 0, 255], [255, 255, 255, 255]]);
      expect(px(r16f!.image, 0, 6)[0]).toBeGreaterThanOrEqual(127);
      expect(px(r16f!.image, 0, 6)[0]).toBeLessThanOrEqual(130);
      const [rgba] = await pngs(root, 'T_FloatRGBA', o);
      expect(px(rgba!.image, 0, 0)).toEqual([0, 255, 0, 255]);
      const last = px(rgba!.image, 15, 15);
      expect([last[0], last[1], last[3]]).toEqual([255, 0, 255]);
      expect(last[2]).toBeGreaterThanOrEqual(127);
      expect(last[2]).toBeLessThanOrEqual(128);
      const [ies] = await pngs(root, 'T_IES', o);
      expect([ies!.image.width, ies!.image.height, px(ies!.image, 0, 0), px(ies!.image, 15, 15)]).toEqual([16, 16, [0, 0, 0, 255], [255, 255, 255, 255]]);
    });
  }
});

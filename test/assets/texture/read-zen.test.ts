// The cooked texture reader on the cue58 IoStore (Zen, UE5.8) fixtures: every Textures/ asset,
// with the facts CUE4Parse's fixture tests list and every mip's bytes read.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { decodePixels } from '../../../src/core/assets/texture/decode/index.js';
import { readInstallTexture } from '../../../src/core/assets/texture/read/index.js';
import { openInstall, type Install } from '../../../src/core/install/install.js';
import { InstallPackages } from '../../../src/core/package/open-package.js';
import { corpus } from '../../support/corpus.js';
import { ZEN_TEXTURES, expectTexture, fixtureSlice } from './expectations.js';

const TAGGED = {
  Oodle: 'cue58/IoStore/Tagged/Oodle/CUE4ParseFixtures-Minimal-Oodle-Windows.utoc',
  Zlib: 'cue58/IoStore/Tagged/Zlib/CUE4ParseFixtures-Minimal-Zlib-Windows.utoc',
  Uncompressed: 'cue58/IoStore/Tagged/Uncompressed/CUE4ParseFixtures-Minimal-Uncompressed-Windows.utoc',
};

const ref = (name: string): string => `/Game/Fixtures/Textures/${name}`;

/** Mean colour of the UDIM source tiles (Pillow, cue58/SourceTextures/udim.*.png). */
const UDIM_MEANS: Record<string, [number, number, number]> = {
  1001: [234, 157, 50], 1002: [32, 126, 129], 1011: [65, 135, 170], 1012: [159, 90, 147],
};

/** Mean of the two RGB565 end points of every DXT1 block in a region of blocks: close to the region's mean colour. */
function dxt1EndpointMean(data: Uint8Array, blocksWide: number, bx0: number, by0: number, bw: number, bh: number): number[] {
  const sum: [number, number, number] = [0, 0, 0];
  for (let by = by0; by < by0 + bh; by++) {
    for (let bx = bx0; bx < bx0 + bw; bx++) {
      const o = (by * blocksWide + bx) * 8;
      for (const c of [data[o]! | (data[o + 1]! << 8), data[o + 2]! | (data[o + 3]! << 8)]) {
        sum[0] += ((c >> 11) & 31) * 255 / 31;
        sum[1] += ((c >> 5) & 63) * 255 / 63;
        sum[2] += (c & 31) * 255 / 31;
      }
    }
  }
  return sum.map((s) => s / (bw * bh * 2));
}

for (const [variant, path] of Object.entries(TAGGED)) {
  describe(`cue58 IoStore Tagged ${variant}`, () => {
    let install: Install;
    let packages: InstallPackages;
    beforeAll(async () => {
      install = await openInstall([corpus(path)]);
      packages = new InstallPackages(install);
    });
    afterAll(async () => {
      await packages.close();
      await install.close();
    });

    for (const [name, e] of Object.entries(ZEN_TEXTURES)) {
      it(`reads ${name}: ${e.class} ${e.pixelFormat} ${e.width}x${e.height}, ${e.mips} mip(s)`, async () => {
        const t = await readInstallTexture(packages, ref(name));
        expect(t.name).toBe(name);
        await expectTexture(t, e);
      });
    }

    it('finds T_Streaming\'s three largest mips in its .ubulk (the BulkData chunk) and the rest inline', async () => {
      const t = await readInstallTexture(packages, ref('T_Streaming'));
      expect(t.mips.map((m) => m.location)).toEqual(['.ubulk', '.ubulk', '.ubulk', 'inline', 'inline', 'inline', 'inline', 'inline', 'inline', 'inline']);
    });

    it('reads the properties: sRGB, compression settings and LOD group', async () => {
      const bc5 = await readInstallTexture(packages, ref('T_BC5'));
      expect([bc5.srgb, bc5.compressionSettings, bc5.lodGroup]).toEqual([false, 'TC_Normalmap', 'TEXTUREGROUP_World']);
      const bc1 = await readInstallTexture(packages, ref('T_BC1'));
      expect([bc1.srgb, bc1.compressionSettings]).toEqual([true, 'TC_Default']);
      const bgra = await readInstallTexture(packages, ref('T_BGRA8'));
      expect(bgra.lodGroup).toBe('TEXTUREGROUP_UI');
    });

    it('keeps every slice of cubes, arrays, volumes and cube arrays in order, each the generated pattern', async () => {
      for (const [name, w, slices] of [['T_Cube', 16, 6], ['T_Array', 16, 4], ['T_Volume', 8, 4], ['T_CubeArray', 16, 12]] as const) {
        const data = await (await readInstallTexture(packages, ref(name))).readMip(0);
        const one = w * w * 4;
        for (let s = 0; s < slices; s++) expect(data.subarray(s * one, (s + 1) * one), `${name} slice ${s}`).toEqual(fixtureSlice(w, w, s));
      }
    });

    it('reassembles T_Virtual\'s tiles into the very blocks of the same art cooked as the plain T_Streaming', async () => {
      const vt = await readInstallTexture(packages, ref('T_Virtual'));
      const plain = await readInstallTexture(packages, ref('T_Streaming'));
      expect(Buffer.from(await vt.readMip(0)).equals(Buffer.from(await plain.readMip(0)))).toBe(true);
    });

    it('hands the decoders what they take: one slice of a cube mip decodes to its generated pattern, a whole virtual texture to 512x512', async () => {
      const cube = await readInstallTexture(packages, ref('T_Cube'));
      const slice = 2, w = 16;
      const mip = await cube.readMip(0);
      const image = decodePixels(cube.pixelFormat, mip.subarray(slice * w * w * 4), w, w);
      const x = 5, y = 9, o = (y * w + x) * 4;
      expect([...image.rgba.subarray(o, o + 4)]).toEqual([(17 * x + 41 * slice) & 255, (29 * y + 67 * slice) & 255, (11 * (x + y) + 97 * slice) & 255, 255 - ((3 * x + 5 * y + 7 * slice) & 127)]);
      const vt = await readInstallTexture(packages, ref('T_Virtual'));
      const decoded = decodePixels(vt.pixelFormat, await vt.readMip(0), vt.width, vt.height);
      expect([decoded.width, decoded.height, decoded.rgba.length]).toEqual([512, 512, 512 * 512 * 4]);
    });

    it('lays T_UDIM\'s blocks out as the editor does: 1001 top left, 1002 top right, 1011 bottom left, 1012 bottom right', async () => {
      const t = await readInstallTexture(packages, ref('T_UDIM'));
      const data = await t.readMip(0);
      const quadrants: Record<string, [number, number]> = { 1001: [0, 0], 1002: [32, 0], 1011: [0, 32], 1012: [32, 32] };
      for (const [tile, [bx, by]] of Object.entries(quadrants)) {
        const mean = dxt1EndpointMean(data, 64, bx, by, 32, 32);
        mean.forEach((v, c) => expect(Math.abs(v - UDIM_MEANS[tile]![c]!), `${tile} channel ${c}`).toBeLessThan(20));
      }
    });
  });
}

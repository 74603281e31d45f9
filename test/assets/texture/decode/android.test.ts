// ASTC, ETC2 and EAC decoding on the real cue58 Android textures (read by the cooked texture
// reader), against the source art they were cooked from, within the tolerances of CUE4Parse's
// FixtureTextureDecodeTests (mean and largest absolute error per channel).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { decodePixels } from '../../../../src/core/assets/texture/decode/index.js';
import { readInstallTexture } from '../../../../src/core/assets/texture/read/index.js';
import { openInstall, type Install } from '../../../../src/core/install/install.js';
import { InstallPackages } from '../../../../src/core/package/open-package.js';
import { corpus } from '../../../support/corpus.js';
import { channelErrors, imageWithPillow } from './pillow.js';

interface Expectation {
  asset: string; source: string; pixelFormat: string; mean: number; max: number;
  /** Decoded channels compared (R, G, B, A in order), and the source channel each is compared with. */
  channels: number; map?: number[];
  /** Only these decoded channels are compared (default: the first `channels`). */
  only?: number[];
}

const EXPECTED: Expectation[] = [
  { asset: 'T_ASTC_4x4', source: 'rgba.png', pixelFormat: 'PF_ASTC_4x4', mean: 5, max: 60, channels: 4 },
  { asset: 'T_ASTC_6x6', source: 'rgba.png', pixelFormat: 'PF_ASTC_6x6', mean: 8, max: 80, channels: 4 },
  { asset: 'T_ASTC_8x8', source: 'rgba.png', pixelFormat: 'PF_ASTC_8x8', mean: 10, max: 100, channels: 4 },
  { asset: 'T_ASTC_10x10', source: 'rgba.png', pixelFormat: 'PF_ASTC_10x10', mean: 12, max: 180, channels: 4 },
  { asset: 'T_ASTC_12x12', source: 'rgba.png', pixelFormat: 'PF_ASTC_12x12', mean: 16, max: 150, channels: 4 },
  // The engine stores an ASTC normal map with X in R, G and B and Y in alpha.
  { asset: 'T_ASTC_Normal', source: 'normal.png', pixelFormat: 'PF_ASTC_6x6', mean: 8, max: 80, channels: 4, map: [0, 0, 2, 1], only: [0, 1, 3] },
  { asset: 'T_ETC2_RGB', source: 'rgb.png', pixelFormat: 'PF_ETC2_RGB', mean: 8, max: 80, channels: 4 },
  { asset: 'T_ETC2_RGBA', source: 'rgba.png', pixelFormat: 'PF_ETC2_RGBA', mean: 8, max: 80, channels: 4 },
  { asset: 'T_EAC_R11', source: 'grayscale.png', pixelFormat: 'PF_ETC2_R11_EAC', mean: 5, max: 40, channels: 1 },
  { asset: 'T_EAC_RG11', source: 'normal.png', pixelFormat: 'PF_ETC2_RG11_EAC', mean: 5, max: 40, channels: 2 },
];

describe('cue58 Android textures against their source art', () => {
  let install: Install;
  let packages: InstallPackages;
  beforeAll(async () => {
    install = await openInstall([corpus('cue58/AndroidPak')]);
    packages = new InstallPackages(install);
  });
  afterAll(async () => {
    await packages.close();
    await install.close();
  });

  for (const e of EXPECTED) {
    it(`${e.asset} (${e.pixelFormat}) within ${e.mean}/${e.max} of ${e.source}`, async () => {
      const texture = await readInstallTexture(packages, `CUE4ParseFixtures/Content/PlatformFixtures/Android/${e.asset}.uasset`);
      expect(texture.pixelFormat).toBe(e.pixelFormat);
      const image = decodePixels(texture.pixelFormat, await texture.readMip(0), texture.width, texture.height);
      const source = imageWithPillow(corpus('cue58/SourceTextures', e.source));
      expect([image.width, image.height]).toEqual([source.width, source.height]);
      const errors = channelErrors(image.rgba, source.rgba, e.map);
      for (const c of e.only ?? [0, 1, 2, 3].slice(0, e.channels)) {
        expect(errors[c]!.mean, `${'RGBA'[c]} mean`).toBeLessThanOrEqual(e.mean);
        expect(errors[c]!.max, `${'RGBA'[c]} max`).toBeLessThanOrEqual(e.max);
      }
      // Channels a format lacks: B = 0 and A = 255 for EAC.
      if (e.channels < 3) {
        expect(image.rgba.every((v, i) => (i % 4 === 2 ? v === 0 : i % 4 === 3 ? v === 255 : true))).toBe(true);
      }

    });
  }
});

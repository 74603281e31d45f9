import { describe, expect, it } from 'vitest';
import { decodePixels } from '../../../../src/core/assets/texture/decode/index.js';
import { astcencRoundTrip, testImage } from './astcenc.js';
import { firstDifference, randomBytes } from './pillow.js';

const SIZES: Array<[number, number]> = [[4, 4], [5, 4], [5, 5], [6, 5], [6, 6], [8, 5], [8, 6], [8, 8], [10, 5], [10, 6], [10, 8], [10, 10], [12, 10], [12, 12]];

describe('ASTC against astcenc', () => {
  const image = testImage(67, 53);
  const random = SIZES.map(([bw, bh]) => ({ bw, bh, width: bw * 8, height: bh * 8, blocks: randomBytes(64 * 16, bw * 100 + bh) }));
  const reference = astcencRoundTrip(image, SIZES, random);

  for (const [i, [bw, bh]] of SIZES.entries()) {
    it(`${bw}x${bh}: astcenc's own blocks decode to astcenc's pixels`, () => {
      const ours = decodePixels(`PF_ASTC_${bw}x${bh}`, reference.compressed[i]!.blocks, image.width, image.height);
      expect(firstDifference(ours.rgba, reference.compressed[i]!.decoded, image.width, 1)).toBeUndefined();
    });
    it(`${bw}x${bh}: random blocks that decode (not the error colour) decode as astcenc decodes them`, () => {
      // Most random blocks are invalid (magenta). Where PakScope finds a valid LDR block, astcenc
      // must give the same texels. (astcenc also decodes HDR endpoint modes in LDR images, where
      // the specification's LDR profile gives the error colour, as PakScope does.)
      const r = random[i]!;
      const ours = decodePixels(`PF_ASTC_${bw}x${bh}`, r.blocks, r.width, r.height).rgba;
      const theirs = reference.extra[i]!;
      let valid = 0;
      for (let b = 0; b < 64; b++) {
        const x0 = (b % 8) * bw, y0 = Math.floor(b / 8) * bh;
        const first = (y0 * r.width + x0) * 4;
        const magenta = ours[first] === 255 && ours[first + 1] === 0 && ours[first + 2] === 255 && ours[first + 3] === 255;
        if (magenta) continue;
        valid++;
        for (let y = y0; y < y0 + bh; y++) {
          for (let x = x0; x < x0 + bw; x++) {
            for (let c = 0; c < 4; c++) {
              const at = (y * r.width + x) * 4 + c;
              expect(Math.abs(ours[at]! - theirs[at]!), `block ${b} texel (${x}, ${y})`).toBeLessThanOrEqual(1);
            }
          }
        }
      }
      expect(valid).toBeGreaterThan(0);
    });
  }
});

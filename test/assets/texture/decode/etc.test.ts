// ETC1 individual and ETC2 H mode blocks built by hand from the Khronos specification's bit
// layouts (the cue58 Android textures, android.test.ts, cover the differential, planar and T modes).
import { describe, expect, it } from 'vitest';
import { decodePixels } from '../../../../src/core/assets/texture/decode/index.js';

const row0 = (rgba: Uint8Array): number[][] => [0, 1, 2, 3].map((x) => [...rgba.subarray(x * 4, x * 4 + 4)]);

describe('ETC crafted blocks', () => {
  it('individual mode: 4-bit base colours, tables 0 and 7, two sub-blocks side by side', () => {
    // R 15|0, G 8|4, B 0|15; table 0 (2, 8) left, table 7 (47, 183) right; no flip.
    // Pixel (0,0) index 0 (+2); pixel (3,0) (index bit 12) index 3 (-183).
    const block = Uint8Array.of(0xf0, 0x84, 0x0f, (0 << 5) | (7 << 2), 0x10, 0x00, 0x10, 0x00);
    const rgba = decodePixels('PF_ETC1', block, 4, 4).rgba;
    expect(row0(rgba)[0]).toEqual([255, 138, 2, 255]);
    expect(row0(rgba)[3]).toEqual([0, 0, 72, 255]);
  });

  it('H mode: two 4-bit colours, each plus and minus a distance', () => {
    // R1 10, G1 5, B1 3, R2 2, G2 12, B2 7; distance index 4 + 0 + (C1 >= C2) = 5: 32. The
    // differential green sum 2 + (-3) overflows, which selects H mode.
    const block = Uint8Array.of(0x52, 0x15, 0x96, 0x3e, 0x11, 0x00, 0x10, 0x10);
    expect(row0(decodePixels('PF_ETC2_RGB', block, 4, 4).rgba)).toEqual([
      [202, 117, 83, 255], [138, 53, 19, 255], [66, 236, 151, 255], [2, 172, 87, 255],
    ]);
  });

  it('ETC2 RGBA: an EAC alpha block before the colour block', () => {
    // Alpha base 100, multiplier 2, table 0 (-3 -6 -9 -15 2 5 8 14); pixel 0 index 7 (+14 * 2).
    const alpha = Uint8Array.of(100, (2 << 4) | 0, 0b11100000, 0, 0, 0, 0, 0);
    const colour = Uint8Array.of(0xf0, 0x84, 0x0f, 0, 0, 0, 0, 0);
    const rgba = decodePixels('PF_ETC2_RGBA', Uint8Array.of(...alpha, ...colour), 4, 4).rgba;
    expect(rgba[3]).toBe(128);
    expect(rgba[7]).toBe(94); // pixel (1, 0) is pixel 4: index 0, 100 - 3 * 2
  });
});

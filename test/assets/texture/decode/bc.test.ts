import { describe, expect, it } from 'vitest';
import { decodePixels } from '../../../../src/core/assets/texture/decode/index.js';
import { decodeBC6HSignedBlock } from '../../../../src/core/assets/texture/decode/bc6h.js';
import { decodeFloatBlockImage, floatToRgba8 } from '../../../../src/core/assets/texture/decode/block-image.js';
import { dds, decodeWithPillow, firstDifference, pillowVersion, randomBytes } from './pillow.js';

// BC7: the lowest set bit of the first byte is the mode; give each block k mode k % 8.
function bc7Blocks(count: number, seed: number): Uint8Array {
  const data = randomBytes(count * 16, seed);
  for (let k = 0; k < count; k++) {
    const mode = k % 8;
    data[k * 16] = ((data[k * 16]! << (mode + 1)) | (1 << mode)) & 255;
  }
  return data;
}

// BC6H: the low 2 (modes 1, 2) or 5 bits are the mode; give block k the k-th of the 14 modes.
const BC6H_MODES: Array<[code: number, bits: number]> = [[0, 2], [1, 2], [2, 5], [6, 5], [10, 5], [14, 5], [18, 5], [22, 5], [26, 5], [30, 5], [3, 5], [7, 5], [11, 5], [15, 5]];
function bc6hBlocks(count: number, seed: number): Uint8Array {
  const data = randomBytes(count * 16, seed);
  for (let k = 0; k < count; k++) {
    const [code, bits] = BC6H_MODES[k % 14]!;
    const mask = (1 << bits) - 1;
    data[k * 16] = (data[k * 16]! & ~mask) | code;
  }
  return data;
}

interface Case { pf: string; width: number; height: number; data: Uint8Array; header: { fourCC?: string; dxgiFormat?: number }; tolerance: number; channels: number }

const cases: Case[] = [];
for (const [width, height] of [[64, 64], [13, 7], [2, 2]] as const) {
  const blocks = Math.ceil(width / 4) * Math.ceil(height / 4);
  const seed = width * 1000 + height;
  cases.push(
    { pf: 'PF_DXT1', width, height, data: randomBytes(blocks * 8, seed + 1), header: { fourCC: 'DXT1' }, tolerance: 0, channels: 4 },
    { pf: 'PF_DXT3', width, height, data: randomBytes(blocks * 16, seed + 2), header: { fourCC: 'DXT3' }, tolerance: 0, channels: 4 },
    { pf: 'PF_DXT5', width, height, data: randomBytes(blocks * 16, seed + 3), header: { fourCC: 'DXT5' }, tolerance: 0, channels: 4 },
    // Pillow decodes BC4 to grayscale (L in R, G and B): compare R; G and B are checked below.
    { pf: 'PF_BC4', width, height, data: randomBytes(blocks * 8, seed + 4), header: { fourCC: 'ATI1' }, tolerance: 0, channels: 1 },
    { pf: 'PF_BC5', width, height, data: randomBytes(blocks * 16, seed + 5), header: { fourCC: 'ATI2' }, tolerance: 0, channels: 4 },
    { pf: 'PF_BC7', width, height, data: bc7Blocks(blocks, seed + 6), header: { dxgiFormat: 98 }, tolerance: 0, channels: 4 },
    // Pillow interpolates BC6H endpoints without the specification's rounding term (+32 before >> 6):
    // its half floats can be one step lower, one 8-bit level after the HDR rule.
    { pf: 'PF_BC6H', width, height, data: bc6hBlocks(blocks, seed + 7), header: { dxgiFormat: 95 }, tolerance: 1, channels: 4 },
  );
}

describe('BC1-BC7 against Pillow', () => {
  it(`Pillow ${pillowVersion()} decodes the same pixels`, () => {
    const reference = decodeWithPillow(cases.map((c) => dds(c.width, c.height, c.data, c.header)));
    for (const [i, c] of cases.entries()) {
      const ours = decodePixels(c.pf, c.data, c.width, c.height);
      expect(ours.rgba.length).toBe(c.width * c.height * 4);
      const diff = firstDifference(ours.rgba, reference[i]!, c.width, c.tolerance, c.channels);
      expect(diff, `${c.pf} ${c.width}x${c.height}`).toBeUndefined();
    }
  });

  it('BC6H signed: Pillow agrees on every positive value', () => {
    // Pillow does not sign-extend a signed block's endpoints after adding the deltas (the
    // specification does), so only the transform-free mode 11 (code 00011) is compared here.
    const count = 256;
    const data = randomBytes(count * 16, 77);
    for (let k = 0; k < count; k++) data[k * 16] = (data[k * 16]! & ~31) | 3;
    const [reference] = decodeWithPillow([dds(64, 64, data, { dxgiFormat: 96 })]);
    const ours = floatToRgba8(decodeFloatBlockImage(data, 64, 64, 4, 4, 16, decodeBC6HSignedBlock));
    expect(firstDifference(ours, reference!, 64, 1)).toBeUndefined();
    // The blocks hold negative values too (clamped to 0) and positive ones.
    expect(ours.some((v, i) => i % 4 < 3 && v === 0)).toBe(true);
    expect(ours.some((v, i) => i % 4 < 3 && v > 0 && v < 255)).toBe(true);
  });
});

describe('BCn layouts and crafted blocks', () => {
  it('BC1: c0 <= c1 gives the half-way colour and transparent black', () => {
    // c0 = pure blue (0x001f), c1 = pure red (0xf800); indices 0, 1, 2, 3 in the first row.
    const block = Uint8Array.of(0x1f, 0x00, 0x00, 0xf8, 0b11100100, 0, 0, 0);
    const { rgba } = decodePixels('PF_DXT1', block, 4, 4);
    expect([...rgba.subarray(0, 16)]).toEqual([0, 0, 255, 255, 255, 0, 0, 255, 127, 0, 127, 255, 0, 0, 0, 0]);
  });

  it('BC4 puts its value in R only, BC5 in R and G', () => {
    const bc4 = Uint8Array.of(200, 100, 0, 0, 0, 0, 0, 0);
    expect([...decodePixels('PF_BC4', bc4, 4, 4).rgba.subarray(0, 4)]).toEqual([200, 0, 0, 255]);
    const bc5 = Uint8Array.of(10, 0, 0, 0, 0, 0, 0, 0, 240, 0, 0, 0, 0, 0, 0, 0);
    expect([...decodePixels('PF_BC5', bc5, 4, 4).rgba.subarray(0, 4)]).toEqual([10, 240, 0, 255]);
  });

  it('BC7: a block with no mode bit (reserved) is transparent black', () => {
    const block = new Uint8Array(16).fill(0xff);
    block[0] = 0;
    expect(decodePixels('PF_BC7', block, 4, 4).rgba.every((v) => v === 0)).toBe(true);
  });

  it('BC6H: a reserved mode is zero and the floats are kept', () => {
    const reserved = new Uint8Array(16).fill(0xff); // low 5 bits 11111: reserved
    const image = decodePixels('PF_BC6H', reserved, 4, 4);
    expect(image.float!.every((v) => v === 0)).toBe(true);
    // Mode 11 (00011), both endpoints 0x3ff in every channel: the largest value, 65504 as a half.
    const block = new Uint8Array(16);
    block[0] = 0x03;
    for (let bit = 5; bit < 5 + 30; bit++) block[bit >> 3]! |= 1 << (bit & 7);
    for (let bit = 35; bit < 65; bit++) block[bit >> 3]! |= 1 << (bit & 7);
    const bright = decodePixels('PF_BC6H', block, 4, 4);
    expect(bright.float![0]).toBe(65504);
    expect([...bright.rgba.subarray(0, 4)]).toEqual([255, 255, 255, 255]);
  });
});

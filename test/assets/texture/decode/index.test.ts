import { describe, expect, it } from 'vitest';
import {
  decodePixels, pixelFormatInfo, sliceBytes, UnsupportedPixelFormatError, PIXEL_FORMATS,
} from '../../../../src/core/assets/texture/decode/index.js';
import { DecodeError, isInputError } from '../../../../src/core/errors.js';

function thrown(f: () => unknown): Error {
  try { f(); } catch (e) { return e as Error; }
  throw new Error('expected an error');
}

describe('decodePixels: sizes and bad input', () => {
  it('knows block sizes and slice bytes, partial blocks rounded up', () => {
    expect(sliceBytes('PF_DXT1', 256, 256)).toBe(32768);
    expect(sliceBytes('PF_DXT1', 1, 1)).toBe(8);
    expect(sliceBytes('PF_BC7', 2, 2)).toBe(16);
    expect(sliceBytes('PF_ASTC_6x6', 100, 100)).toBe(17 * 17 * 16);
    expect(sliceBytes('PF_ASTC_12x10', 24, 21)).toBe(2 * 3 * 16);
    expect(sliceBytes('PF_B8G8R8A8', 3, 5)).toBe(60);
    expect(sliceBytes('PF_FloatRGBA', 4, 4)).toBe(128);
    const info = pixelFormatInfo('PF_BC5')!;
    expect(info).toMatchObject({ blockWidth: 4, blockHeight: 4, blockBytes: 16, channels: 'rg', hdr: false, dds: { dxgiFormat: 83 } });
    expect(pixelFormatInfo('PF_BC6H')!.hdr).toBe(true);
    expect(pixelFormatInfo('PF_Nope')).toBeUndefined();
  });

  it('decodes a 1x1 and a 2x2 mip from one whole block', () => {
    // BC1 block: c0 = white, c1 = black, every index 0 -> white.
    const block = Uint8Array.of(0xff, 0xff, 0, 0, 0, 0, 0, 0);
    expect([...decodePixels('PF_DXT1', block, 1, 1).rgba]).toEqual([255, 255, 255, 255]);
    expect(decodePixels('PF_DXT1', block, 2, 2).rgba.length).toBe(16);
  });

  it('names the format, the size needed and the size given when the data runs short', () => {
    const e = thrown(() => decodePixels('PF_DXT5', new Uint8Array(100), 16, 16));
    expect(e).toBeInstanceOf(DecodeError);
    expect(e.message).toBe('PF_DXT5: a 16x16 image needs 256 bytes, the data has 100');
    expect(isInputError(e)).toBe(true);
    expect(thrown(() => decodePixels('PF_B8G8R8A8', new Uint8Array(63), 4, 4)).message).toContain('needs 64 bytes');
  });

  it('refuses zero, negative and fractional sizes', () => {
    for (const [w, h] of [[0, 4], [4, 0], [-4, 4], [2.5, 4]]) {
      const e = thrown(() => decodePixels('PF_DXT1', new Uint8Array(64), w!, h!));
      expect(e).toBeInstanceOf(DecodeError);
      expect(e.message).toContain(`${w}x${h}`);
    }
  });

  it('names an unknown format and one it cannot decode', () => {
    const unknown = thrown(() => decodePixels('PF_Bogus', new Uint8Array(64), 4, 4));
    expect(unknown).toBeInstanceOf(UnsupportedPixelFormatError);
    expect(unknown.message).toBe('unknown pixel format PF_Bogus');
    expect(isInputError(unknown)).toBe(true);
    const pvrtc = thrown(() => decodePixels('PF_PVRTC4', new Uint8Array(64), 4, 4));
    expect(pvrtc).toBeInstanceOf(UnsupportedPixelFormatError);
    expect(pvrtc.message).toContain('PF_PVRTC4');
    expect(pvrtc.message).toContain('.dds');
    expect(() => sliceBytes('PF_Bogus', 4, 4)).toThrow(UnsupportedPixelFormatError);
  });

  it('has a table entry with DDS ids for every format the issue lists', () => {
    for (const pf of ['PF_DXT1', 'PF_DXT3', 'PF_DXT5', 'PF_BC4', 'PF_BC5', 'PF_BC6H', 'PF_BC7', 'PF_B8G8R8A8',
      'PF_R8G8B8A8', 'PF_A8', 'PF_G8', 'PF_L8', 'PF_G16', 'PF_R16F', 'PF_G16R16', 'PF_R16G16B16A16_UNORM',
      'PF_FloatRGB', 'PF_FloatRGBA', 'PF_R32_FLOAT', 'PF_A32B32G32R32F', 'PF_R5G6B5_UNORM', 'PF_B5G5R5A1_UNORM',
      'PF_A2B10G10R10']) {
      const info = PIXEL_FORMATS.get(pf);
      expect(info, pf).toBeDefined();
      expect(info!.decode, pf).toBeDefined();
      expect(info!.dds.dxgiFormat, pf).toBeGreaterThan(0);
    }
  });
});

describe('every decodable format on random bytes', () => {
  it('decodes any bytes of the right size at whole and partial block sizes, and refuses one byte less', () => {
    let seed = 1;
    const random = (n: number): Uint8Array => {
      const out = new Uint8Array(n);
      for (let i = 0; i < n; i++) { seed = (seed * 1103515245 + 12345) >>> 0; out[i] = seed >>> 24; }
      return out;
    };
    let formats = 0;
    for (const [pf, info] of PIXEL_FORMATS) {
      if (!info.decode) continue;
      formats++;
      for (const [w, h] of [[1, 1], [5, 3], [13, 17], [24, 24]] as const) {
        const bytes = sliceBytes(pf, w, h);
        const image = decodePixels(pf, random(bytes), w, h);
        expect(image.rgba.length, `${pf} ${w}x${h}`).toBe(w * h * 4);
        if (info.hdr) expect(image.float!.length, `${pf} ${w}x${h}`).toBe(w * h * 4);
        expect(() => decodePixels(pf, random(bytes - 1), w, h), `${pf} ${w}x${h}`).toThrow(DecodeError);
      }
    }
    expect(formats).toBeGreaterThan(60);
  });
});

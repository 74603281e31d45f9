// Uncompressed formats against ffmpeg's raw pixel format conversions (an independent decoder of
// the same memory layouts) and Python's half-float unpacking; crafted values where neither has
// the layout (R11G11B10, R9G9B9E5, SNORM).
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { decodePixels, sliceBytes } from '../../../../src/core/assets/texture/decode/index.js';
import { firstDifference, PYTHON, randomBytes } from './pillow.js';

const W = 37, H = 11;

/** ffmpeg's RGBA of raw pixels in its pixel format `pixFmt`. */
function ffmpegRgba(pixFmt: string, data: Uint8Array, width: number, height: number): Uint8Array {
  const dir = mkdtempSync(join(tmpdir(), 'pakscope-ffmpeg-'));
  try {
    writeFileSync(join(dir, 'in.raw'), data);
    execFileSync('ffmpeg', ['-hide_banner', '-loglevel', 'error', '-f', 'rawvideo', '-pix_fmt', pixFmt, '-s', `${width}x${height}`,
      '-i', join(dir, 'in.raw'), '-sws_flags', 'accurate_rnd+full_chroma_int', '-sws_dither', 'none',
      '-f', 'rawvideo', '-pix_fmt', 'rgba', join(dir, 'out.raw')]);
    return new Uint8Array(readFileSync(join(dir, 'out.raw')));
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

const CASES: Array<{ pf: string; ffmpeg: string; channels: number; tolerance: number }> = [
  { pf: 'PF_B8G8R8A8', ffmpeg: 'bgra', channels: 4, tolerance: 0 },
  { pf: 'PF_A8R8G8B8', ffmpeg: 'bgra', channels: 4, tolerance: 0 },
  { pf: 'PF_R8G8B8A8', ffmpeg: 'rgba', channels: 4, tolerance: 0 },
  { pf: 'PF_R8G8B8', ffmpeg: 'rgb24', channels: 4, tolerance: 0 },
  // One-channel formats: ffmpeg writes gray into R, G and B; PakScope into R (compared) only.
  { pf: 'PF_G8', ffmpeg: 'gray', channels: 1, tolerance: 0 },
  { pf: 'PF_L8', ffmpeg: 'gray', channels: 1, tolerance: 0 },
  { pf: 'PF_G16', ffmpeg: 'gray16le', channels: 1, tolerance: 1 },
  { pf: 'PF_R5G6B5_UNORM', ffmpeg: 'rgb565le', channels: 4, tolerance: 0 },
  // ffmpeg's 555 and 10:10:10 layouts have no alpha: colour channels only.
  { pf: 'PF_B5G5R5A1_UNORM', ffmpeg: 'rgb555le', channels: 3, tolerance: 0 },
  { pf: 'PF_A2B10G10R10', ffmpeg: 'x2bgr10le', channels: 3, tolerance: 1 },
  { pf: 'PF_R16G16B16A16_UNORM', ffmpeg: 'rgba64le', channels: 4, tolerance: 1 },
  { pf: 'PF_A16B16G16R16', ffmpeg: 'rgba64le', channels: 4, tolerance: 1 },
];

describe('uncompressed formats against ffmpeg', () => {
  for (const c of CASES) {
    it(`${c.pf} reads as ffmpeg's ${c.ffmpeg}`, () => {
      const data = randomBytes(sliceBytes(c.pf, W, H), c.pf.length * 31 + c.ffmpeg.length);
      const ours = decodePixels(c.pf, data, W, H);
      expect(firstDifference(ours.rgba, ffmpegRgba(c.ffmpeg, data, W, H), W, c.tolerance, c.channels)).toBeUndefined();
      if (c.channels === 1) expect(ours.rgba.every((v, i) => (i % 4 === 1 || i % 4 === 2 ? v === 0 : i % 4 === 3 ? v === 255 : true))).toBe(true);
    });
  }

  it('PF_R32_FLOAT: floats kept, the 8-bit image clamped, x255, truncated', () => {
    const f = new Float32Array(W * H).map((_, i) => ((i * 7919) % 300) / 200 - 0.25); // -0.25 .. 1.245
    const data = new Uint8Array(f.buffer);
    const ours = decodePixels('PF_R32_FLOAT', data, W, H);
    expect(Array.from({ length: W * H }, (_, i) => ours.float![i * 4])).toEqual([...f]);
    expect(Array.from({ length: W * H }, (_, i) => ours.rgba[i * 4])).toEqual([...f].map((v) => (v <= 0 ? 0 : v >= 1 ? 255 : Math.floor(Math.fround(v * 255)))));
  });
});

describe('half floats against Python', () => {
  it('PF_FloatRGBA and PF_R16F hold the halves Python unpacks', () => {
    const data = randomBytes(W * H * 8, 4242);
    // Keep every value finite (exponent below 31) so that the comparison is of numbers.
    for (let i = 1; i < data.length; i += 2) if ((data[i]! & 0x7c) === 0x7c) data[i]! &= 0xbb;
    const script = "import sys, struct\nd = sys.stdin.buffer.read()\nprint(' '.join(repr(v) for v in struct.unpack('<%de' % (len(d) // 2), d)))";
    const expected = execFileSync(PYTHON, ['-c', script], { input: data }).toString().trim().split(' ').map(Number);
    const rgba = decodePixels('PF_FloatRGBA', data, W, H);
    expect([...rgba.float!]).toEqual(expected);
    const r = decodePixels('PF_R16F', data, W * 2, H);
    expect(Array.from({ length: W * H * 2 }, (_, i) => r.float![i * 4])).toEqual(expected.slice(0, W * H * 2));
    // The 8-bit image: clamped to [0, 1], x255, truncated.
    for (let i = 0; i < expected.length; i++) {
      const v = expected[i]!;
      expect(rgba.rgba[i]).toBe(v > 0 ? (v >= 1 ? 255 : Math.floor(Math.fround(v * 255))) : 0);
    }
  });
});

describe('crafted values', () => {
  it('PF_FloatRGB (R11G11B10): 1.0, 0.5 and 2.0', () => {
    // R = 1.0 (exp 15, 6-bit mantissa 0), G = 0.5 (exp 14), B = 2.0 (exp 16, 5-bit mantissa).
    const v = (15 << 6) | ((14 << 6) << 11) | ((16 << 5) << 22);
    const image = decodePixels('PF_FloatRGB', new Uint8Array(new Uint32Array([v >>> 0]).buffer), 1, 1);
    expect([...image.float!]).toEqual([1, 0.5, 2, 1]);
    expect([...image.rgba]).toEqual([255, 127, 255, 255]);
  });

  it('PF_R9G9B9EXP5: a shared exponent', () => {
    // Exponent 16: scale 2^(16-15-9); mantissas 256, 128, 0 -> 1.0, 0.5, 0.
    const v = 256 | (128 << 9) | (0 << 18) | (16 << 27);
    expect([...decodePixels('PF_R9G9B9EXP5', new Uint8Array(new Uint32Array([v >>> 0]).buffer), 1, 1).float!]).toEqual([1, 0.5, 0, 1]);
  });

  it('SNORM: -1, 0 and 1 map to 0, 128 and 255; channels a format lacks are 0 (alpha 255)', () => {
    expect([...decodePixels('PF_V8U8', Uint8Array.of(0x81, 0x7f), 1, 1).rgba]).toEqual([0, 255, 0, 255]);
    expect([...decodePixels('PF_V8U8', Uint8Array.of(0x80, 0x00), 1, 1).rgba]).toEqual([0, 128, 0, 255]);
    expect([...decodePixels('PF_G16R16', Uint8Array.of(0xff, 0xff, 0x80, 0x80), 1, 1).rgba]).toEqual([255, 128, 0, 255]);
    expect([...decodePixels('PF_R8G8', Uint8Array.of(7, 9), 1, 1).rgba]).toEqual([7, 9, 0, 255]);
    expect([...decodePixels('PF_A8', Uint8Array.of(77), 1, 1).rgba]).toEqual([77, 0, 0, 255]);
  });

  it('PF_A32B32G32R32F: R, G, B, A floats in memory order', () => {
    const f = Float32Array.of(0.25, 2, -1, 0.5);
    const image = decodePixels('PF_A32B32G32R32F', new Uint8Array(f.buffer), 1, 1);
    expect([...image.float!]).toEqual([0.25, 2, -1, 0.5]);
    expect([...image.rgba]).toEqual([63, 255, 0, 127]);
  });
});

/** The PNG, DDS and HDR writers, checked by independent readers (Pillow, ImageMagick). */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { encodeDds } from '../../../src/core/assets/texture/dds.js';
import { encodeHdr } from '../../../src/core/assets/texture/hdr.js';
import { encodePng } from '../../../src/core/assets/texture/png.js';
import { readReferenceImageBytes } from '../../support/reference-image.js';

/** A w x h RGBA image from a function of (x, y). */
function image(w: number, h: number, f: (x: number, y: number) => [number, number, number, number]): Uint8Array {
  const out = new Uint8Array(w * h * 4);
  for (let y = 0; y < h; y++) for (let x = 0; x < w; x++) out.set(f(x, y), (y * w + x) * 4);
  return out;
}

describe('encodePng', () => {
  it('writes RGBA, RGB and grayscale as the pixels need, read back exactly by Pillow', () => {
    const rgba = image(37, 23, (x, y) => [(x * 7) & 255, (y * 11) & 255, (x * y) & 255, 255 - ((x + y) & 127)]);
    const a = readReferenceImageBytes(encodePng({ width: 37, height: 23, rgba }), 'png');
    expect([a.mode, a.width, a.height]).toEqual(['RGBA', 37, 23]);
    expect(Buffer.from(a.rgba).equals(Buffer.from(rgba))).toBe(true);

    const rgb = image(64, 3, (x, y) => [x * 4, 255 - x, y * 100, 255]);
    const b = readReferenceImageBytes(encodePng({ width: 64, height: 3, rgba: rgb }), 'png');
    expect(b.mode).toBe('RGB');
    expect(Buffer.from(b.rgba).equals(Buffer.from(rgb))).toBe(true);

    const gray = image(5, 300, (x, y) => [(x * y) & 255, (x * y) & 255, (x * y) & 255, 255]);
    const c = readReferenceImageBytes(encodePng({ width: 5, height: 300, rgba: gray }), 'png');
    expect(c.mode).toBe('L');
    expect(Buffer.from(c.rgba).equals(Buffer.from(gray))).toBe(true);
  });

  it('refuses an image of no pixels or too few bytes', () => {
    expect(() => encodePng({ width: 0, height: 4, rgba: new Uint8Array(0) })).toThrow(RangeError);
    expect(() => encodePng({ width: 4, height: 4, rgba: new Uint8Array(60) })).toThrow(/needs 64 bytes/);
  });
});

describe('encodeDds', () => {
  it('writes B8G8R8A8 mips with a legacy header Pillow reads', () => {
    // mip 0 4x2, mip 1 2x1 (Pillow reads the first)
    const mip0 = image(4, 2, (x, y) => [x * 60, y * 200, 7, 200]); // stored B, G, R, A
    const dds = encodeDds({ pixelFormat: 'PF_B8G8R8A8', width: 4, height: 2, depth: 1, layers: 1, cube: false, volume: false }, [mip0, new Uint8Array(8)]);
    const read = readReferenceImageBytes(dds, 'dds');
    expect([read.format, read.width, read.height]).toEqual(['DDS', 4, 2]);
    const want = image(4, 2, (x, y) => [7, y * 200, x * 60, 200]);
    expect(Buffer.from(read.rgba).equals(Buffer.from(want))).toBe(true);
    expect(new DataView(dds.buffer).getUint32(4 + 24, true)).toBe(2); // mip count
  });

  it('writes an array with a DX10 header and each layer with its mips', () => {
    const layers = 3;
    const mip0 = Uint8Array.from({ length: layers * 4 * 4 * 4 }, (_, i) => i & 255);
    const mip1 = Uint8Array.from({ length: layers * 2 * 2 * 4 }, (_, i) => 100 + (i & 63));
    const dds = encodeDds({ pixelFormat: 'PF_B8G8R8A8', width: 4, height: 4, depth: 1, layers, cube: false, volume: false }, [mip0, mip1]);
    const v = new DataView(dds.buffer);
    expect(String.fromCharCode(...dds.subarray(84, 88))).toBe('DX10');
    expect(v.getUint32(128, true)).toBe(87); // DXGI_FORMAT_B8G8R8A8_UNORM
    expect(v.getUint32(128 + 12, true)).toBe(3); // array size
    // layer 1 starts after layer 0's two mips
    const at = 148 + 64 + 16;
    expect([...dds.subarray(at, at + 64)]).toEqual([...mip0.subarray(64, 128)]);
    expect([...dds.subarray(at + 64, at + 80)]).toEqual([...mip1.subarray(16, 32)]);
    expect(dds.length).toBe(148 + mip0.length + mip1.length);
  });
});

describe('encodeHdr', () => {
  it('writes run-length encoded Radiance RGBE that ImageMagick reads back to the floats', () => {
    const w = 40, h = 3;
    const float = new Float32Array(w * h * 4);
    // runs (constant green, blue) and literals (red) in every row
    for (let i = 0; i < w * h; i++) float.set([(i % w) / 40, 0.25, Math.floor(i / w) / 3, 1], i * 4);
    const hdr = encodeHdr({ width: w, height: h, float });
    expect(hdr[hdr.indexOf(10, hdr.indexOf(0x2b)) + 1]).toBe(2); // the first row starts 2, 2: run-length encoded
    const dir = mkdtempSync(join(tmpdir(), 'pakscope-hdr-'));
    try {
      writeFileSync(join(dir, 'a.hdr'), hdr);
      const text = execFileSync('convert', [join(dir, 'a.hdr'), '-depth', '16', 'txt:-']).toString();
      const px = [...text.matchAll(/^(\d+),(\d+): \(([^)]*)\)/gm)].map((m) => ({ x: +m[1]!, y: +m[2]!, v: m[3]!.split(',').map(Number) }));
      expect(px).toHaveLength(w * h);
      for (const p of px) {
        const i = p.y * w + p.x;
        for (let c = 0; c < 3; c++) expect(Math.abs(p.v[c]! / 65535 - float[i * 4 + c]!)).toBeLessThan(1 / 128);
      }
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('keeps values above 1 in the shared exponent (a flat row, under 8 pixels)', () => {
    const float = Float32Array.of(3.5, 1, 0.25, 1, 100, 0, 0, 1);
    const hdr = encodeHdr({ width: 2, height: 1, float });
    const px = hdr.subarray(hdr.length - 8);
    const value = (k: number, c: number): number => (px[k * 4 + c]! + 0.5) * 2 ** (px[k * 4 + 3]! - 136);
    expect(value(0, 0)).toBeCloseTo(3.5, 1);
    expect(value(0, 1)).toBeCloseTo(1, 1);
    expect(value(1, 0)).toBeCloseTo(100, -1);
    expect(px[6]).toBe(0);
  });
});

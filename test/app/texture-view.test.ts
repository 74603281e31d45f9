/**
 * The texture view's and the gallery's plain helpers: channels and exposure, zoom around the
 * cursor, the pixel under it, page-by-page loading, the thumbnail queue's order and limits.
 */
import { describe, expect, it } from 'vitest';
import {
  ALL_CHANNELS, actualSize, bulkLocations, describePixel, fitTransform, loadImage, pixelAt, shownPixels, suggestedName, zoomAround,
  type LoadedImage,
} from '../../src/renderer/src/components/texture/texture-pixels.js';
import { gridColumns, ThumbnailQueue } from '../../src/renderer/src/components/texture/thumbnail-queue.js';
import type { TexturePixels, TexturePixelsRequest } from '../../src/shared/api.js';

const image: LoadedImage = { width: 2, height: 1, rgba: new Uint8Array([10, 20, 30, 40, 200, 150, 100, 50]) };

describe('shownPixels', () => {
  it('keeps every channel, masks those turned off, and shows one channel alone as gray', () => {
    expect([...shownPixels(image, ALL_CHANNELS, null)]).toEqual([10, 20, 30, 40, 200, 150, 100, 50]);
    expect([...shownPixels(image, { r: true, g: false, b: true, a: false }, null)]).toEqual([10, 0, 30, 255, 200, 0, 100, 255]);
    expect([...shownPixels(image, { r: false, g: true, b: false, a: false }, null)]).toEqual([20, 20, 20, 255, 150, 150, 150, 255]);
    expect([...shownPixels(image, { r: false, g: false, b: false, a: true }, null)]).toEqual([40, 40, 40, 255, 50, 50, 50, 255]);
  });

  it('scales HDR floats by 2^EV and clamps them, alpha as stored', () => {
    const hdr: LoadedImage = { ...image, float: new Float32Array([0.25, 2, -1, 0.5, 0.5, 0.125, 4, 1]) };
    expect([...shownPixels(hdr, ALL_CHANNELS, 0)]).toEqual([64, 255, 0, 40, 128, 32, 255, 50]);
    expect([...shownPixels(hdr, ALL_CHANNELS, 1)]).toEqual([128, 255, 0, 40, 255, 64, 255, 50]);
    expect([...shownPixels(hdr, ALL_CHANNELS, null)]).toEqual([10, 20, 30, 40, 200, 150, 100, 50]); // the 8-bit values
  });
});

describe('zoom and pan', () => {
  it('fits the image, centred, and shows it 1:1', () => {
    expect(fitTransform(64, 32, 524, 400, 12)).toEqual({ zoom: 7.8125, panX: 12, panY: 75 });
    expect(fitTransform(8192, 8192, 1000, 800, 0).zoom).toBeCloseTo(800 / 8192);
    expect(fitTransform(1, 1, 1000, 800).zoom).toBe(256); // small images are enlarged, up to the largest zoom
    expect(fitTransform(8, 8, 524, 424, 12).zoom).toBe(50);
    expect(actualSize(100, 50, 300, 200)).toEqual({ zoom: 1, panX: 100, panY: 75 });
  });

  it('zooms around the cursor: the image point under it stays', () => {
    const t = { zoom: 2, panX: 10, panY: 20 };
    const z = zoomAround(t, 4, 110, 220);
    expect(z.zoom).toBe(8);
    expect(((110 - z.panX) / z.zoom)).toBeCloseTo((110 - t.panX) / t.zoom);
    expect(((220 - z.panY) / z.zoom)).toBeCloseTo((220 - t.panY) / t.zoom);
    expect(zoomAround(t, 1e9, 0, 0).zoom).toBe(256);
    expect(zoomAround(t, 1e-9, 0, 0).zoom).toBe(1 / 64);
  });

  it('names the pixel under a point, or none outside the image', () => {
    const t = { zoom: 8, panX: 100, panY: 50 };
    expect(pixelAt(t, 100, 50, 64, 64)).toEqual({ x: 0, y: 0 });
    expect(pixelAt(t, 100 + 8 * 63 + 7.9, 50 + 8 * 5, 64, 64)).toEqual({ x: 63, y: 5 });
    expect(pixelAt(t, 99, 60, 64, 64)).toBeNull();
    expect(pixelAt(t, 100 + 8 * 64, 60, 64, 64)).toBeNull();
    expect(describePixel(image, 1, 0)).toBe('R 200 G 150 B 100 A 50');
    expect(describePixel({ ...image, float: new Float32Array([0, 0, 0, 0, 1.5, 2e-4, 12345, 1]) }, 1, 0)).toBe('R 1.5000 G 2.000e-4 B 1.235e+4 A 1.0000');
  });
});

describe('loadImage', () => {
  it('fetches an image in pages and its floats when asked', async () => {
    const rgba = Uint8Array.from({ length: 40 }, (_, i) => i);
    const floats = new Uint8Array(new Float32Array(Array.from({ length: 40 }, (_, i) => i / 4)).buffer);
    const asked: string[] = [];
    const api = {
      async texturePixels(req: TexturePixelsRequest): Promise<TexturePixels> {
        const whole = req.pixels === 'float32' ? floats : rgba;
        const offset = req.offset ?? 0, length = Math.min(16, whole.length - offset); // pages of 16 bytes
        asked.push(`${req.pixels}@${offset}`);
        return { width: 5, height: 2, pixels: req.pixels ?? 'rgba8', offset, total: whole.length, bytes: whole.slice(offset, offset + length) };
      },
    };
    const img = await loadImage(api, { installId: 'i', path: 'p', mip: 1 }, true);
    expect(img!.rgba).toEqual(rgba);
    expect([...img!.float!]).toEqual(Array.from({ length: 40 }, (_, i) => i / 4));
    expect(asked.slice(0, 3)).toEqual(['rgba8@0', 'rgba8@16', 'rgba8@32']);
    let stale = false;
    const dropped = loadImage(api, { installId: 'i', path: 'p' }, false, () => stale);
    stale = true;
    expect(await dropped).toBeNull(); // another mip was asked for meanwhile
  });
});

describe('the gallery', () => {
  it('loads only what is in view, a few at a time, each once', async () => {
    const started: string[] = [];
    const release = new Map<string, () => void>();
    const settled: string[] = [];
    const q = new ThumbnailQueue<string>((p) => { started.push(p); return new Promise((done) => release.set(p, () => done(`img:${p}`))); }, (p) => settled.push(p), 2);
    q.want(['a', 'b', 'c', 'd']);
    expect(started).toEqual(['a', 'b']);
    q.want(['x', 'y', 'a']); // scrolled on: c and d are no longer wanted
    release.get('a')!();
    await Promise.resolve(); await Promise.resolve();
    expect(settled).toEqual(['a']);
    expect(started).toEqual(['a', 'b', 'x']);
    expect(q.get('a')).toBe('img:a');
    q.want(['a', 'b']); // done or running: nothing new
    expect(started).toEqual(['a', 'b', 'x']);
    q.close();
    release.get('b')!();
    await Promise.resolve(); await Promise.resolve();
    expect(settled).toEqual(['a']); // closed: late answers are dropped
  });

  it('lays out as many columns as fit', () => {
    expect(gridColumns(800, 148, 10)).toBe(5);
    expect(gridColumns(100, 148, 10)).toBe(1);
  });
});

describe('names and facts', () => {
  it('suggests file names and sums the bulk data by place', () => {
    expect(suggestedName('T_Cube', 'png', 0, 3)).toBe('T_Cube_3.png');
    expect(suggestedName('T_Mips', 'png', 2, 0)).toBe('T_Mips_mip2.png');
    expect(suggestedName('T_Mips', 'dds', 2, 1)).toBe('T_Mips.dds');
    expect(suggestedName('a b/c', 'hdr')).toBe('a_b_c.hdr');
    expect(bulkLocations([
      { bytes: 100, location: '.ubulk' }, { bytes: 0, location: '.ubulk', missing: 'gone' }, { bytes: 8, location: 'inline' },
    ])).toEqual([{ location: '.ubulk', mips: 2, bytes: 100, missing: 1 }, { location: 'inline', mips: 1, bytes: 8, missing: 0 }]);
  });
});

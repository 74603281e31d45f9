/** decodeTextureImage (mip and slice picked, decoded here or in the worker pool) and pngPixels' content rules. */
import { afterAll, describe, expect, it } from 'vitest';
import { FormatError } from '../../../src/core/errors.js';
import { decodeTextureImage, pngPixels } from '../../../src/core/assets/texture/image.js';
import type { Texture, TextureMip } from '../../../src/core/assets/texture/types.js';
import { createWorkerPool } from '../../../src/core/workers/pool.js';

/** The sliced-texture pattern of slice s, stored as B8G8R8A8. */
const pattern = (x: number, y: number, s: number): number[] =>
  [(17 * x + 41 * s) & 255, (29 * y + 67 * s) & 255, (11 * (x + y) + 97 * s) & 255, 255 - ((3 * x + 5 * y + 7 * s) & 127)];

function bgraSlices(w: number, h: number, slices: number): Uint8Array {
  const out = new Uint8Array(w * h * 4 * slices);
  for (let s = 0; s < slices; s++) {
    for (let y = 0; y < h; y++) {
      for (let x = 0; x < w; x++) {
        const [r, g, b, a] = pattern(x, y, s);
        out.set([b!, g!, r!, a!], ((s * h + y) * w + x) * 4);
      }
    }
  }
  return out;
}

/** A cube-like texture of B8G8R8A8 mips, each read fresh (as a reader would). */
function texture(w: number, h: number, slices: number, mipCount: number, opts: { short?: boolean; missing?: boolean } = {}): Texture {
  const mips: TextureMip[] = Array.from({ length: mipCount }, (_, m) => {
    const mw = Math.max(1, w >> m), mh = Math.max(1, h >> m);
    return { width: mw, height: mh, depth: 1, bytes: mw * mh * 4 * slices, location: 'inline', ...(opts.missing && m === 0 ? { missing: 'the optional .uptnl is absent' } : {}) };
  });
  return {
    class: 'TextureCube', name: 'T_Test', pixelFormat: 'PF_B8G8R8A8', width: w, height: h, depth: 1, slices, cube: slices === 6,
    virtual: false, srgb: true, mips, notes: [],
    async readMip(i) {
      const m = mips[i]!;
      const data = bgraSlices(m.width, m.height, slices);
      return opts.short ? data.subarray(0, data.length - 1) : data;
    },
  };
}

const pool = createWorkerPool({ threads: 1 });
const pool2 = createWorkerPool({ threads: 2 });
afterAll(() => Promise.all([pool.destroy(), pool2.destroy()]));

describe('decodeTextureImage', () => {
  it('decodes the slice asked for, on this thread and in the worker pool alike', async () => {
    const t = texture(16, 16, 6, 2);
    for (const s of [0, 3, 5]) {
      const here = await decodeTextureImage(t, { slice: s });
      const there = await decodeTextureImage(t, { slice: s, pool });
      expect([here.width, here.height]).toEqual([16, 16]);
      expect([...here.rgba.subarray(0, 4)]).toEqual(pattern(0, 0, s));
      const at = (7 * 16 + 9) * 4;
      expect([...here.rgba.subarray(at, at + 4)]).toEqual(pattern(9, 7, s));
      expect(Buffer.from(there.rgba).equals(Buffer.from(here.rgba))).toBe(true);
    }
    const mip1 = await decodeTextureImage(t, { mip: 1, slice: 2, pool });
    expect([mip1.width, mip1.height]).toEqual([8, 8]);
    expect([...mip1.rgba.subarray(4 * 9, 4 * 10)]).toEqual(pattern(1, 1, 2));
  });

  it('decodes a big image in bands on every thread, the same pixels as in one piece (a height that is no whole number of blocks)', async () => {
    const width = 2048, height = 1030; // 2 Mpixels: nine bands of 128 rows, the last 6 rows, claimed by two threads
    const blocks = Uint8Array.from({ length: (width / 4) * Math.ceil(height / 4) * 8 }, (_, i) => (i * 2654435761) >>> 24);
    const t: Texture = {
      ...texture(4, 4, 1, 1), pixelFormat: 'PF_DXT1', width, height, slices: 1, cube: false,
      mips: [{ width, height, depth: 1, bytes: blocks.length, location: 'inline' }],
      readMip: async () => blocks.slice(),
    };
    const whole = await decodeTextureImage(t);
    const banded = await decodeTextureImage(t, { pool: pool2 });
    expect([banded.width, banded.height]).toEqual([width, height]);
    expect(Buffer.from(banded.rgba).equals(Buffer.from(whole.rgba))).toBe(true);
    // Cancelled while the threads decode: rejected with the signal's reason, the pool goes on.
    const ac = new AbortController();
    const cancelled = decodeTextureImage(t, { pool: pool2, signal: ac.signal });
    setTimeout(() => ac.abort(new Error('closed the view')), 1);
    await expect(cancelled).rejects.toThrow('closed the view');
    expect(Buffer.from((await decodeTextureImage(t, { pool: pool2 })).rgba).equals(Buffer.from(whole.rgba))).toBe(true);
  });

  it('decodes HDR formats in bands into shared floats and bytes alike, the same as in one piece', async () => {
    const width = 600, height = 520; // two bands of 436 and 84 rows
    for (const [pixelFormat, bytes] of [['PF_BC6H', (width / 4) * (height / 4) * 16], ['PF_FloatRGBA', width * height * 8]] as const) {
      const data = Uint8Array.from({ length: bytes }, (_, i) => ((i * 2654435761) >>> 24) & (i % 2 ? 0x3b : 0xff));
      const t: Texture = {
        ...texture(4, 4, 1, 1), pixelFormat, width, height, slices: 1, cube: false,
        mips: [{ width, height, depth: 1, bytes, location: 'inline' }],
        readMip: async () => data.slice(),
      };
      const whole = await decodeTextureImage(t);
      const banded = await decodeTextureImage(t, { pool: pool2 });
      expect(banded.float?.length).toBe(width * height * 4);
      expect(Buffer.from(banded.rgba).equals(Buffer.from(whole.rgba))).toBe(true);
      expect(Buffer.from(new Uint8Array(banded.float!.buffer)).equals(Buffer.from(new Uint8Array(whole.float!.buffer)))).toBe(true);
    }
  });

  it('names what is wrong: no such mip or slice, a mip that runs short or is missing, a format it cannot decode', async () => {
    const t = texture(16, 16, 6, 2);
    await expect(decodeTextureImage(t, { mip: 2 })).rejects.toThrow(/has 2 mips \(0 to 1\): there is no mip 2/);
    await expect(decodeTextureImage(t, { slice: 6 })).rejects.toThrow(/has 6 slices in mip 0 \(0 to 5\): there is no slice 6/);
    await expect(decodeTextureImage(texture(16, 16, 6, 1, { short: true }), { pool })).rejects.toThrow(FormatError);
    await expect(decodeTextureImage(texture(16, 16, 6, 1, { short: true }))).rejects.toThrow(/mip 0 at byte 6143: holds 6143 bytes, but 6 slices of 16x16 PF_B8G8R8A8 need 6144/);
    await expect(decodeTextureImage(texture(16, 16, 1, 2, { missing: true }))).rejects.toThrow(/mip 0.*not in the install \(the optional .uptnl is absent\)/);
    const unknown = { ...texture(4, 4, 1, 1), pixelFormat: 'PF_XYZZY' };
    await expect(decodeTextureImage(unknown)).rejects.toThrow(/PF_XYZZY/);
    await expect(decodeTextureImage(unknown, { pool })).rejects.toThrow(/PF_XYZZY/);
  });
});

describe('pngPixels', () => {
  const img = (px: number[][], float?: number[][]) => ({
    width: px.length, height: 1, rgba: Uint8Array.from(px.flat()), ...(float ? { float: Float32Array.from(float.flat()) } : {}),
  });

  it('keeps 8-bit values as stored, writes single-channel formats as grayscale', () => {
    expect([...pngPixels('PF_B8G8R8A8', img([[1, 2, 3, 4]])).rgba]).toEqual([1, 2, 3, 4]);
    expect([...pngPixels('PF_G8', img([[77, 0, 0, 255]])).rgba]).toEqual([77, 77, 77, 255]);
  });

  it('rebuilds Z of two-channel normal maps: BC5 and EAC RG11 from red and green, ASTC normal maps from red and alpha', () => {
    // X = Y = 0 (128 ~ 0.0039): Z ~ 1, blue 255; X = 1 (255): Z = 0, blue = 127 (127.5 truncated)
    expect([...pngPixels('PF_BC5', img([[128, 128, 0, 255], [255, 128, 0, 255]])).rgba]).toEqual([128, 128, 254, 255, 255, 128, 127, 255]);
    expect([...pngPixels('PF_ETC2_RG11_EAC', img([[0, 128, 0, 255]])).rgba]).toEqual([0, 128, 127, 255]);
    const astc = img([[200, 200, 200, 60]]);
    const x = 2 * 200 / 255 - 1, y = 2 * 60 / 255 - 1;
    const blue = Math.trunc(255 * (Math.sqrt(1 - x * x - y * y) + 1) / 2);
    expect([...pngPixels('PF_ASTC_6x6', astc, { compressionSettings: 'TC_Normalmap' }).rgba]).toEqual([200, 60, blue, 255]);
    expect([...pngPixels('PF_ASTC_6x6', astc, { compressionSettings: 'TC_Default' }).rgba]).toEqual([200, 200, 200, 60]);
  });

  it('clamps HDR floats to [0, 1], times 255, truncated', () => {
    const out = pngPixels('PF_FloatRGBA', img([[0, 0, 0, 0]], [[0.5, 2, -1, 1]]));
    expect([...out.rgba]).toEqual([127, 255, 0, 255]);
  });
});

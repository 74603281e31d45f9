/**
 * Landscapes that do not hold together: compressed heightmap mips that run short, a storage
 * factory cut off, components whose sizes or section bases are not a landscape's, a heightmap
 * part outside its texture. Each is a FormatError naming the file, the structure and the offset,
 * or a note; never a crash or a huge allocation. The real map (cue58's Landscape.umap) is read
 * and then damaged in memory.
 */
import { describe, expect, it } from 'vitest';
import { defaultLandscapeLod, MAX_MESH_VERTICES } from '../../../src/core/assets/landscape/mesh.js';
import { landscapeOfSource } from '../../../src/core/assets/landscape/read.js';
import { decodeLandscapeMip, LANDSCAPE_STORAGE_CLASS, readLandscapeStorage } from '../../../src/core/assets/texture/read/landscape-storage.js';
import { installTextureSource, type TextureSource } from '../../../src/core/assets/texture/read/package-source.js';
import { FormatError } from '../../../src/core/errors.js';
import type { PropertyEntry } from '../../../src/core/properties/types.js';
import { withInstall } from '../../properties/helpers.js';
import { corpus } from '../../support/corpus.js';

const MAP = '/Game/Fixtures/Maps/Landscape';
const STORAGE = { boundaryOffset: 64, boundaryCountX: 0, boundaryCountY: 0, gridScale: [1, 1, 1] as [number, number, number] };

async function source(): Promise<TextureSource> {
  return withInstall(corpus('cue58/IoStore/Tagged/Zlib'), (packages) => installTextureSource(packages, MAP, {}));
}

function setInt(list: PropertyEntry[], name: string, value: number): void {
  const p = list.find((e) => e.name === name);
  if (p) p.value = value;
  else list.push({ name, type: 'IntProperty', value });
}

describe('compressed heightmap mips', () => {
  it('decodes deltas from 32768, the high byte in R and the low in G', () => {
    // 2x2: heights 32768+1, +2, +3, +4 (each delta 1), then 4 edge normals.
    const src = Uint8Array.of(0, 1, 0, 1, 0, 1, 0, 1, 0, 0, 0, 0, 0, 0, 0, 0);
    const out = decodeLandscapeMip(STORAGE, { width: 2, height: 2, compressed: true }, 0, src, 'M.umap', 'mip 0', 100);
    const heights = [0, 1, 2, 3].map((i) => (out[i * 4 + 2]! << 8) | out[i * 4 + 1]!);
    expect(heights).toEqual([32769, 32770, 32771, 32772]);
  });

  it('a mip whose bytes run short: FormatError naming the file, the mip and the offset', () => {
    const short = new Uint8Array(10);
    const e = (() => {
      try {
        decodeLandscapeMip(STORAGE, { width: 64, height: 64, compressed: true }, 0, short, 'M.umap', 'Factory_0 mip 0', 1234);
      } catch (err) {
        return err;
      }
      return undefined;
    })();
    expect(e).toBeInstanceOf(FormatError);
    expect((e as FormatError).message).toMatch(/M\.umap.*Factory_0 mip 0.*1234.*10 bytes where a compressed 64x64 mip/);
  });

  it('repeated rows and columns that leave nothing, or a boundary offset that is not a power of two, are errors', () => {
    expect(() => decodeLandscapeMip({ ...STORAGE, boundaryCountX: 5 }, { width: 4, height: 4, compressed: true }, 0, new Uint8Array(64), 'M.umap', 'mip 0', 0)).toThrow(FormatError);
    expect(() => decodeLandscapeMip({ ...STORAGE, boundaryOffset: 48, boundaryCountX: 1 }, { width: 64, height: 64, compressed: true }, 0, new Uint8Array(20000), 'M.umap', 'mip 0', 0)).toThrow(/not a power of two/);
  });

  it('a mip the file says is 32768 x 32768 with a few bytes behind it: the error comes before any buffer of that size', () => {
    // The sizes are the file's: nothing is allocated from them until the bytes that back them are there.
    const Real = globalThis.Uint8Array, Real16 = globalThis.Uint16Array;
    let largest = 0;
    const spy = <T extends object>(C: T): T => new Proxy(C, {
      construct(target, args) {
        if (typeof args[0] === 'number') largest = Math.max(largest, args[0]);
        return Reflect.construct(target as never, args) as object;
      },
    });
    globalThis.Uint8Array = spy(Real);
    globalThis.Uint16Array = spy(Real16);
    try {
      for (const compressed of [true, false]) {
        expect(() => decodeLandscapeMip(STORAGE, { width: 32768, height: 32768, compressed }, 0, new Real(64), 'M.umap', 'mip 0', 0)).toThrow(FormatError);
      }
      // Repeated rows and columns that would leave a few stored pixels: their count is not the layout's.
      expect(() => decodeLandscapeMip({ ...STORAGE, boundaryOffset: 2, boundaryCountX: 32767, boundaryCountY: 32767 }, { width: 32768, height: 32768, compressed: true }, 0, new Real(300000), 'M.umap', 'mip 0', 0)).toThrow(/32767 and 32767 repeated columns and rows where a 32768x32768 mip repeating one every 2 pixels has 16383 and 16383/);
    } finally {
      globalThis.Uint8Array = Real;
      globalThis.Uint16Array = Real16;
    }
    expect(largest).toBeLessThan(1 << 20);
  });

  it('an uncompressed mip shorter than its BGRA: FormatError', () => {
    expect(() => decodeLandscapeMip(STORAGE, { width: 16, height: 16, compressed: false }, 2, new Uint8Array(100), 'M.umap', 'mip 2', 0)).toThrow(/100 bytes where an uncompressed 16x16 BGRA mip needs 1024/);
  });
});

describe('the storage factory and the components, damaged', () => {
  it('a factory cut inside its mip list: FormatError at an offset inside the export', async () => {
    const src = await source();
    const f = src.exports.find((e) => e.class === LANDSCAPE_STORAGE_CLASS)!;
    f.bytes = f.bytes.subarray(0, f.properties.propertyStart + f.properties.propertyBytes + 60);
    expect(() => readLandscapeStorage(f, src)).toThrow(FormatError);
    expect(() => readLandscapeStorage(f, src)).toThrow(/LandscapeTextureStorageProviderFactory "LandscapeTextureStorageProviderFactory_0"/);
  });

  it("a property stream that stops: its own error read once (file, path, byte), then what the factory cannot do", async () => {
    const src = await source();
    const f = src.exports.find((e) => e.class === LANDSCAPE_STORAGE_CLASS)!;
    const stopped = new FormatError(f.file, `export ${f.index} "${f.name}" properties > property "Mips" (ArrayProperty)`, f.base + 40, 'needs 4 bytes but only 1 remain');
    f.properties = { ...f.properties, error: stopped.message, errorData: stopped.data() };
    let e: unknown;
    try { readLandscapeStorage(f, src); } catch (x) { e = x; }
    expect(e).toBeInstanceOf(FormatError);
    expect((e as FormatError).message).toBe(`${stopped.message}; the property stream stops there, so the stored mips cannot be found`);
  });

  it('a mip count beyond reason: FormatError, no allocation', async () => {
    const src = await source();
    const f = src.exports.find((e) => e.class === LANDSCAPE_STORAGE_CLASS)!;
    const bytes = new Uint8Array(f.bytes);
    const countAt = f.properties.propertyStart + f.properties.propertyBytes + 4 + 8 + 24;
    new DataView(bytes.buffer).setInt32(countAt, 0x7fffffff, true);
    f.bytes = bytes;
    expect(() => readLandscapeStorage(f, src)).toThrow(/2147483647 mips/);
  });

  it('a component whose sizes are not a landscape\'s: FormatError naming it', async () => {
    const src = await source();
    const c = src.exports.find((e) => e.class === 'LandscapeComponent')!;
    setInt(c.properties.properties, 'SubsectionSizeQuads', 40);
    await expect(landscapeOfSource(src, undefined)).rejects.toThrow(/LandscapeComponent "LandscapeComponent_0".*63 quads in 1 subsection\(s\) of 40/);
  });

  it('a section base beyond any landscape: FormatError naming the component', async () => {
    const src = await source();
    const c = src.exports.find((e) => e.class === 'LandscapeComponent')!;
    setInt(c.properties.properties, 'SectionBaseX', 1 << 20);
    setInt(c.properties.properties, 'SectionBaseY', 1 << 20);
    // Far out but on the grid is fine; beyond it is not.
    const l = await landscapeOfSource(src, undefined);
    expect([l.originX, l.width]).toEqual([1 << 20, 64]);
    setInt(c.properties.properties, 'SectionBaseX', (1 << 20) + 1);
    await expect(landscapeOfSource(src, undefined)).rejects.toThrow(/section base \(1048577, 1048576\) is not a grid position/);
  });

  it('a heightmap scale-bias that puts the component outside its texture: a note, no heights', async () => {
    const src = await source();
    const c = src.exports.find((e) => e.class === 'LandscapeComponent')!;
    const p = c.properties.properties.find((e) => e.name === 'HeightmapScaleBias')!;
    p.value = { X: 0.015625, Y: 0.015625, Z: 0.5, W: 0 };
    const l = await landscapeOfSource(src, undefined);
    expect(l.notes.join('\n')).toMatch(/LandscapeComponent_0: its part of the heightmap \(from 32, 0, 64x64 texels\) runs past the 64x64 texture/);
    expect(l.heightRange).toBeNull();
  });

  it('an export that is not a landscape actor: FormatError naming it', async () => {
    const src = await source();
    const i = src.exports.findIndex((e) => e.class === 'Level');
    await expect(landscapeOfSource(src, i)).rejects.toThrow(/a Level, not a landscape actor/);
    await expect(landscapeOfSource(src, 999)).rejects.toThrow(/no export 999/);
  });
});

describe('the default level of detail of a large terrain', () => {
  it('counts the last row and column the mesh keeps: 8192 x 8192 vertices at every 2nd would be 4097 x 4097, over the limit, so every 4th', () => {
    // landscapeMesh keeps every step-th vertex and the last: 0, 2, ..., 8190 and 8191.
    expect(4097 * 4097).toBeGreaterThan(MAX_MESH_VERTICES);
    expect(defaultLandscapeLod({ width: 8192, height: 8192 })).toBe(2);
    // Where the last vertex is on the step, nothing is added: 8191 at every 2nd is 4096.
    expect(defaultLandscapeLod({ width: 8191, height: 8191 })).toBe(1);
    expect(defaultLandscapeLod({ width: 64, height: 64 })).toBe(0);
  });
});

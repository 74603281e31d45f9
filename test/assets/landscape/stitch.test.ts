/**
 * Stitching components into one grid, and subsections inside a component: cue58's map has one
 * component of one subsection, so its real export is copied in memory into the layouts real
 * landscapes have. The expected heights come from the texture reader's own decode of Heightmap_0
 * (not the landscape reader), placed as the engine's rules say: a component at SectionBase
 * (x, y) covers grid vertices x..x+ComponentSizeQuads; with two subsections of N quads, vertex v
 * of a component is texel v up to N, and texel v + 1 after it (each subsection's N + 1 texels
 * side by side, the shared vertex stored twice: LandscapeDataAccess's VertexXYToTexelXY).
 */
import { describe, expect, it } from 'vitest';
import { landscapeMesh, landscapeOfSource } from '../../../src/core/assets/landscape/index.js';
import { decodePixels } from '../../../src/core/assets/texture/decode/index.js';
import { installTextureSource, type SourceExport, type TextureSource } from '../../../src/core/assets/texture/read/package-source.js';
import { textureOf } from '../../../src/core/assets/texture/read/read.js';
import type { PropertyEntry, PropertyValue } from '../../../src/core/properties/types.js';
import { withInstall } from '../../properties/helpers.js';
import { corpus } from '../../support/corpus.js';

const MAP = '/Game/Fixtures/Maps/Landscape';

async function source(): Promise<TextureSource> {
  return withInstall(corpus('cue58/IoStore/Tagged/Zlib'), (packages) => installTextureSource(packages, MAP, {}));
}

/** Heightmap_0's 64x64 heights as the texture reader decodes it (R high byte, G low). */
async function textureHeights(src: TextureSource): Promise<(x: number, y: number) => number> {
  const t = textureOf(src, { exportIndex: src.exports.findIndex((e) => e.name === 'Heightmap_0') });
  const img = decodePixels(t.pixelFormat, await t.readMip(0), 64, 64);
  return (x, y) => (img.rgba[(y * 64 + x) * 4]! << 8) | img.rgba[(y * 64 + x) * 4 + 1]!;
}

function set(list: PropertyEntry[], name: string, value: PropertyValue, type = 'IntProperty'): void {
  const p = list.find((e) => e.name === name);
  if (p) p.value = value;
  else list.push({ name, type, value });
}

/** A copy of LandscapeComponent_0 at another path and section base, listed by the actor. */
function addComponent(src: TextureSource, name: string, baseX: number, baseY: number): void {
  const c = src.exports.find((e) => e.class === 'LandscapeComponent')!;
  const copy: SourceExport = { ...c, name, path: c.path!.replace(/LandscapeComponent_0$/, name), properties: { ...c.properties, properties: structuredClone(c.properties.properties) } };
  set(copy.properties.properties, 'SectionBaseX', baseX);
  set(copy.properties.properties, 'SectionBaseY', baseY);
  src.exports.push(copy);
  const actor = src.exports.find((e) => e.class === 'Landscape')!;
  const list = actor.properties.properties.find((p) => p.name === 'LandscapeComponents')!;
  list.value = [...(list.value as string[]), copy.path!];
}

describe('stitching', () => {
  it('three components at section bases (0,0), (63,0), (0,63): a 127 x 127 grid, each quarter the component\'s heights, the fourth uncovered', async () => {
    const src = await source();
    const h = await textureHeights(src);
    addComponent(src, 'LandscapeComponent_1', 63, 0);
    addComponent(src, 'LandscapeComponent_2', 0, 63);
    const l = await landscapeOfSource(src, undefined);
    expect(l.notes).toEqual([]);
    expect([l.width, l.height, l.originX, l.originY]).toEqual([127, 127, 0, 0]);
    for (const [bx, by] of [[0, 0], [63, 0], [0, 63]] as const) {
      // Not on an edge two components share: there each stores the vertex (the same height in a real
      // landscape; here copies of one component, so they differ).
      for (const [x, y] of [[0, 0], [5, 9], [62, 62], [40, 2], [17, 61]] as const) expect(l.heights[(by + y) * 127 + bx + x], `${bx},${by} + ${x},${y}`).toBe(h(x, y));
    }
    // The quarter no component covers: no heights, no triangles.
    expect(l.covered[100 * 127 + 100]).toBe(0);
    const mesh = landscapeMesh(l);
    expect(mesh.lods[0]!.indices.length / 3).toBe(3 * 63 * 63 * 2);
  });

  it('a component of two subsections of 31 quads reads texel v up to 31 and v + 1 after', async () => {
    const src = await source();
    const h = await textureHeights(src);
    const c = src.exports.find((e) => e.class === 'LandscapeComponent')!;
    set(c.properties.properties, 'ComponentSizeQuads', 62);
    set(c.properties.properties, 'SubsectionSizeQuads', 31);
    set(c.properties.properties, 'NumSubsections', 2);
    const l = await landscapeOfSource(src, undefined);
    expect([l.width, l.height]).toEqual([63, 63]);
    const texel = (v: number): number => (v <= 31 ? v : v + 1);
    for (const [x, y] of [[0, 0], [31, 31], [32, 5], [5, 32], [62, 62], [45, 17]] as const) {
      expect(l.heights[y * 63 + x], `${x},${y}`).toBe(h(texel(x), texel(y)));
    }
  });

  it('a section base off the origin moves the grid\'s origin and the mesh with it; the actor\'s scale scales it', async () => {
    const src = await source();
    const c = src.exports.find((e) => e.class === 'LandscapeComponent')!;
    set(c.properties.properties, 'SectionBaseX', 126);
    set(c.properties.properties, 'SectionBaseY', -63);
    const root = src.exports.find((e) => e.name === 'RootComponent0')!;
    root.properties = { ...root.properties, properties: [{ name: 'RelativeScale3D', type: 'StructProperty<Vector>', value: { X: 100, Y: 50, Z: 200 } }] };
    const l = await landscapeOfSource(src, undefined);
    expect([l.originX, l.originY, l.width]).toEqual([126, -63, 64]);
    const lod = landscapeMesh(l).lods[0]!;
    // The first vertex: quad (126, -63) at 100 x 50 cm per quad; its height (h - 32768) / 128 x 200.
    expect([lod.positions[0], lod.positions[1]]).toEqual([12600, -3150]);
    expect(lod.positions[2]).toBeCloseTo(((l.heights[0]! - 32768) / 128) * 200, 3);
  });
});

/**
 * End to end in Chromium: `npm run web` on the cue58 IoStore Tagged install. Opens Landscape.umap,
 * which opens on its Landscape tab (the converter registry offers the Landscape actor): the facts
 * CUE4Parse's FixtureWorldAssetTests.cs asserts (ComponentSizeQuads 63, one subsection of 63, one
 * component at section base (0, 0), a 64 x 64 heightmap, material M_Landscape, layer FixtureLayer
 * with LI_Fixture) and the heights the component's CachedLocalBox gives (-124.90625 to 124.953125);
 * the heightmap image; the terrain drawn in 3D (WebGL through SwiftShader), coloured by the
 * heightmap and then plain; the 16-bit heightmap PNG, the layer PNG and the terrain .glb saved
 * through saveConversion and read back; Save JSON downloading the facts.
 * Screenshot (1280x800): test-artifacts/e2e-landscape.png.
 */
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { corpus } from '../support/corpus.js';
import { parseGlb, validateGlb } from '../support/gltf-validator.js';
import { ARTIFACTS, canvasPixels, openPackageFromTree, poll as pollUi, skipBrowser, useWebSession, WEBGL_ARGS } from './web-session.js';

const MAP = 'CUE4ParseFixtures/Content/Fixtures/Maps/Landscape.umap';
const poll = <T>(fn: () => Promise<T> | T) => pollUi(fn, 20_000);
let out = '';
afterAll(async () => { if (out) await rm(out, { recursive: true, force: true }); });

/** A PNG's width, height, bit depth and colour type from its IHDR. */
function ihdr(png: Uint8Array): [number, number, number, number] {
  const v = new DataView(png.buffer, png.byteOffset, png.byteLength);
  return [v.getUint32(16), v.getUint32(20), png[24]!, png[25]!];
}

describe.skipIf(skipBrowser)('landscapes in Chromium (browser host)', () => {
  const web = useWebSession(corpus('cue58/IoStore/Tagged/Zlib'), WEBGL_ARGS);

  it('shows the terrain of Landscape.umap, its facts and heightmap, and saves the heightmap, a layer and the mesh', async () => {
    const { page } = web;
    out = await mkdtemp(join(tmpdir(), 'pakscope-e2e-landscape-'));
    await page.setViewportSize({ width: 1280, height: 800 });
    await page.goto(web.session.url);
    await openPackageFromTree(page, 'Landscape', MAP);
    await poll(() => page.getByTestId('package-tab-view-landscape').getAttribute('aria-selected')).toBe('true');
    await poll(() => page.getByTestId('landscape-components').textContent()).toBe('1');
    const text = async (id: string) => ((await page.getByTestId(id).textContent()) ?? '').replace(/\s+/g, ' ').trim();
    expect(await text('landscape-component-size')).toBe('63 quads');
    expect(await text('landscape-subsections')).toBe('1 × 1 of 63 quads');
    expect(await text('landscape-vertices')).toBe('64 × 64');
    expect(await text('landscape-heights')).toBe('-124.906 to 124.953');
    expect(await text('landscape-material')).toBe('M_Landscape');
    expect(await text('landscape-layers')).toBe('FixtureLayer LI_Fixture');
    expect(await text('landscape-component-list')).toBe('LandscapeComponent_0 at (0, 0), Heightmap_0');
    expect(await page.getByTestId('landscape-notes').count()).toBe(0);
    // The heightmap image: one pixel per vertex.
    await poll(() => page.getByTestId('landscape-heightmap').evaluate((img: HTMLImageElement) => (img.complete ? img.naturalWidth : 0))).toBe(64);

    // The terrain in 3D: 4096 vertices, drawn, and drawn differently once plain.
    const canvas = page.getByTestId('landscape-canvas');
    expect(await canvas.getAttribute('data-vertices')).toBe('4096');
    expect(await page.getByTestId('landscape-webgl-error').count()).toBe(0);
    await poll(async () => (await canvasPixels(page, 'landscape-canvas')).drawn).toBeGreaterThan(20_000);
    const byHeight = await canvasPixels(page, 'landscape-canvas');
    await page.screenshot({ path: join(ARTIFACTS, 'e2e-landscape.png') });
    await page.getByTestId('landscape-colour').selectOption('plain');
    await poll(async () => (await canvasPixels(page, 'landscape-canvas')).hash).not.toBe(byHeight.hash);
    await page.getByTestId('landscape-colour').selectOption('layer:0');
    await page.getByTestId('landscape-colour').selectOption('heightmap');

    // Save the 16-bit heightmap (browser mode: a typed path).
    const heightmap = join(out, 'Landscape_heightmap.png');
    await page.getByTestId('landscape-save-heightmap').click();
    await page.getByTestId('landscape-save-path').fill(heightmap);
    await page.getByTestId('landscape-save-confirm').click();
    await poll(() => page.getByTestId('landscape-note').textContent()).toMatch(/^Saved .*Landscape_heightmap\.png/);
    expect(ihdr(new Uint8Array(await readFile(heightmap)))).toEqual([64, 64, 16, 0]);

    // The layer's weights: 8-bit gray.
    const layer = join(out, 'Landscape_FixtureLayer.png');
    await page.getByTestId('landscape-save-layer').click();
    await page.getByTestId('landscape-save-path').fill(layer);
    await page.getByTestId('landscape-save-confirm').click();
    await poll(() => page.getByTestId('landscape-note').textContent()).toMatch(/^Saved .*Landscape_FixtureLayer\.png/);
    expect(ihdr(new Uint8Array(await readFile(layer)))).toEqual([64, 64, 8, 0]);

    // The terrain: a valid .glb of 63 x 63 x 2 triangles with the landscape material's slot.
    const glbPath = join(out, 'Landscape.glb');
    await page.getByTestId('landscape-save-glb').click();
    await page.getByTestId('landscape-save-path').fill(glbPath);
    await page.getByTestId('landscape-save-confirm').click();
    await poll(() => page.getByTestId('landscape-note').textContent()).toMatch(/^Saved .*Landscape\.glb/);
    const glb = new Uint8Array(await readFile(glbPath));
    expect((await validateGlb(glb)).errors).toEqual([]);
    const gltf = parseGlb(glb).json as { materials: { name: string }[]; accessors: { count: number }[]; meshes: { primitives: { indices: number }[] }[] };
    expect(gltf.materials.map((m) => m.name)).toEqual(['M_Landscape']);
    expect(gltf.accessors[gltf.meshes[0]!.primitives[0]!.indices]!.count).toBe(63 * 63 * 2 * 3);

    // Save JSON downloads the facts.
    const [download] = await Promise.all([page.waitForEvent('download'), page.getByTestId('landscape-save-json').click()]);
    expect(download.suggestedFilename()).toBe('Landscape_Landscape_0.json');
    expect(JSON.parse(await readFile((await download.path())!, 'utf8'))).toMatchObject({ componentSizeQuads: 63, subsectionSizeQuads: 63, numSubsections: 1, width: 64, height: 64 });
    expect(web.problems).toEqual([]);
  }, 60_000);
});

/**
 * End to end in Chromium with WebGL through SwiftShader: `npm run web` on the cue58 IoStore Tagged
 * install. Opens SM_Fixture on its Mesh tab: the facts (6 vertices, 2 triangles, 2 sections, 2 UV
 * channels, 100 x 100 x 20 cm), the mesh drawn (pixels other than the background), orbit by a
 * drag (the picture changes), LOD 1, wireframe and the UV checker, Save as glTF (.glb) (the file
 * passes the Khronos validator); then SK_Fixture with its bones and their names, its morph
 * target and LOD 1, and SKEL_Fixture (bones only); and a grid of a million triangles
 * (test/fixtures/mesh-grid.ts, the API's answers swapped in the page) drawn and orbited.
 * Screenshots go to test-artifacts/. Any console error fails.
 */
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ARTIFACTS, canvasPixels, skipBrowser, poll as pollUi, selectInTree, useWebSession, WEBGL_ARGS } from './web-session.js';
import { corpus } from '../support/corpus.js';
import { parseGlb, validateGlb } from '../support/gltf-validator.js';
import { meshGrid } from '../fixtures/mesh-grid.js';
import { meshGeometry, meshView } from '../../src/backend/mesh-view.js';
import { encodeFrame, FRAME_TYPE } from '../../src/shared/wire.js';

const UNCOMPRESSED = corpus('cue58/IoStore/Tagged/Uncompressed');
const MESHES = 'CUE4ParseFixtures/Content/Fixtures/Meshes';
const poll = <T>(fn: () => Promise<T> | T) => pollUi(fn, 30_000);

describe.skipIf(skipBrowser)('meshes in Chromium (browser host, WebGL)', () => {
  const web = useWebSession(UNCOMPRESSED, WEBGL_ARGS);
  let tmp: string;
  beforeAll(async () => { tmp = await mkdtemp(join(tmpdir(), 'pakscope-mesh-e2e-')); });
  afterAll(async () => { await rm(tmp, { recursive: true, force: true }); });

  it('shows SM_Fixture in 3D, orbits, switches LOD, and saves it as a valid .glb', async () => {
    const { page } = web;
    await page.setViewportSize({ width: 1280, height: 800 });
    await page.goto(web.session.url);
    await poll(() => page.getByTestId('containers').textContent()).toContain('CUE4ParseFixtures-Minimal-Uncompressed-Windows');
    await selectInTree(page, 'SM_Fixture', `${MESHES}/SM_Fixture.uasset`);
    await page.getByTestId('open-package').click();
    await poll(() => page.getByTestId('package-tab-view-mesh').getAttribute('aria-selected')).toBe('true');

    // The numbers for SM_Fixture.
    await poll(() => page.getByTestId('mesh-vertices').textContent()).toBe('6');
    expect(await page.getByTestId('mesh-triangles').textContent()).toBe('2');
    expect(await page.getByTestId('mesh-sections').textContent()).toBe('2');
    expect(await page.getByTestId('mesh-uv-channels').textContent()).toBe('2');
    expect(await page.getByTestId('mesh-lods').textContent()).toBe('2');
    expect(await page.getByTestId('mesh-size').textContent()).toBe('100 × 100 × 20');
    expect(await page.getByTestId('mesh-socket-list').textContent()).toContain('FixtureSocket');
    expect(await page.getByTestId('mesh-webgl-error').count()).toBe(0);

    // Drawn: a good part of the canvas is mesh, not background.
    const canvas = page.getByTestId('mesh-canvas');
    await poll(() => canvas.getAttribute('data-vertices')).toBe('6');
    await poll(async () => (await canvasPixels(page, 'mesh-canvas')).drawn).toBeGreaterThan(5000);
    const before = await canvasPixels(page, 'mesh-canvas');
    await page.screenshot({ path: join(ARTIFACTS, 'e2e-mesh-static.png') });

    // Orbit: a drag across the canvas turns the camera; the picture changes.
    const box = (await canvas.boundingBox())!;
    await page.mouse.move(box.x + box.width * 0.5, box.y + box.height * 0.5);
    await page.mouse.down();
    await page.mouse.move(box.x + box.width * 0.65, box.y + box.height * 0.4, { steps: 8 });
    await page.mouse.up();
    await poll(async () => (await canvasPixels(page, 'mesh-canvas')).hash).not.toBe(before.hash);
    expect((await canvasPixels(page, 'mesh-canvas')).drawn).toBeGreaterThan(2000);

    // Vertex normals drawn as lines: the picture changes; off again.
    const plain = await canvasPixels(page, 'mesh-canvas');
    await page.getByTestId('mesh-normals').check();
    await poll(async () => (await canvasPixels(page, 'mesh-canvas')).hash).not.toBe(plain.hash);
    await page.getByTestId('mesh-normals').uncheck();

    // LOD 1, with the wireframe over it and the UV checker on UV channel 1.
    await page.getByTestId('mesh-lod').selectOption('1');
    await poll(() => canvas.getAttribute('data-lod')).toBe('1');
    await page.getByTestId('mesh-wireframe').check();
    await page.getByTestId('mesh-colour').selectOption('uv');
    await page.getByTestId('mesh-uv').selectOption('1');
    await page.getByTestId('mesh-bounds').check();
    await page.getByTestId('mesh-frame').click();
    await poll(() => page.getByTestId('mesh-status').textContent()).toContain('LOD 1');
    await page.waitForTimeout(300);
    await page.screenshot({ path: join(ARTIFACTS, 'e2e-mesh-static-lod1.png') });

    // Save as glTF (browser mode: the path is typed): the LOD shown, valid.
    const file = join(tmp, 'SM_Fixture_LOD1.glb');
    await page.getByTestId('mesh-save-glb').click();
    await page.getByTestId('mesh-save-path').fill(file);
    await page.getByTestId('mesh-save-confirm').click();
    await poll(() => page.getByTestId('mesh-note').textContent()).toMatch(/^Saved .*SM_Fixture_LOD1\.glb/);
    const glb = new Uint8Array(await readFile(file));
    expect((await validateGlb(glb)).errors).toEqual([]);
    expect(parseGlb(glb).json.meshes[0].primitives).toHaveLength(2);
    expect(web.problems).toEqual([]);
  });

  it('draws a slot\'s base colour texture in the Textures mode, and names one it cannot read', async () => {
    const { page } = web;
    // SM_Fixture's slots name WorldGridMaterial, outside the install: its answer names two textures instead.
    await page.route('**/api/meshInfo', async (route) => {
      const res = await route.fetch();
      const body = JSON.parse(await res.text());
      body.value.materials[0].textures = { baseColor: '/Game/Fixtures/Textures/T_BGRA8.T_BGRA8' };
      body.value.materials[1].textures = { baseColor: '/Game/Fixtures/Textures/T_Missing.T_Missing' };
      await route.fulfill({ response: res, body: JSON.stringify(body) });
    });
    await page.setViewportSize({ width: 1280, height: 800 });
    await page.goto(web.session.url);
    await poll(() => page.getByTestId('containers').textContent()).toContain('CUE4ParseFixtures-Minimal-Uncompressed-Windows');
    await selectInTree(page, 'SM_Fixture', `${MESHES}/SM_Fixture.uasset`);
    await page.getByTestId('open-package').click();
    const canvas = page.getByTestId('mesh-canvas');
    await poll(() => canvas.getAttribute('data-vertices')).toBe('6');
    await poll(async () => (await canvasPixels(page, 'mesh-canvas')).drawn).toBeGreaterThan(5000);
    const sections = await canvasPixels(page, 'mesh-canvas');
    await page.getByTestId('mesh-colour').selectOption('textures');
    await poll(() => page.getByTestId('mesh-texture-note').textContent()).toMatch(/Not shown: \/Game\/Fixtures\/Textures\/T_Missing/);
    await poll(async () => (await canvasPixels(page, 'mesh-canvas')).hash).not.toBe(sections.hash);
    await page.waitForTimeout(300);
    await page.screenshot({ path: join(ARTIFACTS, 'e2e-mesh-textures.png') });
    await page.unrouteAll();
    expect(web.problems).toEqual([]);
  });

  it('shows SK_Fixture with its bones and their names, moves its morph target, switches LOD', async () => {
    const { page } = web;
    await page.setViewportSize({ width: 1280, height: 800 });
    await page.goto(web.session.url);
    await poll(() => page.getByTestId('containers').textContent()).toContain('CUE4ParseFixtures-Minimal-Uncompressed-Windows');
    await selectInTree(page, 'SK_Fixture', `${MESHES}/SK_Fixture.uasset`);
    await page.getByTestId('open-package').click();
    await poll(() => page.getByTestId('package-tab-view-mesh').getAttribute('aria-selected')).toBe('true');
    await poll(() => page.getByTestId('mesh-bone-count').textContent()).toBe('3');
    // The skeleton: Root, Joint_1, Joint_2 (parents -1, 0, 1); LOD vertex counts 6 and 3; Morph_Fixture.
    expect(await page.getByTestId('mesh-bone-list').locator('li').allTextContents()).toEqual(['Root', 'Joint_1', 'Joint_2']);
    expect(await page.getByTestId('mesh-bone-list').locator('li').evaluateAll((li) => li.map((l) => l.getAttribute('title')))).toEqual(['parent -1', 'parent 0', 'parent 1']);
    expect(await page.getByTestId('mesh-vertices').textContent()).toBe('6');
    expect(await page.getByTestId('mesh-morphs').textContent()).toContain('Morph_Fixture');
    const canvas = page.getByTestId('mesh-canvas');
    await poll(() => canvas.getAttribute('data-vertices')).toBe('6');
    await poll(async () => (await canvasPixels(page, 'mesh-canvas')).drawn).toBeGreaterThan(3000);

    // Bones on: three names drawn beside their joints, inside the canvas.
    await page.getByTestId('mesh-bones').check();
    const labels = page.locator('.labels .label.bone');
    await poll(() => labels.allTextContents()).toEqual(['Root', 'Joint_1', 'Joint_2']);
    const box = (await canvas.boundingBox())!;
    for (const l of await labels.all()) {
      const b = (await l.boundingBox())!;
      expect(b.x >= box.x && b.x <= box.x + box.width && b.y >= box.y && b.y <= box.y + box.height).toBe(true);
    }
    const before = await canvasPixels(page, 'mesh-canvas');
    await page.screenshot({ path: join(ARTIFACTS, 'e2e-mesh-skeletal-bones.png') });

    // The morph target at full weight moves vertices: the picture changes.
    await page.getByTestId('mesh-morph-0').fill('1');
    await poll(async () => (await canvasPixels(page, 'mesh-canvas')).hash).not.toBe(before.hash);
    await page.screenshot({ path: join(ARTIFACTS, 'e2e-mesh-skeletal-morph.png') });

    // LOD 1: 3 vertices.
    await page.getByTestId('mesh-lod').selectOption('1');
    await poll(() => canvas.getAttribute('data-vertices')).toBe('3');
    expect(await page.getByTestId('mesh-vertices').textContent()).toBe('3');
    expect(web.problems).toEqual([]);
  });

  it('shows SKEL_Fixture, a skeleton alone, as its bones', async () => {
    const { page } = web;
    // The package view is open: a package picked in the tree opens in it.
    await selectInTree(page, 'SKEL_Fixture', 'CUE4ParseFixtures/Content/Fixtures/Animations/SKEL_Fixture.uasset');
    await poll(() => page.getByTestId('mesh-bone-count').textContent()).toBe('3');
    expect(await page.getByTestId('mesh-lod').count()).toBe(0);
    await poll(() => page.locator('.labels .label.bone').allTextContents()).toEqual(['Root', 'Joint_1', 'Joint_2']);
    await poll(() => page.locator('.labels .label.socket').allTextContents()).toEqual(['FixtureSocket']);
    // The tab's view is reused for the new asset, on a new canvas: the bones are drawn on it.
    await poll(async () => (await canvasPixels(page, 'mesh-canvas')).drawn).toBeGreaterThan(20);
    await page.screenshot({ path: join(ARTIFACTS, 'e2e-mesh-skeleton.png') });
    expect(web.problems).toEqual([]);
  });

});

// A session of its own: after the other tests' WebGL views, SwiftShader's first frame of a
// million triangles could take longer than the waits allow.
describe.skipIf(skipBrowser)('a mesh of a million triangles in Chromium (WebGL through SwiftShader)', () => {
  const web = useWebSession(UNCOMPRESSED, WEBGL_ARGS);

  it('builds it once, draws it, and orbits it', async () => {
    const { page } = web;
    // SM_Fixture's answers swapped for the grid's, made by the backend's own functions: the corpus has no such mesh.
    // (How fast it opens and orbits is the bench's mesh group, not a test's.)
    const grid = meshGrid(708); // 1,002,528 triangles
    const triangles = grid.lods[0]!.indices.length / 3;
    await page.route('**/api/meshInfo', async (route) => {
      const res = await route.fetch();
      const body = JSON.parse(await res.text());
      body.value.lods = meshView(grid, body.value.path, body.value.exportIndex, body.value.converts).lods;
      await route.fulfill({ response: res, body: JSON.stringify(body) });
    });
    const geometryBody = Buffer.concat(encodeFrame({ ok: true, value: meshGeometry(grid, 0) })!);
    await page.route('**/api/meshGeometry', (route) => route.fulfill({ status: 200, contentType: FRAME_TYPE, body: geometryBody }));

    await page.setViewportSize({ width: 1280, height: 800 });
    await page.goto(web.session.url);
    await poll(() => page.getByTestId('containers').textContent()).toContain('CUE4ParseFixtures-Minimal-Uncompressed-Windows');
    await selectInTree(page, 'SM_Fixture', `${MESHES}/SM_Fixture.uasset`);
    await page.getByTestId('open-package').click();
    const canvas = page.getByTestId('mesh-canvas');
    await poll(() => canvas.getAttribute('data-vertices')).toBe(String(709 * 709));
    await poll(async () => Number(await canvas.getAttribute('data-frames'))).toBeGreaterThan(0);
    expect(await page.getByTestId('mesh-triangles').textContent()).toBe(triangles.toLocaleString('en-US'));
    await poll(async () => (await canvasPixels(page, 'mesh-canvas')).drawn).toBeGreaterThan(5000);
    const before = await canvasPixels(page, 'mesh-canvas');

    // Orbit: a drag turns the camera; frames are drawn and the picture changes.
    const framesBefore = Number(await canvas.getAttribute('data-frames'));
    const box = (await canvas.boundingBox())!;
    await page.mouse.move(box.x + box.width * 0.3, box.y + box.height * 0.5);
    await page.mouse.down();
    await page.mouse.move(box.x + box.width * 0.7, box.y + box.height * 0.4, { steps: 6 });
    await page.mouse.up();
    await poll(async () => Number(await canvas.getAttribute('data-frames'))).toBeGreaterThan(framesBefore + 1);
    await poll(async () => (await canvasPixels(page, 'mesh-canvas')).hash).not.toBe(before.hash);
    await page.screenshot({ path: join(ARTIFACTS, 'e2e-mesh-million.png') });
    await page.unrouteAll();
    expect(web.problems).toEqual([]);
  }, 180_000);
});

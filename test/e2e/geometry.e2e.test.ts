/**
 * End to end in Chromium with WebGL through SwiftShader: `npm run web` on the cue58 IoStore Tagged
 * install. GeoCache_Fixture opens on its Mesh tab: its one frame drawn (768 vertices, 256
 * triangles: CUE4Parse's fixture test's sample of 768 vertices and 768 indices) with the Frames
 * table; GC_Fixture: its one piece (SM_Fixture's 6 vertices, 2 triangles) and the Groups table
 * (Transform 1, Vertices 6, Faces 2, Geometry 1); PHYS_Fixture: its box and sphere drawn, the Bodies, Constraints and Collision pairs
 * tables (Root's box, Joint_1's sphere, RootToJoint, collision disabled), and Save as glTF (a
 * .glb the Khronos validator passes, a node per body). Screenshots go to test-artifacts/; any
 * console error fails.
 */
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ARTIFACTS, canvasPixels, skipBrowser, poll as pollUi, selectInTree, useWebSession, WEBGL_ARGS } from './web-session.js';
import { corpus } from '../support/corpus.js';
import { parseGlb, validateGlb } from '../support/gltf-validator.js';

const UNCOMPRESSED = corpus('cue58/IoStore/Tagged/Uncompressed');
const FIXTURES = 'CUE4ParseFixtures/Content/Fixtures';
const poll = <T>(fn: () => Promise<T> | T) => pollUi(fn, 30_000);

describe.skipIf(skipBrowser)('geometry caches and physics assets in Chromium (browser host, WebGL)', () => {
  const web = useWebSession(UNCOMPRESSED, WEBGL_ARGS);
  let tmp: string;
  beforeAll(async () => { tmp = await mkdtemp(join(tmpdir(), 'pakscope-geometry-e2e-')); });
  afterAll(async () => { await rm(tmp, { recursive: true, force: true }); });

  const open = async (name: string, path: string) => {
    const { page } = web;
    await page.setViewportSize({ width: 1400, height: 820 });
    await page.goto(web.session.url);
    await poll(() => page.getByTestId('containers').textContent()).toContain('CUE4ParseFixtures-Minimal-Uncompressed-Windows');
    await selectInTree(page, name, path);
    await page.getByTestId('open-package').click();
    await poll(() => page.getByTestId('package-tab-view-mesh').getAttribute('aria-selected')).toBe('true');
  };
  const table = (title: string) => web.page.locator(`[data-testid="mesh-fact-table"][data-title="${title}"]`);

  it('shows GeoCache_Fixture\'s frame in 3D with its frames table', async () => {
    const { page } = web;
    await open('GeoCache_Fixture', `${FIXTURES}/Geometry/GeoCache_Fixture.uasset`);
    await poll(() => page.getByTestId('mesh-vertices').textContent()).toBe('768');
    expect(await page.getByTestId('mesh-triangles').textContent()).toBe('256');
    expect(await page.getByTestId('mesh-facts').textContent()).toContain('GeometryCache');
    const frames = await table('Frames').textContent();
    expect(frames).toContain('StreamableTrack');
    expect(frames).toMatch(/768.*768/);
    expect(await table('Visibility samples').textContent()).toContain('visible');
    await poll(() => page.getByTestId('mesh-canvas').getAttribute('data-vertices')).toBe('768');
    await poll(async () => (await canvasPixels(page, 'mesh-canvas')).drawn).toBeGreaterThan(5000);
    await page.waitForTimeout(300);
    await page.screenshot({ path: join(ARTIFACTS, 'e2e-mesh-geometry-cache.png') });
    expect(web.problems).toEqual([]);
  });

  it('shows GC_Fixture\'s piece in 3D with its pieces and groups', async () => {
    const { page } = web;
    await open('GC_Fixture', `${FIXTURES}/Geometry/GC_Fixture.uasset`);
    await poll(() => page.getByTestId('mesh-vertices').textContent()).toBe('6');
    expect(await page.getByTestId('mesh-triangles').textContent()).toBe('2');
    expect(await table('Pieces').textContent()).toMatch(/SM_Fixture.*6.*2/);
    expect(await table('Groups').textContent()).toMatch(/Transform\s*1.*Vertices\s*6.*Faces\s*2.*Geometry\s*1/);
    await poll(async () => (await canvasPixels(page, 'mesh-canvas')).drawn).toBeGreaterThan(5000);
    await page.waitForTimeout(300);
    await page.screenshot({ path: join(ARTIFACTS, 'e2e-mesh-geometry-collection.png') });
    expect(web.problems).toEqual([]);
  });

  it('shows PHYS_Fixture\'s shapes in 3D with its bodies, constraints and collision pairs, and saves a .glb of them', async () => {
    const { page } = web;
    await open('PHYS_Fixture', `${FIXTURES}/Physics/PHYS_Fixture.uasset`);
    await poll(() => table('Bodies').textContent()).toMatch(/RootBody.*Root.*box.*\(1, 2, 3\).*40 x 30 x 20/);
    expect(await table('Bodies').textContent()).toMatch(/JointBody.*Joint_1.*sphere.*\(-4, 5, 6\).*radius 12\.5/);
    expect(await table('Constraints').textContent()).toMatch(/RootToJoint.*Joint_1.*Root.*disabled/);
    expect(await table('Collision pairs').textContent()).toMatch(/Root.*Joint_1.*disabled/);
    await poll(async () => (await canvasPixels(page, 'mesh-canvas')).drawn).toBeGreaterThan(5000);
    await page.waitForTimeout(300);
    await page.screenshot({ path: join(ARTIFACTS, 'e2e-mesh-physics-asset.png') });

    const file = join(tmp, 'PHYS_Fixture.glb');
    await page.getByTestId('mesh-save-glb').click();
    await page.getByTestId('mesh-save-path').fill(file);
    await page.getByTestId('mesh-save-confirm').click();
    await poll(() => page.getByTestId('mesh-note').textContent()).toMatch(/^Saved .*PHYS_Fixture\.glb/);
    const glb = new Uint8Array(await readFile(file));
    expect((await validateGlb(glb)).errors).toEqual([]);
    expect(parseGlb(glb).json.nodes.map((n: { name: string }) => n.name)).toEqual(expect.arrayContaining(['Root', 'Joint_1', 'Root_box_0', 'Joint_1_sphere_0']));
    expect(web.problems).toEqual([]);
  });
});

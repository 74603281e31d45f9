/**
 * The mesh group: a mesh of about a million triangles in the mesh view. The browser host runs on
 * the cue58 fixture install with SM_Fixture's mesh read as a synthetic grid (probes/mesh-host.ts),
 * so the mesh goes the whole way a read one does: meshInfo and meshGeometry in the backend, the
 * wire, the page's scene built from its typed arrays. Chromium draws WebGL through SwiftShader, a
 * software renderer: its rasterising (seconds a frame on this machine) runs in the GPU process,
 * so the figures are the page's main thread only:
 * - mesh_open_ms: the Open click to the first frame with the mesh (the frame's render call
 *   returned), taken in the page; the note splits it (API calls, scene build, first frame).
 * - mesh_orbit_frame_ms: main-thread work per orbit frame, a drag of one step per frame drawn: the
 *   renderer main thread's tasks between two frame starts in a CDP trace (input, OrbitControls,
 *   three.js's render call), 95th percentile. MESH_TRACE=<file> keeps the orbit's trace.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium, type Browser } from 'playwright-core';
import { probeFile, PROJECT_ROOT } from './build-probes.js';
import { CHROMIUM, CHROMIUM_FLAGS, endSession, frameWork, type TraceEvent } from './measure-scroll.js';
import { percentile } from './probes/probe-io.js';

/** WebGL without a GPU (as the end-to-end tests run it): SwiftShader. */
const WEBGL_FLAGS = ['--use-angle=swiftshader', '--enable-unsafe-swiftshader', '--ignore-gpu-blocklist'];
const FIXTURES = join(PROJECT_ROOT, '..', 'shared', 'corpus', 'cue58', 'IoStore', 'Tagged', 'Uncompressed');
const MESH = 'CUE4ParseFixtures/Content/Fixtures/Meshes/SM_Fixture.uasset';

export interface MeshOptions {
  /** Grid side: 2 side² triangles (708: 1,002,528). */
  side: number;
  /** Orbit frames measured. */
  orbitFrames: number;
  /** Times the mesh is opened (each in a fresh page). */
  opens: number;
  /** Where a screenshot of the mesh goes, if anywhere. */
  screenshot?: string;
  workerFile: string;
  log?: (line: string) => void;
}

/** One opening of the mesh, ms on the page's clock. */
export interface OpenRun {
  /** Open click to the first frame with the mesh. */
  openMs: number;
  /** Of which: openPackage, meshInfo and meshGeometry, request to last byte (Resource Timing). */
  packageMs: number;
  infoMs: number;
  geometryMs: number;
  /** Bytes of the meshGeometry answer as sent (base64 in JSON). */
  geometryBytes: number;
  /** MeshScene.setGeometry on the main thread, and the first frame's render call (the buffers' upload). */
  buildMs: number;
  firstFrameMs: number;
  vertices: number;
}

export interface MeshResult {
  triangles: number;
  /** The openings, and their median's figures. */
  opens: OpenRun[];
  open: OpenRun;
  /** Main-thread work per orbit frame from the trace. */
  orbitP95Ms: number;
  orbitMedianMs: number;
  orbitMaxMs: number;
  /** The render call alone per orbit frame (MeshScene's own timing). */
  renderMedianMs: number;
  renderMaxMs: number;
  orbitFrames: number;
  /** Wall time per orbit frame (SwiftShader's rasterising included). */
  wallPerFrameMs: number;
}

function run(cmd: string, args: string[]): Promise<void> {
  const child = spawn(cmd, args, { cwd: PROJECT_ROOT, stdio: ['ignore', 'ignore', 'pipe'] });
  let err = '';
  child.stderr.on('data', (d: Buffer) => { err += d.toString(); });
  return new Promise((resolve, reject) => child.on('exit', (code) => (code === 0 ? resolve() : reject(new Error(`${cmd} ${args.join(' ')} exited with ${code}: ${err}`)))));
}

function startHost(args: unknown, configDir: string, log: (l: string) => void): Promise<{ child: ChildProcess; url: string }> {
  const child = spawn(process.execPath, [probeFile('mesh-host'), JSON.stringify(args)], {
    cwd: PROJECT_ROOT, env: { ...process.env, PAKSCOPE_CONFIG_DIR: configDir }, stdio: ['ignore', 'pipe', 'pipe'],
  });
  child.stderr!.on('data', (d: Buffer) => { for (const l of d.toString().split('\n')) if (l.trim()) log(`    ${l}`); });
  let out = '';
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => { child.kill('SIGTERM'); reject(new Error(`the mesh host did not start:\n${out}`)); }, 300_000);
    child.stdout!.on('data', (d: Buffer) => {
      out += d.toString();
      const url = out.split('\n').find((l) => /^http:\/\/127\.0\.0\.1:\d+\/\?token=/.test(l));
      if (url) { clearTimeout(timer); resolve({ child, url }); }
    });
    child.on('exit', (code) => { clearTimeout(timer); reject(new Error(`the mesh host exited with ${code}:\n${out}`)); });
  });
}

/** In the page: clicks Open and resolves at the first frame drawn after the scene was built, with the figures. */
const OPEN = `() => new Promise((resolve) => {
  let built = null;
  const observer = new MutationObserver((records) => {
    for (const r of records) {
      const c = r.target;
      if (r.attributeName === 'data-build-ms') built = c;
      else if (built === c && r.attributeName === 'data-frames') {
        const at = performance.now();
        observer.disconnect();
        const api = (m) => performance.getEntriesByType('resource').filter((e) => e.name.endsWith('/api/' + m)).at(-1);
        const info = api('meshInfo'), geo = api('meshGeometry'), pkg = api('openPackage');
        resolve({ openMs: at - t0, infoMs: info ? info.responseEnd - info.startTime : -1, geometryMs: geo ? geo.responseEnd - geo.startTime : -1,
          geometryBytes: geo ? geo.encodedBodySize : -1, buildMs: Number(c.dataset.buildMs), firstFrameMs: Number(c.dataset.frameMs),
          packageMs: pkg ? pkg.responseEnd - pkg.startTime : -1, vertices: Number(c.dataset.vertices) });
        return;
      }
    }
  });
  observer.observe(document.body, { subtree: true, attributes: true, attributeFilter: ['data-build-ms', 'data-frames'] });
  performance.clearResourceTimings();
  const t0 = performance.now();
  document.querySelector('[data-testid="open-package"]').click();
})`;

/** In the page: window.__meshFrame resolves with the render call's time of the next frame drawn. */
const NEXT_FRAME = `(() => {
  const c = document.querySelector('[data-testid="mesh-canvas"]');
  window.__meshFrame = new Promise((resolve) => {
    const o = new MutationObserver(() => { o.disconnect(); resolve(Number(c.dataset.frameMs)); });
    o.observe(c, { attributes: true, attributeFilter: ['data-frames'] });
  });
})()`;

export async function measureMesh(opts: MeshOptions): Promise<MeshResult> {
  const log = opts.log ?? (() => {});
  if (!existsSync(CHROMIUM)) throw new Error(`${CHROMIUM} is missing`);
  if (!existsSync(FIXTURES)) throw new Error(`the cue58 fixture install is missing (${FIXTURES})`);
  await run(process.execPath, ['scripts/web.mjs', '--build-only']);
  const configDir = await mkdtemp(join(tmpdir(), 'pakscope-bench-mesh-'));
  let host: { child: ChildProcess; url: string } | undefined;
  let browser: Browser | undefined;
  try {
    host = await startHost({
      root: FIXTURES, packageName: '/SM_Fixture', side: opts.side, workerFile: opts.workerFile, staticDir: join(PROJECT_ROOT, 'out', 'renderer'),
    }, configDir, log);
    browser = await chromium.launch({ executablePath: CHROMIUM, args: [...CHROMIUM_FLAGS.filter((f) => f !== '--disable-gpu'), ...WEBGL_FLAGS] });
    const page = await browser.newPage({ viewport: { width: 1280, height: 800 }, colorScheme: 'dark' });
    const problems: string[] = [];
    page.on('pageerror', (e) => problems.push(e.message));
    const opens: OpenRun[] = [];
    let triangles = 0;
    for (let i = 0; i < opts.opens; i++) {
      // A fresh page each time: three.js loaded, the WebGL context and the package read anew (the backend keeps the mesh).
      await page.goto(host.url);
      await page.getByTestId('filter').fill('SM_Fixture');
      await page.getByTestId('tree').locator(`.row[data-path="${MESH}"]`).click({ timeout: 60_000 });
      await page.getByTestId('open-package').waitFor();
      const open = await page.evaluate(`(${OPEN})()`) as OpenRun;
      opens.push(open);
      triangles = Number((await page.getByTestId('mesh-triangles').textContent())?.replace(/,/g, ''));
      log(`  ${triangles.toLocaleString('en-US')} triangles: first frame ${open.openMs.toFixed(0)} ms after Open (openPackage ${open.packageMs.toFixed(0)} ms, ` +
        `meshInfo ${open.infoMs.toFixed(0)} ms, meshGeometry ${open.geometryMs.toFixed(0)} ms for ${(open.geometryBytes / 2 ** 20).toFixed(1)} MiB, ` +
        `build ${open.buildMs.toFixed(0)} ms, first render call ${open.firstFrameMs.toFixed(0)} ms)`);
    }
    if (opts.screenshot) await page.screenshot({ path: opts.screenshot });

    // Orbit: one drag step per frame drawn (a frame of a million triangles takes SwiftShader seconds).
    const canvas = page.getByTestId('mesh-canvas');
    const box = (await canvas.boundingBox())!;
    await page.waitForTimeout(500);
    await page.mouse.move(box.x + box.width * 0.3, box.y + box.height * 0.5);
    await page.mouse.down();
    await browser.startTracing(page, { categories: ['devtools.timeline', 'disabled-by-default-devtools.timeline', 'disabled-by-default-devtools.timeline.frame', 'toplevel'] });
    const renderMs: number[] = [];
    const w0 = performance.now();
    // One call into the page a frame (no polling: the page's main thread is what is measured): it
    // waits there for the frame the drag step asked for and sets up the wait for the next.
    await page.evaluate(NEXT_FRAME);
    for (let i = 1; i <= opts.orbitFrames; i++) {
      await page.mouse.move(box.x + box.width * (0.3 + (0.4 * i) / opts.orbitFrames), box.y + box.height * (0.5 - (0.1 * i) / opts.orbitFrames));
      renderMs.push(await page.evaluate(`window.__meshFrame.then((ms) => { ${NEXT_FRAME}; return ms; })`) as number);
    }
    const wallPerFrameMs = (performance.now() - w0) / opts.orbitFrames;
    const traceText = (await browser.stopTracing()).toString('utf8');
    if (process.env['MESH_TRACE']) await writeFile(process.env['MESH_TRACE'], traceText);
    const trace = JSON.parse(traceText) as { traceEvents: TraceEvent[] };
    await page.mouse.up();
    if (problems.length) throw new Error(`page errors: ${problems.join('; ')}`);
    const ts = trace.traceEvents.filter((e) => e.name === 'BeginMainThreadFrame').map((e) => e.ts);
    const work = frameWork(trace.traceEvents, Math.min(...ts), Math.max(...ts)).filter((w) => w > 0);
    if (work.length === 0) throw new Error('the trace holds no frames of the page');
    log(`  orbit: ${renderMs.length} frames, main thread per frame median ${percentile(work, 50).toFixed(1)} ms, p95 ${percentile(work, 95).toFixed(1)} ms; ` +
      `render call median ${percentile(renderMs, 50).toFixed(1)} ms; ${wallPerFrameMs.toFixed(0)} ms a frame on the wall (SwiftShader)`);
    const byTime = [...opens].sort((a, b) => a.openMs - b.openMs);
    return {
      triangles, opens, open: byTime[(byTime.length - 1) >> 1]!,
      orbitP95Ms: percentile(work, 95), orbitMedianMs: percentile(work, 50), orbitMaxMs: Math.max(...work),
      renderMedianMs: percentile(renderMs, 50), renderMaxMs: Math.max(...renderMs), orbitFrames: renderMs.length, wallPerFrameMs,
    };
  } finally {
    await endSession(browser, host?.child, configDir);
  }
}

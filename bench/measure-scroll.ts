/**
 * scroll_frame_ms: the browser host (`npm run web`, scripts/web.mjs) serving the install, the page
 * in headless Chromium, every folder of the tree expanded, then the tree scrolled at 60 Hz (one
 * step per animation frame) for a few seconds under a CDP trace. Main-thread work per frame is the
 * sum of the renderer main thread's top-level tasks between two frame starts (BeginMainThreadFrame);
 * the figure is their 95th percentile. Dropped frames are counted from the page's
 * requestAnimationFrame timestamps (a gap over 1.5 frame intervals).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium, type Browser, type Page } from 'playwright-core';
import { PROJECT_ROOT } from './build-probes.js';
import { percentile } from './probes/probe-io.js';

export const CHROMIUM = '/usr/bin/chromium';
export const CHROMIUM_FLAGS = ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run',
  '--disable-background-networking', '--disable-component-update', '--disable-sync'];

const ROW_HEIGHT = 22;

export interface ScrollOptions {
  root: string;
  aesKeyArg: string;
  /** Rows the fully expanded tree should have (files + folders), to check the expansion. */
  expectedRows: number;
  /** Files in the install, to see that the page opened it whole (with the key). */
  expectedFiles: number;
  scrollSeconds: number;
  /** Pixels per frame (22 px rows). */
  pixelsPerFrame: number;
  log?: (line: string) => void;
}

export interface ScrollResult {
  p95FrameMs: number;
  medianFrameMs: number;
  maxFrameMs: number;
  frames: number;
  droppedFrames: number;
  /** Median requestAnimationFrame interval, ms. */
  frameIntervalMs: number;
  rows: number;
  expandedFolders: number;
  expandSeconds: number;
  hostOpenSeconds: number;
}

export interface TraceEvent { name: string; ph: string; ts: number; dur?: number; pid: number; tid: number; cat?: string; args?: Record<string, unknown> }

/** Closes the browser, stops the host process (waiting for it to exit) and removes its config folder. */
export async function endSession(browser: Browser | undefined, host: ChildProcess | undefined, configDir: string): Promise<void> {
  await browser?.close().catch(() => undefined);
  if (host && host.exitCode === null) {
    const exited = new Promise((r) => host.once('exit', r));
    host.kill('SIGTERM');
    await exited;
  }
  await rm(configDir, { recursive: true, force: true });
}

/** Starts `node scripts/web.mjs <root>` and resolves the page URL it prints last. */
function startHost(root: string, aesKeyArg: string, configDir: string): Promise<{ child: ChildProcess; url: string }> {
  const child = spawn(process.execPath, [join(PROJECT_ROOT, 'scripts/web.mjs'), root, '--aes-key', aesKeyArg], {
    cwd: PROJECT_ROOT,
    env: { ...process.env, PAKSCOPE_CONFIG_DIR: configDir },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  let err = '';
  child.stderr!.on('data', (d: Buffer) => { err += d.toString(); });
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => { child.kill('SIGTERM'); reject(new Error(`npm run web did not start in 10 minutes:\n${out}\n${err}`)); }, 600_000);
    child.stdout!.on('data', (d: Buffer) => {
      out += d.toString();
      const last = out.split('\n').filter(Boolean).at(-1) ?? '';
      if (out.endsWith('\n') && /^http:\/\/127\.0\.0\.1:\d+\/\?token=/.test(last)) {
        clearTimeout(timer);
        resolve({ child, url: last });
      }
    });
    child.on('exit', (code) => { clearTimeout(timer); reject(new Error(`npm run web exited with ${code}:\n${out}\n${err}`)); });
  });
}

/**
 * Runs a page function given as source text: functions compiled by tsx or esbuild may call helpers
 * (__name) that do not exist in the page.
 */
function inPage<T>(page: Page, source: string, arg: unknown): Promise<T> {
  return page.evaluate(`(${source})(${JSON.stringify(arg)})`) as Promise<T>;
}

/**
 * Expands every folder: clicks the twisty of each collapsed folder row in the DOM, waits until the
 * listings have arrived, and pages down when none is left in view. A tall window shows ~700 rows
 * at a time, so this takes hundreds of steps, not hundreds of thousands.
 */
const EXPAND_ALL = `async ({ rowHeight }) => {
  const vp = document.querySelector('[data-testid="tree"]');
  const spacer = vp.firstElementChild;
  // Svelte updates the DOM in microtasks: a macrotask turn is enough, no need to wait for frames.
  const turn = () => new Promise((r) => setTimeout(r, 0));
  const loading = () => vp.querySelector('.chev.loading') !== null;
  const scrollTo = (top) => { vp.scrollTop = top; vp.dispatchEvent(new Event('scroll')); };
  scrollTo(0);
  await turn();
  let expanded = 0;
  let idle = 0;
  for (;;) {
    const collapsed = [...vp.querySelectorAll('.row[aria-expanded="false"]')].filter((r) => !r.querySelector('.chev.loading'));
    if (collapsed.length > 0) {
      for (const r of collapsed) r.querySelector('.twisty').click();
      expanded += collapsed.length;
      idle = 0;
      do await turn(); while (loading());
      continue;
    }
    const max = spacer.offsetHeight - vp.clientHeight;
    if (vp.scrollTop < max - 1) {
      scrollTo(Math.min(max, vp.scrollTop + vp.clientHeight - rowHeight * 4));
      await turn();
      continue;
    }
    // At the bottom with nothing collapsed in view: done once no listing is on its way.
    await new Promise((r) => setTimeout(r, 20));
    if (!loading() && ++idle > 10) break;
  }
  return { rows: Math.round(spacer.offsetHeight / rowHeight), expanded };
}`;

async function expandAll(page: Page, log: (l: string) => void): Promise<{ rows: number; expanded: number }> {
  const r = await inPage<{ rows: number; expanded: number }>(page, EXPAND_ALL, { rowHeight: ROW_HEIGHT });
  log(`  expanded ${r.expanded} folders: ${r.rows} rows`);
  return r;
}

/** Scrolls the tree one step per animation frame for `seconds`; returns the rAF timestamps. */
const SCROLL = `({ seconds, pixelsPerFrame }) => new Promise((resolve) => {
  const vp = document.querySelector('[data-testid="tree"]');
  const stamps = [];
  const tick = (t) => {
    stamps.push(t);
    if (t - stamps[0] >= seconds * 1000) { resolve(stamps); return; }
    vp.scrollTop += pixelsPerFrame;
    requestAnimationFrame(tick);
  };
  requestAnimationFrame(tick);
})`;

/** Per-frame main-thread work from the trace: top-level task time between consecutive frame starts. */
export function frameWork(events: TraceEvent[], fromUs: number, toUs: number): number[] {
  const threadNames = new Map<string, string>();
  for (const e of events) if (e.ph === 'M' && e.name === 'thread_name') threadNames.set(`${e.pid}:${e.tid}`, String(e.args?.['name']));
  // The page's renderer main thread: the CrRendererMain with the most frame starts in the window.
  const frameStarts = new Map<string, number[]>();
  for (const e of events) {
    if (e.name !== 'BeginMainThreadFrame' || e.ts < fromUs || e.ts > toUs) continue;
    const key = `${e.pid}:${e.tid}`;
    if (threadNames.get(key) !== 'CrRendererMain') continue;
    (frameStarts.get(key) ?? frameStarts.set(key, []).get(key)!).push(e.ts);
  }
  const [main, starts] = [...frameStarts.entries()].sort((a, b) => b[1].length - a[1].length)[0] ?? [];
  if (!main || !starts || starts.length < 2) return [];
  starts.sort((a, b) => a - b);
  const tasks = events.filter((e) => `${e.pid}:${e.tid}` === main && e.ph === 'X' && e.name === 'RunTask' && e.dur !== undefined)
    .sort((a, b) => a.ts - b.ts);
  const work = new Array<number>(starts.length - 1).fill(0);
  let f = 0;
  for (const t of tasks) {
    while (f < starts.length - 1 && t.ts >= starts[f + 1]!) f++;
    if (t.ts < starts[0]! || f >= starts.length - 1) continue;
    work[f]! += t.dur! / 1000;
  }
  return work;
}

export async function measureScroll(opts: ScrollOptions): Promise<ScrollResult> {
  const log = opts.log ?? (() => {});
  if (!existsSync(CHROMIUM)) throw new Error(`${CHROMIUM} is missing`);
  const configDir = await mkdtemp(join(tmpdir(), 'pakscope-bench-web-'));
  let host: { child: ChildProcess; url: string } | undefined;
  let browser: Browser | undefined;
  try {
    const h0 = performance.now();
    host = await startHost(opts.root, opts.aesKeyArg, configDir);
    const hostOpenSeconds = (performance.now() - h0) / 1000;
    log(`  host up in ${hostOpenSeconds.toFixed(1)} s (includes building the renderer and host when stale)`);
    browser = await chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_FLAGS });
    const page = await browser.newPage({ viewport: { width: 1360, height: Number(process.env.BH ?? 16000) }, colorScheme: 'dark' });
    const problems: string[] = [];
    page.on('pageerror', (e) => problems.push(e.message));
    await page.goto(host.url);
    await page.locator('[data-testid="tree"] .row').first().waitFor({ timeout: 120_000 });
    // The page reopens the install named on the command line itself; if that copy lacks the
    // host's --aes-key (the encrypted container locked), add the key in the Keys dialog as a user would.
    const whole = page.locator('.summary').filter({ hasText: `${new Intl.NumberFormat('en-US').format(opts.expectedFiles)} files` });
    const opened = await whole.waitFor({ timeout: 20_000 }).then(() => true, () => false);
    if (!opened) {
      log('  the page opened the install without the AES key: adding it in the Keys dialog');
      await page.getByTestId('keys-open').click();
      await page.getByTestId('keys-input').fill(opts.aesKeyArg);
      await page.getByTestId('keys-add').click();
      await whole.waitFor({ timeout: 120_000 });
      await page.getByTestId('keys-close').click();
    }
    await page.locator('[data-testid="tree"] .row').first().waitFor({ timeout: 120_000 });

    // Rows are not painted while the bench opens folders (a 16,000 px window painted in software
    // would take most of the time); the measured scroll paints them as usual.
    const hide = await page.addStyleTag({ content: '[data-testid="tree"] .row { display: none; }' });

    const e0 = performance.now();
    let { rows, expanded } = await expandAll(page, log);
    // Listings that arrived after their rows left the view leave folders closed: sweep again.
    for (let pass = 0; pass < 3 && rows < opts.expectedRows; pass++) {
      const again = await expandAll(page, log);
      rows = again.rows;
      expanded += again.expanded;
    }
    const expandSeconds = (performance.now() - e0) / 1000;
    if (rows !== opts.expectedRows) log(`  note: ${rows} rows after expanding, ${opts.expectedRows} expected`);

    await hide.evaluate('(el) => el.remove()');
    await page.setViewportSize({ width: 1360, height: 840 });
    await page.evaluate('document.querySelector(\'[data-testid="tree"]\').scrollTop = 0');
    await page.waitForTimeout(1000);

    await browser.startTracing(page, {
      categories: ['devtools.timeline', 'disabled-by-default-devtools.timeline', 'disabled-by-default-devtools.timeline.frame', 'toplevel'],
    });
    const stamps = await inPage<number[]>(page, SCROLL, { seconds: opts.scrollSeconds, pixelsPerFrame: opts.pixelsPerFrame });
    const trace = JSON.parse((await browser.stopTracing()).toString('utf8')) as { traceEvents: TraceEvent[] };
    if (problems.length) throw new Error(`page errors: ${problems.join('; ')}`);

    const intervals = stamps.slice(1).map((t, i) => t - stamps[i]!);
    const frameIntervalMs = percentile(intervals, 50);
    const droppedFrames = intervals.filter((d) => d > 1.5 * (1000 / 60)).length;
    // The trace's clock is not the page's: take the frames of the busiest renderer main thread inside the trace.
    const events = trace.traceEvents;
    const ts = events.filter((e) => e.name === 'BeginMainThreadFrame').map((e) => e.ts);
    const work = frameWork(events, Math.min(...ts), Math.max(...ts));
    if (work.length === 0) throw new Error('the trace holds no frames of the page');
    return {
      p95FrameMs: percentile(work, 95),
      medianFrameMs: percentile(work, 50),
      maxFrameMs: Math.max(...work),
      frames: work.length,
      droppedFrames,
      frameIntervalMs,
      rows,
      expandedFolders: expanded,
      expandSeconds,
      hostOpenSeconds,
    };
  } finally {
    await endSession(browser, host?.child, configDir);
  }
}

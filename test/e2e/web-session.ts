/**
 * What every end-to-end test starts with: `node scripts/web.mjs <path>` (the browser host on a
 * real install, with its own config folder) and headless Chromium on the URL it prints, with
 * console errors and page errors collected so a test can fail on any of them.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium, type Browser, type Page } from 'playwright-core';
import { afterAll, beforeAll, expect } from 'vitest';

export const CHROMIUM = process.env['PAKSCOPE_CHROMIUM'] ?? '/usr/bin/chromium';
export const ROOT = join(import.meta.dirname, '..', '..');
/** Screenshots, looked at by the developers (not compared by the tests). */
export const ARTIFACTS = join(ROOT, 'test-artifacts');
export const haveChromium = existsSync(CHROMIUM);
/**
 * The browser tests are skipped only when asked for by name (PAKSCOPE_SKIP_BROWSER=1, never in
 * CI): a missing browser fails them, so `npm test` cannot pass without having run them.
 */
export const skipBrowser = process.env['PAKSCOPE_SKIP_BROWSER'] === '1' && !process.env['CI'];

if (!haveChromium && !skipBrowser) {
  throw new Error(`${CHROMIUM} is missing: install it (npm test and npm run test:app do, through scripts/ensure-test-tools.mjs; ` +
    'or apt-get install -y chromium), or set PAKSCOPE_SKIP_BROWSER=1 to skip the browser tests knowingly');
}

/** UI waits: generous, the machine may be busy. */
export const poll = <T>(fn: () => Promise<T> | T, timeout = 10_000) => expect.poll(fn, { timeout, interval: 50 });

/** Filters the tree and selects a row (a package row shows in the package view once one is open). */
export async function selectInTree(page: Page, filter: string, path: string): Promise<void> {
  await page.getByTestId('filter').fill(filter);
  await page.waitForTimeout(400); // the filter applies after a pause, then the tree is rebuilt
  const row = page.getByTestId('tree').locator(`.row[data-path="${path}"]`);
  await row.click();
  await poll(() => row.getAttribute('aria-selected'), 30_000).toBe('true');
}

/**
 * Selects a project's content file in the tree (`<Project>/Content/<rest>.uasset|.umap`), opens it
 * with Enter, and waits for its package view: the name shown is `/Game/<rest>`.
 */
export async function openPackageFromTree(page: Page, filter: string, path: string): Promise<void> {
  await selectInTree(page, filter, path);
  await page.keyboard.press('Enter');
  const name = path.replace(/^[^/]+\/Content\//, '/Game/').replace(/\.(uasset|umap)$/, '');
  await poll(() => page.getByTestId('package-name').textContent(), 30_000).toBe(name);
}

/** A WebGL canvas read back: how many pixels differ from the background (its first pixel), and a hash of them all. */
export function canvasPixels(page: Page, testId: string): Promise<{ drawn: number; hash: number; width: number }> {
  return page.getByTestId(testId).evaluate((c: HTMLCanvasElement) => {
    const copy = document.createElement('canvas');
    copy.width = c.width;
    copy.height = c.height;
    const g = copy.getContext('2d')!;
    g.drawImage(c, 0, 0);
    const d = g.getImageData(0, 0, c.width, c.height).data;
    const bg = [d[0]!, d[1]!, d[2]!];
    let drawn = 0, hash = 0;
    for (let i = 0; i < d.length; i += 4) {
      if (Math.abs(d[i]! - bg[0]!) + Math.abs(d[i + 1]! - bg[1]!) + Math.abs(d[i + 2]! - bg[2]!) > 24) drawn++;
      hash = (hash * 31 + d[i]! + d[i + 1]! * 7 + d[i + 2]! * 13) | 0;
    }
    return { drawn, hash, width: c.width };
  });
}

export interface WebSession {
  page: Page;
  browser: Browser;
  /** The URL the host printed (with its token). */
  url: string;
  /** The host's config folder (AES keys, recent installs, .usmap choices). */
  configDir: string;
  /** Console and page errors so far; refused API calls are left out (the page shows them). */
  problems: string[];
  /** What the host printed. */
  output(): string;
  /** Stops the host only (the page stays): what a user sees when `npm run web` is stopped. */
  stopHost(): Promise<void>;
  close(): Promise<void>;
}

/**
 * Chromium flags for WebGL without a GPU: SwiftShader, Chromium's software renderer (the mesh
 * view's tests; --disable-gpu alone leaves WebGL out).
 */
export const WEBGL_ARGS = ['--use-angle=swiftshader', '--enable-unsafe-swiftshader', '--ignore-gpu-blocklist'];

/** Starts the browser host on `path` and a Chromium page (1360 x 840, dark) ready to open its URL; `args` added to Chromium's. */
export async function startWebSession(path: string, args: string[] = []): Promise<WebSession> {
  await mkdir(ARTIFACTS, { recursive: true });
  const configDir = await mkdtemp(join(tmpdir(), 'pakscope-e2e-'));
  // The first run builds the renderer and the host; later runs start in about a second.
  const host = await startHost(path, configDir);
  const browser = await chromium.launch({
    executablePath: CHROMIUM,
    args: [
      '--headless', '--no-sandbox', ...(args.length > 0 ? [] : ['--disable-gpu']), '--disable-quic', '--no-first-run', '--disable-background-networking',
      '--disable-component-update', '--disable-sync', ...args,
    ],
  });
  const page = await browser.newPage({ viewport: { width: 1360, height: 840 }, colorScheme: 'dark' });
  const problems: string[] = [];
  page.on('console', (m) => {
    if (m.type() !== 'error') return;
    // A refused API call is shown in the page (the tests assert it); Chromium also logs its status.
    if (m.text().startsWith('Failed to load resource') && new URL(m.location().url).pathname.startsWith('/api/')) return;
    problems.push(`console: ${m.text()} (${m.location().url})`);
  });
  page.on('pageerror', (e) => problems.push(`page error: ${e.message}`));
  // The page asks before it opens a typed path (issue 25, 4): the tests type only paths they mean.
  page.on('dialog', (d) => void (d.type() === 'confirm' ? d.accept() : d.dismiss()));
  const stopHost = async (): Promise<void> => {
    if (host.child.exitCode !== null || host.child.signalCode !== null) return;
    const exited = new Promise((r) => host.child.once('exit', r));
    host.child.kill('SIGTERM');
    await exited;
  };
  return {
    page, browser, url: host.url, configDir, problems, output: host.output, stopHost,
    async close() {
      await browser.close();
      await stopHost();
      await rm(configDir, { recursive: true, force: true });
    },
  };
}

/** Starts `node scripts/web.mjs <path>` and resolves the URL it prints last. */
function startHost(path: string, configDir: string): Promise<{ child: ChildProcess; url: string; output: () => string }> {
  const child = spawn(process.execPath, [join(ROOT, 'scripts/web.mjs'), path], {
    cwd: ROOT,
    env: { ...process.env, PAKSCOPE_CONFIG_DIR: configDir },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  let err = '';
  child.stderr!.on('data', (d: Buffer) => { err += d.toString(); });
  return new Promise((done, fail) => {
    child.stdout!.on('data', (d: Buffer) => {
      out += d.toString();
      const last = out.split('\n').filter(Boolean).at(-1) ?? '';
      if (out.endsWith('\n') && /^http:\/\/127\.0\.0\.1:\d+\/\?token=[A-Za-z0-9_-]{43}(&|$)/.test(last)) {
        done({ child, url: last, output: () => out + err });
      }
    });
    child.on('exit', (code) => fail(new Error(`npm run web exited with ${code}:\n${out}\n${err}`)));
  });
}

/**
 * Registers beforeAll/afterAll for a describe block: a session on `path`, started once for its
 * tests and closed after them. Read `.page`, `.problems` and `.session` inside the tests.
 */
export function useWebSession(path: string, args: string[] = []): { readonly session: WebSession; readonly page: Page; readonly problems: string[] } {
  let session: WebSession | undefined;
  beforeAll(async () => { session = await startWebSession(path, args); }, 180_000);
  afterAll(async () => { await session?.close(); });
  const started = (): WebSession => {
    if (!session) throw new Error('the web session has not started');
    return session;
  };
  return {
    get session() { return started(); },
    get page() { return started().page; },
    get problems() { return started().problems; },
  };
}

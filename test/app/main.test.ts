import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';
import type { Dialogs } from '../../src/backend/dialogs.js';
import { startApp, builtPaths, type AppBackend, type AppConfig } from '../../src/main/app.js';
import { pathFromArgv } from '../../src/main/argv.js';
import { nativeDialogs } from '../../src/main/dialogs.js';
import { contentSecurityPolicy, withCsp } from '../../src/shared/csp.js';
import { DROP_CHANNEL, EVENT_CHANNEL, ipcChannel } from '../../src/main/ipc-protocol.js';
import { appUrlMatcher, mainWindowOptions } from '../../src/main/window.js';
import { API_METHODS, type ApiEvent } from '../../src/shared/api.js';
import { FakeShell } from './fake-electron.js';

const ROOT = join(import.meta.dirname, '..', '..');
const RENDERER = '/app/out/renderer/index.html';
const PAGE = pathToFileURL(RENDERER).href;

/** A backend that records calls; listDir answers one entry. */
function recordingBackend() {
  const calls: { method: string; req: unknown }[] = [];
  const listeners = new Set<(e: ApiEvent) => void>();
  let dialogs: Dialogs | null = null;
  let closed = 0;
  const granted: string[] = [];
  const record = (method: string) => async (req?: unknown) => {
    calls.push({ method, req });
    if (method === 'listDir') return [{ name: 'Game', path: 'Game', isDir: true, size: 10, fileCount: 2 }];
    if (method === 'pickPath') return (req as { kind: string }).kind === 'folder' ? dialogs!.pickFolder() : dialogs!.pickFile();
    if (method === 'fileDetails') throw new Error('Game/x.uasset: no such file in this install');
    return null;
  };
  const backend = {
    ...Object.fromEntries(API_METHODS.map((m) => [m, record(m)])),
    onEvent: (l: (e: ApiEvent) => void) => { listeners.add(l); return () => listeners.delete(l); },
    emit: (e: ApiEvent) => { for (const l of listeners) l(e); },
    close: async () => { closed++; },
    grantPath: (path: string) => { granted.push(path); },
  } as unknown as AppBackend;
  return {
    backend, calls, listeners, granted,
    get closed() { return closed; },
    factory: ((deps) => { dialogs = deps.dialogs; return backend; }) as AppConfig['createBackend'],
  };
}

async function boot(opts: { argv?: string[]; devServerUrl?: string; lock?: boolean; packaged?: boolean } = {}) {
  const shell = new FakeShell();
  if (opts.packaged === false) shell.app.isPackaged = false;
  if (opts.lock === false) shell.lock = false;
  const rec = recordingBackend();
  const running = await startApp(shell, {
    argv: opts.argv ?? ['/opt/PakScope/pakscope'],
    cwd: '/home/user',
    preloadPath: '/app/out/preload/index.cjs',
    rendererFile: RENDERER,
    ...(opts.devServerUrl ? { devServerUrl: opts.devServerUrl } : {}),
    createBackend: rec.factory,
  });
  return { shell, rec, running, window: shell.windows[0] };
}

describe('window options', () => {
  it('isolates and sandboxes the renderer, without Node', () => {
    const o = mainWindowOptions({ preload: '/p/index.cjs', dark: false });
    expect(o.webPreferences).toEqual({
      preload: '/p/index.cjs',
      contextIsolation: true,
      sandbox: true,
      nodeIntegration: false,
      nodeIntegrationInWorker: false,
      nodeIntegrationInSubFrames: false,
      webSecurity: true,
      allowRunningInsecureContent: false,
      webviewTag: false,
      navigateOnDragDrop: false,
      spellcheck: false,
    });
    expect(o.show).toBe(false);
    expect(o.backgroundColor).toBe('#f6f7f9');
    expect(mainWindowOptions({ preload: '/p', dark: true }).backgroundColor).toBe('#1b1d21');
  });

  it('builds paths beside out/main', () => {
    expect(builtPaths('/app/out/main')).toEqual({
      preloadPath: '/app/out/preload/index.cjs',
      rendererFile: '/app/out/renderer/index.html',
      workerFile: '/app/out/main/worker.js',
    });
  });
});

describe('content security policy', () => {
  const header = contentSecurityPolicy('header');
  const directives = new Map(header.split('; ').map((d) => [d.split(' ')[0]!, d.split(' ').slice(1)]));

  it('runs only the app\'s own scripts: no eval, no inline script, no remote origin', () => {
    expect(directives.get('default-src')).toEqual(["'self'"]);
    expect(directives.get('script-src')).toEqual(["'self'"]);
    expect(directives.get('object-src')).toEqual(["'none'"]);
    expect(directives.get('base-uri')).toEqual(["'none'"]);
    expect(directives.get('frame-ancestors')).toEqual(["'none'"]);
    expect(header).not.toMatch(/unsafe-eval|wasm-unsafe-eval|https?:|\*/);
    // Exactly the two exceptions Monaco needs.
    expect(directives.get('style-src')).toEqual(["'self'", "'unsafe-inline'"]);
    expect(directives.get('worker-src')).toEqual(["'self'", 'blob:']);
    // And the package view's thumbnails (blob: URLs the page makes from the bytes it was sent).
    expect(directives.get('img-src')).toEqual(["'self'", 'blob:']);
    // And the sound view's audio (a blob: URL of the decoded WAV).
    expect(directives.get('media-src')).toEqual(["'self'", 'blob:']);
    expect(header.match(/unsafe-inline/g)).toHaveLength(1);
  });

  it('is the same in index.html, minus frame-ancestors (ignored in a meta tag)', () => {
    const html = readFileSync(join(ROOT, 'src/renderer/index.html'), 'utf8');
    const meta = /<meta http-equiv="Content-Security-Policy" content="([^"]+)"/.exec(html)?.[1];
    expect(meta).toBe(contentSecurityPolicy('meta'));
    expect(contentSecurityPolicy('meta')).toBe(header.replace("; frame-ancestors 'none'", ''));
  });

  it('replaces any CSP header a response brings', () => {
    const out = withCsp({ 'content-security-policy': ["default-src *"], 'Content-Type': ['text/html'] });
    expect(out).toEqual({ 'Content-Type': ['text/html'], 'Content-Security-Policy': [header] });
  });
});

describe('startApp with a fake Electron', () => {
  it('sets the CSP on every response and refuses every permission but clipboard writes', async () => {
    const { shell } = await boot();
    let headers: Record<string, string[]> = {};
    shell.headerHook!({ url: 'http://localhost:5173/', responseHeaders: { 'Content-Security-Policy': ['default-src *'] } }, (r) => { headers = r.responseHeaders; });
    expect(headers['Content-Security-Policy']).toEqual([contentSecurityPolicy('header')]);
    for (const p of ['media', 'geolocation', 'notifications', 'openExternal', 'fullscreen', 'clipboard-read', 'hid', 'serial']) {
      expect(shell.permissionPolicy!(p), p).toBe(false);
    }
    expect(shell.permissionPolicy!('clipboard-sanitized-write')).toBe(true);
  });

  it('opens one hardened window: no navigation, no new windows, no webviews', async () => {
    const { shell, window } = await boot();
    expect(shell.windows).toHaveLength(1);
    expect(window!.options.webPreferences).toMatchObject({ contextIsolation: true, sandbox: true, nodeIntegration: false, webSecurity: true, preload: '/app/out/preload/index.cjs' });
    const wc = window!.webContents;
    expect(wc.emitPreventable('will-navigate', 'https://evil.example/')).toBe(true);
    expect(wc.emitPreventable('will-navigate', PAGE)).toBe(true);
    expect(wc.emitPreventable('will-redirect', 'https://evil.example/')).toBe(true);
    expect(wc.emitPreventable('will-frame-navigate', 'https://evil.example/')).toBe(true);
    expect(wc.emitPreventable('will-attach-webview')).toBe(true);
    expect(wc.openHandler!({ url: 'https://example.com/' })).toEqual({ action: 'deny' });
    expect(window!.loaded).toEqual({ kind: 'file', target: RENDERER, query: {} });
    window!.emit('ready-to-show');
    expect(window!.shown).toBe(true);
  });

  it('registers one IPC handler per API method', async () => {
    const { shell } = await boot();
    expect([...shell.handlers.keys()].sort()).toEqual([...API_METHODS.map(ipcChannel), DROP_CHANNEL].sort());
  });

  it('validates every request before the backend sees it', async () => {
    const { shell, rec } = await boot();
    const ok = await shell.invoke(ipcChannel('listDir'), PAGE, { installId: 'a', path: '' });
    expect(ok).toEqual({ ok: true, value: [{ name: 'Game', path: 'Game', isDir: true, size: 10, fileCount: 2 }] });
    expect(rec.calls).toEqual([{ method: 'listDir', req: { installId: 'a', path: '' } }]);

    const bad = [
      { installId: 'a', path: '', extra: 1 },
      { installId: 7, path: '' },
      { path: '' },
      'listDir',
      null,
      { installId: 'a', path: 'x\0y' },
    ];
    for (const req of bad) {
      const r = await shell.invoke(ipcChannel('listDir'), PAGE, req) as { ok: boolean; error: { name: string; message: string } };
      expect(r.ok).toBe(false);
      expect(r.error.name).toBe('ApiValidationError');
      expect(r.error.message).toMatch(/^invalid request to listDir: /);
    }
    const neg = await shell.invoke(ipcChannel('readFile'), PAGE, { installId: 'a', path: 'p', length: -1 }) as { ok: boolean };
    expect(neg.ok).toBe(false);
    const twoArgs = await shell.invoke(ipcChannel('appInfo'), PAGE, undefined, 'more') as { ok: boolean };
    expect(twoArgs.ok).toBe(false);
    expect(rec.calls).toHaveLength(1);
  });

  // Issue 25, finding 5: the same in Electron's IPC; what the backend gets has no prototype.
  it('refuses inherited names as fields, and hands the backend objects without a prototype', async () => {
    const { shell, rec } = await boot();
    for (const field of ['__proto__', 'constructor', 'toString', 'hasOwnProperty']) {
      const req = JSON.parse(`{"installId":"a","path":"","${field}":{"x":1}}`) as unknown;
      const r = await shell.invoke(ipcChannel('listDir'), PAGE, req) as { ok: boolean; error: { message: string } };
      expect(r, field).toMatchObject({ ok: false, error: { message: `invalid request to listDir: unknown field "${field}"` } });
    }
    expect(rec.calls).toHaveLength(0);
    await shell.invoke(ipcChannel('listDir'), PAGE, { installId: 'a', path: '' });
    expect(Object.getPrototypeOf(rec.calls[0]!.req)).toBeNull();
  });

  // Issue 25, finding 4: a dropped file's path comes from the preload (webUtils), and only from our page.
  it('takes the path of a dropped file from its own page only, as given by the user', async () => {
    const { shell, rec } = await boot();
    expect(await shell.invoke(DROP_CHANNEL, PAGE, '/games/Dropped/Paks')).toEqual({ ok: true, value: null });
    for (const [url, args] of [['https://evil.example/', ['/etc']], [PAGE, ['relative/x']], [PAGE, ['/a\0b']], [PAGE, [7]], [PAGE, ['/x', '/y']]] as const) {
      expect(await shell.invoke(DROP_CHANNEL, url, ...args)).toMatchObject({ ok: false });
    }
    expect(rec.granted).toEqual(['/games/Dropped/Paks']);
  });

  it('asks natively before the page opens a path the user typed, Cancel by default', async () => {
    const shell = new FakeShell();
    const dialogs = nativeDialogs(shell, () => null);
    shell.messageBoxAnswer = 0;
    expect(await dialogs.confirmOpen('/etc', 'install')).toBe(false);
    shell.messageBoxAnswer = 1;
    expect(await dialogs.confirmOpen('/games/Foo', 'mappings')).toBe(true);
    expect(shell.messageBoxes.map((b) => [b.message, b.buttons, b.defaultId, b.cancelId])).toEqual([
      ['Open /etc?', ['Cancel', 'Open'], 0, 0],
      ['Read the mappings file /games/Foo?', ['Cancel', 'Use'], 0, 0],
    ]);
  });

  it('refuses requests from any page but its own', async () => {
    const { shell, rec } = await boot();
    for (const url of ['https://evil.example/', 'file:///tmp/other.html', null]) {
      const r = await shell.invoke(ipcChannel('recentInstalls'), url) as { ok: boolean; error: { message: string } };
      expect(r).toMatchObject({ ok: false });
      expect(r.error.message).toMatch(/unknown page was refused/);
    }
    // The page itself, with a query or a hash, is fine.
    expect(await shell.invoke(ipcChannel('recentInstalls'), `${PAGE}?open=%2Fx#top`)).toEqual({ ok: true, value: null });
    expect(rec.calls.map((c) => c.method)).toEqual(['recentInstalls']);
  });

  it('passes backend errors through with their message', async () => {
    const { shell } = await boot();
    const r = await shell.invoke(ipcChannel('fileDetails'), PAGE, { installId: 'a', path: 'Game/x.uasset' });
    expect(r).toEqual({ ok: false, error: { name: 'Error', message: 'Game/x.uasset: no such file in this install' } });
  });

  it('forwards backend events to the window', async () => {
    const { rec, window } = await boot();
    rec.backend.emit({ type: 'progress', installId: 'i', phase: 'index', done: 1, total: 3 });
    expect(window!.webContents.sent).toEqual([{ channel: EVENT_CHANNEL, payload: { type: 'progress', installId: 'i', phase: 'index', done: 1, total: 3 } }]);
    window!.emit('closed');
    expect(rec.listeners.size).toBe(0);
  });

  it('answers pickPath with the native dialog', async () => {
    const { shell } = await boot();
    shell.dialogAnswer = { canceled: false, filePaths: ['/games/Fortnite/Paks'] };
    expect(await shell.invoke(ipcChannel('pickPath'), PAGE, { kind: 'folder' })).toEqual({ ok: true, value: '/games/Fortnite/Paks' });
    expect(shell.dialogCalls[0]!.properties).toEqual(['openDirectory']);
    shell.dialogAnswer = { canceled: true, filePaths: [] };
    expect(await shell.invoke(ipcChannel('pickPath'), PAGE, { kind: 'file' })).toEqual({ ok: true, value: null });
    expect(shell.dialogCalls[1]!.properties).toEqual(['openFile']);
    expect(await shell.invoke(ipcChannel('pickPath'), PAGE, { kind: 'disk' })).toMatchObject({ ok: false });
  });

  it('opens a path from the command line at start, in the page URL', async () => {
    const { window, running, rec } = await boot({ argv: ['/opt/PakScope/pakscope', '--enable-logging', 'Games/Foo'] });
    expect(running!.initialPath).toBe('/home/user/Games/Foo');
    expect(rec.granted).toEqual(['/home/user/Games/Foo']); // the user gave it: the page may open it
    expect(window!.loaded).toEqual({ kind: 'file', target: RENDERER, query: { open: '/home/user/Games/Foo' } });
  });

  it('hands the path of a second launch and of open-file to the page', async () => {
    const { shell, window } = await boot();
    shell.secondInstance!(['/opt/PakScope/pakscope', 'Paks'], '/games/Bar');
    shell.openFile!('/games/Baz/pakchunk0-Windows.utoc');
    expect(window!.webContents.sent).toEqual([
      { channel: EVENT_CHANNEL, payload: { type: 'open-path', path: '/games/Bar/Paks' } },
      { channel: EVENT_CHANNEL, payload: { type: 'open-path', path: '/games/Baz/pakchunk0-Windows.utoc' } },
    ]);
    expect(window!.focused).toBe(2);
  });

  it('loads the dev server in development and trusts only its origin', async () => {
    const { shell, window } = await boot({ devServerUrl: 'http://localhost:5173/', argv: ['/x/electron', '.', '/games/A'], packaged: false });
    expect(window!.loaded).toEqual({ kind: 'url', target: 'http://localhost:5173/?open=%2Fgames%2FA' });
    expect(await shell.invoke(ipcChannel('recentInstalls'), 'http://localhost:5173/index.html')).toMatchObject({ ok: true });
    expect(await shell.invoke(ipcChannel('recentInstalls'), 'http://localhost:5174/')).toMatchObject({ ok: false });
  });

  it('quits when another instance already runs', async () => {
    const { shell, running } = await boot({ lock: false });
    expect(running).toBeNull();
    expect(shell.quitCalls).toBe(1);
    expect(shell.windows).toHaveLength(0);
  });

  it('closes the backend, then quits, when the window is gone', async () => {
    const { shell, rec } = await boot();
    shell.allClosed!();
    await new Promise((r) => setTimeout(r, 0));
    expect(rec.closed).toBe(1);
    expect(shell.quitCalls).toBe(1);
  });
});

describe('pathFromArgv', () => {
  it('takes the last non-switch argument after the executable (and the app path in development)', () => {
    expect(pathFromArgv(['/opt/pakscope'], true, '/cwd')).toBeNull();
    expect(pathFromArgv(['/opt/pakscope', '/games/A'], true, '/cwd')).toBe('/games/A');
    expect(pathFromArgv(['/opt/pakscope', '--inspect=9229', 'rel/B', '--no-sandbox'], true, '/cwd')).toBe('/cwd/rel/B');
    expect(pathFromArgv(['/x/electron', '.', '/games/C'], false, '/cwd')).toBe('/games/C');
    expect(pathFromArgv(['/x/electron', '.'], false, '/cwd')).toBeNull();
    expect(pathFromArgv(['/opt/pakscope', '--', '/games/D'], true, '/cwd')).toBe('/games/D');
  });
});

describe('appUrlMatcher', () => {
  it('matches index.html (any query or hash) and nothing else', () => {
    const m = appUrlMatcher({ rendererFile: RENDERER });
    expect(m(PAGE)).toBe(true);
    expect(m(`${PAGE}?open=x`)).toBe(true);
    expect(m('file:///app/out/renderer/other.html')).toBe(false);
    expect(m('https://example.com/')).toBe(false);
  });
});

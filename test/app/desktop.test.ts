// The desktop side of the main process, with a fake Electron: paths from the OS (command line,
// second launch, macOS open-file before and after the window exists), the application menu,
// the window state file, the title and the theme.
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { isContainerFile } from '../../src/core/install/scan.js';
import { isPackageFileName } from '../../src/core/package/package-files.js';
import { startApp, type AppBackend, type AppConfig } from '../../src/main/app.js';
import { absolutePath, pathFromArgv, pathFromSecondInstance } from '../../src/main/argv.js';
import { OPEN_FILE_DIALOG, nativeDialogs } from '../../src/main/dialogs.js';
import type { MenuItemTemplate, Rect } from '../../src/main/electron-shell.js';
import { FILE_TYPES, OPENABLE_EXTENSIONS } from '../../src/main/file-types.js';
import { EVENT_CHANNEL, ipcChannel } from '../../src/main/ipc-protocol.js';
import { aboutDetail, buildMenuTemplate, type MenuActions, type MenuState } from '../../src/main/menu.js';
import { installName, windowTitle } from '../../src/main/title.js';
import {
  fileStateStore, parseWindowState, placeWindow, serializeWindowState, type StateStore,
} from '../../src/main/window-state.js';
import { API_METHODS, type ApiEvent, type InstallSummary } from '../../src/shared/api.js';
import { FakeShell, FakeWindow } from './fake-electron.js';

const RENDERER = '/app/out/renderer/index.html';
const PAGE = `file://${RENDERER}`;
const tempDirs: string[] = [];
afterAll(async () => { await Promise.all(tempDirs.map((d) => rm(d, { recursive: true, force: true }))); });

/** A backend whose openInstall answers an install at the path asked for. */
function fakeBackend() {
  const listeners = new Set<(e: ApiEvent) => void>();
  let closed = 0;
  let n = 0;
  /** Paths the backend was told the user gave (path-grants.ts). */
  const granted: string[] = [];
  const summary = (root: string): InstallSummary => ({ id: `install-${++n}`, root, containers: [], fileCount: 0, totalSize: 0 });
  const backend = {
    ...Object.fromEntries(API_METHODS.map((m) => [m, async () => null])),
    openInstall: async (req: { path: string }) => summary(req.path),
    closeInstall: async () => undefined,
    onEvent: (l: (e: ApiEvent) => void) => { listeners.add(l); return () => listeners.delete(l); },
    emit: (e: ApiEvent) => { for (const l of listeners) l(e); },
    close: async () => { closed++; },
    grantPath: (path: string) => { granted.push(path); },
  } as unknown as AppBackend;
  return { backend, granted, get closed() { return closed; } };
}

function memoryStore(text: string | null = null): StateStore & { text: string | null; writes: number } {
  const store = {
    text,
    writes: 0,
    read: () => store.text,
    write: (t: string) => { store.text = t; store.writes++; },
  };
  return store;
}

interface BootOptions {
  argv?: string[];
  packaged?: boolean;
  platform?: string;
  lock?: boolean;
  store?: StateStore;
  recent?: string[];
  displays?: Rect[];
  /** Replaces the fake's whenReady (to send open-file before ready). */
  ready?: Promise<unknown>;
  /** Holds the page load until it resolves. */
  loadGate?: Promise<void>;
  shell?: FakeShell;
}

function boot(o: BootOptions = {}) {
  const shell = o.shell ?? new FakeShell();
  if (o.packaged === false) shell.app.isPackaged = false;
  if (o.platform) shell.platform = o.platform;
  if (o.lock === false) shell.lock = false;
  if (o.displays) shell.displays = o.displays;
  if (o.ready) shell.app.whenReady = () => o.ready!.then(() => undefined);
  if (o.loadGate) {
    shell.createWindow = (options) => {
      const w = new FakeWindow(options);
      w.loadFile = async (file, opts) => {
        await o.loadGate;
        w.loaded = { kind: 'file', target: file, ...(opts?.query ? { query: opts.query } : {}) };
      };
      shell.windows.push(w);
      return w;
    };
  }
  const fb = fakeBackend();
  const store = o.store ?? memoryStore();
  let recent = o.recent ?? [];
  const config: AppConfig = {
    argv: o.argv ?? ['/opt/PakScope/pakscope'],
    cwd: '/home/user',
    preloadPath: '/app/out/preload/index.cjs',
    rendererFile: RENDERER,
    stateStore: store,
    recentInstalls: async () => recent,
    createBackend: () => fb.backend,
  };
  const started = startApp(shell, config);
  return {
    shell, fb, store, started,
    setRecent: (list: string[]) => { recent = list; },
    window: () => shell.windows[0]!,
  };
}

/** The events the page received, in order. */
function pageEvents(w: FakeWindow): unknown[] {
  return w.webContents.sent.filter((s) => s.channel === EVENT_CHANNEL).map((s) => s.payload);
}

const tick = () => new Promise((r) => setTimeout(r, 0));

/** The menu item under a path of labels (mnemonic "&" ignored), e.g. ['File', 'Open Recent']. */
function findItem(menu: MenuItemTemplate[], path: string[]): MenuItemTemplate {
  let items = menu;
  let found: MenuItemTemplate | undefined;
  for (const label of path) {
    found = items.find((i) => i.label?.replace(/&(?!&)/g, '') === label || i.id === label);
    if (!found) throw new Error(`no menu item "${label}" in ${items.map((i) => i.label ?? i.role ?? i.type).join(', ')}`);
    items = found.submenu ?? [];
  }
  return found!;
}

function allItems(menu: MenuItemTemplate[]): MenuItemTemplate[] {
  return menu.flatMap((i) => [i, ...allItems(i.submenu ?? [])]);
}

describe('paths from a command line', () => {
  it('skips the executable, switches and (in development) the app path, and takes the last path', () => {
    expect(pathFromArgv(['/opt/PakScope/pakscope', '--no-sandbox', '/games/A/Paks'], true, '/cwd')).toBe('/games/A/Paks');
    // Chromium adds switches after the arguments in a second instance's argv.
    expect(pathFromArgv(['/opt/PakScope/pakscope', 'x.utoc', '--original-process-start-time=1337'], true, '/games')).toBe('/games/x.utoc');
    // Development: switches may come before the app path; the app path alone opens nothing.
    expect(pathFromArgv(['/x/electron', '--inspect=9229', '.', '/games/B'], false, '/cwd')).toBe('/games/B');
    expect(pathFromArgv(['/x/electron', '--inspect=9229', '.'], false, '/cwd')).toBeNull();
    expect(pathFromArgv(['/x/electron', '/repo/pakscope'], false, '/cwd')).toBeNull();
  });

  it('takes file:// URLs (a .desktop file\'s %U) as local paths', () => {
    expect(pathFromArgv(['/usr/bin/pakscope', 'file:///games/My%20Game/pakchunk0-Windows.utoc'], true, '/cwd'))
      .toBe('/games/My Game/pakchunk0-Windows.utoc');
    expect(absolutePath('file://otherhost/share/a.pak', '/cwd')).toBeNull();
    expect(absolutePath('rel/a.pak', '/home/u')).toBe('/home/u/rel/a.pak');
  });

  it('prefers the path a second launch parsed itself, and falls back to its argv', () => {
    const argv = ['/opt/PakScope/pakscope', '--allow-file-access-from-files', 'B.pak'];
    expect(pathFromSecondInstance(argv, '/games', { path: '/games/A.utoc' }, true)).toBe('/games/A.utoc');
    expect(pathFromSecondInstance(argv, '/games', { path: null }, true)).toBeNull();
    expect(pathFromSecondInstance(argv, '/games', undefined, true)).toBe('/games/B.pak');
    expect(pathFromSecondInstance(argv, '/games', { path: 42 }, true)).toBe('/games/B.pak');
    expect(pathFromSecondInstance(argv, '/games', { path: 'a\0b' }, true)).toBe('/games/B.pak');
  });
});

describe('paths handed over by the OS', () => {
  it('sends its own parsed path with the single-instance lock', async () => {
    const { shell, started } = boot({ argv: ['/opt/PakScope/pakscope', 'Games/Foo'] });
    await started;
    expect(shell.lockData).toEqual({ path: '/home/user/Games/Foo' });
  });

  it('opens a file macOS sends before the app is ready, in the page URL', async () => {
    let ready!: () => void;
    const { shell, started, window } = boot({ platform: 'darwin', ready: new Promise<void>((r) => { ready = () => r(); }) });
    await tick();
    expect(shell.openFile).not.toBeNull(); // listening before ready
    shell.openFile!('/games/Old.pak');
    shell.openFile!('/games/Baz/pakchunk0-Windows.utoc'); // the newest wins
    ready();
    const running = await started;
    expect(running!.initialPath).toBe('/games/Baz/pakchunk0-Windows.utoc');
    expect(window().loaded).toEqual({ kind: 'file', target: RENDERER, query: { open: '/games/Baz/pakchunk0-Windows.utoc' } });
    expect(pageEvents(window())).toEqual([]);
  });

  it('takes a second launch that comes while the first is still starting', async () => {
    let ready!: () => void;
    const { shell, started, window } = boot({ ready: new Promise<void>((r) => { ready = () => r(); }) });
    await tick();
    shell.secondInstance!(['/opt/PakScope/pakscope', 'Early.pak'], '/games', undefined);
    ready();
    expect((await started)!.initialPath).toBe('/games/Early.pak');
    expect(window().loaded?.query).toEqual({ open: '/games/Early.pak' });
  });

  it('holds a path that comes while the page loads until the page listens', async () => {
    let loaded!: () => void;
    const { shell, started, window } = boot({ loadGate: new Promise<void>((r) => { loaded = () => r(); }) });
    await tick();
    shell.openFile!('/games/While/Loading.utoc');
    shell.secondInstance!(['/opt/PakScope/pakscope'], '/', { path: '/games/Second' });
    expect(pageEvents(window())).toEqual([]);
    loaded();
    await started;
    expect(pageEvents(window())).toEqual([{ type: 'open-path', path: '/games/Second' }]);
    expect(window().focused).toBe(1);
  });

  it('hands a second launch\'s path to the running window, or only brings it forward', async () => {
    const { shell, started, window } = boot();
    await started;
    shell.secondInstance!(['/opt/PakScope/pakscope', '--original-process-start-time=1', 'ignored.pak'], '/games', { path: '/games/A/Content/Paks' });
    expect(pageEvents(window())).toEqual([{ type: 'open-path', path: '/games/A/Content/Paks' }]);
    expect(window().focused).toBe(1);
    shell.secondInstance!(['/opt/PakScope/pakscope'], '/games', { path: null });
    expect(pageEvents(window())).toHaveLength(1);
    expect(window().focused).toBe(2);
  });

  it('quits at once when another instance holds the lock, opening no window', async () => {
    const { shell, started } = boot({ lock: false, argv: ['/opt/PakScope/pakscope', '/games/A'] });
    expect(await started).toBeNull();
    expect(shell.lockData).toEqual({ path: '/games/A' });
    expect(shell.quitCalls).toBe(1);
    expect(shell.windows).toHaveLength(0);
  });

  it('names the app for the Windows taskbar only on Windows', async () => {
    const win = boot({ platform: 'win32' });
    await win.started;
    expect(win.shell.appUserModelId).toBe('io.github.pakscope');
    const linux = boot();
    await linux.started;
    expect(linux.shell.appUserModelId).toBeNull();
  });

  it('closes the backend before quitting from the menu (will-quit)', async () => {
    const { shell, started, fb } = boot();
    await started;
    let prevented = 0;
    shell.willQuit!({ preventDefault: () => { prevented++; } });
    expect(prevented).toBe(1);
    await tick();
    expect(fb.closed).toBe(1);
    expect(shell.quitCalls).toBe(1);
    shell.willQuit!({ preventDefault: () => { prevented++; } }); // the second time it goes through
    expect(prevented).toBe(1);
  });
});

describe('the file dialogs', () => {
  it('offers every associated type in Open File and opens one dialog at a time', async () => {
    expect(OPEN_FILE_DIALOG.filters![0]!.extensions).toEqual([...OPENABLE_EXTENSIONS]);
    const shell = new FakeShell();
    let answer!: (r: { canceled: boolean; filePaths: string[] }) => void;
    shell.showOpenDialog = async (_w, options) => {
      shell.dialogCalls.push(options);
      return new Promise((r) => { answer = r; });
    };
    const dialogs = nativeDialogs(shell, () => null);
    const first = dialogs.pickFolder();
    expect(await dialogs.pickFile()).toBeNull(); // refused while the first is open
    expect(shell.dialogCalls).toHaveLength(1);
    answer({ canceled: false, filePaths: ['/games/A'] });
    expect(await first).toBe('/games/A');
    const again = dialogs.pickFile();
    answer({ canceled: true, filePaths: [] });
    expect(await again).toBeNull();
    expect(shell.dialogCalls.map((c) => c.properties)).toEqual([['openDirectory'], ['openFile']]);
  });

  it('asks where to save a conversion, with the format\'s filter and the suggested name', async () => {
    const shell = new FakeShell();
    const dialogs = nativeDialogs(shell, () => null);
    expect(await dialogs.pickSaveFile({ name: 'T_BC7.png', format: 'png' })).toBeNull(); // cancelled
    shell.saveDialogAnswer = { canceled: false, filePath: '/home/me/T_BC7.dds' };
    expect(await dialogs.pickSaveFile({ name: 'T_BC7.dds', format: 'dds' })).toBe('/home/me/T_BC7.dds');
    expect(shell.saveDialogCalls).toEqual([
      { title: 'Save as PNG', defaultPath: 'T_BC7.png', filters: [{ name: 'PNG image', extensions: ['png'] }] },
      { title: 'Save as DDS', defaultPath: 'T_BC7.dds', filters: [{ name: 'DirectDraw Surface', extensions: ['dds'] }] },
    ]);
  });

  it('associates only types the core opens', () => {
    for (const ext of OPENABLE_EXTENSIONS) {
      const file = `/games/x/file.${ext}`;
      expect(isContainerFile(file) || isPackageFileName(file) || ext === 'ucas', ext).toBe(true);
    }
    expect(new Set(FILE_TYPES.map((t) => t.name)).size).toBe(FILE_TYPES.length);
  });
});

const actionsLog = (): { log: string[]; actions: MenuActions } => {
  const log: string[] = [];
  return {
    log,
    actions: {
      openFolder: () => log.push('openFolder'),
      openFile: () => log.push('openFile'),
      openRecent: (p) => log.push(`openRecent ${p}`),
      exportFiles: () => log.push('export'),
      closeInstall: () => log.push('closeInstall'),
      closeTab: () => log.push('closeTab'),
      setPane: (p, v) => log.push(`pane ${p} ${v}`),
      about: () => log.push('about'),
    },
  };
};

const baseState: MenuState = {
  platform: 'linux', packaged: true, recent: [], installOpen: false, panes: { sidebar: true, details: true },
};

describe('the menu template', () => {
  it('has File, Edit, View and Help with the standard shortcuts', () => {
    const { actions, log } = actionsLog();
    const menu = buildMenuTemplate({ ...baseState, installOpen: true }, actions);
    expect(menu.map((m) => m.label)).toEqual(['&File', '&Edit', '&View', '&Help']);
    const file = findItem(menu, ['File']).submenu!;
    expect(file.filter((i) => i.type !== 'separator').map((i) => [i.label ?? i.role, i.accelerator ?? null])).toEqual([
      ['Open Folder…', 'CmdOrCtrl+O'],
      ['Open File…', 'CmdOrCtrl+Shift+O'],
      ['Open Recent', null],
      ['Export…', 'CmdOrCtrl+E'],
      ['Close Tab', 'CmdOrCtrl+W'],
      ['Close Install', 'CmdOrCtrl+Shift+W'],
      ['Quit', null],
    ]);
    expect(findItem(menu, ['File', 'Quit']).role).toBe('quit');
    expect(findItem(menu, ['Edit']).submenu!.filter((i) => i.role).map((i) => i.role))
      .toEqual(['undo', 'redo', 'cut', 'copy', 'paste', 'delete', 'selectAll']);
    const view = findItem(menu, ['View']).submenu!;
    expect(view.filter((i) => i.role).map((i) => [i.role, i.accelerator ?? null])).toEqual([
      ['zoomIn', 'CmdOrCtrl+='], ['zoomOut', 'CmdOrCtrl+-'], ['resetZoom', 'CmdOrCtrl+0'], ['togglefullscreen', null],
    ]);
    expect(findItem(menu, ['View', 'Sidebar'])).toMatchObject({ type: 'checkbox', checked: true, accelerator: 'CmdOrCtrl+B' });
    expect(findItem(menu, ['View', 'File Details'])).toMatchObject({ type: 'checkbox', checked: true, accelerator: 'CmdOrCtrl+I' });

    for (const path of [['File', 'Open Folder…'], ['File', 'Open File…'], ['File', 'Export…'], ['File', 'Close Tab'], ['File', 'Close Install'], ['View', 'Sidebar'], ['View', 'File Details'], ['Help', 'About PakScope']]) {
      findItem(menu, path).click!();
    }
    expect(log).toEqual(['openFolder', 'openFile', 'export', 'closeTab', 'closeInstall', 'pane sidebar false', 'pane details false', 'about']);
  });

  it('keeps Reload and the developer tools out of a packaged build', () => {
    const { actions } = actionsLog();
    const roles = (packaged: boolean) => allItems(buildMenuTemplate({ ...baseState, packaged }, actions)).map((i) => i.role);
    expect(roles(true)).not.toContain('reload');
    expect(roles(true)).not.toContain('forceReload');
    expect(roles(true)).not.toContain('toggleDevTools');
    expect(roles(false)).toEqual(expect.arrayContaining(['reload', 'forceReload', 'toggleDevTools']));
  });

  it('disables Export and Close Install without an install', () => {
    const { actions } = actionsLog();
    const menu = buildMenuTemplate(baseState, actions);
    expect(findItem(menu, ['File', 'Export…']).enabled).toBe(false);
    expect(findItem(menu, ['File', 'Close Install']).enabled).toBe(false);
  });

  it('lists the recent installs in Open Recent, "&" shown as it is', () => {
    const { actions, log } = actionsLog();
    const recent = ['/games/Fortnite/FortniteGame/Content/Paks', '/games/R&D/pakchunk0.pak'];
    const submenu = findItem(buildMenuTemplate({ ...baseState, recent }, actions), ['File', 'Open Recent']).submenu!;
    expect(submenu.map((i) => i.label)).toEqual(['/games/Fortnite/FortniteGame/Content/Paks', '/games/R&&D/pakchunk0.pak']);
    submenu[1]!.click!();
    expect(log).toEqual(['openRecent /games/R&D/pakchunk0.pak']);
    const empty = findItem(buildMenuTemplate(baseState, actions), ['File', 'Open Recent']).submenu!;
    expect(empty).toEqual([{ label: 'No Recent Installs', enabled: false }]);
  });

  it('follows macOS: the app menu with About and Quit, a Window menu, no Quit in File', () => {
    const { actions } = actionsLog();
    const menu = buildMenuTemplate({ ...baseState, platform: 'darwin' }, actions);
    expect(menu.map((m) => m.label ?? m.role)).toEqual(['PakScope', 'File', 'Edit', 'View', 'windowMenu', 'Help']);
    expect(menu[0]!.submenu!.map((i) => i.label ?? i.role ?? i.type)).toEqual(
      ['About PakScope', 'separator', 'services', 'separator', 'hide', 'hideOthers', 'unhide', 'separator', 'quit']);
    expect(findItem(menu, ['File']).submenu!.some((i) => i.role === 'quit')).toBe(false);
    expect(findItem(menu, ['Edit']).submenu!.map((i) => i.role)).toContain('pasteAndMatchStyle');
  });

  it('tells every version a bug report needs in About', () => {
    expect(aboutDetail({ app: '1.2.3', electron: '38.8.6', chrome: '140.0.7339.0', node: '22.20.0', v8: '14.0.365', platform: 'linux', arch: 'x64' }))
      .toBe('Version 1.2.3\nElectron 38.8.6\nChromium 140.0.7339.0\nNode.js 22.20.0\nV8 14.0.365\nOS linux x64');
  });
});

describe('the menu in the running app', () => {
  it('opens picked and recent paths in the page and sends the rest as menu commands', async () => {
    const { shell, started, window, fb } = boot({ recent: ['/games/Recent/Paks'] });
    await started;
    await tick();
    shell.dialogAnswer = { canceled: false, filePaths: ['/games/Picked'] };
    findItem(shell.menu, ['File', 'Open Folder…']).click!();
    await tick();
    findItem(shell.menu, ['File', 'Open Recent', '/games/Recent/Paks']).click!();
    findItem(shell.menu, ['File', 'Export…']).click!();
    findItem(shell.menu, ['File', 'Close Install']).click!();
    expect(pageEvents(window())).toEqual([
      { type: 'open-path', path: '/games/Picked' },
      { type: 'open-path', path: '/games/Recent/Paks' },
      { type: 'menu', command: 'export' },
      { type: 'menu', command: 'close-install' },
    ]);
    // The user gave both (issue 25, 4): the page may open them.
    expect(fb.granted).toEqual(['/games/Picked', '/games/Recent/Paks']);
    expect(shell.dialogCalls[0]!.properties).toEqual(['openDirectory']);
  });

  it('follows the install the page opens and closes: title, Export, Close Install, Open Recent', async () => {
    const { shell, started, window, setRecent } = boot();
    await started;
    await tick();
    expect(window().title).toBe('PakScope');
    expect(findItem(shell.menu, ['File', 'Export…']).enabled).toBe(false);

    setRecent(['/games/Fortnite/FortniteGame/Content/Paks']);
    const opened = await shell.invoke(ipcChannel('openInstall'), PAGE, { path: '/games/Fortnite/FortniteGame/Content/Paks' }) as { value: InstallSummary };
    await tick();
    expect(window().title).toBe('PakScope — FortniteGame');
    expect(findItem(shell.menu, ['File', 'Export…']).enabled).toBe(true);
    expect(findItem(shell.menu, ['File', 'Close Install']).enabled).toBe(true);
    expect(findItem(shell.menu, ['File', 'Open Recent']).submenu!.map((i) => i.label)).toEqual(['/games/Fortnite/FortniteGame/Content/Paks']);

    // The page opens the next install, then closes the previous one: the title stays on the new one.
    const next = await shell.invoke(ipcChannel('openInstall'), PAGE, { path: '/games/ut99/Maps/DM-Deck16][.unr' }) as { value: InstallSummary };
    await shell.invoke(ipcChannel('closeInstall'), PAGE, { installId: opened.value.id });
    expect(window().title).toBe('PakScope — DM-Deck16][.unr');
    await shell.invoke(ipcChannel('closeInstall'), PAGE, { installId: next.value.id });
    await tick();
    expect(window().title).toBe('PakScope');
    expect(findItem(shell.menu, ['File', 'Close Install']).enabled).toBe(false);
    // The page's own <title> never renames the window.
    expect(window().emitPreventable('page-title-updated')).toBe(true);
  });

  it('shows About with the versions and copies them on request', async () => {
    const { shell, started } = boot();
    await started;
    shell.messageBoxAnswer = 1;
    findItem(shell.menu, ['Help', 'About PakScope']).click!();
    await tick();
    expect(shell.messageBoxes[0]).toMatchObject({ title: 'About PakScope', message: 'PakScope 1.2.3', buttons: ['OK', 'Copy Versions'] });
    expect(shell.messageBoxes[0]!.detail).toContain('Electron 38.8.6\nChromium 140.0.0.0\nNode.js 22.20.0\nV8 14.0.365.4-electron.0');
    expect(shell.clipboard[0]).toMatch(/^PakScope Version 1\.2\.3, Electron 38\.8\.6, Chromium 140\.0\.0\.0, Node\.js 22\.20\.0, V8 14\.0\.365\.4-electron\.0, OS linux/);
  });

  it('has development items only when unpackaged', async () => {
    const packaged = boot();
    await packaged.started;
    expect(allItems(packaged.shell.menu).map((i) => i.role)).not.toContain('toggleDevTools');
    const dev = boot({ packaged: false, argv: ['/x/electron', '.'] });
    await dev.started;
    expect(allItems(dev.shell.menu).map((i) => i.role)).toContain('toggleDevTools');
  });
});

describe('the window state', () => {
  it('reads what it can of a damaged or hand-edited file', () => {
    const defaults = { bounds: null, maximized: false, panes: { sidebar: true, details: true } };
    expect(parseWindowState(null)).toEqual(defaults);
    expect(parseWindowState('{not json')).toEqual(defaults);
    expect(parseWindowState('[1,2]')).toEqual(defaults);
    expect(parseWindowState(JSON.stringify({ bounds: { x: 10, y: 20, width: 'wide', height: 700 }, maximized: 'yes', panes: { sidebar: false, details: 0 } })))
      .toEqual({ ...defaults, panes: { sidebar: false, details: true } });
    expect(parseWindowState(JSON.stringify({ bounds: { x: 1e9, y: 0, width: 900, height: 700 } })).bounds).toBeNull();
    expect(parseWindowState(JSON.stringify({ bounds: { x: -50.4, y: 30, width: 900.6, height: -1 } })).bounds).toBeNull();
    const state = { bounds: { x: 2000, y: 40, width: 1200, height: 800 }, maximized: true, panes: { sidebar: true, details: false } };
    expect(parseWindowState(serializeWindowState(state))).toEqual(state);
  });

  const primary: Rect = { x: 0, y: 0, width: 1920, height: 1040 };
  const right: Rect = { x: 1920, y: 0, width: 2560, height: 1400 };

  it('puts a window back where it was when that is on a display', () => {
    expect(placeWindow({ x: 2100, y: 100, width: 1400, height: 900 }, [primary, right])).toEqual({ x: 2100, y: 100, width: 1400, height: 900 });
    // Half off the right edge of the primary display is where the user put it: kept.
    expect(placeWindow({ x: 1500, y: 50, width: 1000, height: 700 }, [primary])).toEqual({ x: 1500, y: 50, width: 1000, height: 700 });
  });

  it('brings a window off every display back, centered on the primary one', () => {
    // Saved on the right-hand monitor, which is gone.
    expect(placeWindow({ x: 2100, y: 100, width: 1400, height: 900 }, [primary])).toEqual({ x: 260, y: 70, width: 1400, height: 900 });
    // Title bar above the top edge: unreachable, so it moves too.
    expect(placeWindow({ x: 100, y: -600, width: 1000, height: 700 }, [primary])).toEqual({ x: 460, y: 170, width: 1000, height: 700 });
    // Too big for the only display now: shrunk to it.
    expect(placeWindow({ x: 5000, y: 5000, width: 3000, height: 2000 }, [primary])).toEqual({ x: 0, y: 0, width: 1920, height: 1040 });
    // Still on screen but bigger than its display: shrunk and pulled in.
    expect(placeWindow({ x: 1000, y: 10, width: 2500, height: 1200 }, [primary])).toEqual({ x: 0, y: 0, width: 1920, height: 1040 });
  });

  it('lets the OS center the first window, never below the minimum size', () => {
    expect(placeWindow(null, [primary])).toEqual({ width: 1360, height: 860 });
    expect(placeWindow(null, [{ x: 0, y: 0, width: 1024, height: 600 }])).toEqual({ width: 1024, height: 600 });
    expect(placeWindow(null, [{ x: 0, y: 0, width: 640, height: 400 }])).toEqual({ width: 760, height: 480 });
    expect(placeWindow({ x: 0, y: 0, width: 100, height: 100 }, [])).toEqual({ width: 760, height: 480 });
  });

  it('opens the window as it was closed, and saves it again on close', async () => {
    const store = memoryStore(JSON.stringify({ bounds: { x: 2100, y: 100, width: 1400, height: 900 }, maximized: true, panes: { sidebar: false, details: true } }));
    const { shell, started, window } = boot({ store, displays: [primary, right] });
    await started;
    const w = window();
    expect(w.options).toMatchObject({ x: 2100, y: 100, width: 1400, height: 900, minWidth: 760, minHeight: 480 });
    expect(w.maximized).toBe(true);
    // The page starts with every pane shown; it is told which one the user had hidden.
    expect(pageEvents(w)).toEqual([{ type: 'menu', command: 'hide-sidebar' }]);
    expect(findItem(shell.menu, ['View', 'Sidebar']).checked).toBe(false);

    findItem(shell.menu, ['View', 'File Details']).click!();
    expect(pageEvents(w).at(-1)).toEqual({ type: 'menu', command: 'hide-details' });
    expect(findItem(shell.menu, ['View', 'File Details']).checked).toBe(false);

    w.normalBounds = { x: 300, y: 200, width: 1100, height: 760 };
    w.maximized = false;
    w.emit('close');
    expect(JSON.parse(store.text!)).toEqual({
      version: 1, bounds: { x: 300, y: 200, width: 1100, height: 760 }, maximized: false, panes: { sidebar: false, details: false },
    });

    // A reload (development) starts the page with defaults again: it is told once more.
    w.webContents.sent = [];
    for (const l of w.webContents.listeners.get('did-finish-load') ?? []) (l as () => void)();
    expect(pageEvents(w)).toEqual([{ type: 'menu', command: 'hide-sidebar' }, { type: 'menu', command: 'hide-details' }]);
  });

  it('keeps window-state.json in the folder it is given, replacing it whole', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'pakscope-state-'));
    tempDirs.push(dir);
    const store = fileStateStore(join(dir, 'PakScope'));
    expect(store.read()).toBeNull();
    store.write('{"maximized":true}');
    store.write(serializeWindowState({ bounds: { x: 1, y: 2, width: 800, height: 600 }, maximized: false, panes: { sidebar: true, details: true } }));
    const text = await readFile(join(dir, 'PakScope', 'window-state.json'), 'utf8');
    expect(parseWindowState(text).bounds).toEqual({ x: 1, y: 2, width: 800, height: 600 });
    expect(store.read()).toBe(text);
    // An unwritable place is logged, not thrown: closing the window must never fail.
    await writeFile(join(dir, 'file'), 'x');
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    expect(() => fileStateStore(join(dir, 'file', 'sub')).write('{}')).not.toThrow();
    expect(warn).toHaveBeenCalledWith(expect.stringMatching(/could not save .*window-state\.json/), expect.anything());
    warn.mockRestore();
  });
});

describe('title and theme', () => {
  it('names the install after its folder, or the game above a Paks folder', () => {
    expect(windowTitle(null)).toBe('PakScope');
    expect(windowTitle('/games/Fortnite/FortniteGame/Content/Paks')).toBe('PakScope — FortniteGame');
    expect(installName('C:\\Games\\Palworld\\Pal\\Content\\Paks\\')).toBe('Pal');
    expect(installName('/games/Mod/Paks')).toBe('Mod');
    expect(installName('/games/x/pakchunk0-Windows.utoc')).toBe('pakchunk0-Windows.utoc');
    expect(installName('/games/UnrealTournament')).toBe('UnrealTournament');
    expect(installName('C:\\')).toBe('C:');
    expect(installName('/')).toBe('/');
  });

  it('repaints the window background when the system theme changes', async () => {
    const { shell, started, window } = boot();
    await started;
    expect(window().backgroundColor).toBe('#1b1d21');
    shell.dark = false;
    for (const l of shell.themeListeners) l();
    expect(window().backgroundColor).toBe('#f6f7f9');
  });
});

/**
 * Main-process start-up over the ElectronShell interface: one instance, the CSP on every
 * response, no permissions, the backend behind validated IPC, one hardened window placed where
 * it was last closed, the application menu, and paths from the OS (command line, second launch,
 * macOS open-file, before or after the window exists) opened in the page.
 */
import { join } from 'node:path';
import type { Dialogs } from '../backend/dialogs.js';
import { SafeStorageKeyStore, type KeyStore } from '../backend/keys.js';
import { RecentList } from '../backend/recent.js';
import type { ApiEvent, AppInfo, PakScopeApi } from '../shared/api.js';
import { APP_ID, APP_NAME } from './app-identity.js';
import { pathFromArgv, pathFromSecondInstance, type HandoffData } from './argv.js';
import { withCsp } from '../shared/csp.js';
import { Desktop, observeInstalls } from './desktop.js';
import { nativeDialogs } from './dialogs.js';
import type { ElectronShell, ShellWindow } from './electron-shell.js';
import { registerIpc } from './ipc.js';
import { EVENT_CHANNEL } from './ipc-protocol.js';
import { OpenInbox } from './open-inbox.js';
import { appUrlMatcher, hardenWebContents, mainWindowOptions } from './window.js';
import { fileStateStore, parseWindowState, placeWindow, type StateStore } from './window-state.js';

/** What startApp needs of the backend: the API plus its event stream and shutdown. */
export interface AppBackend extends PakScopeApi {
  onEvent(listener: (event: ApiEvent) => void): () => void;
  /** A path the user gave outside the page (command line, second launch, open-file, menu, drop): the page may open it. */
  grantPath(path: string): void;
  emit(event: ApiEvent): void;
  close(): Promise<void>;
}

export interface AppConfig {
  argv: readonly string[];
  cwd: string;
  preloadPath: string;
  /** out/renderer/index.html */
  rendererFile: string;
  /** `electron-vite dev` serves the renderer from here (ELECTRON_RENDERER_URL). */
  devServerUrl?: string;
  iconPath?: string;
  /** Where the window state is kept; default: window-state.json in the user-data folder. */
  stateStore?: StateStore;
  /**
   * The recent installs for File > Open Recent; default: the backend's recent.json in the
   * user-data folder, read directly (the page's API calls stay the page's).
   */
  recentInstalls?: () => Promise<string[]>;
  createBackend(deps: { dialogs: Dialogs; info: Omit<AppInfo, 'node'>; configDir: string; keyStore: KeyStore }): AppBackend;
}

export interface RunningApp {
  window: ShellWindow;
  backend: AppBackend;
  desktop: Desktop;
  /** The path from the OS the page URL carried at start, if any. */
  initialPath: string | null;
}

export async function startApp(shell: ElectronShell, config: AppConfig): Promise<RunningApp | null> {
  const { app } = shell;
  // Listening from the first moment: macOS sends the file a launch was for before `ready`, and a
  // second launch can come while this one is still starting.
  const inbox = new OpenInbox();
  const launchPath = pathFromArgv(config.argv, app.isPackaged, config.cwd);
  inbox.push(launchPath);
  app.onOpenFile((path) => inbox.push(path));

  // A second launch hands its path (parsed by itself: Chromium may add switches to the argv the
  // first instance sees) to the first window.
  const handoff: HandoffData = { path: launchPath };
  if (!app.requestSingleInstanceLock({ ...handoff })) {
    app.quit();
    return null;
  }
  let window: ShellWindow | null = null;
  const focusWindow = (): void => {
    if (!window || window.isDestroyed()) return;
    if (window.isMinimized()) window.restore();
    window.focus();
  };
  app.onSecondInstance((argv, workingDirectory, data) => {
    const path = pathFromSecondInstance(argv, workingDirectory, data, app.isPackaged);
    if (path) inbox.push(path); // delivering focuses the window
    else focusWindow();
  });
  if (shell.platform === 'win32') app.setAppUserModelId(APP_ID);
  await app.whenReady();

  shell.session.onHeadersReceived((details, callback) => callback({ responseHeaders: withCsp(details.responseHeaders) }));
  shell.session.setPermissionPolicy(isPermissionAllowed);

  const dialogs = nativeDialogs(shell, () => window);
  const backend = config.createBackend({
    dialogs,
    info: { name: APP_NAME, version: app.getVersion(), electron: shell.versions.electron, chrome: shell.versions.chrome, mode: 'electron' },
    configDir: app.getPath('userData'),
    // Remembered AES keys are encrypted with the OS key store.
    keyStore: new SafeStorageKeyStore(app.getPath('userData'), shell.safeStorage),
  });

  const store = config.stateStore ?? fileStateStore(app.getPath('userData'));
  const recentList = new RecentList(app.getPath('userData'));
  const state = parseWindowState(store.read());
  const win = shell.createWindow(mainWindowOptions({
    preload: config.preloadPath,
    dark: shell.prefersDark(),
    ...(config.iconPath ? { icon: config.iconPath } : {}),
    bounds: placeWindow(state.bounds, shell.workAreas()),
  }));
  window = win;
  if (state.maximized) win.maximize();
  hardenWebContents(win.webContents);
  win.on('ready-to-show', () => win.show());

  const desktop = new Desktop({
    shell,
    window: win,
    recentInstalls: config.recentInstalls ?? (() => recentList.list()),
    open: (path) => inbox.push(path),
    pickFolder: dialogs.pickFolder,
    pickFile: dialogs.pickFile,
    store,
    state,
    ...(config.iconPath ? { iconPath: config.iconPath } : {}),
  });
  void desktop.refreshRecent();

  const isAppUrl = appUrlMatcher(config);
  registerIpc(shell.ipcMain, observeInstalls(backend, (root) => desktop.installChanged(root)), isAppUrl, (path) => backend.grantPath(path));

  const unsubscribe = backend.onEvent((event) => {
    if (!win.isDestroyed() && !win.webContents.isDestroyed()) win.webContents.send(EVENT_CHANNEL, event);
  });
  win.on('closed', () => {
    unsubscribe();
    inbox.close();
    window = null;
  });

  // The backend closes (exports stop, files close) before the app goes, however it is quit.
  let closing: Promise<void> | null = null;
  let closed = false;
  const closeThenQuit = (): Promise<void> => {
    closing ??= backend.close().catch((e: unknown) => console.warn('PakScope backend close:', e)).finally(() => {
      closed = true;
      app.quit();
    });
    return closing;
  };
  app.onWindowAllClosed(() => void closeThenQuit());
  app.onWillQuit((event) => {
    if (closed) return;
    event.preventDefault();
    void closeThenQuit();
  });

  // A path known before the page loads goes in its URL, so it opens as the page starts, with no race.
  // Paths from the OS and the menu are the user's: the page may open them.
  const initialPath = inbox.take();
  if (initialPath) backend.grantPath(initialPath);
  if (config.devServerUrl) {
    const url = new URL(config.devServerUrl);
    if (initialPath) url.searchParams.set('open', initialPath);
    await win.loadURL(url.href);
  } else {
    await win.loadFile(config.rendererFile, { query: initialPath ? { open: initialPath } : {} });
  }
  // The page listens now: paths that came while it loaded go to it, and so does every later one.
  inbox.open((path) => {
    backend.grantPath(path);
    backend.emit({ type: 'open-path', path });
    focusWindow();
  });
  desktop.pageLoaded();
  win.webContents.on('did-finish-load', () => desktop.pageLoaded()); // a reload (development) starts with defaults again
  return { window: win, backend, desktop, initialPath };
}

/**
 * A file browser needs no camera, microphone, notifications, geolocation, ...: only writing to
 * the clipboard ("Copy path").
 */
export function isPermissionAllowed(permission: string): boolean {
  return permission === 'clipboard-sanitized-write';
}

/** Where electron-vite puts the built files, relative to out/main. */
export function builtPaths(mainDir: string): { preloadPath: string; rendererFile: string; workerFile: string } {
  return {
    preloadPath: join(mainDir, '..', 'preload', 'index.cjs'),
    rendererFile: join(mainDir, '..', 'renderer', 'index.html'),
    workerFile: join(mainDir, 'worker.js'),
  };
}

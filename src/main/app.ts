/**
 * Main-process start-up over the ElectronShell interface: one instance, the CSP on every
 * response, no permissions, the backend behind validated IPC, one hardened window, and paths
 * from the command line (first launch, second launch, macOS open-file) opened in the page.
 */
import { join } from 'node:path';
import type { Dialogs } from '../backend/dialogs.js';
import type { ApiEvent, AppInfo, PakScopeApi } from '../shared/api.js';
import { pathFromArgv } from './argv.js';
import { withCsp } from './csp.js';
import type { ElectronShell, ShellWindow } from './electron-shell.js';
import { registerIpc } from './ipc.js';
import { EVENT_CHANNEL } from './ipc-protocol.js';
import { appUrlMatcher, hardenWebContents, mainWindowOptions } from './window.js';

/** What startApp needs of the backend: the API plus its event stream and shutdown. */
export interface AppBackend extends PakScopeApi {
  onEvent(listener: (event: ApiEvent) => void): () => void;
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
  createBackend(deps: { dialogs: Dialogs; info: Omit<AppInfo, 'node'>; configDir: string }): AppBackend;
}

export interface RunningApp {
  window: ShellWindow;
  backend: AppBackend;
  /** The path from the command line the page was told to open, if any. */
  initialPath: string | null;
}

export async function startApp(shell: ElectronShell, config: AppConfig): Promise<RunningApp | null> {
  const { app } = shell;
  // A second launch hands its path to the first window instead of opening another app.
  if (!app.requestSingleInstanceLock()) {
    app.quit();
    return null;
  }
  await app.whenReady();

  shell.session.onHeadersReceived((details, callback) => callback({ responseHeaders: withCsp(details.responseHeaders) }));
  shell.session.setPermissionPolicy(isPermissionAllowed);

  let window: ShellWindow | null = null;
  const pick = async (kind: 'folder' | 'file'): Promise<string | null> => {
    const result = await shell.showOpenDialog(window, kind === 'folder'
      ? { title: 'Open game folder', properties: ['openDirectory'] }
      : {
          title: 'Open container',
          properties: ['openFile'],
          filters: [{ name: 'Unreal containers', extensions: ['utoc', 'ucas', 'pak'] }, { name: 'All files', extensions: ['*'] }],
        });
    return result.canceled ? null : (result.filePaths[0] ?? null);
  };
  const backend = config.createBackend({
    dialogs: { pickFolder: () => pick('folder'), pickFile: () => pick('file') },
    info: { name: 'PakScope', version: app.getVersion(), electron: shell.versions.electron, chrome: shell.versions.chrome, mode: 'electron' },
    configDir: app.getPath('userData'),
  });

  const isAppUrl = appUrlMatcher(config);
  registerIpc(shell.ipcMain, backend, isAppUrl);

  const win = shell.createWindow(mainWindowOptions({ preload: config.preloadPath, dark: shell.prefersDark(), icon: config.iconPath }));
  window = win;
  hardenWebContents(win.webContents);
  win.on('ready-to-show', () => win.show());
  const unsubscribe = backend.onEvent((event) => {
    if (!win.isDestroyed() && !win.webContents.isDestroyed()) win.webContents.send(EVENT_CHANNEL, event);
  });
  win.on('closed', () => {
    unsubscribe();
    window = null;
  });

  const openLater = (path: string | null): void => {
    if (!path) return;
    backend.emit({ type: 'open-path', path });
    if (!win.isDestroyed()) {
      if (win.isMinimized()) win.restore();
      win.focus();
    }
  };
  app.onSecondInstance((argv, workingDirectory) => openLater(pathFromArgv(argv, app.isPackaged, workingDirectory)));
  app.onOpenFile((path) => openLater(path));
  app.onWindowAllClosed(() => {
    void backend.close().finally(() => app.quit());
  });

  // The first path goes in the page URL, so it opens as soon as the page starts, with no race.
  const initialPath = pathFromArgv(config.argv, app.isPackaged, config.cwd);
  const query: Record<string, string> = initialPath ? { open: initialPath } : {};
  if (config.devServerUrl) {
    const url = new URL(config.devServerUrl);
    if (initialPath) url.searchParams.set('open', initialPath);
    await win.loadURL(url.href);
  } else {
    await win.loadFile(config.rendererFile, { query });
  }
  return { window: win, backend, initialPath };
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

/**
 * Fills the ElectronShell interface from the real `electron` module. The only main-process file
 * besides index.ts that touches Electron; kept thin so everything with logic is testable.
 */
import type * as Electron from 'electron';
import type { ElectronShell, ShellWindow, WindowOptions } from './electron-shell.js';

export function createElectronShell(electron: typeof Electron): ElectronShell {
  const { app, BrowserWindow, dialog, ipcMain, nativeTheme, session } = electron;
  const windows = new WeakMap<ShellWindow, Electron.BrowserWindow>();
  return {
    app: {
      get isPackaged() { return app.isPackaged; },
      getVersion: () => app.getVersion(),
      getPath: (name) => app.getPath(name),
      whenReady: () => app.whenReady(),
      requestSingleInstanceLock: () => app.requestSingleInstanceLock(),
      quit: () => app.quit(),
      onSecondInstance: (listener) => { app.on('second-instance', (_e, argv, cwd) => listener(argv, cwd)); },
      onOpenFile: (listener) => { app.on('open-file', (e, path) => { e.preventDefault(); listener(path); }); },
      onWindowAllClosed: (listener) => { app.on('window-all-closed', listener); },
    },
    ipcMain: {
      handle: (channel, listener) => ipcMain.handle(channel, (event, ...args) =>
        listener({ senderFrame: event.senderFrame ? { url: event.senderFrame.url } : null }, ...args)),
    },
    session: {
      onHeadersReceived: (listener) => session.defaultSession.webRequest.onHeadersReceived((details, callback) =>
        listener({ url: details.url, responseHeaders: details.responseHeaders as Record<string, string[]> | undefined }, callback)),
      setPermissionPolicy: (allowed) => {
        session.defaultSession.setPermissionRequestHandler((_wc, permission, callback) => callback(allowed(permission)));
        session.defaultSession.setPermissionCheckHandler((_wc, permission) => allowed(permission));
      },
    },
    createWindow: (options: WindowOptions) => {
      const win = new BrowserWindow(options);
      const shellWindow: ShellWindow = {
        webContents: {
          on: ((event: string, listener: (...args: never[]) => void) => {
            win.webContents.on(event as 'will-navigate', listener as never);
          }) as ShellWindow['webContents']['on'],
          setWindowOpenHandler: (handler) => win.webContents.setWindowOpenHandler(handler),
          send: (channel, payload) => win.webContents.send(channel, payload),
          isDestroyed: () => win.webContents.isDestroyed(),
        },
        loadURL: (url) => win.loadURL(url),
        loadFile: (file, opts) => win.loadFile(file, opts),
        on: (event, listener) => { win.on(event as 'closed', listener); },
        show: () => win.show(),
        focus: () => win.focus(),
        restore: () => win.restore(),
        isMinimized: () => win.isMinimized(),
        isDestroyed: () => win.isDestroyed(),
      };
      windows.set(shellWindow, win);
      return shellWindow;
    },
    showOpenDialog: (window, options) => {
      const win = window ? windows.get(window) : undefined;
      return win ? dialog.showOpenDialog(win, options) : dialog.showOpenDialog(options);
    },
    prefersDark: () => nativeTheme.shouldUseDarkColors,
    versions: { electron: process.versions.electron ?? '', chrome: process.versions.chrome ?? '' },
  };
}

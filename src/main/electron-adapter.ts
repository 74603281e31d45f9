/**
 * Fills the ElectronShell interface from the real `electron` module. The only main-process file
 * besides index.ts that touches Electron; kept thin so everything with logic is testable.
 */
import type * as Electron from 'electron';
import type { ElectronShell, ShellWindow, WindowOptions } from './electron-shell.js';

export function createElectronShell(electron: typeof Electron): ElectronShell {
  const { app, BrowserWindow, clipboard, dialog, ipcMain, Menu, nativeTheme, safeStorage, screen, session } = electron;
  const windows = new WeakMap<ShellWindow, Electron.BrowserWindow>();
  const native = (window: ShellWindow | null) => (window ? windows.get(window) : undefined);
  return {
    app: {
      get isPackaged() { return app.isPackaged; },
      getVersion: () => app.getVersion(),
      getPath: (name) => app.getPath(name),
      whenReady: () => app.whenReady(),
      requestSingleInstanceLock: (data) => app.requestSingleInstanceLock(data),
      quit: () => app.quit(),
      onSecondInstance: (listener) => { app.on('second-instance', (_e, argv, cwd, data) => listener(argv, cwd, data)); },
      onOpenFile: (listener) => { app.on('open-file', (e, path) => { e.preventDefault(); listener(path); }); },
      onWindowAllClosed: (listener) => { app.on('window-all-closed', listener); },
      onWillQuit: (listener) => { app.on('will-quit', (e) => listener(e)); },
      setAppUserModelId: (id) => app.setAppUserModelId(id),
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
    platform: process.platform,
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
        on: ((event: string, listener: (...args: never[]) => void) => {
          win.on(event as 'closed', listener as never);
        }) as ShellWindow['on'],
        show: () => win.show(),
        focus: () => win.focus(),
        restore: () => win.restore(),
        maximize: () => win.maximize(),
        isMinimized: () => win.isMinimized(),
        isMaximized: () => win.isMaximized(),
        isDestroyed: () => win.isDestroyed(),
        getNormalBounds: () => win.getNormalBounds(),
        setTitle: (title) => win.setTitle(title),
        setBackgroundColor: (color) => win.setBackgroundColor(color),
      };
      windows.set(shellWindow, win);
      return shellWindow;
    },
    showOpenDialog: (window, options) => {
      const win = native(window);
      return win ? dialog.showOpenDialog(win, options) : dialog.showOpenDialog(options);
    },
    showSaveDialog: (window, options) => {
      const win = native(window);
      return win ? dialog.showSaveDialog(win, options) : dialog.showSaveDialog(options);
    },
    showMessageBox: (window, options) => {
      const win = native(window);
      return win ? dialog.showMessageBox(win, options) : dialog.showMessageBox(options);
    },
    setApplicationMenu: (template) => Menu.setApplicationMenu(Menu.buildFromTemplate(template)),
    workAreas: () => {
      const primary = screen.getPrimaryDisplay();
      return [primary, ...screen.getAllDisplays().filter((d) => d.id !== primary.id)].map((d) => d.workArea);
    },
    writeClipboardText: (text) => clipboard.writeText(text),
    prefersDark: () => nativeTheme.shouldUseDarkColors,
    onThemeChanged: (listener) => { nativeTheme.on('updated', listener); },
    versions: {
      electron: process.versions.electron ?? '',
      chrome: process.versions.chrome ?? '',
      node: process.versions.node,
      v8: process.versions.v8,
    },
    safeStorage: {
      isEncryptionAvailable: () => safeStorage.isEncryptionAvailable(),
      encryptString: (plain) => safeStorage.encryptString(plain),
      decryptString: (encrypted) => safeStorage.decryptString(Buffer.from(encrypted)),
    },
  };
}

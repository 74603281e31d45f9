/**
 * The part of Electron the main process uses, as a small interface. electron-adapter.ts fills it
 * from the real `electron` module; the tests fill it with fakes, so window options, the CSP, IPC
 * validation and navigation blocking are checked without an Electron binary. Nothing here (or in
 * anything the tests load) imports 'electron'.
 */

export interface PreventableEvent {
  preventDefault(): void;
}

export interface ShellWebContents {
  on(event: 'will-navigate' | 'will-redirect' | 'will-frame-navigate', listener: (event: PreventableEvent, url: string) => void): void;
  on(event: 'will-attach-webview', listener: (event: PreventableEvent) => void): void;
  setWindowOpenHandler(handler: (details: { url: string }) => { action: 'deny' }): void;
  send(channel: string, payload: unknown): void;
  isDestroyed(): boolean;
}

export interface ShellWindow {
  readonly webContents: ShellWebContents;
  loadURL(url: string): Promise<void>;
  loadFile(file: string, options?: { query?: Record<string, string> }): Promise<void>;
  on(event: 'ready-to-show' | 'closed', listener: () => void): void;
  show(): void;
  focus(): void;
  restore(): void;
  isMinimized(): boolean;
  isDestroyed(): boolean;
}

/** The BrowserWindow options PakScope sets (a subset of Electron's). */
export interface WindowOptions {
  width: number;
  height: number;
  minWidth: number;
  minHeight: number;
  show: boolean;
  title: string;
  backgroundColor: string;
  autoHideMenuBar: boolean;
  icon?: string;
  webPreferences: {
    preload: string;
    contextIsolation: boolean;
    sandbox: boolean;
    nodeIntegration: boolean;
    nodeIntegrationInWorker: boolean;
    nodeIntegrationInSubFrames: boolean;
    webSecurity: boolean;
    allowRunningInsecureContent: boolean;
    webviewTag: boolean;
    navigateOnDragDrop: boolean;
    spellcheck: boolean;
  };
}

export interface IpcInvokeEvent {
  /** The frame that sent the request; null once it navigated away or was destroyed. */
  senderFrame: { url: string } | null;
}

export interface ShellIpcMain {
  handle(channel: string, listener: (event: IpcInvokeEvent, ...args: unknown[]) => Promise<unknown>): void;
}

export interface HeadersReceivedDetails {
  url: string;
  responseHeaders?: Record<string, string[]>;
}

export interface ShellSession {
  onHeadersReceived(listener: (details: HeadersReceivedDetails, callback: (response: { responseHeaders: Record<string, string[]> }) => void) => void): void;
  /** Decides every permission request and check of the page (Electron: request and check handlers). */
  setPermissionPolicy(allowed: (permission: string) => boolean): void;
}

export interface ShellApp {
  readonly isPackaged: boolean;
  getVersion(): string;
  getPath(name: 'userData'): string;
  whenReady(): Promise<unknown>;
  requestSingleInstanceLock(): boolean;
  quit(): void;
  onSecondInstance(listener: (argv: string[], workingDirectory: string) => void): void;
  /** macOS: a file dropped on the dock icon or opened through a file association. */
  onOpenFile(listener: (path: string) => void): void;
  onWindowAllClosed(listener: () => void): void;
}

export interface OpenDialogOptions {
  title: string;
  properties: ('openFile' | 'openDirectory')[];
  filters?: { name: string; extensions: string[] }[];
}

export interface ElectronShell {
  app: ShellApp;
  ipcMain: ShellIpcMain;
  session: ShellSession;
  createWindow(options: WindowOptions): ShellWindow;
  showOpenDialog(window: ShellWindow | null, options: OpenDialogOptions): Promise<{ canceled: boolean; filePaths: string[] }>;
  /** The OS prefers a dark theme (for the window background before the page paints). */
  prefersDark(): boolean;
  versions: { electron: string; chrome: string };
}

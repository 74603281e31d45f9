/**
 * The part of Electron the main process uses, as a small interface. electron-adapter.ts fills it
 * from the real `electron` module; the tests fill it with fakes, so window options, the CSP, IPC
 * validation, navigation blocking, the menu, the window state and the OS hand-offs are checked
 * without an Electron binary. Nothing here (or in anything the tests load) imports 'electron'.
 */
import type { StringCipher } from '../backend/keys.js';

export interface PreventableEvent {
  preventDefault(): void;
}

export interface Rect {
  x: number;
  y: number;
  width: number;
  height: number;
}

export interface ShellWebContents {
  on(event: 'will-navigate' | 'will-redirect' | 'will-frame-navigate', listener: (event: PreventableEvent, url: string) => void): void;
  on(event: 'will-attach-webview', listener: (event: PreventableEvent) => void): void;
  /** The page (re)loaded: after the first load, a reload (development only). */
  on(event: 'did-finish-load', listener: () => void): void;
  setWindowOpenHandler(handler: (details: { url: string }) => { action: 'deny' }): void;
  send(channel: string, payload: unknown): void;
  isDestroyed(): boolean;
}

export interface ShellWindow {
  readonly webContents: ShellWebContents;
  loadURL(url: string): Promise<void>;
  loadFile(file: string, options?: { query?: Record<string, string> }): Promise<void>;
  /** close: about to close (the bounds can still be read); closed: gone. */
  on(event: 'ready-to-show' | 'close' | 'closed', listener: () => void): void;
  /** The page set document.title; prevented, because the main process names the window. */
  on(event: 'page-title-updated', listener: (event: PreventableEvent) => void): void;
  show(): void;
  focus(): void;
  restore(): void;
  maximize(): void;
  isMinimized(): boolean;
  isMaximized(): boolean;
  isDestroyed(): boolean;
  /** The bounds the window has when neither maximized nor minimized. */
  getNormalBounds(): Rect;
  setTitle(title: string): void;
  setBackgroundColor(color: string): void;
}

/** The BrowserWindow options PakScope sets (a subset of Electron's). */
export interface WindowOptions {
  /** Absent: the OS centers the window. */
  x?: number;
  y?: number;
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
  /** `data` reaches the first instance's second-instance listener as it is. */
  requestSingleInstanceLock(data?: Record<string, unknown>): boolean;
  quit(): void;
  /** `data`: what the second instance passed to requestSingleInstanceLock (absent from older versions). */
  onSecondInstance(listener: (argv: string[], workingDirectory: string, data: unknown) => void): void;
  /** macOS: a file dropped on the dock icon or opened through a file association. */
  onOpenFile(listener: (path: string) => void): void;
  onWindowAllClosed(listener: () => void): void;
  /** Every window is closed and the app is about to quit (also after the Quit menu item). */
  onWillQuit(listener: (event: PreventableEvent) => void): void;
  /** Windows: the id the installer's shortcuts carry, so the taskbar groups the windows under them. */
  setAppUserModelId(id: string): void;
}

export interface OpenDialogOptions {
  title: string;
  /** The confirm button's text (default: Open). */
  buttonLabel?: string;
  properties: ('openFile' | 'openDirectory' | 'createDirectory')[];
  filters?: { name: string; extensions: string[] }[];
}

export interface SaveDialogOptions {
  title: string;
  /** The suggested file name (or path). */
  defaultPath: string;
  filters?: { name: string; extensions: string[] }[];
}

export interface MessageBoxOptions {
  type: 'info' | 'question';
  title: string;
  message: string;
  detail: string;
  buttons: string[];
  defaultId: number;
  /** The answer when the box is closed without a button (Escape). */
  cancelId?: number;
  icon?: string;
}

/** Electron's menu roles PakScope uses. */
export type MenuRole =
  | 'undo' | 'redo' | 'cut' | 'copy' | 'paste' | 'pasteAndMatchStyle' | 'delete' | 'selectAll'
  | 'zoomIn' | 'zoomOut' | 'resetZoom' | 'togglefullscreen' | 'reload' | 'forceReload' | 'toggleDevTools'
  | 'quit' | 'services' | 'hide' | 'hideOthers' | 'unhide' | 'windowMenu' | 'help';

/** A menu item as Electron's Menu.buildFromTemplate takes it (a subset). */
export interface MenuItemTemplate {
  id?: string;
  label?: string;
  role?: MenuRole;
  type?: 'normal' | 'separator' | 'submenu' | 'checkbox';
  accelerator?: string;
  enabled?: boolean;
  checked?: boolean;
  submenu?: MenuItemTemplate[];
  click?: () => void;
}

export interface ElectronShell {
  app: ShellApp;
  ipcMain: ShellIpcMain;
  session: ShellSession;
  /** process.platform of the main process. */
  platform: string;
  createWindow(options: WindowOptions): ShellWindow;
  showOpenDialog(window: ShellWindow | null, options: OpenDialogOptions): Promise<{ canceled: boolean; filePaths: string[] }>;
  /** The native "save as" dialog (it asks before replacing a file); filePath empty or absent when cancelled. */
  showSaveDialog(window: ShellWindow | null, options: SaveDialogOptions): Promise<{ canceled: boolean; filePath?: string }>;
  /** Resolves with the index of the button pressed. */
  showMessageBox(window: ShellWindow | null, options: MessageBoxOptions): Promise<{ response: number }>;
  /** Replaces the application menu (the window's menu bar on Windows and Linux). */
  setApplicationMenu(template: MenuItemTemplate[]): void;
  /** The work area (the screen less task bars and docks) of every display, the primary one first. */
  workAreas(): Rect[];
  writeClipboardText(text: string): void;
  /** The OS prefers a dark theme (for the window background before the page paints). */
  prefersDark(): boolean;
  /** The OS switched between light and dark. */
  onThemeChanged(listener: () => void): void;
  versions: { electron: string; chrome: string; node: string; v8: string };
  /** Electron's safeStorage: strings encrypted with the OS key store (remembered AES keys). */
  safeStorage: StringCipher;
}

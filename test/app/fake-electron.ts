/**
 * A fake ElectronShell that records what the main process asks of Electron, so window options,
 * the CSP hook, IPC handlers, navigation guards and command-line paths are checked without an
 * Electron binary.
 */
import type {
  ElectronShell, HeadersReceivedDetails, IpcInvokeEvent, MenuItemTemplate, MessageBoxOptions, OpenDialogOptions, SaveDialogOptions,
  PreventableEvent, Rect, ShellWebContents, ShellWindow, WindowOptions,
} from '../../src/main/electron-shell.js';

export class FakeWebContents implements ShellWebContents {
  listeners = new Map<string, ((...args: never[]) => void)[]>();
  openHandler: ((d: { url: string }) => { action: 'deny' }) | null = null;
  sent: { channel: string; payload: unknown }[] = [];
  destroyed = false;

  on(event: string, listener: (...args: never[]) => void): void {
    this.listeners.set(event, [...(this.listeners.get(event) ?? []), listener]);
  }
  setWindowOpenHandler(handler: (d: { url: string }) => { action: 'deny' }): void {
    this.openHandler = handler;
  }
  send(channel: string, payload: unknown): void {
    this.sent.push({ channel, payload });
  }
  isDestroyed(): boolean {
    return this.destroyed;
  }
  /** Emits a preventable event; answers whether some listener prevented it. */
  emitPreventable(event: string, ...args: unknown[]): boolean {
    let prevented = false;
    const e: PreventableEvent = { preventDefault: () => { prevented = true; } };
    for (const l of this.listeners.get(event) ?? []) (l as (...a: unknown[]) => void)(e, ...args);
    return prevented;
  }
}

export class FakeWindow implements ShellWindow {
  readonly webContents = new FakeWebContents();
  loaded: { kind: 'url' | 'file'; target: string; query?: Record<string, string> } | null = null;
  listeners = new Map<string, ((...args: never[]) => void)[]>();
  shown = false;
  focused = 0;
  maximized = false;
  destroyed = false;
  title: string;
  backgroundColor: string;
  /** What getNormalBounds answers (the window "moved" there). */
  normalBounds: Rect;
  constructor(readonly options: WindowOptions) {
    this.title = options.title;
    this.backgroundColor = options.backgroundColor;
    this.normalBounds = { x: options.x ?? 100, y: options.y ?? 80, width: options.width, height: options.height };
  }
  async loadURL(url: string): Promise<void> { this.loaded = { kind: 'url', target: url }; }
  async loadFile(file: string, options?: { query?: Record<string, string> }): Promise<void> {
    this.loaded = { kind: 'file', target: file, ...(options?.query ? { query: options.query } : {}) };
  }
  on(event: string, listener: (...args: never[]) => void): void {
    this.listeners.set(event, [...(this.listeners.get(event) ?? []), listener]);
  }
  emit(event: string): void {
    for (const l of this.listeners.get(event) ?? []) (l as () => void)();
  }
  /** Emits a preventable event (page-title-updated); answers whether some listener prevented it. */
  emitPreventable(event: string): boolean {
    let prevented = false;
    const e: PreventableEvent = { preventDefault: () => { prevented = true; } };
    for (const l of this.listeners.get(event) ?? []) (l as (e: PreventableEvent) => void)(e);
    return prevented;
  }
  show(): void { this.shown = true; }
  focus(): void { this.focused++; }
  restore(): void {}
  maximize(): void { this.maximized = true; }
  isMinimized(): boolean { return false; }
  isMaximized(): boolean { return this.maximized; }
  isDestroyed(): boolean { return this.destroyed; }
  getNormalBounds(): Rect { return { ...this.normalBounds }; }
  setTitle(title: string): void { this.title = title; }
  setBackgroundColor(color: string): void { this.backgroundColor = color; }
}

type IpcHandler = (event: IpcInvokeEvent, ...args: unknown[]) => Promise<unknown>;

export class FakeShell implements ElectronShell {
  windows: FakeWindow[] = [];
  handlers = new Map<string, IpcHandler>();
  headerHook: ((d: HeadersReceivedDetails, cb: (r: { responseHeaders: Record<string, string[]> }) => void) => void) | null = null;
  permissionPolicy: ((permission: string) => boolean) | null = null;
  dialogCalls: OpenDialogOptions[] = [];
  dialogAnswer: { canceled: boolean; filePaths: string[] } = { canceled: true, filePaths: [] };
  quitCalls = 0;
  lock = true;
  secondInstance: ((argv: string[], cwd: string, data?: unknown) => void) | null = null;
  /** What requestSingleInstanceLock was given (the hand-off a second instance sends). */
  lockData: unknown = undefined;
  openFile: ((path: string) => void) | null = null;
  allClosed: (() => void) | null = null;
  willQuit: ((e: PreventableEvent) => void) | null = null;
  appUserModelId: string | null = null;
  platform = 'linux';
  /** Every application menu set, the newest last. */
  menus: MenuItemTemplate[][] = [];
  messageBoxes: MessageBoxOptions[] = [];
  messageBoxAnswer = 0;
  clipboard: string[] = [];
  displays: Rect[] = [{ x: 0, y: 0, width: 1920, height: 1040 }];
  dark = true;
  themeListeners: (() => void)[] = [];

  app = {
    isPackaged: true,
    getVersion: () => '1.2.3',
    getPath: (_name: 'userData') => '/config/PakScope',
    whenReady: async () => undefined,
    requestSingleInstanceLock: (data?: Record<string, unknown>) => { this.lockData = data; return this.lock; },
    quit: () => { this.quitCalls++; },
    onSecondInstance: (l: (argv: string[], cwd: string, data?: unknown) => void) => { this.secondInstance = l; },
    onOpenFile: (l: (path: string) => void) => { this.openFile = l; },
    onWindowAllClosed: (l: () => void) => { this.allClosed = l; },
    onWillQuit: (l: (e: PreventableEvent) => void) => { this.willQuit = l; },
    setAppUserModelId: (id: string) => { this.appUserModelId = id; },
  };
  ipcMain = {
    handle: (channel: string, listener: IpcHandler) => {
      if (this.handlers.has(channel)) throw new Error(`second handler for ${channel}`);
      this.handlers.set(channel, listener);
    },
  };
  session = {
    onHeadersReceived: (l: NonNullable<FakeShell['headerHook']>) => { this.headerHook = l; },
    setPermissionPolicy: (p: (permission: string) => boolean) => { this.permissionPolicy = p; },
  };
  versions = { electron: '38.8.6', chrome: '140.0.0.0', node: '22.20.0', v8: '14.0.365.4-electron.0' };
  /** A stand-in for the OS key store: "ENC:" + the bytes XOR 0x5a, so the file shows no key in clear. */
  safeStorage = {
    available: true,
    isEncryptionAvailable: () => this.safeStorage.available,
    encryptString: (plain: string): Uint8Array => {
      const b = Buffer.from(plain, 'utf8').map((x) => x ^ 0x5a);
      return Buffer.concat([Buffer.from('ENC:'), b]);
    },
    decryptString: (encrypted: Uint8Array): string => {
      const b = Buffer.from(encrypted);
      if (b.subarray(0, 4).toString() !== 'ENC:') throw new Error('not encrypted by this store');
      return Buffer.from(b.subarray(4).map((x) => x ^ 0x5a)).toString('utf8');
    },
  };

  createWindow(options: WindowOptions): FakeWindow {
    const w = new FakeWindow(options);
    this.windows.push(w);
    return w;
  }
  async showOpenDialog(_window: ShellWindow | null, options: OpenDialogOptions) {
    this.dialogCalls.push(options);
    return this.dialogAnswer;
  }
  saveDialogCalls: SaveDialogOptions[] = [];
  saveDialogAnswer: { canceled: boolean; filePath?: string } = { canceled: true };
  async showSaveDialog(_window: ShellWindow | null, options: SaveDialogOptions) {
    this.saveDialogCalls.push(options);
    return this.saveDialogAnswer;
  }
  async showMessageBox(_window: ShellWindow | null, options: MessageBoxOptions) {
    this.messageBoxes.push(options);
    return { response: this.messageBoxAnswer };
  }
  setApplicationMenu(template: MenuItemTemplate[]): void { this.menus.push(template); }
  /** The application menu set last. */
  get menu(): MenuItemTemplate[] { return this.menus.at(-1) ?? []; }
  workAreas(): Rect[] { return this.displays; }
  writeClipboardText(text: string): void { this.clipboard.push(text); }
  prefersDark(): boolean { return this.dark; }
  onThemeChanged(listener: () => void): void { this.themeListeners.push(listener); }

  /** Calls an IPC handler as a page at `url` would. */
  invoke(channel: string, url: string | null, ...args: unknown[]): Promise<unknown> {
    const h = this.handlers.get(channel);
    if (!h) throw new Error(`no handler for ${channel}`);
    return h({ senderFrame: url === null ? null : { url } }, ...args);
  }
}

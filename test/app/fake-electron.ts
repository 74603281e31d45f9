/**
 * A fake ElectronShell that records what the main process asks of Electron, so window options,
 * the CSP hook, IPC handlers, navigation guards and command-line paths are checked without an
 * Electron binary.
 */
import type {
  ElectronShell, HeadersReceivedDetails, IpcInvokeEvent, OpenDialogOptions, PreventableEvent, ShellWebContents,
  ShellWindow, WindowOptions,
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
  listeners = new Map<string, (() => void)[]>();
  shown = false;
  focused = 0;
  constructor(readonly options: WindowOptions) {}
  async loadURL(url: string): Promise<void> { this.loaded = { kind: 'url', target: url }; }
  async loadFile(file: string, options?: { query?: Record<string, string> }): Promise<void> {
    this.loaded = { kind: 'file', target: file, ...(options?.query ? { query: options.query } : {}) };
  }
  on(event: string, listener: () => void): void {
    this.listeners.set(event, [...(this.listeners.get(event) ?? []), listener]);
  }
  emit(event: string): void {
    for (const l of this.listeners.get(event) ?? []) l();
  }
  show(): void { this.shown = true; }
  focus(): void { this.focused++; }
  restore(): void {}
  isMinimized(): boolean { return false; }
  isDestroyed(): boolean { return false; }
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
  secondInstance: ((argv: string[], cwd: string) => void) | null = null;
  openFile: ((path: string) => void) | null = null;
  allClosed: (() => void) | null = null;

  app = {
    isPackaged: true,
    getVersion: () => '1.2.3',
    getPath: (_name: 'userData') => '/config/PakScope',
    whenReady: async () => undefined,
    requestSingleInstanceLock: () => this.lock,
    quit: () => { this.quitCalls++; },
    onSecondInstance: (l: (argv: string[], cwd: string) => void) => { this.secondInstance = l; },
    onOpenFile: (l: (path: string) => void) => { this.openFile = l; },
    onWindowAllClosed: (l: () => void) => { this.allClosed = l; },
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
  versions = { electron: '38.8.6', chrome: '140.0.0.0' };

  createWindow(options: WindowOptions): FakeWindow {
    const w = new FakeWindow(options);
    this.windows.push(w);
    return w;
  }
  async showOpenDialog(_window: ShellWindow | null, options: OpenDialogOptions) {
    this.dialogCalls.push(options);
    return this.dialogAnswer;
  }
  prefersDark(): boolean { return true; }

  /** Calls an IPC handler as a page at `url` would. */
  invoke(channel: string, url: string | null, ...args: unknown[]): Promise<unknown> {
    const h = this.handlers.get(channel);
    if (!h) throw new Error(`no handler for ${channel}`);
    return h({ senderFrame: url === null ? null : { url } }, ...args);
  }
}

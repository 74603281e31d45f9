/**
 * The main window's desktop manners: the application menu and what its items do, the title
 * naming the open install, the panes the View menu shows, the window state saved on close, the
 * background following the system theme, and the About box.
 */
import { API_METHODS, type MenuCommand, type PakScopeApi } from '../shared/api.js';
import { APP_NAME } from './app-identity.js';
import type { ElectronShell, ShellWindow } from './electron-shell.js';
import { EVENT_CHANNEL } from './ipc-protocol.js';
import { aboutDetail, buildMenuTemplate, type MenuState } from './menu.js';
import { windowTitle } from './title.js';
import { windowBackground } from './window.js';
import { DEFAULT_PANES, serializeWindowState, type PaneLayout, type StateStore, type WindowState } from './window-state.js';

export interface DesktopDeps {
  shell: ElectronShell;
  window: ShellWindow;
  /** The recent installs, most recent first (the backend's list). */
  recentInstalls(): Promise<string[]>;
  /** Hands a path to the page to open. */
  open(path: string): void;
  pickFolder(): Promise<string | null>;
  pickFile(): Promise<string | null>;
  store: StateStore;
  /** The state read at start (panes shown). */
  state: WindowState;
  /** Shown in the About box. */
  iconPath?: string;
}

export class Desktop {
  private readonly panes: PaneLayout;
  private recent: string[] = [];
  private installRoot: string | null = null;

  constructor(private readonly deps: DesktopDeps) {
    this.panes = { ...deps.state.panes };
    const { shell, window } = deps;
    // The main process names the window; the page's <title> does not.
    window.on('page-title-updated', (e) => e.preventDefault());
    window.on('close', () => this.saveState());
    shell.onThemeChanged(() => {
      if (!window.isDestroyed()) window.setBackgroundColor(windowBackground(shell.prefersDark()));
    });
    this.updateMenu();
  }

  /** The page shows this install now (null: none). */
  installChanged(root: string | null): void {
    this.installRoot = root;
    if (!this.deps.window.isDestroyed()) this.deps.window.setTitle(windowTitle(root));
    void this.refreshRecent();
  }

  async refreshRecent(): Promise<void> {
    try {
      const list: unknown = await this.deps.recentInstalls();
      this.recent = Array.isArray(list) ? list.filter((p): p is string => typeof p === 'string') : [];
    } catch {
      this.recent = []; // an unreadable list is an empty menu, not a failure
    }
    this.updateMenu();
  }

  /** The page (re)loaded: it starts with every pane shown, so it is told which are not. */
  pageLoaded(): void {
    for (const pane of Object.keys(this.panes) as (keyof PaneLayout)[]) {
      if (this.panes[pane] !== DEFAULT_PANES[pane]) this.send(paneCommand(pane, this.panes[pane]));
    }
  }

  setPane(pane: keyof PaneLayout, visible: boolean): void {
    this.panes[pane] = visible;
    this.send(paneCommand(pane, visible));
    this.updateMenu();
  }

  get menuState(): MenuState {
    return {
      platform: this.deps.shell.platform,
      packaged: this.deps.shell.app.isPackaged,
      recent: this.recent,
      installOpen: this.installRoot !== null,
      panes: { ...this.panes },
    };
  }

  saveState(): void {
    const { window, store } = this.deps;
    if (window.isDestroyed()) return;
    store.write(serializeWindowState({ bounds: window.getNormalBounds(), maximized: window.isMaximized(), panes: { ...this.panes } }));
  }

  async about(): Promise<void> {
    const { shell, window } = this.deps;
    const detail = aboutDetail({ app: shell.app.getVersion(), ...shell.versions, platform: shell.platform, arch: process.arch });
    const { response } = await shell.showMessageBox(window.isDestroyed() ? null : window, {
      type: 'info',
      title: `About ${APP_NAME}`,
      message: `${APP_NAME} ${shell.app.getVersion()}`,
      detail: `Browse, study and export Unreal Engine game files.\n\n${detail}`,
      buttons: ['OK', 'Copy Versions'],
      defaultId: 0,
      ...(this.deps.iconPath ? { icon: this.deps.iconPath } : {}),
    });
    if (response === 1) shell.writeClipboardText(`${APP_NAME} ${detail.replace(/\n/g, ', ')}`);
  }

  private updateMenu(): void {
    const { deps } = this;
    deps.shell.setApplicationMenu(buildMenuTemplate(this.menuState, {
      openFolder: () => void deps.pickFolder().then((p) => { if (p) deps.open(p); }),
      openFile: () => void deps.pickFile().then((p) => { if (p) deps.open(p); }),
      openRecent: (path) => deps.open(path),
      exportFiles: () => this.send('export'),
      closeInstall: () => this.send('close-install'),
      closeTab: () => this.send('close-tab'),
      setPane: (pane, visible) => this.setPane(pane, visible),
      about: () => void this.about(),
    }));
  }

  private send(command: MenuCommand): void {
    const { window } = this.deps;
    if (!window.isDestroyed() && !window.webContents.isDestroyed()) window.webContents.send(EVENT_CHANNEL, { type: 'menu', command });
  }
}

function paneCommand(pane: keyof PaneLayout, visible: boolean): MenuCommand {
  return `${visible ? 'show' : 'hide'}-${pane}`;
}

/**
 * The API as the page calls it, watching which install the page shows: the last one opened,
 * until the page closes it. (The page opens the next install before it closes the previous one.)
 */
export function observeInstalls(api: PakScopeApi, changed: (root: string | null) => void): PakScopeApi {
  let current: string | null = null;
  const observed = Object.fromEntries(API_METHODS.map((m) => [m, (req: unknown) => (api[m] as (r: unknown) => Promise<unknown>).call(api, req)])) as unknown as PakScopeApi;
  observed.openInstall = async (req) => {
    const summary = await api.openInstall(req);
    current = summary.id;
    changed(summary.root);
    return summary;
  };
  observed.closeInstall = async (req) => {
    await api.closeInstall(req);
    if (current === req.installId) {
      current = null;
      changed(null);
    }
  };
  return observed;
}

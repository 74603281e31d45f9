/**
 * The application menu as a plain template: File (open, recent, export, close, quit), Edit (the
 * standard roles), View (panes, zoom, full screen; reload and developer tools only in
 * development), Help (About with the versions), and on macOS the app menu and the Window menu.
 * Rebuilt whenever what it shows changes (the recent list, an install opened or closed, a pane).
 */
import type { MenuItemTemplate } from './electron-shell.js';
import { APP_NAME } from './app-identity.js';
import type { PaneLayout } from './window-state.js';

export interface MenuActions {
  openFolder(): void;
  openFile(): void;
  openRecent(path: string): void;
  exportFiles(): void;
  closeInstall(): void;
  /** The page's package tab shown (Ctrl+W as in a browser; the install closes with Ctrl+Shift+W). */
  closeTab(): void;
  setPane(pane: keyof PaneLayout, visible: boolean): void;
  about(): void;
}

export interface MenuState {
  platform: string;
  /** Development (unpackaged) builds get Reload and the developer tools. */
  packaged: boolean;
  recent: readonly string[];
  installOpen: boolean;
  panes: PaneLayout;
}

export function buildMenuTemplate(state: MenuState, actions: MenuActions): MenuItemTemplate[] {
  const mac = state.platform === 'darwin';
  const sep: MenuItemTemplate = { type: 'separator' };
  const about: MenuItemTemplate = { id: 'about', label: `About ${APP_NAME}`, click: () => actions.about() };

  const file: MenuItemTemplate[] = [
    { id: 'open-folder', label: 'Open Folder…', accelerator: 'CmdOrCtrl+O', click: () => actions.openFolder() },
    { id: 'open-file', label: 'Open File…', accelerator: 'CmdOrCtrl+Shift+O', click: () => actions.openFile() },
    { id: 'open-recent', label: 'Open Recent', type: 'submenu', submenu: recentSubmenu(state.recent, actions) },
    sep,
    { id: 'export', label: 'Export…', accelerator: 'CmdOrCtrl+E', enabled: state.installOpen, click: () => actions.exportFiles() },
    sep,
    { id: 'close-tab', label: 'Close Tab', accelerator: 'CmdOrCtrl+W', enabled: state.installOpen, click: () => actions.closeTab() },
    { id: 'close-install', label: 'Close Install', accelerator: 'CmdOrCtrl+Shift+W', enabled: state.installOpen, click: () => actions.closeInstall() },
  ];
  if (!mac) file.push(sep, { role: 'quit', label: 'Quit' });

  const edit: MenuItemTemplate[] = [
    { role: 'undo' }, { role: 'redo' }, sep,
    { role: 'cut' }, { role: 'copy' }, { role: 'paste' },
    ...(mac ? [{ role: 'pasteAndMatchStyle' } as MenuItemTemplate] : []),
    { role: 'delete' }, sep,
    { role: 'selectAll' },
  ];

  const pane = (id: keyof PaneLayout, label: string, accelerator: string): MenuItemTemplate => ({
    id: `pane-${id}`, label, type: 'checkbox', accelerator, checked: state.panes[id],
    click: () => actions.setPane(id, !state.panes[id]),
  });
  const view: MenuItemTemplate[] = [
    pane('sidebar', 'Sidebar', 'CmdOrCtrl+B'),
    pane('details', 'File Details', 'CmdOrCtrl+I'),
    sep,
    { role: 'zoomIn', accelerator: 'CmdOrCtrl+=' },
    { role: 'zoomOut', accelerator: 'CmdOrCtrl+-' },
    { role: 'resetZoom', accelerator: 'CmdOrCtrl+0' },
    sep,
    { role: 'togglefullscreen' },
  ];
  // Left out of a packaged build altogether: a hidden item's shortcut would still work.
  if (!state.packaged) view.push(sep, { role: 'reload' }, { role: 'forceReload' }, { role: 'toggleDevTools' });

  const menu: MenuItemTemplate[] = [];
  if (mac) {
    menu.push({
      label: APP_NAME,
      submenu: [about, sep, { role: 'services' }, sep, { role: 'hide' }, { role: 'hideOthers' }, { role: 'unhide' }, sep, { role: 'quit' }],
    });
  }
  menu.push(
    { label: mac ? 'File' : '&File', submenu: file },
    { label: mac ? 'Edit' : '&Edit', submenu: edit },
    { label: mac ? 'View' : '&View', submenu: view },
  );
  if (mac) menu.push({ role: 'windowMenu' });
  menu.push({ label: mac ? 'Help' : '&Help', role: 'help', submenu: [about] });
  return menu;
}

/** The recent installs, most recent first, each labelled with its full path. */
function recentSubmenu(recent: readonly string[], actions: MenuActions): MenuItemTemplate[] {
  if (recent.length === 0) return [{ label: 'No Recent Installs', enabled: false }];
  // "&" marks a mnemonic on Windows and Linux; "&&" shows one.
  return recent.map((path) => ({ label: path.replace(/&/g, '&&'), click: () => actions.openRecent(path) }));
}

/** The lines of the About box: what a bug report needs. */
export function aboutDetail(v: { app: string; electron: string; chrome: string; node: string; v8: string; platform: string; arch: string }): string {
  return [
    `Version ${v.app}`,
    `Electron ${v.electron}`,
    `Chromium ${v.chrome}`,
    `Node.js ${v.node}`,
    `V8 ${v.v8}`,
    `OS ${v.platform} ${v.arch}`,
  ].join('\n');
}

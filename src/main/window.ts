/**
 * The main window: its options (isolated, sandboxed renderer without Node) and the guards that
 * keep the page where it is: no navigation, no new windows, no webviews.
 */
import { pathToFileURL } from 'node:url';
import { APP_NAME } from './app-identity.js';
import type { ShellWebContents, WindowOptions } from './electron-shell.js';
import { DEFAULT_SIZE, MIN_SIZE } from './window-state.js';

/** The window's color before the page paints, matching the page's light or dark theme. */
export function windowBackground(dark: boolean): string {
  return dark ? '#1b1d21' : '#f6f7f9';
}

export function mainWindowOptions(o: {
  preload: string;
  dark: boolean;
  icon?: string;
  /** From placeWindow (window-state.ts); no x/y: the OS centers the window. */
  bounds?: { x?: number; y?: number; width: number; height: number };
}): WindowOptions {
  const options: WindowOptions = {
    ...(o.bounds?.x !== undefined && o.bounds.y !== undefined ? { x: o.bounds.x, y: o.bounds.y } : {}),
    width: o.bounds?.width ?? DEFAULT_SIZE.width,
    height: o.bounds?.height ?? DEFAULT_SIZE.height,
    minWidth: MIN_SIZE.width,
    minHeight: MIN_SIZE.height,
    show: false, // shown on ready-to-show, so there is no white flash
    title: APP_NAME,
    backgroundColor: windowBackground(o.dark),
    // The menu bar stays visible on Windows and Linux: File, View and Help are how a desktop app is found out.
    autoHideMenuBar: false,
    webPreferences: {
      preload: o.preload,
      contextIsolation: true,
      sandbox: true,
      nodeIntegration: false,
      nodeIntegrationInWorker: false,
      nodeIntegrationInSubFrames: false,
      webSecurity: true,
      allowRunningInsecureContent: false,
      webviewTag: false,
      // A file dropped on the window is opened by the page, never navigated to.
      navigateOnDragDrop: false,
      spellcheck: false,
    },
  };
  if (o.icon) options.icon = o.icon;
  return options;
}

/** Decides which URLs are the app's own page: the dev server in development, index.html otherwise. */
export function appUrlMatcher(target: { devServerUrl?: string; rendererFile: string }): (url: string) => boolean {
  if (target.devServerUrl) {
    const origin = new URL(target.devServerUrl).origin;
    return (url) => {
      try {
        return new URL(url).origin === origin;
      } catch {
        return false;
      }
    };
  }
  const page = pathToFileURL(target.rendererFile).href;
  return (url) => url.split(/[?#]/)[0] === page;
}

export function hardenWebContents(wc: ShellWebContents): void {
  // The page never navigates: every link or drop that would leave it is refused.
  const block = (event: { preventDefault(): void }) => event.preventDefault();
  wc.on('will-navigate', block);
  wc.on('will-redirect', block);
  wc.on('will-frame-navigate', block);
  wc.on('will-attach-webview', block);
  wc.setWindowOpenHandler(() => ({ action: 'deny' }));
}

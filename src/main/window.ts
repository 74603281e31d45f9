/**
 * The main window: its options (isolated, sandboxed renderer without Node) and the guards that
 * keep the page where it is: no navigation, no new windows, no webviews.
 */
import { pathToFileURL } from 'node:url';
import type { ShellWebContents, WindowOptions } from './electron-shell.js';

export function mainWindowOptions(o: { preload: string; dark: boolean; icon?: string }): WindowOptions {
  const options: WindowOptions = {
    width: 1360,
    height: 860,
    minWidth: 760,
    minHeight: 480,
    show: false, // shown on ready-to-show, so there is no white flash
    title: 'PakScope',
    backgroundColor: o.dark ? '#1b1d21' : '#f6f7f9',
    autoHideMenuBar: true,
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

/**
 * Picks the API for this page: window.pakscope (the Electron preload) when present, otherwise the
 * web client talking to the browser host with the token from the page URL.
 */
import type { PakScopeBridge } from '../../../shared/api.js';
import { WebClient } from './web-client.js';

export type Bridge = PakScopeBridge & {
  /** Electron only: the disk path of a dropped file or folder. */
  pathForFile?(file: File): string;
  /** Browser mode: told when the host stops answering (true) and answers again (false). */
  onConnection?(listener: (lost: boolean) => void): () => void;
  /** Browser mode: try the host again now. */
  retryNow?(): void;
};

declare global {
  interface Window {
    pakscope?: Bridge;
  }
}

const TOKEN_KEY = 'pakscope.token';
const OPEN_KEY = 'pakscope.open';

export interface Connection {
  api: Bridge;
  mode: 'electron' | 'web';
  /** The install to open at start: from the command line (URL ?open=) or the last one this tab had. */
  initialPath: string | null;
  /** Set when the page cannot reach the API (browser mode without a token). */
  problem: string | null;
}

export function connect(): Connection {
  const url = new URL(window.location.href);
  const openParam = url.searchParams.get('open');
  if (window.pakscope) {
    return { api: window.pakscope, mode: 'electron', initialPath: openParam, problem: null };
  }
  // The token is moved from the address bar to this tab's session storage, so a reload keeps
  // working and the token does not linger in the visible URL.
  const token = url.searchParams.get('token') ?? sessionStorage.getItem(TOKEN_KEY) ?? '';
  if (url.searchParams.has('token') || url.searchParams.has('open')) {
    if (token) sessionStorage.setItem(TOKEN_KEY, token);
    url.searchParams.delete('token');
    url.searchParams.delete('open');
    history.replaceState(null, '', url.pathname + (url.search === '?' ? '' : url.search) + url.hash);
  }
  const initialPath = openParam ?? sessionStorage.getItem(OPEN_KEY);
  return {
    api: new WebClient(token),
    mode: 'web',
    initialPath,
    problem: token ? null : 'This page has no access token. Open the URL that `npm run web` printed (it ends in ?token=…).',
  };
}

/** Remembers the open install for this tab, so a reload in browser mode shows it again. */
export function rememberOpenPath(path: string | null): void {
  try {
    if (path) sessionStorage.setItem(OPEN_KEY, path);
    else sessionStorage.removeItem(OPEN_KEY);
  } catch {
    // storage may be unavailable (file://); nothing to remember then
  }
}

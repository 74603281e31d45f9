/**
 * One ipcMain.handle per API method. Every request comes from our own page (checked by its
 * frame's URL) and passes validateRequest before the backend sees it; failures come back as
 * { ok: false, error } with the message the backend gave.
 */
import { isAbsolute } from 'node:path';
import { API_METHODS, validateRequest, type ApiMethod, type PakScopeApi } from '../shared/api.js';
import type { IpcInvokeEvent, ShellIpcMain } from './electron-shell.js';
import { DROP_CHANNEL, ipcChannel, type IpcReply } from './ipc-protocol.js';

/**
 * `grant` takes the path of a file dropped on the window, from the preload: webUtils gives a path
 * only for a file the user dropped or chose, never for one a script made, so the page cannot
 * name a path of its choice this way.
 */
export function registerIpc(ipcMain: ShellIpcMain, backend: PakScopeApi, isTrustedUrl: (url: string) => boolean, grant: (path: string) => void): void {
  for (const method of API_METHODS) {
    ipcMain.handle(ipcChannel(method), (event, ...args) => handle(backend, method, event, args, isTrustedUrl));
  }
  ipcMain.handle(DROP_CHANNEL, async (event, ...args) => {
    const url = event.senderFrame?.url;
    const path = args[0];
    if (url === undefined || !isTrustedUrl(url) || args.length !== 1) return { ok: false, error: { name: 'Error', message: 'refused' } };
    if (typeof path !== 'string' || path === '' || path.length > 32_768 || path.includes('\0') || !isAbsolute(path)) {
      return { ok: false, error: { name: 'Error', message: 'not a path' } };
    }
    grant(path);
    return { ok: true, value: null };
  });
}

async function handle(
  backend: PakScopeApi, method: ApiMethod, event: IpcInvokeEvent, args: unknown[], isTrustedUrl: (url: string) => boolean,
): Promise<IpcReply> {
  try {
    const url = event.senderFrame?.url;
    if (url === undefined || !isTrustedUrl(url)) throw new Error(`request to ${method} from an unknown page was refused`);
    if (args.length > 1) throw new Error(`invalid request to ${method}: takes one argument`);
    const req = validateRequest(method, args[0]);
    const call = backend[method] as (r: unknown) => Promise<unknown>;
    const value = await call.call(backend, req);
    return { ok: true, value };
  } catch (e) {
    const err = e instanceof Error ? e : new Error(String(e));
    return { ok: false, error: { name: err.name, message: err.message } };
  }
}

/**
 * One ipcMain.handle per API method. Every request comes from our own page (checked by its
 * frame's URL) and passes validateRequest before the backend sees it; failures come back as
 * { ok: false, error } with the message the backend gave.
 */
import { API_METHODS, validateRequest, type ApiMethod, type PakScopeApi } from '../shared/api.js';
import type { IpcInvokeEvent, ShellIpcMain } from './electron-shell.js';
import { ipcChannel, type IpcReply } from './ipc-protocol.js';

export function registerIpc(ipcMain: ShellIpcMain, backend: PakScopeApi, isTrustedUrl: (url: string) => boolean): void {
  for (const method of API_METHODS) {
    ipcMain.handle(ipcChannel(method), (event, ...args) => handle(backend, method, event, args, isTrustedUrl));
  }
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

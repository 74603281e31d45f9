/**
 * The only bridge between the sandboxed page and the main process: window.pakscope, one function
 * per API method (each an ipcRenderer.invoke on 'pakscope:<method>'), onEvent for progress and
 * open-path events, and pathForFile for drag and drop. No Node or Electron object reaches the page.
 */
import { contextBridge, ipcRenderer, webUtils } from 'electron';
import { API_METHODS, type ApiEvent, type ApiMethod, type PakScopeBridge } from '../shared/api.js';
import { DROP_CHANNEL, EVENT_CHANNEL, ipcChannel, type IpcReply } from '../main/ipc-protocol.js';

async function invoke(method: ApiMethod, req: unknown): Promise<unknown> {
  const reply = (await ipcRenderer.invoke(ipcChannel(method), req)) as IpcReply;
  if (!reply.ok) {
    const err = new Error(reply.error.message);
    err.name = reply.error.name;
    throw err;
  }
  return reply.value;
}

const api = Object.fromEntries(API_METHODS.map((m) => [m, (req?: unknown) => invoke(m, req)]));

const bridge = {
  ...api,
  onEvent(listener: (event: ApiEvent) => void): () => void {
    const handler = (_e: unknown, event: ApiEvent) => listener(event);
    ipcRenderer.on(EVENT_CHANNEL, handler);
    return () => { ipcRenderer.removeListener(EVENT_CHANNEL, handler); };
  },
  /** The path of a file or folder dropped on the window ("" for data that is not on disk). */
  pathForFile(file: File): string {
    const path = webUtils.getPathForFile(file);
    // Sent before the page's openInstall for it: IPC messages of one page arrive in order.
    if (path) void ipcRenderer.invoke(DROP_CHANNEL, path).catch(() => undefined);
    return path;
  },
} as PakScopeBridge & { pathForFile(file: File): string };

contextBridge.exposeInMainWorld('pakscope', bridge);

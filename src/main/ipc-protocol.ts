/**
 * What travels over Electron IPC between the preload and the main process. Replies are wrapped so
 * the renderer sees the backend's own error message, not Electron's "Error invoking remote
 * method ..." prefix. Framework-free: both the preload and the main process import it.
 */
import type { ApiMethod } from '../shared/api.js';

export const EVENT_CHANNEL = 'pakscope:event';
/** The preload tells the main process the path of a file dropped on the window: the user gave it (path-grants.ts). */
export const DROP_CHANNEL = 'pakscope:dropped';

export function ipcChannel(method: ApiMethod): string {
  return `pakscope:${method}`;
}

export type IpcReply =
  | { ok: true; value: unknown }
  | { ok: false; error: { name: string; message: string } };

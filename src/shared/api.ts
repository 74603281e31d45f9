/**
 * The one API between the renderer and the backend. The main process serves it over IPC (the
 * preload exposes it as window.pakscope), the browser host serves it over HTTP; both validate every
 * request with `validateRequest` before it reaches the backend. Framework-free: no Node, no DOM.
 */
import type { ArchiveKind, ArchiveStatus, FileStorage, HashCheck } from '../core/archive.js';

export type { ArchiveKind, ArchiveStatus, FileStorage, HashCheck };

export interface AppInfo {
  name: string;
  version: string;
  node: string;
  electron: string | null;
  chrome: string | null;
  mode: 'electron' | 'web';
}

export interface ContainerSummary {
  path: string;
  name: string;
  kind: ArchiveKind;
  fileCount: number;
  status: ArchiveStatus;
  /** The same facts as `pakscope info`. */
  fields: Record<string, string | number | boolean | null>;
}

export interface InstallSummary {
  id: string;
  /** The folder or file the user opened. */
  root: string;
  containers: ContainerSummary[];
  fileCount: number;
  totalSize: number;
}

export interface TreeEntry {
  name: string;
  /** Full path as `ls` prints it (no leading slash). */
  path: string;
  isDir: boolean;
  /** File: its size; folder: total size of the files below it (that match the filter, if any). */
  size: number;
  /** Folder: number of files below it (matching the filter, if any); file: 1. */
  fileCount: number;
  /** File: name of the container that provides it. */
  container?: string;
  /** File: how many other containers hold the same path (overridden by this one). */
  overrides?: number;
}

export interface FileDetails {
  path: string;
  size: number;
  container: string;
  containerPath: string;
  chunkId?: string;
  chunkType?: string;
  storage: FileStorage;
  /** Containers that also hold this path and lose to `container`, highest priority first. */
  overridden: { container: string; containerPath: string }[];
  /** Opens in the text view (ini, json, txt, csv, xml, uproject, uplugin, ...). */
  isText: boolean;
}

export type ApiEvent =
  | { type: 'progress'; installId: string; phase: 'scan' | 'index' | 'done'; done: number; total: number; current?: string }
  /** A path handed over by the OS (second launch, file association) to open. */
  | { type: 'open-path'; path: string };

export interface PakScopeApi {
  appInfo(): Promise<AppInfo>;
  openInstall(req: { path: string; aesKeys?: string[] }): Promise<InstallSummary>;
  closeInstall(req: { installId: string }): Promise<void>;
  listDir(req: { installId: string; path: string; filter?: string }): Promise<TreeEntry[]>;
  fileDetails(req: { installId: string; path: string }): Promise<FileDetails>;
  readFile(req: { installId: string; path: string; offset?: number; length?: number }): Promise<{ bytes: Uint8Array; total: number }>;
  verifyFile(req: { installId: string; path: string }): Promise<HashCheck | null>;
  recentInstalls(): Promise<string[]>;
  /** A native dialog; resolves null when cancelled or where there is none (browser mode). */
  pickPath(req: { kind: 'folder' | 'file' }): Promise<string | null>;
}

export type ApiMethod = keyof PakScopeApi;
export type ApiRequest<M extends ApiMethod> = Parameters<PakScopeApi[M]>[0];
export type ApiResult<M extends ApiMethod> = Awaited<ReturnType<PakScopeApi[M]>>;

/** What the preload exposes as window.pakscope and the web client implements. */
export interface PakScopeBridge extends PakScopeApi {
  onEvent(listener: (event: ApiEvent) => void): () => void;
}

// ---- request validation (every IPC and HTTP argument goes through here) ----

export class ApiValidationError extends Error {
  constructor(method: string, detail: string) {
    super(`invalid request to ${method}: ${detail}`);
    this.name = 'ApiValidationError';
  }
}

type Shape = Record<string, 'string' | 'string?' | 'number?' | 'string[]?' | ['enum', ...string[]]>;

const SHAPES: Record<ApiMethod, Shape | null> = {
  appInfo: null,
  openInstall: { path: 'string', aesKeys: 'string[]?' },
  closeInstall: { installId: 'string' },
  listDir: { installId: 'string', path: 'string', filter: 'string?' },
  fileDetails: { installId: 'string', path: 'string' },
  readFile: { installId: 'string', path: 'string', offset: 'number?', length: 'number?' },
  verifyFile: { installId: 'string', path: 'string' },
  recentInstalls: null,
  pickPath: { kind: ['enum', 'folder', 'file'] },
};

export const API_METHODS = Object.keys(SHAPES) as ApiMethod[];

export function isApiMethod(name: unknown): name is ApiMethod {
  return typeof name === 'string' && Object.prototype.hasOwnProperty.call(SHAPES, name);
}

const MAX_STRING = 32 * 1024;

/** Checks a request against its method's shape; unknown keys, wrong types and huge strings are refused. */
export function validateRequest<M extends ApiMethod>(method: M, req: unknown): ApiRequest<M> {
  if (!isApiMethod(method)) throw new ApiValidationError(String(method), 'unknown method');
  const shape = SHAPES[method];
  if (shape === null) {
    if (req !== undefined && req !== null) throw new ApiValidationError(method, 'takes no argument');
    return undefined as ApiRequest<M>;
  }
  if (typeof req !== 'object' || req === null || Array.isArray(req)) throw new ApiValidationError(method, 'argument must be an object');
  const obj = req as Record<string, unknown>;
  for (const key of Object.keys(obj)) {
    if (!(key in shape)) throw new ApiValidationError(method, `unknown field "${key}"`);
  }
  for (const [key, type] of Object.entries(shape)) {
    const v = obj[key];
    const optional = typeof type === 'string' && type.endsWith('?');
    if (v === undefined) {
      if (optional) continue;
      throw new ApiValidationError(method, `missing field "${key}"`);
    }
    const base = typeof type === 'string' ? type.replace('?', '') : 'enum';
    const ok =
      base === 'string' ? typeof v === 'string' && v.length <= MAX_STRING && !v.includes('\0') :
      base === 'number' ? typeof v === 'number' && Number.isSafeInteger(v) && v >= 0 :
      base === 'string[]' ? Array.isArray(v) && v.length <= 256 && v.every((s) => typeof s === 'string' && s.length <= 1024) :
      Array.isArray(type) && typeof v === 'string' && type.slice(1).includes(v);
    if (!ok) throw new ApiValidationError(method, `field "${key}" has the wrong type or size`);
  }
  return req as ApiRequest<M>;
}

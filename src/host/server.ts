/**
 * The browser host: serves the built renderer and the API on 127.0.0.1 only, for `npm run web`.
 * Any local page or program could send requests to a local port, so every request must name this
 * host in its Host header (defeats DNS rebinding), cross-origin requests are refused by their
 * Origin header, and every API call carries a random per-run token. Requests pass validateRequest
 * before the backend sees them; static files come from one folder, never from outside it.
 */
import { randomBytes, timingSafeEqual } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { realpath, stat } from 'node:fs/promises';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { extname, resolve, sep } from 'node:path';
import { isInputError } from '../core/errors.js';
import { ApiValidationError, isApiMethod, validateRequest, type ApiEvent, type PakScopeApi } from '../shared/api.js';
import { RequestError } from '../backend/request-error.js';
import { contentSecurityPolicy } from '../shared/csp.js';
import { encodeFrame, encodeJson, FRAME_TYPE } from '../shared/wire.js';

export const TOKEN_HEADER = 'x-pakscope-token';
const MAX_BODY = 1024 * 1024;
const HEARTBEAT_MS = 20_000;

export interface HostBackend extends PakScopeApi {
  onEvent(listener: (event: ApiEvent) => void): () => void;
}

export interface HostOptions {
  backend: HostBackend;
  /** The built renderer (out/renderer). */
  staticDir: string;
  /** 0 (the default) picks a free port. */
  port?: number;
  /** Tests may fix it; otherwise 32 random bytes. */
  token?: string;
  /** Where request failures are reported (not the user's problem: a refused request, a crash). */
  log?: (message: string) => void;
}

export interface RunningHost {
  readonly port: number;
  readonly token: string;
  /** http://127.0.0.1:PORT/?token=TOKEN */
  readonly url: string;
  readonly server: Server;
  close(): Promise<void>;
}

const CONTENT_TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
  '.ttf': 'font/ttf',
  '.woff': 'font/woff',
  '.woff2': 'font/woff2',
  '.json': 'application/json',
  '.map': 'application/json',
  '.wasm': 'application/wasm',
  '.txt': 'text/plain; charset=utf-8',
};

export async function startHost(opts: HostOptions): Promise<RunningHost> {
  const token = opts.token ?? randomBytes(32).toString('base64url');
  const tokenBytes = Buffer.from(token);
  const staticRoot = await realpath(resolve(opts.staticDir));
  const log = opts.log ?? (() => undefined);
  const streams = new Set<ServerResponse>();
  let port = 0;

  const tokenOk = (given: string | null | undefined): boolean => {
    if (!given) return false;
    const b = Buffer.from(given);
    return b.length === tokenBytes.length && timingSafeEqual(b, tokenBytes);
  };

  const server = createServer((req, res) => {
    handle(req, res).catch((e: unknown) => {
      log(`${req.method} ${req.url}: ${e instanceof Error ? e.stack ?? e.message : String(e)}`);
      if (!res.headersSent) sendJson(res, 500, { ok: false, error: { name: 'Error', message: 'internal error in the PakScope host' } });
      else res.destroy();
    });
  });

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    setCommonHeaders(res);
    const host = req.headers.host ?? '';
    if (host !== `127.0.0.1:${port}` && host !== `localhost:${port}`) return refuse(res, 'unexpected Host header');
    const origin = req.headers.origin;
    if (origin !== undefined && origin !== `http://${host}`) return refuse(res, 'cross-origin request');
    const url = new URL(req.url ?? '/', `http://${host}`);

    if (url.pathname === '/api' || url.pathname.startsWith('/api/')) {
      const given = headerValue(req.headers[TOKEN_HEADER]) ?? url.searchParams.get('token');
      if (!tokenOk(given)) return refuse(res, 'missing or wrong token');
      const name = url.pathname.slice('/api/'.length);
      if (name === 'events') {
        if (req.method !== 'GET') return sendJson(res, 405, { ok: false, error: { name: 'Error', message: 'use GET' } });
        return openEventStream(req, res);
      }
      if (!isApiMethod(name)) return sendJson(res, 404, { ok: false, error: { name: 'Error', message: `no API method "${name}"` } });
      if (req.method !== 'POST') return sendJson(res, 405, { ok: false, error: { name: 'Error', message: 'use POST' } });
      if (!(req.headers['content-type'] ?? '').startsWith('application/json')) {
        return sendJson(res, 415, { ok: false, error: { name: 'Error', message: 'the body must be application/json' } });
      }
      return callApi(name, req, res);
    }

    if (req.method !== 'GET' && req.method !== 'HEAD') return sendText(res, 405, 'method not allowed');
    return serveStatic(url, req, res);
  }

  async function callApi(method: Parameters<typeof validateRequest>[0], req: IncomingMessage, res: ServerResponse): Promise<void> {
    let body: unknown;
    try {
      const text = await readBody(req);
      body = text.trim() === '' ? null : JSON.parse(text);
    } catch (e) {
      return sendJson(res, 400, { ok: false, error: { name: 'Error', message: `bad request body: ${e instanceof Error ? e.message : String(e)}` } });
    }
    try {
      const request = validateRequest(method, body);
      const fn = opts.backend[method] as (r: unknown) => Promise<unknown>;
      const value = await fn.call(opts.backend, request);
      sendAnswer(res, { ok: true, value });
    } catch (e) {
      const err = e instanceof Error ? e : new Error(String(e));
      const status = err instanceof ApiValidationError ? 400 : err instanceof RequestError ? err.status
        : isInputError(err) || isInputError(err.cause) ? 422 : 500;
      sendJson(res, status, { ok: false, error: { name: err.name, message: err.message } });
    }
  }

  function openEventStream(req: IncomingMessage, res: ServerResponse): void {
    res.writeHead(200, { 'Content-Type': 'text/event-stream; charset=utf-8', 'Cache-Control': 'no-store', Connection: 'keep-alive' });
    res.write('retry: 2000\n\n');
    streams.add(res);
    const off = opts.backend.onEvent((event) => { res.write(`data: ${JSON.stringify(event)}\n\n`); });
    const beat = setInterval(() => res.write(': keep-alive\n\n'), HEARTBEAT_MS);
    beat.unref();
    req.on('close', () => {
      off();
      clearInterval(beat);
      streams.delete(res);
    });
  }

  async function serveStatic(url: URL, req: IncomingMessage, res: ServerResponse): Promise<void> {
    let rel: string;
    try {
      rel = decodeURIComponent(url.pathname);
    } catch {
      return sendText(res, 400, 'bad path');
    }
    if (rel === '/') rel = '/index.html';
    // No "..", no backslashes, no NUL, no hidden files: anything odd is refused before the disk is asked.
    const parts = rel.split('/').slice(1);
    if (rel.includes('\\') || rel.includes('\0') || parts.some((p) => p === '' || p === '.' || p === '..' || p.startsWith('.'))) {
      return sendText(res, 403, 'forbidden');
    }
    const file = resolve(staticRoot, ...parts);
    if (!file.startsWith(staticRoot + sep)) return sendText(res, 403, 'forbidden');
    let real: string;
    try {
      real = await realpath(file);
      if (!real.startsWith(staticRoot + sep) || !(await stat(real)).isFile()) return sendText(res, 404, 'not found');
    } catch {
      return sendText(res, 404, 'not found');
    }
    res.writeHead(200, {
      'Content-Type': CONTENT_TYPES[extname(real).toLowerCase()] ?? 'application/octet-stream',
      'Cache-Control': 'no-cache',
    });
    if (req.method === 'HEAD') return void res.end();
    await new Promise<void>((done, fail) => {
      createReadStream(real).on('error', fail).on('end', done).pipe(res);
    });
  }

  function refuse(res: ServerResponse, why: string): void {
    log(`refused: ${why}`);
    sendJson(res, 403, { ok: false, error: { name: 'Error', message: `forbidden: ${why}` } });
  }

  await new Promise<void>((done, fail) => {
    server.once('error', fail);
    server.listen(opts.port ?? 0, '127.0.0.1', () => {
      server.off('error', fail);
      done();
    });
  });
  port = (server.address() as AddressInfo).port;

  return {
    port,
    token,
    url: `http://127.0.0.1:${port}/?token=${token}`,
    server,
    close: () => new Promise<void>((done) => {
      for (const s of streams) s.end();
      server.close(() => done());
      server.closeAllConnections();
    }),
  };
}

function setCommonHeaders(res: ServerResponse): void {
  res.setHeader('Content-Security-Policy', contentSecurityPolicy('header'));
  res.setHeader('X-Content-Type-Options', 'nosniff');
  res.setHeader('X-Frame-Options', 'DENY');
  res.setHeader('Referrer-Policy', 'no-referrer');
  res.setHeader('Cross-Origin-Opener-Policy', 'same-origin');
  res.setHeader('Cross-Origin-Resource-Policy', 'same-origin');
}

function headerValue(v: string | string[] | undefined): string | undefined {
  return Array.isArray(v) ? v[0] : v;
}

function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((done, fail) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (c: Buffer) => {
      size += c.length;
      if (size > MAX_BODY) {
        fail(new Error(`larger than ${MAX_BODY} bytes`));
        req.destroy();
        return;
      }
      chunks.push(c);
    });
    req.on('end', () => done(Buffer.concat(chunks).toString('utf8')));
    req.on('error', fail);
  });
}

/** A successful answer: a binary frame when it holds byte arrays (written as they are, not copied), JSON otherwise. */
function sendAnswer(res: ServerResponse, body: unknown): void {
  const parts = encodeFrame(body);
  if (!parts) return sendJson(res, 200, body);
  res.writeHead(200, { 'Content-Type': FRAME_TYPE, 'Content-Length': parts.reduce((n, p) => n + p.byteLength, 0), 'Cache-Control': 'no-store' });
  for (const p of parts) res.write(Buffer.from(p.buffer, p.byteOffset, p.byteLength));
  res.end();
}

function sendJson(res: ServerResponse, status: number, body: unknown): void {
  const text = encodeJson(body);
  res.writeHead(status, { 'Content-Type': 'application/json; charset=utf-8', 'Cache-Control': 'no-store' });
  res.end(text);
}

function sendText(res: ServerResponse, status: number, text: string): void {
  res.writeHead(status, { 'Content-Type': 'text/plain; charset=utf-8', 'Cache-Control': 'no-store' });
  res.end(text);
}

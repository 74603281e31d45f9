import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { request } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Backend } from '../../src/backend/backend.js';
import { noDialogs } from '../../src/backend/dialogs.js';
import { contentSecurityPolicy } from '../../src/shared/csp.js';
import { parseHostArgs } from '../../src/host/main.js';
import { startHost, TOKEN_HEADER, type RunningHost } from '../../src/host/server.js';
import { decodeFrame, decodeJson, encodeFrame, encodeJson, FRAME_TYPE } from '../../src/shared/wire.js';
import { corpus } from '../support/corpus.js';

const UNCOMPRESSED = corpus('cue58/IoStore/Tagged/Uncompressed');
const AC_FIXTURE = 'CUE4ParseFixtures/Content/Fixtures/Animations/AC_Fixture.uasset';
const SECRET = 'top secret: outside the static folder';

interface Reply { status: number; headers: Record<string, string | string[] | undefined>; body: string; raw: Buffer }

/** A raw HTTP request: the path goes on the wire as given (no URL normalization). */
function send(port: number, opts: { method?: string; path: string; headers?: Record<string, string>; body?: string }): Promise<Reply> {
  return new Promise((done, fail) => {
    const req = request({ host: '127.0.0.1', port, method: opts.method ?? 'GET', path: opts.path, headers: { host: `127.0.0.1:${port}`, ...opts.headers } }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => { const raw = Buffer.concat(chunks); done({ status: res.statusCode ?? 0, headers: res.headers, body: raw.toString('utf8'), raw }); });
    });
    req.on('error', fail);
    req.end(opts.body);
  });
}

describe('browser host', () => {
  let dir: string;
  let host: RunningHost;
  let backend: Backend;
  let installId: string;
  const api = (method: string, body: unknown, headers: Record<string, string> = {}) => send(host.port, {
    method: 'POST', path: `/api/${method}`, body: JSON.stringify(body),
    headers: { 'content-type': 'application/json', [TOKEN_HEADER]: host.token, ...headers },
  });

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'pakscope-host-'));
    const web = join(dir, 'renderer');
    await mkdir(join(web, 'assets'), { recursive: true });
    await writeFile(join(web, 'index.html'), '<!doctype html><title>PakScope</title>');
    await writeFile(join(web, 'assets', 'app.js'), 'console.log(1)');
    await writeFile(join(web, '.hidden'), 'hidden');
    await writeFile(join(dir, 'secret.txt'), SECRET);
    backend = new Backend({ configDir: join(dir, 'config'), dialogs: noDialogs, info: { name: 'PakScope', version: '1.0.0', electron: null, chrome: null, mode: 'web' } });
    backend.grantPath(UNCOMPRESSED); // as `npm run web <path>` does
    installId = (await backend.openInstall({ path: UNCOMPRESSED })).id;
    host = await startHost({ backend, staticDir: web });
  });
  afterAll(async () => {
    await host?.close();
    await backend?.close();
    await rm(dir, { recursive: true, force: true });
  });

  it('listens on 127.0.0.1 only, on a free port, with a long random token', () => {
    const addr = host.server.address() as AddressInfo;
    expect(addr.address).toBe('127.0.0.1');
    expect(addr.port).toBe(host.port);
    expect(host.port).toBeGreaterThan(0);
    expect(host.token).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(host.url).toBe(`http://127.0.0.1:${host.port}/?token=${host.token}`);
  });

  it('serves the page with the CSP and hardening headers', async () => {
    const r = await send(host.port, { path: '/' });
    expect(r.status).toBe(200);
    expect(r.body).toContain('<title>PakScope</title>');
    expect(r.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(r.headers['content-security-policy']).toBe(contentSecurityPolicy('header'));
    expect(r.headers['x-content-type-options']).toBe('nosniff');
    expect(r.headers['x-frame-options']).toBe('DENY');
    const js = await send(host.port, { path: '/assets/app.js' });
    expect(js.status).toBe(200);
    expect(js.headers['content-type']).toBe('text/javascript; charset=utf-8');
  });

  it('refuses a wrong Host header (DNS rebinding) with 403', async () => {
    for (const h of ['evil.example', `evil.example:${host.port}`, '127.0.0.1', `127.0.0.1:${host.port + 1}`, `0.0.0.0:${host.port}`]) {
      const page = await send(host.port, { path: '/', headers: { host: h } });
      expect(page.status, h).toBe(403);
      const call = await api('appInfo', null, { host: h });
      expect(call.status, h).toBe(403);
    }
    expect((await send(host.port, { path: '/', headers: { host: `localhost:${host.port}` } })).status).toBe(200);
  });

  it('refuses cross-origin requests with 403, accepts its own origin', async () => {
    for (const origin of ['https://evil.example', `http://localhost:${host.port + 1}`, 'null', `http://127.0.0.1:${host.port}.evil.example`]) {
      expect((await api('appInfo', null, { origin })).status, origin).toBe(403);
    }
    expect((await api('appInfo', null, { origin: `http://127.0.0.1:${host.port}` })).status).toBe(200);
    expect((await api('appInfo', null, { origin: `http://localhost:${host.port}`, host: `localhost:${host.port}` })).status).toBe(200);
  });

  it('requires the token on every API call (header or query)', async () => {
    const missing = await send(host.port, { method: 'POST', path: '/api/appInfo', body: 'null', headers: { 'content-type': 'application/json' } });
    expect(missing.status).toBe(403);
    expect(JSON.parse(missing.body)).toMatchObject({ ok: false, error: { message: 'forbidden: missing or wrong token' } });
    expect((await api('appInfo', null, { [TOKEN_HEADER]: `${host.token.slice(0, -1)}x` })).status).toBe(403);
    expect((await api('appInfo', null, { [TOKEN_HEADER]: host.token.slice(1) })).status).toBe(403);
    expect((await api('appInfo', null, { [TOKEN_HEADER]: '' })).status).toBe(403);
    const byQuery = await send(host.port, { method: 'POST', path: `/api/appInfo?token=${host.token}`, body: 'null', headers: { 'content-type': 'application/json' } });
    expect(byQuery.status).toBe(200);
    // Unknown paths under /api are refused before they are looked up.
    expect((await send(host.port, { path: '/api/whatever' })).status).toBe(403);
    expect((await send(host.port, { path: '/api/events' })).status).toBe(403);
  });

  it('answers API calls with the backend\'s results', async () => {
    const info = await api('appInfo', null);
    expect(info.status).toBe(200);
    expect(JSON.parse(info.body)).toEqual({ ok: true, value: { name: 'PakScope', version: '1.0.0', electron: null, chrome: null, mode: 'web', node: process.versions.node } });
    const top = JSON.parse((await api('listDir', { installId, path: '' })).body) as { value: unknown };
    expect(top.value).toEqual([{ name: 'CUE4ParseFixtures', path: 'CUE4ParseFixtures', isDir: true, size: 2_465_829, fileCount: 111 }]);
  });

  it('sends an answer with bytes as a binary frame that the web client decodes', async () => {
    const r = await api('readFile', { installId, path: AC_FIXTURE, offset: 0, length: 16 });
    expect(r.headers['content-type']).toBe(FRAME_TYPE);
    expect(Number(r.headers['content-length'])).toBe(r.raw.length);
    const frame = new Uint8Array(r.raw).buffer; // a copy of its own, as fetch's arrayBuffer() gives
    const decoded = decodeFrame(frame) as { ok: boolean; value: { bytes: Uint8Array; total: number } };
    expect(decoded.value.total).toBe(1721);
    expect(decoded.value.bytes).toBeInstanceOf(Uint8Array);
    const direct = await backend.readFile({ installId, path: AC_FIXTURE, offset: 0, length: 16 });
    expect([...decoded.value.bytes]).toEqual([...direct.bytes]);
    expect(decodeJson(encodeJson({ a: new Uint8Array([0, 255, 7]), b: [1] }))).toEqual({ a: new Uint8Array([0, 255, 7]), b: [1] });
  });

  it('frames byte arrays of any length at multiples of 8, and refuses a frame cut short', () => {
    const a = new Uint8Array([1, 2, 3]), c = new Uint8Array(Array.from({ length: 13 }, (_, i) => i + 4));
    const joined = Buffer.concat(encodeFrame({ a, b: { c }, n: 5 })!);
    const frame = new Uint8Array(joined).buffer;
    const v = decodeFrame(frame) as { a: Uint8Array; b: { c: Uint8Array }; n: number };
    expect(v).toEqual({ a, b: { c }, n: 5 });
    expect([v.a.byteOffset % 8, v.b.c.byteOffset % 8, v.b.c.byteOffset - v.a.byteOffset]).toEqual([0, 0, 8]);
    expect(encodeFrame({ n: 1, list: [new Uint8Array(1)] })).toBeNull(); // arrays in lists stay JSON (base64)
    expect(() => decodeFrame(frame.slice(0, frame.byteLength - 8))).toThrow(/lies outside its/);
    expect(() => decodeFrame(frame.slice(0, 10))).toThrow(/runs past its end/);
  });

  it('validates requests: 400 with the reason, 404 for unknown methods, 415 for other bodies', async () => {
    const bad = await api('listDir', { installId, path: '', sneaky: true });
    expect(bad.status).toBe(400);
    expect(JSON.parse(bad.body)).toEqual({ ok: false, error: { name: 'ApiValidationError', message: 'invalid request to listDir: unknown field "sneaky"' } });
    expect((await api('readFile', { installId, path: AC_FIXTURE, offset: -5 })).status).toBe(400);
    expect((await api('constructor', {})).status).toBe(404);
    expect((await api('__proto__', {})).status).toBe(404);
    const notJson = await send(host.port, { method: 'POST', path: '/api/appInfo', body: 'null', headers: { [TOKEN_HEADER]: host.token, 'content-type': 'text/plain' } });
    expect(notJson.status).toBe(415);
    const broken = await send(host.port, { method: 'POST', path: '/api/listDir', body: '{', headers: { [TOKEN_HEADER]: host.token, 'content-type': 'application/json' } });
    expect(broken.status).toBe(400);
    expect((await send(host.port, { path: '/api/appInfo', headers: { [TOKEN_HEADER]: host.token } })).status).toBe(405);
  });

  // Issue 25, finding 5: inherited names are not fields (a `key in shape` test let them through).
  it('refuses inherited names as fields: __proto__, constructor, toString, hasOwnProperty', async () => {
    for (const field of ['__proto__', 'constructor', 'toString', 'hasOwnProperty', 'valueOf']) {
      // JSON.parse makes "__proto__" an own field, as a hostile page sends it.
      const r = await send(host.port, {
        method: 'POST', path: '/api/listDir', body: `{"installId":${JSON.stringify(installId)},"path":"","${field}":{"polluted":true}}`,
        headers: { 'content-type': 'application/json', [TOKEN_HEADER]: host.token },
      });
      expect(r.status, field).toBe(400);
      expect(JSON.parse(r.body).error.message).toBe(`invalid request to listDir: unknown field "${field}"`);
    }
    expect(({} as Record<string, unknown>)['polluted']).toBeUndefined();
  });

  // Issue 25, finding 4, over HTTP: what a hostile page could ask.
  it('opens only paths the user gave; device files are a 4xx; setMappings reveals nothing', async () => {
    const passwd = await api('openInstall', { path: '/etc/passwd' });
    expect(passwd.status).toBe(403);
    expect(JSON.parse(passwd.body).error.name).toBe('NeedsConfirmation');
    expect((await api('openInstall', { path: '/no/such/folder' })).status).toBe(403);
    const answers = new Set<string>();
    for (const path of ['/etc/passwd', '/etc', '/no/such.usmap', '/dev/zero']) {
      const r = await api('setMappings', { installId, path });
      expect(r.status, path).toBe(403);
      answers.add((JSON.parse(r.body) as { error: { message: string } }).error.message.replace(path, '<path>'));
    }
    expect(answers.size).toBe(1);
    expect((await api('openInstall', { path: '/dev/zero', confirmed: true })).status).toBe(400);
    expect(JSON.parse((await api('recentInstalls', null)).body).value).toEqual([UNCOMPRESSED]);
    // What `npm run web` opened, the page may ask for again.
    expect((await api('openInstall', { path: UNCOMPRESSED })).status).toBe(200);
  });

  it('reports backend errors with their message', async () => {
    const r = await api('fileDetails', { installId, path: 'Nope.uasset' });
    expect(r.status).toBe(404);
    expect(JSON.parse(r.body)).toEqual({ ok: false, error: { name: 'RequestError', message: 'no file "Nope.uasset" in this install' } });
    // A destination the user typed wrong is their request's fault (400), not the host's (500).
    const dest = await api('startExport', { installId, paths: [AC_FIXTURE], destination: 'relative/folder', conflict: 'skip', format: 'raw', output: 'folder' });
    expect(dest.status).toBe(400);
    expect(JSON.parse(dest.body).error.message).toMatch(/absolute path/);
  });

  it('serves files from the static folder only: no traversal, no hidden files', async () => {
    const attempts = [
      '/../secret.txt', '/assets/../../secret.txt', '/%2e%2e/secret.txt', '/..%2fsecret.txt', '/assets/..%2f..%2fsecret.txt',
      '/..%5csecret.txt', '/assets%5c..%5c..%5csecret.txt', '/%2e%2e%2f%2e%2e%2fsecret.txt', '/.hidden', '/assets/%00.js',
      '//etc/passwd', '/%2fetc%2fpasswd', `/${'..%2f'.repeat(12)}etc/passwd`,
    ];
    for (const path of attempts) {
      const r = await send(host.port, { path });
      expect(r.status, path).not.toBe(200);
      expect([400, 403, 404], path).toContain(r.status);
      expect(r.body, path).not.toContain(SECRET);
      expect(r.body, path).not.toContain('root:');
    }
    expect((await send(host.port, { path: '/assets' })).status).toBe(404); // a folder is not a file
    expect((await send(host.port, { method: 'PUT', path: '/index.html' })).status).toBe(405);
  });

  it('streams backend events to the page (Server-Sent Events)', async () => {
    const received = await new Promise<string>((done, fail) => {
      const req = request({ host: '127.0.0.1', port: host.port, path: `/api/events?token=${host.token}`, headers: { host: `127.0.0.1:${host.port}` } }, (res) => {
        expect(res.statusCode).toBe(200);
        expect(res.headers['content-type']).toBe('text/event-stream; charset=utf-8');
        let text = '';
        res.on('data', (c: Buffer) => {
          text += c.toString('utf8');
          if (text.includes('retry:') && !text.includes('data:')) backend.emit({ type: 'open-path', path: '/games/X' });
          if (text.includes('\n\ndata:') && text.endsWith('\n\n')) {
            req.destroy();
            done(text);
          }
        });
      });
      req.on('error', fail);
      req.end();
    });
    expect(received).toContain(`data: ${JSON.stringify({ type: 'open-path', path: '/games/X' })}\n\n`);
  });
});

describe('parseHostArgs', () => {
  it('reads a path, AES keys and a port', () => {
    expect(parseHostArgs([])).toEqual({ path: null, aesKeys: [], port: 0 });
    expect(parseHostArgs(['/games/A', '--aes-key', 'K1', '--aes-key=K2', '--port', '8080'])).toEqual({ path: '/games/A', aesKeys: ['K1', 'K2'], port: 8080 });
    expect(() => parseHostArgs(['--port', 'x'])).toThrow(/--port/);
    expect(() => parseHostArgs(['a', 'b'])).toThrow(/one path only/);
    expect(() => parseHostArgs(['--nope'])).toThrow(/unknown option --nope/);
    expect(() => parseHostArgs(['--aes-key'])).toThrow(/needs a value/);
  });
});

/**
 * The browser host's API under hostile requests (issue 25, findings 1, 4 and 5): what a page
 * running foreign script could send. A case is a method and a raw JSON body with placeholders
 * ($INSTALL_ID, $INSTALL, $DEST, $SANDBOX, $SECRET) filled in at run time. For every case:
 * - the answer is never a 500 (a refusal is a 4xx with a message);
 * - nothing is written in the sandbox but below the folder the request named as its destination
 *   (listed before and after each case, exports waited for);
 * - no prototype is polluted;
 * - a path the user did not give (anything but the install) is never opened or read: openInstall
 *   and setMappings answer 403 or 400 for it, whether it exists or not;
 * - an export that starts writes below the destination it was given.
 * Saved cases (api-cases.json) are replayed by hostile.test.ts; `npm run fuzz` makes random ones.
 */
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import { join, relative, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Backend } from '../../src/backend/backend.js';
import { noDialogs } from '../../src/backend/dialogs.js';
import { startHost, TOKEN_HEADER, type RunningHost } from '../../src/host/server.js';
import { API_METHODS, type ApiEvent } from '../../src/shared/api.js';
import { decodeFrame, FRAME_TYPE } from '../../src/shared/wire.js';
import { corpus } from '../support/corpus.js';
import type { Rng } from './mutate.js';

export const API_CASES_FILE = fileURLToPath(new URL('./api-cases.json', import.meta.url));

export interface ApiCase {
  method: string;
  /** Raw JSON text (it may hold "__proto__" as an own field), with placeholders. */
  body: string;
  /** What this case found, for people. */
  note?: string;
}

export const INSTALL = corpus('cue58/IoStore/Tagged/Uncompressed');
const FILE = 'CUE4ParseFixtures/Content/Fixtures/Animations/AC_Fixture.uasset';

/** Paths a hostile page would try to open or read. */
const HOSTILE_PATHS = [
  '/etc/passwd', '/etc', '/dev/zero', '/dev/null', '/dev/stdin', '/proc/self/environ', '/', '$SECRET', '$SANDBOX', '$INSTALL/..',
  '$INSTALL/../../..', '../../etc/passwd', 'relative/path', '~/.ssh/id_rsa', 'C:\\Windows\\System32', '\\\\server\\share\\x', 'file:///etc/passwd',
  ' ', '', '/no/such/file', '$DEST', '$INSTALL\u0007', '/tmp/../etc/passwd',
];

/**
 * Export folders: in browser mode the page may name any absolute folder outside the install (the
 * Export dialog's typed destination), so the campaign names only folders in its sandbox and ones
 * the rules refuse; it must never write outside its sandbox itself.
 */
const HOSTILE_DESTINATIONS = [
  '$SANDBOX', '$DEST/../..', '$DEST/sub', '$SECRET', '$SECRET/x', '$INSTALL', '$INSTALL/..', '$INSTALL/Sub', 'relative/path', ' ', '',
  '$DEST\u0007', '/dev/null', '/dev/null/x', '/etc/passwd', '/proc/self/environ', 'C:\\Windows', '\\\\server\\share', 'file:///tmp',
];

/** Zip and file names a hostile page would export to. */
const HOSTILE_NAMES = [
  '../../evil.zip', '../evil', '..', '.', '/tmp/evil.zip', 'sub/x.zip', 'a\\b.zip', 'C:evil.zip', 'CON', 'con.zip', 'NUL.txt', 'x\u0000y.zip',
  'x\u001b[31m.zip', 'a'.repeat(300), 'evil\u2215slash.zip', 'evil\uff0fslash.zip', '$INSTALL/x.zip', '../$INSTALL/x.zip', ' ', '', 'ok name.zip',
  'trailing.', 'trailing ', '\ud800.zip', '..\\..\\evil.zip', 'x.zip/..', '%2e%2e%2fevil.zip',
];

/** Fields named after what every object inherits. */
const INHERITED = ['__proto__', 'constructor', 'toString', 'hasOwnProperty', 'valueOf', '__defineGetter__', 'prototype'];

/** Values of the wrong kind or size. */
const WRONG_VALUES: unknown[] = [null, 1, -1, 1e300, true, [], {}, [1, 2], { a: 1 }, 'x'.repeat(40_000), ['x'.repeat(5000)], 'a\u0000b', Array(30_000).fill('p')];

/** A well-formed body for `method` (before one hostile change). */
function baseBody(method: string, rng: Rng): Record<string, unknown> | null {
  const id = '$INSTALL_ID';
  switch (method) {
    case 'openInstall': return { path: '$INSTALL' };
    case 'closeInstall': case 'keyStatus': case 'graphStats': case 'mappingsStatus': case 'pickMappings': return { installId: id };
    case 'listDir': return { installId: id, path: '' };
    case 'fileDetails': case 'verifyFile': return { installId: id, path: FILE };
    case 'readFile': case 'readPackageBytes': return { installId: id, path: FILE, offset: 0, length: 16 };
    case 'pickPath': return { kind: 'folder' };
    case 'startExport': return {
      installId: id, paths: [FILE], destination: '$DEST', conflict: rng.pick(['skip', 'keep-both', 'overwrite']), format: rng.pick(['raw', 'json']),
      output: 'zip', zipName: 'x.zip',
    };
    case 'cancelExport': return { exportId: 'x' };
    case 'exportFileList': return { installId: id, paths: [FILE], destination: '$DEST', conflict: 'keep-both', format: 'csv' };
    case 'addKeys': return { installId: id, keys: ['0x00'] };
    case 'forgetKey': return { installId: id, keyId: 'k' };
    case 'openPackage': case 'packageProperties': return { installId: id, path: FILE };
    case 'packageGraph': return { installId: id, package: '/Game/Fixtures/Animations/AC_Fixture', direction: 'both' };
    case 'graphPath': return { installId: id, from: '/Game/A', to: '/Game/B' };
    case 'graphFind': return { installId: id, query: 'AC' };
    case 'setMappings': return { installId: id, path: '$SECRET' };
    default: return null;
  }
}

/** One random hostile request. */
export function randomApiCase(rng: Rng): ApiCase {
  const method = rng.chance(0.05) ? rng.pick(['constructor', '__proto__', 'toString', 'events', '../appInfo', 'appInfo/', '']) : rng.pick(API_METHODS);
  const body = baseBody(method, rng);
  if (body === null || rng.chance(0.05)) {
    return { method, body: rng.pick(['null', '', '[]', '"x"', '{}', '{"__proto__":{"polluted":1}}', '{', 'x'.repeat(100), '{"a":'.repeat(5000)]) };
  }
  const keys = Object.keys(body);
  const roll = rng.int(100);
  let text: string;
  if (roll < 25) {
    // An inherited name as a field, its value an object: the JSON keeps "__proto__" an own field.
    text = JSON.stringify(body).replace(/^\{/, `{${JSON.stringify(rng.pick(INHERITED))}:{"polluted":true},`);
  } else if (roll < 45 && keys.some((k) => /path|destination/.test(k))) {
    const key = rng.pick(keys.filter((k) => /path|destination/.test(k)));
    body[key] = rng.pick(key === 'destination' ? HOSTILE_DESTINATIONS : HOSTILE_PATHS);
    if (rng.chance(0.3)) body['confirmed'] = true;
    text = JSON.stringify(body);
  } else if (roll < 70 && method === 'startExport') {
    body['zipName'] = rng.pick(HOSTILE_NAMES);
    if (rng.chance(0.3)) body['output'] = 'folder';
    if (rng.chance(0.2)) body['paths'] = [rng.pick(['', '/', '..', '../..', FILE, 'CUE4ParseFixtures'])];
    text = JSON.stringify(body);
  } else if (roll < 85) {
    body[rng.pick(keys)] = rng.pick(WRONG_VALUES);
    text = JSON.stringify(body);
  } else {
    body[rng.pick(['extra', 'installID', 'Path', ' path', 'path\u0000'])] = 1;
    text = JSON.stringify(body);
  }
  return { method, body: text };
}

export function loadApiCases(file = API_CASES_FILE): ApiCase[] {
  try {
    return JSON.parse(readFileSync(file, 'utf8')) as ApiCase[];
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENOENT') return [];
    throw e;
  }
}

export function saveApiCases(cases: readonly ApiCase[], file = API_CASES_FILE): void {
  writeFileSync(file, `[\n${cases.map((c) => `  ${JSON.stringify(c)}`).join(',\n')}\n]\n`);
}

export interface ApiReply { status: number; body: string }

/** A host over a strict backend (the page may open only the install), in a sandbox folder. */
export class HostileApiEnv {
  private constructor(
    readonly sandbox: string,
    readonly dest: string,
    readonly secret: string,
    readonly backend: Backend,
    readonly host: RunningHost,
    public installId: string,
  ) {}

  static async start(): Promise<HostileApiEnv> {
    const sandbox = await mkdtemp(join(tmpdir(), 'pakscope-hostile-api-'));
    const dest = join(sandbox, 'out', 'a', 'b');
    await mkdir(dest, { recursive: true });
    const secret = join(sandbox, 'secret.txt');
    await writeFile(secret, 'secret');
    const web = join(sandbox, 'renderer');
    await mkdir(web);
    await writeFile(join(web, 'index.html'), '<!doctype html>');
    const backend = new Backend({ configDir: join(sandbox, 'config'), dialogs: noDialogs, info: { name: 'PakScope', version: '0', electron: null, chrome: null, mode: 'web' } });
    backend.grantPath(INSTALL); // as `npm run web <install>` does
    const installId = (await backend.openInstall({ path: INSTALL })).id;
    const host = await startHost({ backend, staticDir: web });
    return new HostileApiEnv(sandbox, dest, secret, backend, host, installId);
  }

  fill(text: string): string {
    const json = (s: string) => JSON.stringify(s).slice(1, -1);
    return text.replaceAll('$INSTALL_ID', json(this.installId)).replaceAll('$INSTALL', json(INSTALL))
      .replaceAll('$DEST', json(this.dest)).replaceAll('$SANDBOX', json(this.sandbox)).replaceAll('$SECRET', json(this.secret));
  }

  send(method: string, body: string): Promise<ApiReply> {
    return new Promise((done, fail) => {
      const req = request({
        host: '127.0.0.1', port: this.host.port, method: 'POST', path: `/api/${method}`,
        headers: { host: `127.0.0.1:${this.host.port}`, 'content-type': 'application/json', [TOKEN_HEADER]: this.host.token },
      }, (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => {
          const bytes = Buffer.concat(chunks);
          // An answer holding byte arrays (readFile's) comes as a binary frame: read as JSON with each array as its length.
          const body = res.headers['content-type'] === FRAME_TYPE
            ? JSON.stringify(decodeFrame(bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength)), (_k, v: unknown) => (v instanceof Uint8Array ? { bytes: v.byteLength } : v))
            : bytes.toString('utf8');
          done({ status: res.statusCode ?? 0, body });
        });
      });
      req.on('error', fail);
      req.end(body);
    });
  }

  /** Runs one case; answers what went wrong (nothing: []). */
  async run(c: ApiCase): Promise<string[]> {
    const problems: string[] = [];
    const body = this.fill(c.body);
    const before = new Set(listAll(this.sandbox));
    const done = new Map<string, boolean>();
    const off = this.backend.onEvent((e: ApiEvent) => { if (e.type === 'export-done') done.set(e.result.exportId, true); });
    try {
      const reply = await this.send(c.method, body);
      if (reply.status >= 500) problems.push(`${c.method} answered ${reply.status}: ${reply.body.slice(0, 300)}`);
      let parsed: { ok?: boolean; value?: Record<string, unknown> } = {};
      // Not JSON is fine for a refusal outside the API (a path the URL parser took out of /api/).
      try { parsed = JSON.parse(reply.body) as typeof parsed; } catch { if (reply.status < 400) problems.push(`${c.method}: the answer is not JSON`); }
      const request = safeParse(body);
      const path = typeof request?.['path'] === 'string' ? request['path'] : null;
      // `confirmed` is the page's own confirmation, which the browser host takes (path-grants.ts).
      const confirmed = request?.['confirmed'] === true;
      const given = path !== null && (sameInstall(path) || this.confirmed.has(resolve(path.trim())));
      if ((c.method === 'openInstall' || c.method === 'setMappings') && path !== null && path.trim() !== '' && !given && !confirmed && reply.status === 200) {
        problems.push(`${c.method} opened ${JSON.stringify(path)}, which the user did not give`);
      }
      // A path the page confirmed was given from then on (as the backend remembers it).
      if (confirmed && path !== null && path.trim() !== '' && (reply.status === 200 || reply.status === 400 || reply.status === 404)) {
        this.confirmed.add(resolve(path.trim()));
      }
      const destination = typeof request?.['destination'] === 'string' ? resolve(request['destination'].trim() || '/nowhere') : null;
      if (reply.status === 200 && c.method === 'startExport') {
        const target = String(parsed.value?.['target'] ?? '');
        if (destination === null || !isBelow(destination, target)) problems.push(`startExport writes ${target}, outside ${destination}`);
        const id = String(parsed.value?.['exportId'] ?? '');
        for (let t = 0; !done.has(id) && t < 400; t++) await new Promise((r) => setTimeout(r, 25));
        if (!done.has(id)) problems.push('the export did not finish in 10 s');
      }
      if (reply.status === 200 && c.method === 'openInstall' && typeof parsed.value?.['id'] === 'string' && parsed.value['id'] !== this.installId) {
        // Another install (the same root opened with other keys): close it, so cases stay alike.
        await this.backend.closeInstall({ installId: parsed.value['id'] });
      }
      if (c.method === 'closeInstall' && reply.status === 200 && body.includes(this.installId)) {
        this.backendReopen = true;
      }
    } finally {
      off();
    }
    if (this.backendReopen) {
      this.backendReopen = false;
      const id = (await this.backend.openInstall({ path: INSTALL })).id;
      this.installId = id;
    }
    if (({} as Record<string, unknown>)['polluted'] !== undefined || Object.prototype.hasOwnProperty.call(Object.prototype, 'polluted')) {
      problems.push('Object.prototype was polluted');
    }
    const request = safeParse(body);
    const allowed = typeof request?.['destination'] === 'string' && request['destination'].trim() !== '' ? resolve(request['destination'].trim()) : null;
    const added = listAll(this.sandbox).filter((p) => !before.has(p) && !(allowed !== null && isBelow(allowed, join(this.sandbox, p))));
    if (added.length > 0) problems.push(`written outside the destination ${allowed ?? '(none)'}: ${added.slice(0, 5).join(', ')}`);
    return problems;
  }

  private backendReopen = false;
  /** Paths confirmed by earlier cases (the backend grants them). */
  private readonly confirmed = new Set<string>();

  async close(): Promise<void> {
    await this.host.close();
    await this.backend.close();
    await rm(this.sandbox, { recursive: true, force: true });
  }
}

function safeParse(text: string): Record<string, unknown> | null {
  try {
    const v = JSON.parse(text) as unknown;
    return typeof v === 'object' && v !== null && !Array.isArray(v) ? v as Record<string, unknown> : null;
  } catch {
    return null;
  }
}

function sameInstall(path: string): boolean {
  return path.trim().replace(/\/+$/, '') === INSTALL;
}

/** `path` is `root` or below it. */
function isBelow(root: string, path: string): boolean {
  const rel = relative(root, path);
  return !rel.startsWith('..') && !rel.startsWith(sep) && !/^[a-z]:/i.test(rel);
}

/** Every path in the sandbox but the config folder (which the app writes). */
function listAll(sandbox: string): string[] {
  const out: string[] = [];
  const walk = (dir: string): void => {
    for (const e of readdirSync(dir, { withFileTypes: true })) {
      const p = join(dir, e.name);
      if (p === join(sandbox, 'config')) continue;
      out.push(relative(sandbox, p));
      if (e.isDirectory()) walk(p);
    }
  };
  walk(sandbox);
  return out.sort();
}

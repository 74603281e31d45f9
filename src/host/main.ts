/**
 * `npm run web -- [path] [--aes-key KEY]... [--port N]`: the backend and the browser host in one
 * Node process. Opens the given install first (so a bad path fails here, with its reason), then
 * prints the page URL as the last line of its start-up output.
 */
import { homedir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Backend } from '../backend/backend.js';
import { noDialogs } from '../backend/dialogs.js';
import type { MeshReader } from '../backend/meshes.js';
import { createWorkerPool, type WorkerPool } from '../core/workers/pool.js';
import { startHost, type RunningHost } from './server.js';

export interface HostArgs {
  path: string | null;
  aesKeys: string[];
  port: number;
}

export function parseHostArgs(argv: readonly string[]): HostArgs {
  const out: HostArgs = { path: null, aesKeys: [], port: 0 };
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i]!;
    const value = (): string => {
      const v = argv[++i];
      if (v === undefined) throw new Error(`${a} needs a value`);
      return v;
    };
    if (a === '--aes-key' || a === '-k') out.aesKeys.push(value());
    else if (a.startsWith('--aes-key=')) out.aesKeys.push(a.slice('--aes-key='.length));
    else if (a === '--port') {
      const p = Number(value());
      if (!Number.isInteger(p) || p < 0 || p > 65535) throw new Error('--port needs a number from 0 to 65535');
      out.port = p;
    } else if (a === '--help' || a === '-h') throw new Error('usage: npm run web -- [path] [--aes-key KEY]... [--port N]');
    else if (a.startsWith('-')) throw new Error(`unknown option ${a}`);
    else if (out.path === null) out.path = a;
    else throw new Error(`one path only (got "${out.path}" and "${a}")`);
  }
  return out;
}

/** ~/.config/pakscope (XDG), %APPDATA%\pakscope on Windows; PAKSCOPE_CONFIG_DIR wins. */
export function configDir(env: NodeJS.ProcessEnv = process.env): string {
  if (env['PAKSCOPE_CONFIG_DIR']) return resolve(env['PAKSCOPE_CONFIG_DIR']);
  if (process.platform === 'win32' && env['APPDATA']) return join(env['APPDATA'], 'pakscope');
  return join(env['XDG_CONFIG_HOME'] || join(homedir(), '.config'), 'pakscope');
}

export interface RunHostOptions {
  /** The built renderer; by default out/renderer beside this bundle's folder. */
  staticDir?: string;
  /** The bundled decompression worker; by default worker.mjs beside this bundle. */
  workerFile?: string;
  version?: string;
  out?: (line: string) => void;
  /** The mesh reader (the bench hands over a synthetic mesh); the mesh kind's by default. */
  readMesh?: MeshReader;
}

export async function runHost(argv: readonly string[], opts: RunHostOptions = {}): Promise<RunningHost> {
  const here = dirname(fileURLToPath(import.meta.url));
  const print = opts.out ?? ((line: string) => process.stdout.write(`${line}\n`));
  const args = parseHostArgs(argv);
  const pool = createWorkerPool({ workerFile: opts.workerFile ?? join(here, 'worker.mjs') });
  const backend = new Backend({
    configDir: configDir(),
    dialogs: noDialogs,
    info: { name: 'PakScope', version: opts.version ?? '0.0.0', electron: null, chrome: null, mode: 'web' },
    decoder: pool,
    ...(opts.readMesh ? { readMesh: opts.readMesh } : {}),
  });
  let open: string | null = null;
  if (args.path !== null) {
    print(`Opening ${resolve(args.path)} ...`);
    let lastPhase = '';
    const off = backend.onEvent((e) => {
      if (e.type === 'progress' && e.phase !== lastPhase && e.phase !== 'done') {
        lastPhase = e.phase;
        print(`  ${e.phase === 'scan' ? 'looking for containers' : `indexing ${e.total} container(s)`}`);
      }
    });
    try {
      backend.grantPath(args.path); // the user gave it: the page may open it again
      const summary = await backend.openInstall(args.aesKeys.length ? { path: args.path, aesKeys: args.aesKeys } : { path: args.path });
      const problems = summary.containers.filter((c) => c.status.state !== 'ok');
      print(`Opened ${summary.containers.length} container(s), ${summary.fileCount} files` +
        (problems.length ? `; ${problems.length} with problems: ${problems.map((c) => `${c.name} (${c.status.state})`).join(', ')}` : ''));
      open = summary.root;
    } catch (e) {
      await closeQuietly(pool);
      throw e;
    } finally {
      off();
    }
  }
  const host = await startHost({
    backend,
    staticDir: opts.staticDir ?? join(here, '..', 'renderer'),
    port: args.port,
    log: (m) => process.stderr.write(`pakscope web: ${m}\n`),
  });
  const url = open === null ? host.url : `${host.url}&open=${encodeURIComponent(open)}`;
  print(url);
  const close = host.close;
  return {
    ...host,
    url,
    server: host.server,
    close: async () => {
      await close();
      await backend.close();
      await closeQuietly(pool);
    },
  };
}

async function closeQuietly(pool: WorkerPool): Promise<void> {
  await pool.destroy().catch(() => undefined); // shutting down anyway
}

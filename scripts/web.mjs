// `npm run web -- [path] [--aes-key KEY]... [--port N]`: PakScope in a browser (`--build-only`: just build). Builds the renderer
// (vite, the same config electron-vite uses) and the host (esbuild, like build-cli.mjs) when their
// sources are newer than the outputs, then starts the host on 127.0.0.1 and prints the page URL as
// the last line of its start-up output. Build messages go to stderr.
import { build as esbuild } from 'esbuild';
import { nodeBundleOptions } from './node-bundle.mjs';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const at = (...p) => join(root, ...p);

/** Newest modification time (ms) of the files below these paths; 0 if none exist. */
function newest(paths) {
  let t = 0;
  const walk = (p) => {
    let s;
    try { s = statSync(p); } catch { return; }
    if (s.isDirectory()) { for (const e of readdirSync(p)) walk(join(p, e)); }
    else t = Math.max(t, s.mtimeMs);
  };
  for (const p of paths) walk(at(p));
  return t;
}

function mtime(p) {
  try { return statSync(at(p)).mtimeMs; } catch { return 0; }
}

const lockfile = ['package.json', 'package-lock.json'];

async function buildRenderer() {
  const sources = newest(['src/renderer', 'src/shared', 'src/core/package/package-files.ts', ...lockfile]);
  if (mtime('out/renderer/index.html') > sources) return;
  process.stderr.write('pakscope web: building the renderer (vite) ...\n');
  // Always a production build: started from the tests, NODE_ENV is "test", and Svelte then
  // compiles its development checks in (a quarter bigger, several times slower to open folders).
  process.env.NODE_ENV = 'production';
  const { build } = await import('vite');
  await build({ configFile: at('src/renderer/vite.config.ts'), logLevel: 'warn' });
}

async function buildHost() {
  const sources = newest(['src/host', 'src/backend', 'src/core', 'src/shared', 'scripts/web.mjs', 'scripts/node-bundle.mjs', ...lockfile]);
  if (Math.min(mtime('out/host/host.mjs'), mtime('out/host/worker.mjs')) > sources) return;
  process.stderr.write('pakscope web: building the host (esbuild) ...\n');
  await esbuild(nodeBundleOptions(root, { host: 'src/host/main.ts', worker: 'src/core/workers/worker.ts' }, 'out/host'));
}

try {
  await Promise.all([buildRenderer(), buildHost()]);
  if (process.argv.includes('--build-only')) process.exit(0);
  const { runHost } = await import(pathToFileURL(at('out/host/host.mjs')).href);
  const { version } = JSON.parse(readFileSync(at('package.json'), 'utf8'));
  const host = await runHost(process.argv.slice(2), { version });
  const stop = () => { host.close().finally(() => process.exit(0)); };
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
} catch (e) {
  process.stderr.write(`pakscope web: ${e instanceof Error ? e.message : String(e)}\n`);
  process.exit(2);
}

// Bundles the CLI and the worker entry to out/cli with esbuild (comes with vite), so `npx pakscope`
// starts fast and needs no TypeScript loader. Runs in `prepare`, so `npm ci` leaves it ready.
import { build } from 'esbuild';
import { fileURLToPath } from 'node:url';
const root = fileURLToPath(new URL('..', import.meta.url));
await build({
  absWorkingDir: root,
  entryPoints: { pakscope: 'src/cli/main.ts', worker: 'src/core/workers/worker.ts' },
  outdir: 'out/cli',
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: 'node20',
  sourcemap: 'linked',
  outExtension: { '.js': '.mjs' },
  // Packages with wasm or worker files of their own stay outside the bundle.
  external: ['ooz-wasm', 'hash-wasm', 'piscina'],
  banner: { js: "import { createRequire as __cr } from 'node:module'; const require = __cr(import.meta.url);" },
  logLevel: 'warning',
});

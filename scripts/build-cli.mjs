// Bundles the CLI and the worker entry to out/cli with esbuild (comes with vite), so `npx pakscope`
// starts fast and needs no TypeScript loader. Runs in `prepare`, so `npm ci` leaves it ready.
import { build } from 'esbuild';
import { nodeBundleOptions } from './node-bundle.mjs';
import { fileURLToPath } from 'node:url';
const root = fileURLToPath(new URL('..', import.meta.url));
await build(nodeBundleOptions(root, { pakscope: 'src/cli/main.ts', worker: 'src/core/workers/worker.ts' }, 'out/cli'));

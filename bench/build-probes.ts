/**
 * Bundles the probes (bench/probes/*.ts) to out/bench/*.mjs with esbuild, the way
 * scripts/build-cli.mjs bundles the CLI: the measured code runs as PakScope ships, with no
 * TypeScript loader in the process.
 */
import { build } from 'esbuild';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

export const PROJECT_ROOT = fileURLToPath(new URL('..', import.meta.url));
export const PROBE_DIR = join(PROJECT_ROOT, 'out', 'bench');
/** The CLI's worker bundle (npm run bench builds it first). */
export const WORKER_FILE = join(PROJECT_ROOT, 'out', 'cli', 'worker.mjs');

export const PROBES = ['open-index', 'packages', 'decode', 'extract', 'raw-decode-worker'] as const;
export type ProbeName = (typeof PROBES)[number];

export function probeFile(name: ProbeName): string {
  return join(PROBE_DIR, `${name}.mjs`);
}

export async function buildProbes(): Promise<void> {
  await build({
    absWorkingDir: PROJECT_ROOT,
    entryPoints: Object.fromEntries(PROBES.map((p) => [p, `bench/probes/${p}.ts`])),
    outdir: PROBE_DIR,
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    outExtension: { '.js': '.mjs' },
    external: ['ooz-wasm', 'hash-wasm', 'piscina'],
    banner: { js: "import { createRequire as __cr } from 'node:module'; const require = __cr(import.meta.url);" },
    logLevel: 'warning',
  });
}

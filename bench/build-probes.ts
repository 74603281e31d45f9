/**
 * Bundles the probes (bench/probes/*.ts) to out/bench/*.mjs with esbuild, the way
 * scripts/build-cli.mjs bundles the CLI (the same esbuild options): the measured code runs as PakScope ships, with no
 * TypeScript loader in the process.
 */
import { build } from 'esbuild';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { nodeBundleOptions } from '../scripts/node-bundle.mjs';

export const PROJECT_ROOT = fileURLToPath(new URL('..', import.meta.url));
export const PROBE_DIR = join(PROJECT_ROOT, 'out', 'bench');
/** The CLI's worker bundle (npm run bench builds it first). */
export const WORKER_FILE = join(PROJECT_ROOT, 'out', 'cli', 'worker.mjs');

export const PROBES = ['open-index', 'packages', 'decode', 'extract', 'raw-decode-worker', 'texture-decode', 'texture-preview', 'diff', 'search', 'mesh-host'] as const;
export type ProbeName = (typeof PROBES)[number];

export function probeFile(name: ProbeName): string {
  return join(PROBE_DIR, `${name}.mjs`);
}

export async function buildProbes(): Promise<void> {
  const entries = Object.fromEntries(PROBES.map((p) => [p, `bench/probes/${p}.ts`]));
  // No source maps: the probes are measured, not debugged.
  await build({ ...nodeBundleOptions(PROJECT_ROOT, entries, PROBE_DIR), sourcemap: false });
}

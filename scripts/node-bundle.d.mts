import type { BuildOptions } from 'esbuild';

/** The one esbuild setup for Node bundles (CLI, browser host, benchmark probes). */
export function nodeBundleOptions(root: string, entryPoints: Record<string, string>, outdir: string): BuildOptions;

// The one esbuild setup for Node bundles (the CLI and the browser host): ESM for Node 20, with the
// packages that load wasm or worker files of their own left outside the bundle.
export function nodeBundleOptions(root, entryPoints, outdir) {
  return {
    absWorkingDir: root,
    entryPoints,
    outdir,
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    sourcemap: 'linked',
    outExtension: { '.js': '.mjs' },
    external: ['ooz-wasm', 'hash-wasm'],
    banner: { js: "import { createRequire as __cr } from 'node:module'; const require = __cr(import.meta.url);" },
    logLevel: 'warning',
  };
}

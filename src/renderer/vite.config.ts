/**
 * The renderer build, shared by electron-vite (electron.vite.config.ts) and the browser host
 * (scripts/web.mjs): one bundle in out/renderer that runs in both, relative asset URLs so it works
 * from file:// and from http://127.0.0.1, and no data: URLs (the CSP allows only 'self').
 */
import { svelte } from '@sveltejs/vite-plugin-svelte';
import { fileURLToPath } from 'node:url';
import type { UserConfig } from 'vite';

const rendererRoot = fileURLToPath(new URL('.', import.meta.url));
const projectRoot = fileURLToPath(new URL('../..', import.meta.url));

export function rendererConfig(): UserConfig {
  return {
    root: rendererRoot,
    base: './',
    plugins: [svelte({ configFile: false, compilerOptions: { runes: true } })],
    build: {
      outDir: `${projectRoot}out/renderer`,
      emptyOutDir: true,
      assetsInlineLimit: 0,
      target: 'chrome120',
      // Monaco's core is one big chunk; it is loaded lazily when the first text file opens.
      chunkSizeWarningLimit: 4096,
      reportCompressedSize: false,
      rollupOptions: { input: `${rendererRoot}index.html` },
    },
    worker: { format: 'es' },
    logLevel: 'warn',
  };
}

export default rendererConfig();

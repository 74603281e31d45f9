/**
 * electron-vite: the main process (with the decompression worker as a second entry, so the pool
 * finds out/main/worker.js beside index.js), the sandboxed preload (CommonJS, as sandboxed
 * preloads must be) and the renderer (shared with the browser host's build).
 */
import { defineConfig } from 'electron-vite';
import { rendererConfig } from './src/renderer/vite.config.js';

export default defineConfig({
  main: {
    build: {
      rollupOptions: {
        input: { index: 'src/main/index.ts', worker: 'src/core/workers/worker.ts' },
        output: { entryFileNames: '[name].js' },
      },
    },
  },
  preload: {
    build: {
      // A sandboxed preload is not an ES module and may only require('electron'): bundle everything.
      externalizeDeps: false,
      rollupOptions: {
        input: { index: 'src/preload/index.ts' },
        output: { format: 'cjs', entryFileNames: '[name].cjs' },
      },
    },
  },
  renderer: rendererConfig(),
});

/**
 * Electron entry (out/main/index.js). Everything with logic lives in app.ts behind the
 * ElectronShell interface; this file only wires the real Electron, the worker pool and the backend.
 */
import * as electron from 'electron';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Backend } from '../backend/backend.js';
import { createWorkerPool } from '../core/workers/pool.js';
import { builtPaths, startApp } from './app.js';
import { createElectronShell } from './electron-adapter.js';

const mainDir = dirname(fileURLToPath(import.meta.url));
const paths = builtPaths(mainDir);
// Decompression runs in worker threads (out/main/worker.js, a second main entry).
const pool = createWorkerPool({ workerFile: paths.workerFile });

// Packaged, the window icon is an extra resource beside app.asar (electron-builder.yml); in
// development it is the project's own.
const iconPath = electron.app.isPackaged
  ? join(process.resourcesPath, 'icon.png')
  : join(mainDir, '..', '..', 'resources', 'icon.png');

const devServerUrl = process.env['ELECTRON_RENDERER_URL'];
startApp(createElectronShell(electron), {
  argv: process.argv,
  cwd: process.cwd(),
  preloadPath: paths.preloadPath,
  rendererFile: paths.rendererFile,
  ...(devServerUrl ? { devServerUrl } : {}),
  iconPath,
  createBackend: ({ dialogs, info, configDir, keyStore }) => new Backend({ dialogs, info, configDir, keyStore, decoder: pool }),
}).catch((e: unknown) => {
  console.error('PakScope failed to start:', e);
  electron.app.exit(1);
});

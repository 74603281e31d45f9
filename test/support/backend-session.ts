/**
 * The app's backend on one install for a test file: beforeAll makes a config folder of its own in
 * the temp dir (with an empty out/ for the files the tests write), starts a Backend that may open
 * any path and opens the install; afterAll closes it and removes the folder. The fields are set
 * once beforeAll has run (a test file copies them in a beforeAll of its own, registered after).
 */
import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll } from 'vitest';
import { Backend } from '../../src/backend/backend.js';

/** What appInfo reports in the tests. */
export const TEST_APP_INFO = { name: 'PakScope', version: '0', electron: null, chrome: null, mode: 'web' as const };

export interface BackendSession {
  backend: Backend;
  installId: string;
  configDir: string;
  /** configDir/out, empty at the start. */
  out: string;
}

export function useBackend(installPath: string, tempPrefix = 'pakscope-backend-'): BackendSession {
  const s = {} as BackendSession;
  beforeAll(async () => {
    s.configDir = await mkdtemp(join(tmpdir(), tempPrefix));
    s.out = join(s.configDir, 'out');
    await mkdir(s.out);
    s.backend = new Backend({ configDir: s.configDir, dialogs: { pickFolder: async () => null, pickFile: async () => null }, info: TEST_APP_INFO, anyPath: true });
    s.installId = (await s.backend.openInstall({ path: installPath })).id;
  });
  afterAll(async () => {
    await s.backend?.close();
    if (s.configDir) await rm(s.configDir, { recursive: true, force: true });
  });
  return s;
}

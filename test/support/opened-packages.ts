/**
 * One corpus container opened for a describe block: beforeAll opens it (and its InstallPackages),
 * afterAll closes both. Returns a getter, as the packages exist only once beforeAll has run.
 */
import { afterAll, beforeAll } from 'vitest';
import { openInstall, type Install } from '../../src/core/install/install.js';
import { InstallPackages } from '../../src/core/package/open-package.js';
import { corpus } from './corpus.js';

export function openedPackages(corpusPath: string): () => InstallPackages {
  let install: Install | undefined;
  let packages: InstallPackages | undefined;
  beforeAll(async () => {
    install = await openInstall([corpus(corpusPath)]);
    packages = new InstallPackages(install);
  });
  afterAll(async () => {
    await packages?.close();
    await install?.close();
  });
  return () => {
    if (!packages) throw new Error(`${corpusPath} is not open yet (use the packages inside a test)`);
    return packages;
  };
}

/**
 * The install for `diff_s`: a copy of the bench install with 1 % of the chunks changed. Only the
 * .utoc files are copied (every hundredth chunk's stored hash altered, as a rebuilt chunk's would
 * be); the .ucas and .pak files are symbolic links to the originals, since comparing through the
 * stored hashes never reads them. Written once beside the install and reused.
 */
import { existsSync } from 'node:fs';
import { mkdir, readdir, readFile, rm, symlink, writeFile } from 'node:fs/promises';
import { dirname, join, relative } from 'node:path';
import { parseToc } from '../src/core/iostore/toc.js';
import type { InstallManifest } from './generate-install.js';

/** Every CHANGE_EVERY-th chunk of each container is changed: 1 %. */
export const CHANGE_EVERY = 100;

export interface ChangedCopy {
  root: string;
  /** Per .utoc of the copy: the entry indices whose hash was changed. */
  changed: Record<string, number[]>;
}

export async function changedCopy(m: InstallManifest): Promise<ChangedCopy> {
  const root = join(dirname(m.root), 'install-changed');
  const listPath = join(dirname(m.root), 'install-changed.json');
  if (existsSync(listPath)) return JSON.parse(await readFile(listPath, 'utf8')) as ChangedCopy;
  await rm(root, { recursive: true, force: true });
  const paks = join(root, relative(m.root, m.paksDir));
  await mkdir(paks, { recursive: true });
  const changed: Record<string, number[]> = {};
  for (const name of await readdir(m.paksDir)) {
    const from = join(m.paksDir, name);
    const to = join(paks, name);
    if (!name.toLowerCase().endsWith('.utoc') || name.toLowerCase() === 'global.utoc') {
      await symlink(from, to);
      continue;
    }
    const bytes = new Uint8Array(await readFile(from));
    const toc = parseToc(bytes, from); // metas is a view of `bytes`
    const entries: number[] = [];
    for (let e = CHANGE_EVERY - 1; e < toc.header.entryCount; e += CHANGE_EVERY) {
      toc.metas[e * toc.metaStride]! ^= 0xff;
      entries.push(e);
    }
    await writeFile(to, bytes);
    changed[to] = entries;
  }
  const copy = { root, changed };
  await writeFile(listPath, JSON.stringify(copy));
  return copy;
}

/**
 * The refusals before comparing two installs, each a CompareError saying what to do: a path
 * that is not an install, the same install on both sides, a side whose containers do not all
 * open (a locked container lists no files, so every file in it would show as removed or added).
 */
import { realpath, stat } from 'node:fs/promises';
import { basename } from 'node:path';
import { CompareError } from '../errors.js';
import type { Install } from '../install/install.js';
import { isContainerFile } from '../install/scan.js';
import { isPackageFileName } from '../package/package-files.js';

export type CompareSide = 'old' | 'new';

/**
 * Throws a CompareError when a path given for a side is a file that is neither a container
 * (.utoc, .pak) nor a package (a folder is taken as an install). Missing paths throw ENOENT.
 */
export async function checkInstallPath(path: string, side: CompareSide): Promise<void> {
  const s = await stat(path);
  if (s.isDirectory()) return;
  if (!s.isFile() || !(isContainerFile(path) || isPackageFileName(path))) {
    throw new CompareError(`${side}: ${path} is not an install: give a game folder, a container (.utoc, .pak) or a package file`);
  }
}

/** Throws a CompareError when the two opened installs cannot be compared (see the file's comment). */
export async function checkComparable(oldInstall: Install, newInstall: Install): Promise<void> {
  for (const [side, install] of [['old', oldInstall], ['new', newInstall]] as const) {
    const locked = install.archives.filter((a) => a.status.state === 'locked');
    if (locked.length > 0) {
      const what = locked.map((a) => `${basename(a.path)} (${a.status.state === 'locked' ? a.status.message : ''})`).join(', ');
      throw new CompareError(`${side}: ${what} ${locked.length === 1 ? 'is' : 'are'} locked: give the ${side} build's AES key to compare its files`);
    }
    const failed = install.problems.filter((p) => p.fatal);
    if (failed.length > 0) {
      throw new CompareError(`${side}: ${failed.map((p) => p.message.includes(p.path) ? p.message : `${p.path}: ${p.message}`).join('; ')}: its files cannot all be listed, so the comparison would be wrong`);
    }
    if (install.fileCount === 0) {
      throw new CompareError(`${side}: ${install.roots.join(', ')} holds no containers or packages: not an install`);
    }
  }
  if (await sameFiles(oldInstall, newInstall)) {
    throw new CompareError(`old and new are the same install (${oldInstall.roots.join(', ')}): nothing to compare; give two builds`);
  }
}

/** Whether both installs are made of the very same containers and folders on disk. */
async function sameFiles(a: Install, b: Install): Promise<boolean> {
  const real = async (i: Install): Promise<string[]> =>
    (await Promise.all(i.archives.map((x) => realpath(x.path).catch(() => x.path)))).sort();
  const [ra, rb] = await Promise.all([real(a), real(b)]);
  return ra.length === rb.length && ra.every((p, i) => p === rb[i]);
}

/**
 * Finds the containers an install is made of: each given path is a container file, a loose file
 * or a folder; folders are searched recursively for .utoc and .pak files, and for loose package
 * files (.uasset, .umap, UE1/2 packages and what travels with them), which are gathered per root
 * folder. Symbolic links are followed, and every folder and file is taken once by its real path,
 * so a link back up the tree (or two links to one place) cannot loop or duplicate.
 */
import { readdir, realpath, stat } from 'node:fs/promises';
import { extname, join } from 'node:path';
import { isLooseInstallFile } from '../package/package-files.js';
import type { InstallProblem, InstallProgress } from './install.js';

export interface ScanOptions {
  signal?: AbortSignal;
  onProgress?: (p: InstallProgress) => void;
}

export interface ScanResult {
  /** Container and loose file paths, in a stable order: the roots in the given order, each folder's files sorted. */
  files: string[];
  /** Loose package files found in each root folder (roots without any are left out). */
  looseFolders: LooseFolderScan[];
  problems: InstallProblem[];
}

export interface LooseFolderScan {
  root: string;
  /** Paths below root, sorted folder by folder. */
  files: string[];
}

const CONTAINER_EXTENSIONS = new Set(['.utoc', '.pak']);

export function isContainerFile(path: string): boolean {
  return CONTAINER_EXTENSIONS.has(extname(path).toLowerCase());
}

export async function scanInstallPaths(roots: readonly string[], opts: ScanOptions = {}): Promise<ScanResult> {
  const files: string[] = [];
  const looseFolders: LooseFolderScan[] = [];
  let loose: string[] = []; // the loose files of the root being walked
  const problems: InstallProblem[] = [];
  const seen = new Set<string>(); // real paths of the folders and files taken
  let folders = 0;

  const takeFile = async (named: string): Promise<void> => {
    // A .ucas named by itself (`pakscope ls Paks/*`) stands for its container, the .utoc.
    const path = extname(named).toLowerCase() === '.ucas' ? named.replace(/(_s\d+)?\.ucas$/i, '.utoc') : named;
    const real = await realpath(path);
    if (seen.has(real)) return;
    seen.add(real);
    files.push(path);
  };

  const walk = async (dir: string): Promise<void> => {
    opts.signal?.throwIfAborted();
    const real = await realpath(dir);
    if (seen.has(real)) return;
    seen.add(real);
    folders++;
    opts.onProgress?.({ phase: 'scan', done: folders, total: 0, current: dir });
    const entries = await readdir(dir, { withFileTypes: true });
    entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
    for (const e of entries) {
      const path = join(dir, e.name);
      try {
        let isDir = e.isDirectory();
        let isFile = e.isFile();
        if (e.isSymbolicLink()) {
          const target = await stat(path); // follows the link; a dangling one throws ENOENT
          isDir = target.isDirectory();
          isFile = target.isFile();
        }
        if (isDir) await walk(path);
        else if (isFile && isContainerFile(path)) await takeFile(path);
        else if (isFile && isLooseInstallFile(path)) {
          // A plain file is known by its folder's real path; only a link needs a look-up.
          const key = e.isSymbolicLink() ? await realpath(path) : join(real, e.name);
          if (!seen.has(key)) {
            seen.add(key);
            loose.push(path);
          }
        }
      } catch (e) {
        if (opts.signal?.aborted) throw e;
        problems.push({ path, message: fsErrorText(e), fatal: false });
      }
    }
  };

  for (const root of roots) {
    opts.signal?.throwIfAborted();
    try {
      const s = await stat(root);
      if (s.isDirectory()) {
        loose = [];
        await walk(root);
        if (loose.length > 0) looseFolders.push({ root, files: loose });
      } else {
        await takeFile(root);
      }
    } catch (e) {
      if (opts.signal?.aborted) throw e;
      problems.push({ path: root, message: fsErrorText(e), fatal: true });
    }
  }
  return { files, looseFolders, problems };
}

function fsErrorText(e: unknown): string {
  const code = (e as NodeJS.ErrnoException).code;
  if (code === 'ENOENT') return 'no such file or folder';
  if (code === 'EACCES' || code === 'EPERM') return 'permission denied';
  if (code === 'ELOOP') return 'too many levels of symbolic links';
  return e instanceof Error ? e.message : String(e);
}

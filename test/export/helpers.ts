// Shared by the export tests: listing an output folder and hashing what is in it.
import { createHash } from 'node:crypto';
import { readdir } from 'node:fs/promises';
import { join, relative, sep } from 'node:path';

export const sha256 = (b: Uint8Array): string => createHash('sha256').update(b).digest('hex');

/** Every file and symlink below `dir`, as "/"-separated paths relative to it, sorted. */
export async function listTree(dir: string): Promise<string[]> {
  const out: string[] = [];
  for (const e of await readdir(dir, { withFileTypes: true, recursive: true })) {
    if (e.isDirectory()) continue;
    out.push(relative(dir, join(e.parentPath, e.name)).split(sep).join('/'));
  }
  return out.sort();
}

/**
 * System errors in PakScope's own words. Node says "ENOENT: no such file or directory, open
 * '/missing/dir/t.png'"; the user needs to hear which part of the path is wrong: "the folder
 * /missing/dir does not exist". Looks at the path's folders (synchronously: it runs once, when a
 * command or a file has failed already) to name the first one that is missing or is a file.
 */
import { statSync } from 'node:fs';
import { dirname } from 'node:path';

/** The error's message in PakScope's words, or null when it is not a system error about a path. */
export function describeSystemError(e: unknown): string | null {
  if (!(e instanceof Error)) return null;
  const { code, path, dest } = e as NodeJS.ErrnoException & { dest?: string };
  if (typeof code !== 'string' || typeof path !== 'string') return null;
  switch (code) {
    case 'ENOENT': {
      const blocker = firstBlocker(path);
      if (blocker?.kind === 'file') return `${blocker.path} is a file, not a folder (in ${path})`;
      if (blocker && blocker.path !== path) return `the folder ${blocker.path} does not exist (for ${path})`;
      return `${path} does not exist`;
    }
    case 'ENOTDIR': {
      const blocker = firstBlocker(path);
      return blocker?.kind === 'file' ? `${blocker.path} is not a folder (in ${path})` : `${path}: a part of the path is not a folder`;
    }
    case 'EISDIR': return `${path} is a folder, not a file`;
    case 'EACCES': case 'EPERM': return `no permission to ${verb(e)} ${path}`;
    case 'EEXIST': return `${dest ?? path} exists already`;
    case 'ENOSPC': return `the disk is full (writing ${path})`;
    case 'EDQUOT': return `the disk quota is used up (writing ${path})`;
    case 'EROFS': return `${path} is on a read-only file system`;
    case 'ENAMETOOLONG': return `the path is too long for the file system: ${path}`;
    case 'ELOOP': return `${path}: too many symbolic links (a loop?)`;
    case 'EMFILE': case 'ENFILE': return `too many open files (opening ${path})`;
    case 'EIO': return `the disk reported an input/output error on ${path}`;
    case 'EBUSY': return `${path} is busy (in use by another program)`;
    case 'EXDEV': return `${path} cannot be moved to ${dest ?? 'another disk'}`;
    default: return null;
  }
}

/** The error as the user should read it: describeSystemError's words, or its own message. */
export function systemErrorText(e: unknown): string {
  return describeSystemError(e) ?? (e instanceof Error ? e.message : String(e));
}

function verb(e: NodeJS.ErrnoException): string {
  const s = e.syscall ?? '';
  if (/^(open|write|mkdir|rename|unlink|rmdir|copyfile|symlink|utime|chmod)/.test(s)) return s === 'open' ? 'open' : 'write';
  return 'read';
}

/** The first of `path`'s folders, from the root down, that is missing or is not a folder; null if all are folders. */
function firstBlocker(path: string): { path: string; kind: 'missing' | 'file' } | null {
  const chain: string[] = [];
  for (let p = path; ; p = dirname(p)) {
    chain.unshift(p);
    if (dirname(p) === p) break;
  }
  for (let i = 0; i < chain.length; i++) {
    const p = chain[i]!;
    let isDir: boolean;
    try {
      isDir = statSync(p).isDirectory();
    } catch {
      return { path: p, kind: 'missing' };
    }
    if (!isDir && i < chain.length - 1) return { path: p, kind: 'file' };
  }
  return null;
}

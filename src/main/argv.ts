/**
 * The path to open from a command line: `PakScope /games/Foo` (packaged: a shortcut, a file
 * association, a .desktop file's %U) or `electron . /games/Foo` (development). Switches
 * (--inspect, --no-sandbox, Chromium's --original-process-start-time=...) are skipped.
 */
import { isAbsolute, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

export function pathFromArgv(argv: readonly string[], packaged: boolean, cwd: string): string | null {
  // Packaged: [exe, ...args]. Unpackaged: [electron, ...switches, app-path, ...args].
  let skipAppPath = !packaged;
  let path: string | null = null;
  for (const a of argv.slice(1)) {
    if (a === '--' || a.startsWith('-')) continue;
    if (skipAppPath) {
      skipAppPath = false;
      continue;
    }
    path = a;
  }
  if (path === null || path.trim() === '') return null;
  return absolutePath(path, cwd);
}

/**
 * A path as a file manager or a shell hands it over: plain, relative to the caller's folder, or
 * a file:// URL (Linux file managers fill a .desktop file's %U with URLs).
 */
export function absolutePath(arg: string, cwd: string): string | null {
  if (/^file:\/\//i.test(arg)) {
    try {
      return fileURLToPath(arg);
    } catch {
      return null; // file://otherhost/... is not a local file
    }
  }
  return isAbsolute(arg) ? arg : resolve(cwd, arg);
}

/** What a second launch sends the running instance (requestSingleInstanceLock's data). */
export interface HandoffData {
  path: string | null;
}

/**
 * The path a second launch asked for: from its own hand-off data, which it parsed itself, or
 * else from its command line (an older version sends none).
 */
export function pathFromSecondInstance(argv: readonly string[], cwd: string, data: unknown, packaged: boolean): string | null {
  if (typeof data === 'object' && data !== null && 'path' in data) {
    const path = (data as { path: unknown }).path;
    if (path === null) return null;
    if (typeof path === 'string' && path.length > 0 && path.length <= 32_768 && !path.includes('\0')) return absolutePath(path, cwd);
  }
  return pathFromArgv(argv, packaged, cwd);
}

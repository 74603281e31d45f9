/**
 * The path to open from a command line: `pakscope-app /games/Foo` (packaged) or
 * `electron . /games/Foo` (development). Switches (--inspect, --no-sandbox, ...) are skipped.
 */
import { isAbsolute, resolve } from 'node:path';

export function pathFromArgv(argv: readonly string[], packaged: boolean, cwd: string): string | null {
  // Packaged: [exe, ...args]. Unpackaged: [electron, app-path, ...args].
  const args = argv.slice(packaged ? 1 : 2);
  let path: string | null = null;
  for (const a of args) {
    if (a === '--') continue;
    if (a.startsWith('-')) continue;
    path = a;
  }
  if (path === null || path.trim() === '') return null;
  return isAbsolute(path) ? path : resolve(cwd, path);
}

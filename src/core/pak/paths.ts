/**
 * Paths as the install shows them: mount point + name, "/" separators, the mount point's leading
 * "../" (relative to the engine's Binaries folder) and "/" removed. Names come from the file, so
 * anything that could climb out of an export folder or hide characters is refused here.
 */

export const MAX_PATH_CHARS = 4096;

// eslint-disable-next-line no-control-regex
const CONTROL = /[\u0000-\u001f\u007f]/;
/** Anything the fast path cannot take as is: control characters, "\", "//", "." or ".." segments, a trailing "/". */
// eslint-disable-next-line no-control-regex
const NEEDS_NORMALISING = /[\u0000-\u001f\u007f\\]|\/\/|(?:^|\/)\.{1,2}(?:\/|$)|\/$/;

export type JoinedPath = { path: string } | { problem: string };

/** Joins names to one mount point; the mount point is normalised once. */
export class PathJoiner {
  private readonly prefix: string | null;

  constructor(private readonly mountPoint: string) {
    const m = normalise(mountPoint);
    // A mount point that is fine on its own takes the fast path; others go through normalise().
    this.prefix = 'path' in m && !CONTROL.test(mountPoint) ? m.path + '/' : mountPoint === '' || /^[./\\]*$/.test(mountPoint) ? '' : null;
  }

  join(name: string): JoinedPath {
    if (this.prefix !== null && !NEEDS_NORMALISING.test(name) && name !== '') {
      const path = this.prefix + (name.charCodeAt(0) === 0x2f ? name.slice(1) : name);
      if (path.length > MAX_PATH_CHARS) return { problem: `path is ${path.length} characters long (limit ${MAX_PATH_CHARS})` };
      return { path };
    }
    return joinPakPath(this.mountPoint, name);
  }
}

/** Joins the mount point and a name and normalises the result, or says what is wrong with it. */
export function joinPakPath(mountPoint: string, name: string): JoinedPath {
  // The engine turns every mount point into a directory path: "X" mounts as "X/".
  const joined = (mountPoint === '' || /[/\\]$/.test(mountPoint) ? mountPoint : mountPoint + '/') + name;
  if (joined.length > MAX_PATH_CHARS) return { problem: `path is ${joined.length} characters long (limit ${MAX_PATH_CHARS})` };
  if (CONTROL.test(joined)) return { problem: 'path contains a control character' };
  return normalise(joined);
}

function normalise(joined: string): JoinedPath {
  const out: string[] = [];
  let leading = true;
  for (const s of joined.replace(/\\/g, '/').split('/')) {
    if (s === '') continue;
    if (leading && (s === '..' || s === '.')) continue;
    leading = false;
    if (s === '..' || s === '.') return { problem: `path "${shorten(joined)}" has a "${s}" segment after the mount point's leading ones` };
    out.push(s);
  }
  if (out.length === 0) return { problem: `path "${shorten(joined)}" names no file` };
  return { path: out.join('/') };
}

function shorten(s: string): string {
  return s.length > 120 ? `${s.slice(0, 80)}…${s.slice(-30)}` : s;
}

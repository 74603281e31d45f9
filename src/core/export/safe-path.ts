/**
 * The rules a name from an archive must pass before PakScope writes a file by it. Archive names
 * are input: a hostile container can list "../../x", "/etc/passwd", "C:\x" or "CON". A name is
 * accepted only when it is a relative path of plain segments that means the same thing on
 * Windows, macOS and Linux; everything else is refused with a reason, never "repaired", so what
 * lands on disk is always the name `ls` prints.
 */
import { isAbsolute, relative, resolve, sep } from 'node:path';

/** Longest file or folder name: 255 bytes on ext4 (UTF-8), 255 UTF-16 units on NTFS. */
export const MAX_NAME_BYTES = 255;
/** Longest relative path accepted (the output folder's own path comes on top). */
export const MAX_PATH_BYTES = 1024;

export type PathCheck = { ok: true; segments: string[] } | { ok: false; reason: string };

/** A name that must not be written; `reason` says which rule it broke. */
export class UnsafePathError extends Error {
  constructor(readonly path: string, readonly reason: string) {
    super(`refused to write "${printable(path)}": ${reason}`);
    this.name = 'UnsafePathError';
  }
}

/** CON, PRN, AUX, NUL, COM0-9, LPT0-9 (and the superscript digits Windows also reserves). */
const RESERVED_DEVICE = /^(con|prn|aux|nul|com[0-9¹²³]|lpt[0-9¹²³]|conin\$|conout\$)$/i;
/** C0 and C1 control characters, DEL. */
const CONTROL = /[\u0000-\u001f\u007f-\u009f]/;
/** Characters Windows does not allow in a name ("/" separates segments and is handled apart). */
const WINDOWS_FORBIDDEN = /[<>:"|?*]/;
/**
 * Characters Windows' ANSI "best fit" mapping turns into "/" or "\" (U+2215 ∕, U+FF0F ／, ...):
 * harmless through Node's wide-character calls, but not in every tool that later reads the folder.
 */
const SEPARATOR_LOOKALIKE = /[\u2044\u2215\u2216\u29f5\u29f8\u29f9\ufe68\uff0f\uff3c]/;
const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;

/** Why one path segment (a file or folder name) cannot be written, or null if it can. */
export function checkName(name: string): string | null {
  // Most names are plain ASCII (letters, digits, _ - .): only the few rules that can apply to them.
  if (PLAIN_NAME.test(name)) return plainNameProblem(name);
  if (name === '') return 'empty name (a doubled or trailing "/")';
  if (name === '.' || name === '..') return `"${name}" segment (it names a folder, not a file)`;
  if (name.includes('\0')) return 'NUL byte in the name';
  const control = CONTROL.exec(name);
  if (control) return `control character U+${control[0].charCodeAt(0).toString(16).toUpperCase().padStart(4, '0')} in the name`;
  if (/^[a-z]:/i.test(name)) return `drive letter "${name.slice(0, 2)}"`;
  if (name.includes('\\')) return 'backslash in the name (a folder separator on Windows)';
  // A name is one segment: a "/" would make it a path (a zip name "../../x.zip").
  if (name.includes('/')) return 'slash in the name (a folder separator)';
  const forbidden = WINDOWS_FORBIDDEN.exec(name);
  if (forbidden) return `character "${forbidden[0]}" is not allowed in Windows file names`;
  const lookalike = SEPARATOR_LOOKALIKE.exec(name);
  if (lookalike) return `character U+${lookalike[0].charCodeAt(0).toString(16).toUpperCase()} looks like a folder separator`;
  if (LONE_SURROGATE.test(name)) return 'unpaired UTF-16 surrogate in the name';
  if (/[. ]$/.test(name)) return 'trailing dot or space (Windows drops them, so the name would change)';
  // Windows reserves the device names with any extension, and ignores spaces before the dot.
  const stem = name.split('.')[0]!.trimEnd();
  if (RESERVED_DEVICE.test(stem)) return `reserved Windows device name "${stem.toUpperCase()}"`;
  if (Buffer.byteLength(name, 'utf8') > MAX_NAME_BYTES || name.length > MAX_NAME_BYTES) {
    return `name longer than ${MAX_NAME_BYTES} bytes`;
  }
  return null;
}

/** ASCII letters, digits, "_", "-" and ".", not ending in "." (nor "." or ".."), within the length limit. */
const PLAIN_NAME = /^[\w\-.]{0,254}[\w\-]$/;

/** checkName's answer for a name PLAIN_NAME accepts. */
function plainNameProblem(name: string): string | null {
  // Device names are 3 to 6 characters: most stems are longer, and need no slice.
  const dot = name.indexOf('.');
  if ((dot < 0 ? name.length : dot) > 6) return null;
  const stem = dot < 0 ? name : name.slice(0, dot);
  return RESERVED_DEVICE.test(stem) ? `reserved Windows device name "${stem.toUpperCase()}"` : null;
}

/**
 * Checks a path as `ls` prints it ("Game/Content/A.uasset") for writing below an output folder.
 * Segments are split on "/" only; a backslash is refused, not treated as a separator.
 */
export function checkRelativePath(path: string): PathCheck {
  if (path === '') return { ok: false, reason: 'empty path' };
  if (path.includes('\0')) return { ok: false, reason: 'NUL byte in the path' };
  if (path.startsWith('/') || path.startsWith('\\')) return { ok: false, reason: 'absolute path' };
  if (Buffer.byteLength(path, 'utf8') > MAX_PATH_BYTES) return { ok: false, reason: `path longer than ${MAX_PATH_BYTES} bytes` };
  return checkSegments(path.split('/'));
}

/**
 * checkRelativePath for many paths that share folders (an export): each folder's segments are
 * checked once, then only the file name. The results are those of checkRelativePath.
 */
export class PathChecker {
  private readonly folders = new Map<string, PathCheck>();
  /** The folder of the last path ("A/B/"), and its check: an export's files come folder by folder. */
  private lastDir = '';
  private lastFolder: PathCheck = { ok: true, segments: [] };

  check(path: string): PathCheck {
    const file = this.checkFile(path);
    return file.ok ? { ok: true, segments: [...file.dir, file.name] } : file;
  }

  /** check, with the folder's segments (shared by its files: not to be changed) and the name apart. */
  checkFile(path: string): { ok: true; dir: readonly string[]; name: string } | { ok: false; reason: string } {
    if (path === '') return { ok: false, reason: 'empty path' };
    if (path.includes('\0')) return { ok: false, reason: 'NUL byte in the path' };
    if (path.startsWith('/') || path.startsWith('\\')) return { ok: false, reason: 'absolute path' };
    if (path.length * 3 > MAX_PATH_BYTES && Buffer.byteLength(path, 'utf8') > MAX_PATH_BYTES) {
      return { ok: false, reason: `path longer than ${MAX_PATH_BYTES} bytes` };
    }
    const slash = path.lastIndexOf('/');
    const name = path.slice(slash + 1);
    let dir: readonly string[] = [];
    if (slash >= 0) {
      let folder: PathCheck;
      if (slash + 1 === this.lastDir.length && path.startsWith(this.lastDir)) {
        folder = this.lastFolder;
      } else {
        const key = path.slice(0, slash);
        folder = this.folders.get(key) ?? checkSegments(key.split('/'));
        this.folders.set(key, folder);
        this.lastDir = path.slice(0, slash + 1);
        this.lastFolder = folder;
      }
      if (!folder.ok) return folder;
      dir = folder.segments;
    }
    const reason = checkName(name);
    if (reason) return { ok: false, reason: name === '..' ? 'parent folder segment ".."' : reason };
    return { ok: true, dir, name };
  }
}

function checkSegments(segments: string[]): PathCheck {
  for (const s of segments) {
    const reason = checkName(s);
    if (reason) return { ok: false, reason: s === '..' ? 'parent folder segment ".."' : reason };
  }
  return { ok: true, segments };
}

/** True when `child` (absolute) is `root` itself or below it. */
export function isInside(root: string, child: string): boolean {
  const rel = relative(root, child);
  return rel === '' || (!rel.startsWith(`..${sep}`) && rel !== '..' && !isAbsolute(rel));
}

/**
 * The absolute path of `path` below `root`, after checkRelativePath; throws UnsafePathError.
 * A second, independent check makes sure the joined path is inside the root.
 */
export function resolveInside(root: string, path: string): { absolute: string; segments: string[] } {
  const check = checkRelativePath(path);
  if (!check.ok) throw new UnsafePathError(path, check.reason);
  const base = resolve(root);
  const absolute = resolve(base, ...check.segments);
  if (absolute === base || !isInside(base, absolute)) throw new UnsafePathError(path, 'leaves the output folder');
  return { absolute, segments: check.segments };
}

/**
 * The folder an export writes into, and the one check every sink makes of a final path before it
 * writes (disk-sink.ts, zip-sink.ts, the app's zips and file lists in backend/export.ts): the name
 * is one file name checkName accepts (no separator, no ".."), and its folder is the root or below
 * it. Independent of how the name was chosen (an archive, a request, a numbered copy, a temporary
 * name): a mistake there cannot write outside.
 */
export class Destination {
  readonly root: string;
  private readonly prefix: string;
  /** The last folder found inside: files come folder by folder. */
  private lastFolder: string | null = null;

  constructor(root: string) {
    this.root = resolve(root);
    this.prefix = this.root.endsWith(sep) ? this.root : this.root + sep;
  }

  /** Throws UnsafePathError unless `folder`/`name` is a file inside the root; `path` names it in the message. */
  check(folder: string, name: string, path: string = name): void {
    const reason = checkName(name);
    if (reason) throw new UnsafePathError(path, reason);
    if (folder === this.lastFolder) return;
    const f = resolve(folder);
    if (f !== this.root && !f.startsWith(this.prefix)) throw new UnsafePathError(path, `leaves the output folder ${this.root}`);
    this.lastFolder = folder;
  }

  /** The absolute path of file `name` in `folder`, after check. */
  file(folder: string, name: string, path: string = name): string {
    this.check(folder, name, path);
    return folder.endsWith(sep) ? folder + name : folder + sep + name;
  }
}

/**
 * A file name made from text that is no path (a Wwise medium's original name, an event's name):
 * every character a name may not hold becomes "_", a trailing dot or space goes, a Windows device
 * name gets a "_" before it, and it is cut to `maxBytes` (UTF-8). What checkName still refuses
 * (nothing left, "..") gives `fallback`. The result is one segment: never a folder separator.
 */
export function safeFileName(text: string, fallback: string, maxBytes = 200): string {
  let s = text
    .replace(/[\u0000-\u001f\u007f-\u009f<>:"|?*\\/]/g, '_')
    .replace(SEPARATOR_LOOKALIKE_ALL, '_')
    .replace(LONE_SURROGATE_ALL, '_');
  // Cut by code points to the byte budget, then drop what Windows would drop at the end.
  while (Buffer.byteLength(s, 'utf8') > maxBytes) s = Array.from(s).slice(0, -1).join('');
  s = s.replace(/[. ]+$/, '');
  if (RESERVED_DEVICE.test(s.split('.')[0]!.trimEnd())) s = `_${s}`;
  return s !== '' && checkName(s) === null ? s : fallback;
}
const SEPARATOR_LOOKALIKE_ALL = new RegExp(SEPARATOR_LOOKALIKE.source, 'g');
const LONE_SURROGATE_ALL = new RegExp(LONE_SURROGATE.source, 'g');

/** "name (2).ext": the n-th copy under keep-both; the first dot after the first character starts the extension. */
export function numberedName(name: string, n: number): string {
  const dot = name.indexOf('.', 1);
  return dot < 0 ? `${name} (${n})` : `${name.slice(0, dot)} (${n})${name.slice(dot)}`;
}

/** A name with control characters escaped, for messages. */
export function printable(s: string): string {
  return s.replace(/[\u0000-\u001f\u007f-\u009f]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
}

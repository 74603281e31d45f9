import { join, resolve, sep } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  checkName, checkRelativePath, Destination, isInside, numberedName, resolveInside, UnsafePathError, MAX_NAME_BYTES, MAX_PATH_BYTES,
} from '../../src/core/export/safe-path.js';

/** The reason a path is refused, or 'ok'. */
function verdict(path: string): string {
  const c = checkRelativePath(path);
  return c.ok ? 'ok' : c.reason;
}

describe('checkRelativePath accepts', () => {
  it.each([
    'Game/Content/Maps/Level.umap',
    'a.txt',
    'CUE4ParseFixtures/Content/Fixtures/Textures/T_Streaming.m.ubulk',
    'Game/Content/Ünïcödé/日本語.uasset',
    'Game/.hidden/x',
    'Game/..x/y', // a name that only starts with dots
    'Game/x../y'.replace('x..', 'x..z'),
    'CONSOLE.txt', // only the exact device names are reserved
    'Game/COM10.txt',
    'Game/LPT.txt',
    'emoji/😀.txt', // a surrogate pair is fine
    `a/${'x'.repeat(MAX_NAME_BYTES)}`,
  ])('%s', (p) => {
    expect(verdict(p)).toBe('ok');
  });

  it('returns the segments', () => {
    expect(checkRelativePath('a/b/c.txt')).toEqual({ ok: true, segments: ['a', 'b', 'c.txt'] });
  });
});

describe('checkRelativePath refuses', () => {
  it.each([
    ['', /empty path/],
    ['../../evil.txt', /parent folder segment/],
    ['a/../../b', /parent folder segment/],
    ['a/..', /parent folder segment/],
    ['a/./b', /"\." segment/],
    ['/etc/passwd', /absolute path/],
    ['\\\\server\\share\\x', /absolute path/],
    ['C:\\x', /drive letter "C:"/],
    ['C:/Windows/x', /drive letter "C:"/],
    ['c:x', /drive letter/],
    ['Game/C:x', /drive letter/],
    ['Game/file.txt:stream', /character ":"/],
    ['a\\..\\..\\b', /backslash/],
    ['Game/back\\slash.txt', /backslash/],
    ['Game/nul\0byte.txt', /NUL byte/],
    ['Game/esc\u001b[31m.txt', /control character U\+001B/],
    ['Game/del\u007f.txt', /control character U\+007F/],
    ['Game/c1\u0085.txt', /control character U\+0085/],
    ['Game/line\nbreak', /control character U\+000A/],
    ['CON', /reserved Windows device name "CON"/],
    ['CON.txt', /reserved Windows device name "CON"/],
    ['Game/con.tar.gz', /reserved Windows device name "CON"/],
    ['Game/aux', /"AUX"/],
    ['Game/Prn.log', /"PRN"/],
    ['Game/NUL.uasset', /"NUL"/],
    ['Game/COM1', /"COM1"/],
    ['Game/com9.txt', /"COM9"/],
    ['Game/LPT1.dat', /"LPT1"/],
    ['Game/lpt9', /"LPT9"/],
    ['Game/COM¹.txt', /"COM¹"/],
    ['Game/CON .txt', /"CON"/], // Windows drops the space before the dot
    ['Game/conin$', /CONIN\$/],
    ['Game/trailing.', /trailing dot or space/],
    ['Game/trailing /x', /trailing dot or space/],
    ['Game/...', /trailing dot/],
    ['Game//double', /empty name/],
    ['Game/trailing/', /empty name/],
    ['Game/a<b', /character "<"/],
    ['Game/a|b', /character "\|"/],
    ['Game/what?', /character "\?"/],
    ['Game/star*', /character "\*"/],
    ['Game/quote"', /character """/],
    ['Game/a\u2215b', /looks like a folder separator/],
    ['Game/a\uff0fb', /looks like a folder separator/],
    ['Game/lone\ud800', /unpaired UTF-16 surrogate/],
    [`Game/${'x'.repeat(MAX_NAME_BYTES + 1)}`, /longer than 255 bytes/],
    [`Game/${'é'.repeat(128)}`, /longer than 255 bytes/], // 256 bytes in UTF-8
    [`${'abcdefgh/'.repeat(Math.ceil(MAX_PATH_BYTES / 9))}x`, /path longer than 1024 bytes/],
  ])('%j', (p, reason) => {
    expect(verdict(p)).toMatch(reason);
  });
});

describe('checkName', () => {
  it('judges one segment', () => {
    expect(checkName('ok.txt')).toBeNull();
    expect(checkName('..')).toMatch(/segment/);
    // One name, never a path: a zip name "../../x.zip" was let through (issue 25).
    expect(checkName('a/b')).toMatch(/slash in the name/);
    expect(checkName('../../evil.zip')).toMatch(/slash in the name/);
  });
});

describe('Destination: the one check of a final path', () => {
  const root = resolve('/tmp/pakscope-out');
  const dest = new Destination(root);
  it('answers the file in the root or a folder below it', () => {
    expect(dest.file(root, 'x.zip')).toBe(join(root, 'x.zip'));
    expect(dest.file(join(root, 'a', 'b'), 'c.txt')).toBe(join(root, 'a', 'b', 'c.txt'));
  });
  it.each([
    [root, '../x.zip', /slash in the name/],
    [root, '..', /segment/],
    [root, 'a\\b', /backslash/],
    [join(root, '..'), 'x.zip', /leaves the output folder/],
    [join(root, 'a', '..', '..', 'b'), 'x.zip', /leaves the output folder/],
    [`${root}-sibling`, 'x.zip', /leaves the output folder/],
    ['/etc', 'passwd', /leaves the output folder/],
  ])('refuses %s + %j', (folder, name, reason) => {
    expect(() => dest.file(folder, name)).toThrow(UnsafePathError);
    expect(() => dest.check(folder, name)).toThrow(reason);
  });
});

describe('resolveInside', () => {
  const root = resolve('/tmp/pakscope-out');

  it('joins an accepted path below the root', () => {
    expect(resolveInside(root, 'Game/A.uasset')).toEqual({ absolute: join(root, 'Game', 'A.uasset'), segments: ['Game', 'A.uasset'] });
  });

  it('throws UnsafePathError with the reason for a refused one', () => {
    let err: unknown;
    try { resolveInside(root, 'a/../../etc/passwd'); } catch (e) { err = e; }
    expect(err).toBeInstanceOf(UnsafePathError);
    expect((err as UnsafePathError).reason).toMatch(/parent folder/);
    expect((err as UnsafePathError).path).toBe('a/../../etc/passwd');
    expect((err as Error).message).toMatch(/refused to write "a\/\.\.\/\.\.\/etc\/passwd"/);
    // Control characters are escaped in the message, never printed raw to a terminal.
    try { resolveInside(root, 'x\u001b]0;pwned\u0007'); } catch (e) { err = e; }
    expect((err as Error).message).toContain('\\u001b');
    expect((err as Error).message).not.toContain('\u001b');
  });
});

describe('isInside', () => {
  it('compares whole segments', () => {
    const root = resolve('/tmp/out');
    expect(isInside(root, root)).toBe(true);
    expect(isInside(root, `${root}${sep}a${sep}b`)).toBe(true);
    expect(isInside(root, resolve('/tmp/out-other/x'))).toBe(false); // a shared prefix is not inside
    expect(isInside(root, resolve('/tmp'))).toBe(false);
    expect(isInside(root, resolve('/etc/passwd'))).toBe(false);
    expect(isInside(root, `${root}${sep}..foo`)).toBe(true); // a name starting with dots, not a parent
  });
});

describe('numberedName', () => {
  it('numbers before the first extension', () => {
    expect(numberedName('A.uasset', 2)).toBe('A (2).uasset');
    expect(numberedName('T.m.ubulk', 3)).toBe('T (3).m.ubulk');
    expect(numberedName('README', 2)).toBe('README (2)');
    expect(numberedName('.hidden', 2)).toBe('.hidden (2)');
    expect(numberedName('.config.ini', 2)).toBe('.config (2).ini');
  });
});

import { mkdtempSync, mkdirSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { scanInstallPaths } from '../../src/core/install/scan.js';

describe('scanInstallPaths', () => {
  const dir = mkdtempSync(join(tmpdir(), 'pakscope-scan-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  mkdirSync(join(dir, 'Paks/sub'), { recursive: true });
  writeFileSync(join(dir, 'Paks/a.utoc'), '');
  writeFileSync(join(dir, 'Paks/a.ucas'), '');
  writeFileSync(join(dir, 'Paks/a.pak'), '');
  writeFileSync(join(dir, 'Paks/sub/b.PAK'), '');
  writeFileSync(join(dir, 'Paks/sub/notes.txt'), '');
  symlinkSync(join(dir, 'Paks'), join(dir, 'Paks/sub/loop')); // a cycle back up the tree
  symlinkSync(join(dir, 'Paks/sub'), join(dir, 'Paks/alias')); // a second way into sub
  symlinkSync(join(dir, 'Paks/a.utoc'), join(dir, 'Paks/sub/link.utoc')); // a file seen twice
  symlinkSync(join(dir, 'missing'), join(dir, 'Paks/dangling.utoc'));

  it('finds .utoc and .pak once each, following links without looping', async () => {
    const progress: number[] = [];
    const r = await scanInstallPaths([dir], { onProgress: (p) => progress.push(p.done) });
    expect(r.files.map((f) => f.slice(dir.length + 1)).sort()).toEqual(['Paks/a.pak', 'Paks/a.utoc', 'Paks/alias/b.PAK'].sort());
    expect(r.problems).toEqual([{ path: join(dir, 'Paks/dangling.utoc'), message: 'no such file or folder', fatal: false }]);
    expect(progress.length).toBe(3); // dir, Paks, sub (once)
  });

  it('takes a named .ucas as its .utoc, once', async () => {
    const r = await scanInstallPaths([join(dir, 'Paks/a.ucas'), join(dir, 'Paks/a.utoc')]);
    expect(r.files).toEqual([join(dir, 'Paks/a.utoc')]);
    expect(r.problems).toEqual([]);
  });

  it('takes a named file whatever its extension, and reports a missing root as fatal', async () => {
    const r = await scanInstallPaths([join(dir, 'Paks/sub/notes.txt'), join(dir, 'nope')]);
    expect(r.files).toEqual([join(dir, 'Paks/sub/notes.txt')]);
    expect(r.problems).toEqual([{ path: join(dir, 'nope'), message: 'no such file or folder', fatal: true }]);
  });

  it('stops on abort', async () => {
    const ac = new AbortController();
    ac.abort();
    // The abort itself, not some other failure on the way.
    await expect(scanInstallPaths([dir], { signal: ac.signal })).rejects.toMatchObject({ name: 'AbortError' });
  });
});

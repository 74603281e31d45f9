import { describe, expect, it } from 'vitest';
import { Install } from '../../src/core/install/install.js';
import { compareByPriority, readOrder } from '../../src/core/install/priority.js';
import { fakeArchive } from './fake-archive.js';

describe('container priority (the engine pak mount order)', () => {
  it('gives patch containers 100 * chunk version', () => {
    expect(readOrder('/p/pakchunk0-Windows.utoc')).toBe(0);
    expect(readOrder('/p/pakchunk0-Windows_P.utoc')).toBe(100);
    expect(readOrder('/p/pakchunk0-Windows_0_P.pak')).toBe(100);
    expect(readOrder('/p/pakchunk0-Windows_1_P.pak')).toBe(200);
    expect(readOrder('/p/pakchunk0-Windows_12_P.utoc')).toBe(1300);
    expect(readOrder('C:\\Paks\\pakchunk0-Windows_2_P.utoc')).toBe(300);
    expect(readOrder('/p/pakchunk0-Windows_2_P.o.utoc')).toBe(300);
    expect(readOrder('/p/pakchunk0-Windows_x_P.pak')).toBe(100);
    expect(readOrder('/p/pakchunk0-Windows_Patch.pak')).toBe(0);
  });

  it('sorts the winner first; at equal order the path that sorts last wins', () => {
    const paths = ['/p/a.utoc', '/p/a_1_P.utoc', '/p/b.utoc', '/p/a_P.utoc', '/p/a_2_P.utoc'];
    expect(paths.map((path) => ({ path })).sort(compareByPriority).map((a) => a.path))
      .toEqual(['/p/a_2_P.utoc', '/p/a_1_P.utoc', '/p/a_P.utoc', '/p/b.utoc', '/p/a.utoc']);
  });

  it('lets _P override its base and _2_P override _1_P, keeping the overridden providers', () => {
    const base = fakeArchive('/p/pakchunk0-Windows.utoc', [['G/Content/A.uasset', 10], ['G/Content/B.uasset', 20], ['G/Content/C.uasset', 30]]);
    const p1 = fakeArchive('/p/pakchunk0-Windows_1_P.utoc', [['G/Content/A.uasset', 11], ['G/Content/B.uasset', 21]]);
    const p2 = fakeArchive('/p/pakchunk0-Windows_2_P.utoc', [['G/Content/a.uasset', 12]]);
    const patch = fakeArchive('/p/pakchunk0-Windows_P.utoc', [['G/Content/C.uasset', 31]]);
    // Scan order must not matter.
    const install = new Install(['/p'], [p2, base, patch, p1], []);
    expect(install.fileCount).toBe(3);
    const a = install.file('G/Content/A.uasset')!;
    expect(a.providers.map((p) => p.archive.name)).toEqual(['pakchunk0-Windows_2_P', 'pakchunk0-Windows_1_P', 'pakchunk0-Windows']);
    expect(a.size).toBe(12);
    expect(a.path).toBe('G/Content/a.uasset'); // the winner's spelling
    const b = install.file('G/Content/B.uasset')!;
    expect(b.providers.map((p) => p.file.size)).toEqual([21, 20]);
    const c = install.file('G/Content/C.uasset')!;
    expect(c.providers.map((p) => p.archive.name)).toEqual(['pakchunk0-Windows_P', 'pakchunk0-Windows']);
    expect(install.totalSize).toBe(12 + 21 + 31);
    expect(install.listDir('G/Content').map((e) => e.file!.providers[0]!.archive.name))
      .toEqual(['pakchunk0-Windows_2_P', 'pakchunk0-Windows_1_P', 'pakchunk0-Windows_P']);
  });
});

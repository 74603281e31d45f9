/**
 * selectFiles against the rule it implements, checked file by file (a file is in when its
 * lowercase path is a selected path or lies below one, and it matches a filter): on an install
 * with folders that are prefixes of others ("Maps" / "Maps2" / "Maps-Old"), spellings merged
 * across containers, files at the root, files named like folders, and a thousand paths at once.
 */
import { describe, expect, it } from 'vitest';
import { selectFiles } from '../../src/core/export/selection.js';
import { Install, type VfsFile } from '../../src/core/install/install.js';
import { compilePathFilter } from '../../src/core/install/path-filter.js';
import { Rng } from '../../bench/rng.js';
import { fakeArchive } from '../install/fake-archive.js';

/** The rule, one file at a time (the exporter's original quadratic loop). */
function reference(install: Install, paths: readonly string[], filters: readonly string[]): { files: string[]; missing: string[] } {
  const prefixes = paths.map((p) => p.replace(/^\/+|\/+$/g, '').toLowerCase());
  const matchers = filters.filter((f) => f !== '').map(compilePathFilter);
  const hit = prefixes.map(() => false);
  const files: string[] = [];
  for (const f of install.files()) {
    const lower = f.path.toLowerCase();
    let under = prefixes.length === 0;
    prefixes.forEach((p, i) => {
      if (p === '' || lower === p || lower.startsWith(`${p}/`)) {
        hit[i] = true;
        under = true;
      }
    });
    if (under && (matchers.length === 0 || matchers.some((m) => m(lower)))) files.push(f.path);
  }
  return { files, missing: paths.filter((_, i) => !hit[i]) };
}

function install(): Install {
  const a: [string, number][] = [];
  const b: [string, number][] = [];
  for (const dir of ['Game/Maps', 'Game/Maps2', 'Game/Maps-Old', 'Game/Maps/Sub', 'Game/UI/Icons', 'Engine/Content/Fonts']) {
    for (let i = 0; i < 5; i++) a.push([`${dir}/F${i}.uasset`, 100 + i]);
  }
  // The same folders spelled differently in a second container: merged into one folder.
  b.push(['game/maps/Extra.uasset', 7], ['GAME/ui/icons/Extra.ubulk', 8], ['Readme.txt', 9], ['Game/Maps.txt', 10]);
  // A file whose name is a prefix of a folder's.
  a.push(['Game/Map', 11]);
  return new Install([], [fakeArchive('/x/a.utoc', a), fakeArchive('/x/b.pak', b)], []);
}

describe('selectFiles', () => {
  const inst = install();
  const cases: [string[], string[]][] = [
    [[], []],
    [[''], []],
    [['Game/Maps'], []],
    [['game/maps/'], []],
    [['/Game/Maps/Sub/'], []],
    [['Game/Maps', 'Game/Maps/Sub'], []], // nested: each file once
    [['Game/Maps/Sub', 'Game/Maps'], []],
    [['Game/Map'], []], // the file, not Maps or Maps2
    [['Game/Maps.txt', 'readme.TXT'], []],
    [['Game/UI', 'No/Such/Folder', 'Game/Maps/F1.uasset/x'], []],
    [['Game'], ['*.ubulk']],
    [[], ['maps']],
    [['Game/Maps', 'Game/Maps'], []], // given twice: both hit, files once
  ];
  for (const [paths, filters] of cases) {
    it(`paths ${JSON.stringify(paths)} filters ${JSON.stringify(filters)}`, () => {
      const got = selectFiles(inst, { paths, filters });
      const want = reference(inst, paths, filters);
      expect(got.files.map((f) => f.path)).toEqual(want.files);
      expect(got.failed.map((f) => f.path)).toEqual(want.missing);
    });
  }

  it('gives the same answer as the rule on a thousand random paths over a big install', () => {
    const rng = new Rng(42);
    const files: [string, number][] = [];
    for (let i = 0; i < 10_000; i++) {
      const depth = 1 + rng.int(4);
      const segs = Array.from({ length: depth }, () => `D${rng.int(12)}${rng.int(3) === 0 ? 'x' : ''}`);
      files.push([`${segs.join('/')}/f${i}.bin`, i]);
    }
    const big = new Install([], [fakeArchive('/x/big.utoc', files)], []);
    const all: VfsFile[] = [...big.files()];
    const paths: string[] = [];
    for (let i = 0; i < 1000; i++) {
      const f = all[rng.int(all.length)]!.path;
      const cut = f.split('/').slice(0, 1 + rng.int(f.split('/').length));
      const p = cut.join('/');
      paths.push(rng.int(4) === 0 ? p.toUpperCase() : rng.int(5) === 0 ? `${p}zz` : p);
    }
    const got = selectFiles(big, { paths });
    const want = reference(big, paths, []);
    expect(got.files.length).toBe(want.files.length);
    expect(got.files.map((f) => f.path)).toEqual(want.files);
    expect(got.failed.map((f) => f.path)).toEqual(want.missing);
    expect(want.files.length).toBeGreaterThan(2000);
    expect(want.missing.length).toBeGreaterThan(50);
  });
});

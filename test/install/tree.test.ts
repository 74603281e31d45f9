import { describe, expect, it } from 'vitest';
import { Install } from '../../src/core/install/install.js';
import { fakeArchive } from './fake-archive.js';

const game = fakeArchive('/g/pakchunk0-Windows.utoc', [
  ['Proj/Content/Maps/Level.umap', 1000],
  ['Proj/Content/Maps/Level.uexp', 24],
  ['Proj/Content/Chars/Hero/Hero.uasset', 300],
  ['Proj/Content/Chars/Hero/Hero.ubulk', 7000],
  ['Proj/Content/Chars/Villain.uasset', 200],
  ['Proj/Config/DefaultGame.ini', 50],
  ['Engine/Content/Fonts/Roboto.uasset', 4],
  ['README.txt', 3],
]);

describe('Install tree', () => {
  const install = new Install(['/g'], [game], []);

  it('counts every file once with the total size', () => {
    expect(install.fileCount).toBe(8);
    expect(install.totalSize).toBe(1000 + 24 + 300 + 7000 + 200 + 50 + 4 + 3);
    expect([...install.files()].map((f) => f.path)).toEqual([
      'Engine/Content/Fonts/Roboto.uasset',
      'Proj/Config/DefaultGame.ini',
      'Proj/Content/Chars/Hero/Hero.uasset',
      'Proj/Content/Chars/Hero/Hero.ubulk',
      'Proj/Content/Chars/Villain.uasset',
      'Proj/Content/Maps/Level.uexp',
      'Proj/Content/Maps/Level.umap',
      'README.txt',
    ]);
  });

  it('lists the root: folders first, then files, with totals below each folder', () => {
    const root = install.listDir('');
    expect(root.map((e) => [e.name, e.isDir, e.fileCount, e.size])).toEqual([
      ['Engine', true, 1, 4],
      ['Proj', true, 6, 1000 + 24 + 300 + 7000 + 200 + 50],
      ['README.txt', false, 1, 3],
    ]);
    expect(root[2]!.file?.path).toBe('README.txt');
    expect(root[0]!.file).toBeUndefined();
  });

  it('lists a nested folder with per-folder counts and sizes', () => {
    const content = install.listDir('Proj/Content');
    expect(content.map((e) => [e.path, e.fileCount, e.size])).toEqual([
      ['Proj/Content/Chars', 3, 7500],
      ['Proj/Content/Maps', 2, 1024],
    ]);
    expect(install.listDir('Proj/Content/Chars').map((e) => e.name)).toEqual(['Hero', 'Villain.uasset']);
    expect(install.listDir('/proj/content/chars/hero/').map((e) => e.size)).toEqual([300, 7000]);
    expect(install.listDir('Proj/Nope')).toEqual([]);
  });

  it('finds files case-insensitively', () => {
    expect(install.file('proj/content/maps/level.umap')?.path).toBe('Proj/Content/Maps/Level.umap');
    expect(install.file('/Proj/Content/Maps/Level.umap')?.size).toBe(1000);
    expect(install.file('Proj/Content/Maps')).toBeUndefined();
  });

  it('filters by substring of the full path, case-insensitively, leaving out folders without a match', () => {
    const root = install.listDir('', 'HERO');
    expect(root.map((e) => [e.name, e.fileCount, e.size])).toEqual([['Proj', 2, 7300]]);
    expect(install.listDir('Proj/Content', 'hero').map((e) => e.name)).toEqual(['Chars']);
    expect(install.listDir('Proj/Content/Chars', 'hero').map((e) => [e.name, e.fileCount])).toEqual([['Hero', 2]]);
    // A substring may span folders: it is matched against the whole path.
    expect(install.listDir('Proj/Content/Chars', 'chars/v').map((e) => e.name)).toEqual(['Villain.uasset']);
    expect(install.listDir('', 'nothing-matches')).toEqual([]);
    // Back to the unfiltered listing after a filter.
    expect(install.listDir('').length).toBe(3);
  });

  it('filters by glob: * stays in a folder, ** crosses folders, ? and [] match one character', () => {
    expect(install.listDir('', '*.txt').map((e) => e.name)).toEqual(['README.txt']);
    expect(install.listDir('', '**/*.uasset').map((e) => [e.name, e.fileCount, e.size])).toEqual([
      ['Engine', 1, 4],
      ['Proj', 2, 500],
    ]);
    expect(install.listDir('Proj/Content/Chars', 'proj/content/*/*.UASSET').map((e) => e.name)).toEqual(['Villain.uasset']);
    expect(install.listDir('Proj/Content/Maps', '**/level.u?[a-m]?').map((e) => e.name)).toEqual(['Level.umap']);
    expect(install.listDir('Proj/Content/Maps', '**/level.u[!m]*').map((e) => e.name)).toEqual(['Level.uexp']);
    expect(install.listDir('', 'Proj/**').map((e) => [e.name, e.fileCount])).toEqual([['Proj', 6]]);
  });

  it('indexes 250,000 files in well under a second and lists a folder fast', () => {
    const files: [string, number][] = [];
    // Containers list their files folder by folder (directory index order): 2,000 folders of 125.
    for (let i = 0; i < 250_000; i++) {
      const folder = Math.floor(i / 125);
      files.push([`Game/Content/Dir${folder % 50}/Sub${Math.floor(folder / 50)}/Asset_${i}.uasset`, i % 5000]);
    }
    const big = fakeArchive('/g/pakchunk1-Windows.utoc', files);
    new Install(['/g'], [fakeArchive('/g/warm.utoc', files.slice(0, 5000))], []); // compile the hot paths first
    // Speed is measured by `npm run bench`; this checks the 250k-file tree is right.
    const inst = new Install(['/g'], [big], []);
    expect(inst.fileCount).toBe(250_000);
    const dir = inst.listDir('Game/Content');
    expect(dir).toHaveLength(50);
    expect(dir.reduce((n, e) => n + e.fileCount, 0)).toBe(250_000);
    const sub = inst.listDir('Game/Content/Dir7/Sub3');
    expect(sub).toHaveLength(125);
    expect(sub.every((e) => !e.isDir)).toBe(true);
    const filtered = inst.listDir('Game/Content', 'asset_12');
    expect(filtered.reduce((n, e) => n + e.fileCount, 0)).toBe(1 + 10 + 100 + 1000 + 10000);
  });
});

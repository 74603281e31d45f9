/**
 * The merged tree built straight from IoStore directory indexes (names, no path per file) must be
 * the tree built from the containers' file paths: same files, winners, spellings, folders, totals
 * and order. Checked on the corpus's real containers and on written ones with case variants,
 * duplicates and indexes that are not a plain tree.
 */
import { afterAll, describe, expect, it } from 'vitest';
import type { Archive } from '../../src/core/archive.js';
import { Install, openInstall } from '../../src/core/install/install.js';
import { IoStoreContainer, openIoStoreContainer } from '../../src/core/iostore/container.js';
import { parseDirectoryIndex } from '../../src/core/iostore/directory-index.js';
import { parseToc } from '../../src/core/iostore/toc.js';
import { inlineDecoder } from '../../src/core/workers/block-job.js';
import { corpus } from '../support/corpus.js';
import { makeTempDir, removeTempDirs, writeContainer } from '../fixtures/toc-writer.js';

afterAll(removeTempDirs);

/** The same archive seen only through the Archive interface, so the tree merges it by paths. */
function byPaths(a: Archive): Archive {
  return {
    kind: a.kind, path: a.path, name: a.name, mountPoint: a.mountPoint, status: a.status,
    files: () => a.files(), read: (ref) => a.read(ref), storage: (ref) => a.storage(ref),
    verify: (ref) => a.verify(ref), describe: () => a.describe(), close: async () => undefined,
  };
}

/** Everything a caller can see of an install's tree, with archives by name. */
function snapshot(install: Install): unknown {
  const folders: unknown[] = [];
  const visit = (path: string): void => {
    const entries = install.listDir(path);
    folders.push([path, entries.map((e) => [e.name, e.path, e.isDir, e.size, e.fileCount, e.file?.providers.map((p) => [p.archive.name, p.file.ref])])]);
    for (const e of entries) if (e.isDir) visit(e.path);
  };
  visit('');
  const files = [...install.files()];
  return {
    fileCount: install.fileCount,
    totalSize: install.totalSize,
    files: files.map((f) => [f.path, f.size, f.providers.map((p) => [p.archive.name, p.file.ref, p.file.path])]),
    folders,
    // Looked up again in another case, every file is found as itself.
    lookups: files.every((f) => install.file(f.path.toUpperCase()) === f && install.file(`/${f.path.toLowerCase()}`) === f),
  };
}

function expectSameTree(archives: Archive[]): Install {
  const direct = new Install(['/x'], archives, []);
  const viaPaths = new Install(['/x'], archives.map(byPaths), []);
  expect(snapshot(direct)).toEqual(snapshot(viaPaths));
  return direct;
}

async function written(name: string, paths: string[], opts: { mountPoint?: string; dir?: string } = {}): Promise<IoStoreContainer> {
  const dir = opts.dir ?? await makeTempDir();
  const w = await writeContainer(paths.map((path, i) => ({ path, bytes: new Uint8Array(10 + i) })), { version: 8, dir, name, mountPoint: opts.mountPoint });
  return openIoStoreContainer(w.utocPath);
}

const NONE = 0xffffffff;

/** A raw directory index: mount point, directories [name, firstChild, nextSibling, firstFile], files [name, next, entry], ANSI strings. */
function rawIndex(mount: string, dirs: number[][], files: number[][], strings: string[]): Uint8Array {
  const parts: number[] = [];
  const u32 = (v: number) => { parts.push(v & 0xff, (v >>> 8) & 0xff, (v >>> 16) & 0xff, (v >>> 24) & 0xff); };
  const fstr = (x: string) => { u32(x.length + 1); for (const ch of x) parts.push(ch.charCodeAt(0)); parts.push(0); };
  fstr(mount);
  u32(dirs.length); dirs.flat().forEach(u32);
  u32(files.length); files.flat().forEach(u32);
  u32(strings.length); strings.forEach(fstr);
  return Uint8Array.from(parts);
}

/** A written container's TOC with another directory index put in. */
async function withIndex(name: string, index: Uint8Array): Promise<IoStoreContainer> {
  const w = await writeContainer([{ path: 'a', bytes: new Uint8Array(5) }, { path: 'b', bytes: new Uint8Array(6) }], { version: 8, name });
  const toc = parseToc(w.utocBytes, w.utocPath);
  const dirIndex = parseDirectoryIndex(index, w.utocPath, toc.header.entryCount);
  return new IoStoreContainer(w.utocPath, toc, dirIndex, null, { state: 'ok' }, w.ucasPaths, new Set(), inlineDecoder);
}

describe('the tree from directory indexes', () => {
  it('is the tree of paths for the corpus containers', async () => {
    const install = await openInstall([corpus('iostore')]);
    try {
      const indexed = install.archives.filter((a): a is IoStoreContainer => a instanceof IoStoreContainer && a.files().length > 0);
      // Every real index here is a plain tree of names, so the fast path is what was compared.
      expect(indexed.map((a) => a.directoryIndex!.structured)).toEqual(indexed.map(() => true));
      expect(indexed.length).toBe(6);
      const tree = expectSameTree(install.archives);
      expect(tree.fileCount).toBe(1444);
      expect(tree.listDir('').map((e) => [e.name, e.fileCount])).toEqual(install.listDir('').map((e) => [e.name, e.fileCount]));
    } finally {
      await install.close();
    }
  });

  it('merges paths case-insensitively: the patch wins in its own spelling, folders keep the first spelling', async () => {
    const dir = await makeTempDir();
    const base = await written('pakchunk0-Windows', ['Game/Content/Maps/Level.umap', 'Game/Content/Maps/Level.uexp', 'Game/Content/Hero.uasset'], { dir });
    const patch = await written('pakchunk0-Windows_P', ['GAME/content/maps/LEVEL.umap', 'GAME/content/New.uasset'], { dir });
    const tree = expectSameTree([base, patch]);
    expect(tree.fileCount).toBe(4);
    const level = tree.file('game/content/maps/level.umap')!;
    expect(level.path).toBe('GAME/content/maps/LEVEL.umap');
    expect(level.providers.map((p) => [p.archive.name, p.file.path])).toEqual([
      ['pakchunk0-Windows_P', 'GAME/content/maps/LEVEL.umap'],
      ['pakchunk0-Windows', 'Game/Content/Maps/Level.umap'],
    ]);
    expect(level.size).toBe(10);
    // The patch mounts first (it wins), so its spelling names the folders.
    expect(tree.listDir('').map((e) => [e.name, e.fileCount])).toEqual([['GAME', 4]]);
    expect(tree.listDir('Game/Content').map((e) => e.path)).toEqual(['GAME/content/maps', 'Game/Content/Hero.uasset', 'GAME/content/New.uasset']);
    // Paths in two spellings still come out in path order.
    expect([...tree.files()].map((f) => f.path)).toEqual([
      'GAME/content/New.uasset', 'GAME/content/maps/LEVEL.umap', 'Game/Content/Hero.uasset', 'Game/Content/Maps/Level.uexp',
    ]);
  });

  it('visits every file as files() lists them: same order, path, winner and entry, with no file object made', async () => {
    const install = await openInstall([corpus('iostore')]);
    try {
      const seen: [string, number, string, number][] = [];
      install.visitFiles((v) => seen.push([v.folder === '' ? v.name : `${v.folder}/${v.name}`, v.id, v.archive.name, v.ref]));
      const fileOf = install.filesById();
      const files = [...install.files()];
      expect(seen.length).toBe(1444);
      expect(seen.map(([path, , archive, ref]) => [path, archive, ref])).toEqual(files.map((f) => [f.path, f.providers[0]!.archive.name, f.providers[0]!.file.ref]));
      expect(seen.every(([, id], i) => fileOf(id) === files[i])).toBe(true);
      expect(() => fileOf(1444)).toThrow(RangeError);
    } finally {
      await install.close();
    }
    // Folders in two spellings: the winners' own paths, still in path order.
    const dir = await makeTempDir();
    const base = await written('pakchunk0-Windows', ['Game/Content/Maps/Level.umap', 'Game/Content/Hero.uasset'], { dir });
    const patch = await written('pakchunk0-Windows_P', ['GAME/content/maps/LEVEL.umap'], { dir });
    const respelled = new Install(['/x'], [base, patch], []);
    const paths: string[] = [];
    respelled.visitFiles((v) => paths.push(`${v.folder}/${v.name}@${v.archive.name}`));
    expect(paths).toEqual(['GAME/content/maps/LEVEL.umap@pakchunk0-Windows_P', 'Game/Content/Hero.uasset@pakchunk0-Windows']);
  });

  it("gives the container's own file objects, whether made one by one for a listing or as its whole list", async () => {
    const c = await written('pakchunk2-Windows', ['Game/A/One.uasset', 'Game/A/Two.uasset', 'Game/B/Three.uasset']);
    const tree = new Install(['/x'], [c], []);
    const listed = tree.listDir('Game/A').map((e) => e.file!.providers[0]!.file);
    expect(listed.map((f) => [f.path, f.size])).toEqual([['Game/A/One.uasset', 10], ['Game/A/Two.uasset', 11]]);
    expect(c.fileAt(0)).toBe(listed[0]);
    // The whole list, made later, holds the same objects.
    expect(c.files().slice(0, 2)).toEqual(listed);
    expect(c.files()[0]).toBe(listed[0]);
    expect(c.files()[1]).toBe(listed[1]);
    expect(tree.file('game/b/three.uasset')!.providers[0]!.file).toBe(c.files()[2]);
    expect([c.fileAt(3), c.fileAt(-1)]).toEqual([undefined, undefined]);
  });

  it('keeps names that differ only in case within one container as one file with two providers, the later winning', async () => {
    const c = await written('pakchunk1-Windows', ['Game/Dup/A.uasset', 'Game/Dup/a.UASSET', 'Game/Dup/B.uasset']);
    const tree = expectSameTree([c]);
    expect(tree.fileCount).toBe(2);
    const a = tree.file('Game/Dup/A.uasset')!;
    // As the engine's case-blind lookup: a later entry replaces an earlier one (issue 25, 3).
    expect(a.providers.map((p) => p.file.path)).toEqual(['Game/Dup/a.UASSET', 'Game/Dup/A.uasset']);
    expect(tree.caseCopies()).toEqual([a]);
  });

  it('falls back to paths where the index is not a plain tree of names', async () => {
    // No "/" after the mount point: the engine's join gives "GameContent/...".
    const glued = await written('glued', ['Content/A.uasset', 'Content/Sub/B.uasset'], { mountPoint: '../../../Game' });
    expect(glued.directoryIndex!.structured).toBe(false);
    // A directory name holding "\" becomes two levels once normalized.
    const slashed = await written('slashed', ['Game/Con\\tent/C.uasset', 'Game/Other/D.uasset']);
    expect(slashed.directoryIndex!.structured).toBe(false);
    const plain = await written('plain', ['Game/Con/tent/E.uasset']);
    expect(plain.directoryIndex!.structured).toBe(true);
    const tree = expectSameTree([glued, slashed, plain]);
    expect([...tree.files()].map((f) => f.path)).toEqual([
      'Game/Con/tent/C.uasset', 'Game/Con/tent/E.uasset', 'Game/Other/D.uasset', 'GameContent/A.uasset', 'GameContent/Sub/B.uasset',
    ]);
    expect(tree.listDir('Game/Con/tent').map((e) => e.file!.providers[0]!.archive.name)).toEqual(['slashed', 'plain']);
  });

  it('takes file names holding "/" (and "\\" where the prefix is empty) by their joined paths', async () => {
    const S = ['Game', 'Sub/X.uasset', 'back\\slash.uasset', 'kept\\in.uasset'];
    // root: "back\slash.uasset" (normalized to two levels); Game: "Sub/X.uasset", "kept\in.uasset".
    const odd = await withIndex('odd', rawIndex('../../../', [[NONE, 1, NONE, 2], [0, NONE, NONE, 0]], [[1, 1, 0], [3, NONE, 1], [2, NONE, 1]], S));
    expect(odd.directoryIndex!.structured).toBe(true);
    expect(odd.files().map((f) => f.path)).toEqual(['back/slash.uasset', 'Game/Sub/X.uasset', 'Game/kept\\in.uasset']);
    // Only "\" under a prefix: the names are still one level each.
    const kept = await withIndex('kept', rawIndex('../../../', [[NONE, 1, NONE, NONE], [0, NONE, NONE, 0]], [[3, NONE, 1]], S));
    const tree = expectSameTree([odd, kept]);
    expect([...tree.files()].map((f) => [f.path, f.providers.length])).toEqual([
      ['Game/Sub/X.uasset', 1], ['Game/kept\\in.uasset', 2], ['back/slash.uasset', 1],
    ]);
    expect(tree.listDir('Game').map((e) => e.name)).toEqual(['Sub', 'kept\\in.uasset']);
  });

  it('merges many containers sharing big folders, each folder grown past its first table', async () => {
    const dir = await makeTempDir();
    const containers: IoStoreContainer[] = [];
    for (let c = 0; c < 3; c++) {
      // 900 files in one folder per container, a third of them also in the next container.
      const paths = Array.from({ length: 900 }, (_, i) => `Game/Content/Big/Asset_${c * 600 + i}.uasset`);
      containers.push(await written(`pakchunk${c}-Windows`, [...paths, `Game/Content/Only${c}/X.uasset`], { dir }));
    }
    const tree = expectSameTree(containers);
    expect(tree.fileCount).toBe(600 * 2 + 900 + 3);
    expect(tree.listDir('Game/Content').map((e) => [e.name, e.fileCount])).toEqual([
      ['Big', 2100], ['Only0', 1], ['Only1', 1], ['Only2', 1],
    ]);
    // Asset_600..899 are in pakchunk0 and pakchunk1; the higher path wins at equal order.
    expect(tree.file('game/content/big/asset_700.uasset')!.providers.map((p) => p.archive.name)).toEqual(['pakchunk1-Windows', 'pakchunk0-Windows']);
  });
});

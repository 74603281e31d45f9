/**
 * The directory index: paths as `ls` prints them, mount-point sanity (how keys are judged), and
 * hostile indexes (cycles, self-links, indices out of range) failing fast with a FormatError.
 */
import { describe, expect, it } from 'vitest';
import { FormatError } from '../../src/core/errors.js';
import { looksLikeMountPoint } from '../../src/core/crypto/index-key.js';
import { joinMountPath, parseDirectoryIndex } from '../../src/core/iostore/directory-index.js';
import { buildDirectoryIndex } from '../fixtures/toc-writer.js';
import { randomBytesSeeded } from '../fixtures/test-data.js';

const NONE = 0xffffffff;

/** Raw index: mount point, dir entries [name, firstChild, nextSibling, firstFile], file entries [name, next, userData], strings. */
function encode(mount: string, dirs: number[][], files: number[][], strings: string[]): Uint8Array {
  const parts: number[] = [];
  const u32 = (v: number) => { parts.push(v & 0xff, (v >>> 8) & 0xff, (v >>> 16) & 0xff, (v >>> 24) & 0xff); };
  const fstr = (s: string) => { u32(s.length + 1); for (const ch of s) parts.push(ch.charCodeAt(0)); parts.push(0); };
  fstr(mount);
  u32(dirs.length); dirs.flat().forEach(u32);
  u32(files.length); files.flat().forEach(u32);
  u32(strings.length); strings.forEach(fstr);
  return Uint8Array.from(parts);
}

function expectCycleError(bytes: Uint8Array, pattern: RegExp, entryCount = 10): FormatError {
  let err: unknown;
  try { parseDirectoryIndex(bytes, 'hostile.utoc', entryCount, 1000); } catch (e) { err = e; }
  expect(err).toBeInstanceOf(FormatError);
  const e = err as FormatError;
  expect(e.message).toMatch(pattern);
  expect(e.file).toBe('hostile.utoc');
  expect(e.structure).toMatch(/^directory index/);
  expect(e.offset).toBeGreaterThanOrEqual(1000);
  return e;
}

describe('paths', () => {
  it('joins the mount point and drops leading ../ and /', () => {
    expect(joinMountPath('../../../', 'TheIsle/Content/Mods/BP_ModLoader.uasset')).toBe('TheIsle/Content/Mods/BP_ModLoader.uasset');
    expect(joinMountPath('../../../TheIsle/Content/', 'A/B.uasset')).toBe('TheIsle/Content/A/B.uasset');
    expect(joinMountPath('/Game/', 'X.uasset')).toBe('Game/X.uasset');
    expect(joinMountPath('', 'X.uasset')).toBe('X.uasset');
    expect(joinMountPath('..\\..\\..\\Proj\\', 'Content\\X.uasset')).toBe('Proj/Content/X.uasset');
  });

  it('round-trips nested directories, shared names and UTF-16 names', () => {
    const files = [
      { path: 'Game/Content/Maps/Main.umap', entryIndex: 3 },
      { path: 'Game/Content/Maps/Sub/Main.umap', entryIndex: 0 },
      { path: 'Game/Content/Ünïcödé/ファイル.uasset', entryIndex: 1 },
      { path: 'Game/Root.txt', entryIndex: 2 },
      { path: 'Top.ini', entryIndex: 4 },
    ];
    const bytes = buildDirectoryIndex('../../../', files);
    const idx = parseDirectoryIndex(bytes, 'x.utoc', 5);
    expect(idx.mountPoint).toBe('../../../');
    expect(idx.directoryCount).toBe(6); // root, Game, Content, Maps, Sub, Ünïcödé
    expect(idx.files.map((f) => [f.path, f.entryIndex]).sort()).toEqual(files.map((f) => [f.path, f.entryIndex]).sort());
    // Kept as arrays: each file's name and directory, each directory's parent, name and file range.
    expect(idx.fileCount).toBe(5);
    expect(idx.structured).toBe(true);
    expect(idx.basePrefix).toBe('');
    for (let k = 0; k < idx.fileCount; k++) {
      const path = idx.filePath(k);
      expect(path).toBe(idx.files[k]!.path);
      expect(path.endsWith(idx.strings.name(idx.fileNames[k]!))).toBe(true);
      const d = idx.fileDirs[k]!;
      expect(idx.dirFirstFile[d]! <= k && k < idx.dirFirstFile[d + 1]!).toBe(true);
    }
    const dirPath = (v: number): string => (v < 0 ? '' : dirPath(idx.dirParents[v]!) + (idx.dirNames[v]! < 0 ? '' : `${idx.strings.name(idx.dirNames[v]!)}/`));
    expect(idx.dirParents.length).toBe(6);
    expect([...idx.dirParents.keys()].map(dirPath).sort()).toEqual(['', 'Game/', 'Game/Content/', 'Game/Content/Maps/', 'Game/Content/Maps/Sub/', 'Game/Content/Ünïcödé/']);
    expect(idx.dirFirstFile[idx.dirParents.length]).toBe(5);
  });

  it('reads long ANSI names and names with latin1 bytes as before', () => {
    const long = 'L'.repeat(300);
    const bytes = encode('../../../Game/', [[NONE, NONE, NONE, 0]], [[0, 1, 0], [1, 2, 1], [2, NONE, 2]], [long, 'Caf\xe9.uasset', 'x']);
    const idx = parseDirectoryIndex(bytes, 'x.utoc', 3);
    expect(idx.files.map((f) => f.path)).toEqual([`Game/${long}`, 'Game/Café.uasset', 'Game/x']);
    expect(idx.basePrefix).toBe('Game/');
    expect(idx.structured).toBe(true);
  });

  it('says when paths are not the base plus plain names (those need the joined paths)', () => {
    const S = ['Game', 'A.uasset', '..', 'Con\\tent'];
    const structured = (mount: string, dirs: number[][]): boolean =>
      parseDirectoryIndex(encode(mount, dirs, [[1, NONE, 0]], S), 'x.utoc', 1).structured;
    // root -> Game -> A.uasset
    expect(structured('../../../', [[NONE, 1, NONE, NONE], [0, NONE, NONE, 0]])).toBe(true);
    expect(structured('../../../Game/', [[NONE, NONE, NONE, 0]])).toBe(true);
    // No "/" after the mount point: its last level and the first name run together.
    expect(structured('../../../Game', [[NONE, 1, NONE, NONE], [0, NONE, NONE, 0]])).toBe(false);
    // ".." right under an empty prefix is dropped by the join; under "Game/" it stays a level.
    expect(structured('../../../', [[NONE, 1, NONE, NONE], [2, NONE, NONE, 0]])).toBe(false);
    expect(structured('../../../Game/', [[NONE, 1, NONE, NONE], [2, NONE, NONE, 0]])).toBe(true);
    expect(parseDirectoryIndex(encode('../../../Game/', [[NONE, 1, NONE, NONE], [2, NONE, NONE, 0]], [[1, NONE, 0]], S), 'x', 1).files[0]!.path).toBe('Game/../A.uasset');
    // A "\" in a directory name becomes a "/".
    expect(structured('../../../', [[NONE, 1, NONE, NONE], [3, NONE, NONE, 0]])).toBe(false);
    expect(parseDirectoryIndex(encode('../../../', [[NONE, 1, NONE, NONE], [3, NONE, NONE, 0]], [[1, NONE, 0]], S), 'x', 1).files[0]!.path).toBe('Con/tent/A.uasset');
  });

  it('an empty index (no directories) lists nothing', () => {
    expect(parseDirectoryIndex(encode('../../../', [], [], []), 'x', 0).files).toEqual([]);
  });
});

describe('mount point sanity (key check)', () => {
  it('accepts real mount points, ANSI and UTF-16', () => {
    expect(looksLikeMountPoint(encode('../../../', [], [], []))).toBe(true);
    expect(looksLikeMountPoint(buildDirectoryIndex('../../../Spiel/Ünï/', []))).toBe(true);
    expect(looksLikeMountPoint(buildDirectoryIndex('../../../ゲーム/', []))).toBe(true);
  });

  it('rejects garbage: huge or negative-huge lengths, no NUL, control characters, too short', () => {
    const dv = (n: number, rest: number[] = []) => { const b = new Uint8Array(4 + rest.length); new DataView(b.buffer).setInt32(0, n, true); b.set(rest, 4); return b; };
    expect(looksLikeMountPoint(dv(0x41414141))).toBe(false);
    expect(looksLikeMountPoint(dv(-2147483648))).toBe(false);
    expect(looksLikeMountPoint(dv(4, [0x2e, 0x2e, 0x2f, 0x41]))).toBe(false); // no NUL
    expect(looksLikeMountPoint(dv(4, [0x2e, 0x01, 0x2f, 0]))).toBe(false);
    expect(looksLikeMountPoint(dv(40, [0x2e, 0]))).toBe(false); // longer than the data
    expect(looksLikeMountPoint(Uint8Array.of(1, 0))).toBe(false);
    // Random bytes, as a wrong key produces, almost never pass.
    let passed = 0;
    for (let i = 0; i < 2000; i++) if (looksLikeMountPoint(randomBytesSeeded(64, i + 1))) passed++;
    expect(passed).toBeLessThan(5);
  });
});

describe('hostile indexes fail fast', () => {
  const S = ['Game', 'A.uasset', 'B.uasset', 'Sub'];

  it('a directory that is its own first child', () => {
    expectCycleError(encode('../', [[NONE, 0, NONE, NONE]], [], S), /first child 0 was already visited/);
  });

  it('a directory that is its own next sibling', () => {
    expectCycleError(encode('../', [[NONE, 1, NONE, NONE], [0, NONE, 1, NONE]], [], S), /next sibling 1 was already visited/);
  });

  it('a child whose sibling points back at its parent', () => {
    expectCycleError(encode('../', [[NONE, 1, NONE, NONE], [0, 2, NONE, NONE], [3, NONE, 1, NONE]], [], S), /already visited \(cyclic/);
  });

  it('two directories sharing a child (a DAG, not a tree)', () => {
    expectCycleError(encode('../', [[NONE, 1, NONE, NONE], [0, 3, 2, NONE], [3, 3, NONE, NONE], [3, NONE, NONE, NONE]], [], S), /already visited/);
  });

  it('a file chain that loops', () => {
    expectCycleError(encode('../', [[NONE, NONE, NONE, 0]], [[1, 1, 0], [2, 0, 1]], S), /file 0 was already visited/);
    expectCycleError(encode('../', [[NONE, NONE, NONE, 0]], [[1, 0, 0]], S), /file 0 was already visited/);
  });

  it('a file chain shared by two directories', () => {
    expectCycleError(encode('../', [[NONE, 1, NONE, 0], [0, NONE, NONE, 0]], [[1, NONE, 0]], S), /file 0 was already visited/);
  });

  it('links, names and entry indices out of range', () => {
    expectCycleError(encode('../', [[NONE, 7, NONE, NONE]], [], S), /first child 7 is outside the 1 directories/);
    expectCycleError(encode('../', [[NONE, NONE, NONE, 5]], [[1, NONE, 0]], S), /file link 5 is outside the 1 files/);
    expectCycleError(encode('../', [[9, NONE, NONE, NONE]], [], S), /name index 9 is outside the 4 strings/);
    expectCycleError(encode('../', [[NONE, NONE, NONE, 0]], [[99, NONE, 0]], S), /name index 99/);
    const e = expectCycleError(encode('../', [[NONE, NONE, NONE, 0]], [[1, NONE, 10]], S), /points at TOC entry 10 but the TOC has 10/);
    // The offset is the file entry's UserData field: index base + mount FString (8) + dirs (4 + 16) + file count (4) + 8.
    expect(e.offset).toBe(1000 + 8 + 20 + 4 + 8);
  });

  it('hostile counts fail before allocating', () => {
    const b = encode('../', [[NONE, NONE, NONE, NONE]], [], S);
    new DataView(b.buffer).setInt32(8, 0x7fffffff, true);
    expectCycleError(b, /directory count 2147483647 needs/);
    new DataView(b.buffer).setInt32(8, -1, true);
    expectCycleError(b, /negative/);
  });
});

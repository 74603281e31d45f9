/**
 * Hostile structures random mutation rarely builds, made on purpose: a directory tree whose paths
 * grow with its depth, outer chains whose paths do, and dependency cycles. Each must fail fast
 * with a FormatError (or, for the graph, terminate) instead of growing quadratically.
 */
import { describe, expect, it } from 'vitest';
import { FormatError } from '../../src/core/errors.js';
import { DependencyGraphBuilder } from '../../src/core/graph/graph-builder.js';
import { parseDirectoryIndex } from '../../src/core/iostore/directory-index.js';
import { parseClassicPackageModel } from '../../src/core/package-model.js';
import { writeUe12Package } from '../ue12/writer.js';

const NONE = 0xffffffff;

/** A directory index: `dirs` rows {name, firstChild, nextSibling, firstFile}, `files` rows {name, next, entry}. */
function directoryIndex(dirs: number[][], files: number[][], strings: string[]): Uint8Array {
  const parts: number[] = [];
  const u32 = (v: number): void => { parts.push(v & 0xff, (v >>> 8) & 0xff, (v >>> 16) & 0xff, (v >>> 24) & 0xff); };
  const fstring = (s: string): void => { u32(s.length + 1); for (const c of s) parts.push(c.charCodeAt(0)); parts.push(0); };
  fstring('../../../');
  u32(dirs.length);
  for (const d of dirs) d.forEach(u32);
  u32(files.length);
  for (const f of files) f.forEach(u32);
  u32(strings.length);
  strings.forEach(fstring);
  return Uint8Array.from(parts);
}

function expectFastFormatError(fn: () => unknown, detail: RegExp): FormatError {
  const t0 = performance.now();
  let err: unknown;
  try { fn(); } catch (e) { err = e; }
  expect(performance.now() - t0).toBeLessThan(1000);
  expect(err).toBeInstanceOf(FormatError);
  expect((err as FormatError).message).toMatch(detail);
  return err as FormatError;
}

describe('directory index paths', () => {
  it('a 2000-deep chain of 250-character names fails at the directory whose path passes 4096 characters', () => {
    // Directory i's first child is i+1 and it holds file i; every name is string 0. Before the
    // limit this 56 KB index made 500 million characters of paths (5 s, +520 MB).
    const n = 2000;
    const dirs = Array.from({ length: n }, (_, i) => [i === 0 ? NONE : 0, i + 1 < n ? i + 1 : NONE, NONE, i]);
    const files = Array.from({ length: n }, () => [1, NONE, 0]);
    const bytes = directoryIndex(dirs, files, ['d'.repeat(250), 'f']);
    expect(bytes.length).toBeLessThan(60_000);
    const e = expectFastFormatError(() => parseDirectoryIndex(bytes, 'deep.utoc', 1), /directory 17's path is \d+ characters long \(limit 4096\)/);
    // Directory 17 is the first whose path (16 levels of 251 characters) passes the limit.
    expect(e.structure).toBe('directory index: directory entries');
    expect(e.offset).toBe(4 + 10 + 4 + 17 * 16);
  });

  it('siblings under a long path fail once the paths add up past the budget for the index size', () => {
    // 15 nested 250-character directories (3765 characters), then 20,000 siblings below the last.
    const deep = 15, wide = 20_000;
    const dirs: number[][] = [];
    for (let i = 0; i < deep; i++) dirs.push([i === 0 ? NONE : 0, i + 1, NONE, NONE]);
    for (let k = 0; k < wide; k++) dirs.push([1, NONE, k + 1 < wide ? deep + k + 1 : NONE, NONE]);
    const bytes = directoryIndex(dirs, [], ['d'.repeat(250), 'sibling-with-a-name-of-60-characters-to-fill-the-path-up-xx']);
    // 20,015 paths of ~3,800 characters = 76 million characters from a 320 KB index.
    expectFastFormatError(() => parseDirectoryIndex(bytes, 'wide.utoc', 1), /directory paths add up to over \d+ characters/);
  });

  it('a real-sized tree stays well inside the limits', () => {
    // 100 top-level directories, each with a child and a grandchild (40-character names), 10 files each.
    const dirs: number[][] = [[NONE, 1, NONE, NONE]];
    const files: number[][] = [];
    for (let g = 0; g < 100; g++) {
      const a = 1 + 3 * g;
      for (const [child, sibling] of [[a + 1, g < 99 ? a + 3 : NONE], [a + 2, NONE], [NONE, NONE]] as const) {
        dirs.push([0, child, sibling, files.length]);
        for (let f = 0; f < 10; f++) files.push([1, f < 9 ? files.length + 1 : NONE, 0]);
      }
    }
    const index = parseDirectoryIndex(directoryIndex(dirs, files, ['x'.repeat(40), 'file.uasset']), 'ok.utoc', 1);
    expect(index.files).toHaveLength(3000);
    expect(Math.max(...index.files.map((f) => f.path.length))).toBeLessThan(200);
  });
});

describe('outer chains', () => {
  it('2000 exports chained by outer under one 250-character name fail at the export whose path passes 4096 characters', () => {
    const bytes = writeUe12Package({
      version: 69,
      names: [{ name: 'a'.repeat(250) }, { name: 'Core' }, { name: 'Class' }],
      imports: [],
      exports: Array.from({ length: 2000 }, (_, i) => ({ classIndex: 0, superIndex: 0, outer: i, objectName: 0 })),
    });
    expect(bytes.length).toBeLessThan(30_000);
    const e = expectFastFormatError(() => parseClassicPackageModel(bytes, 'chain.u'), /export 16 ".*": its path is \d+ characters long \(limit 4096\)/);
    expect(e.structure).toBe('export table');
  });

  it('a cycle of outers is an error, not a hang', () => {
    const bytes = writeUe12Package({
      version: 69,
      names: [{ name: 'A' }, { name: 'B' }],
      imports: [],
      exports: [{ classIndex: 0, superIndex: 0, outer: 2, objectName: 0 }, { classIndex: 0, superIndex: 0, outer: 1, objectName: 1 }],
    });
    expectFastFormatError(() => parseClassicPackageModel(bytes, 'cycle.u'), /outer chain loops back/);
  });
});

describe('dependency walks', () => {
  it('cycles and self-imports end the walk; every package is reached once', () => {
    const b = new DependencyGraphBuilder();
    const id = (n: number): string => n.toString(16).padStart(16, '0');
    b.addPackage(id(1), [id(2)]);
    b.addPackage(id(2), [id(3), id(2)]);
    b.addPackage(id(3), [id(1)]);
    const g = b.build();
    expect(g.dependencies(id(1), Infinity).map((s) => s.id).sort()).toEqual([id(2), id(3)]);
    expect(g.referencers(id(1), Infinity).map((s) => s.id).sort()).toEqual([id(2), id(3)]);
    expect(g.shortestPath(id(1), id(3))).toEqual([id(1), id(2), id(3)]);
  });
});

// The dependency graph: the core on a small synthetic graph with cycles, then built from the real
// cue58 container headers (IoStore) and import maps (LegacyPak).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DependencyGraph } from '../../src/core/graph/dependency-graph.js';
import { DependencyGraphBuilder } from '../../src/core/graph/graph-builder.js';
import { buildDependencyGraph, nameImportedPackages } from '../../src/core/graph/build-graph.js';
import { packageIdFromName } from '../../src/core/hash/cityhash64.js';
import { openInstall, type Install } from '../../src/core/install/install.js';
import { InstallPackages } from '../../src/core/package/open-package.js';
import { corpus } from '../support/corpus.js';

/** Package "a" .. as ids: the name's FPackageId, so find() by name works through the hash too. */
const id = (name: string): string => packageIdFromName(`/Game/${name}`);

/**
 * a → b → c → a (a cycle), a → d, d → c, e → c (e only imports), c → x (x outside the install),
 * b lists c twice and itself once.
 */
function synthetic(): DependencyGraph {
  const b = new DependencyGraphBuilder();
  b.addPackage(id('a'), [id('b'), id('d')]);
  b.addPackage(id('b'), [id('c'), id('c'), id('b')]);
  b.addPackage(id('c'), [id('a'), id('x')]);
  b.addPackage(id('d'), [id('c')]);
  b.addPackage(id('e'), [id('c')]);
  // A second copy of a package (a lower-priority container's) changes nothing.
  expect(b.addPackage(id('e'), [id('a')])).toBe(false);
  for (const n of ['a', 'b', 'c', 'd', 'e']) b.setName(id(n), `/Game/${n}`);
  return b.build();
}

describe('DependencyGraph on a synthetic graph', () => {
  const g = synthetic();
  const names = (ids: readonly string[]): string[] => ids.map((x) => g.label(x));

  it('counts packages, referenced-only packages and distinct edges', () => {
    // Edges: a→b a→d b→c c→a c→x d→c e→c; b→c once, b→b dropped, e→a of the second copy ignored.
    expect(g.counts()).toEqual({ packages: 5, referencedOnly: 1, edges: 7, named: 5 });
    expect(g.holds(id('x'))).toBe(false);
    expect(g.has(id('x'))).toBe(true);
    expect(g.label(id('x'))).toBe(id('x'));
    expect(names(g.importsOf(id('b')))).toEqual(['/Game/c']);
    expect(names(g.importersOf(id('c'))).sort()).toEqual(['/Game/b', '/Game/d', '/Game/e']);
  });

  it('walks both directions level by level, each package once, safe on the cycle', () => {
    expect(g.dependencies(id('a'), 1).map((s) => [g.label(s.id), s.depth])).toEqual([['/Game/b', 1], ['/Game/d', 1]]);
    expect(g.dependencies(id('a'), 2).map((s) => [g.label(s.id), s.depth])).toEqual([['/Game/b', 1], ['/Game/d', 1], ['/Game/c', 2]]);
    // The cycle leads back to a, which is the start and is not listed; x is reached at 3.
    expect(g.dependencies(id('a'), Infinity).map((s) => [g.label(s.id), s.depth])).toEqual([
      ['/Game/b', 1], ['/Game/d', 1], ['/Game/c', 2], [id('x'), 3],
    ]);
    expect(g.referencers(id('c'), 2).map((s) => [g.label(s.id), s.depth])).toEqual([
      ['/Game/b', 1], ['/Game/d', 1], ['/Game/e', 1], ['/Game/a', 2],
    ]);
    expect(g.referencers(id('x'), 1).map((s) => g.label(s.id))).toEqual(['/Game/c']);
    expect(g.dependencies(id('x'), 5)).toEqual([]);
    expect(g.dependencies('0000000000000000', 5)).toEqual([]);
  });

  it('finds the shortest chain of imports, or none', () => {
    expect(names(g.shortestPath(id('a'), id('x'))!)).toEqual(['/Game/a', '/Game/b', '/Game/c', id('x')]);
    expect(names(g.shortestPath(id('e'), id('d'))!)).toEqual(['/Game/e', '/Game/c', '/Game/a', '/Game/d']);
    expect(names(g.shortestPath(id('b'), id('b'))!)).toEqual(['/Game/b']);
    expect(g.shortestPath(id('x'), id('a'))).toBeUndefined();
    expect(g.shortestPath(id('a'), id('e'))).toBeUndefined();
  });

  it('ranks the most imported packages, ties by name', () => {
    expect(g.mostReferenced(3).map((r) => [g.label(r.id), r.count])).toEqual([['/Game/c', 3], ['/Game/a', 1], ['/Game/b', 1]]);
    expect(g.mostReferenced(100)).toHaveLength(5); // d, x too; e is imported by none
    expect(g.mostReferenced(0)).toEqual([]);
  });

  it('finds packages by id (any case), by name, and by a name that hashes to a known id', () => {
    expect(g.find(id('c').toUpperCase())).toBe(id('c'));
    expect(g.find('/game/C')).toBe(id('c'));
    expect(g.find('/Game/x')).toBe(id('x')); // not named, but its id is the hash of this name
    expect(g.find('/Game/nope')).toBeUndefined();
  });

  it('refuses malformed ids while building', () => {
    expect(() => new DependencyGraphBuilder().addPackage('xyz', [])).toThrow(/16 hex digits/);
  });

  it('builds a large graph with a hash table that grows', () => {
    const b = new DependencyGraphBuilder();
    const ids = Array.from({ length: 10_000 }, (_, i) => packageIdFromName(`/Game/P${i}`));
    ids.forEach((x, i) => b.addPackage(x, [ids[(i * 7 + 1) % ids.length]!, ids[(i * 13 + 5) % ids.length]!, ids[0]!]));
    const big = b.build();
    expect(big.counts()).toMatchObject({ packages: 10_000, referencedOnly: 0 });
    expect(big.mostReferenced(1)[0]).toEqual({ id: ids[0], count: 10_000 - 1 });
    expect(big.importsOf(ids[3]!)).toEqual([ids[22], ids[44], ids[0]]);
    expect(big.dependencies(ids[5]!, Infinity).length).toBe(10_000 - 1);
  });
});

/** Ids as a container header stores them: u64 little-endian each. */
function idBytes(ids: readonly string[]): DataView {
  const view = new DataView(new ArrayBuffer(8 * ids.length));
  ids.forEach((x, i) => view.setBigUint64(8 * i, BigInt(`0x${x}`), true));
  return view;
}

/** [high, low] words of ids, flat. */
function idWordList(ids: readonly string[]): Uint32Array {
  return Uint32Array.from(ids.flatMap((x) => [parseInt(x.slice(0, 8), 16), parseInt(x.slice(8), 16)]));
}

/** Everything a graph answers about its nodes, to compare two graphs. */
function describeGraph(g: DependencyGraph, ids: readonly string[]): unknown {
  return {
    counts: g.counts(),
    nodes: ids.map((x) => [g.label(x), g.holds(x), g.importsOf(x), g.importersOf(x).sort(), g.referenceCount(x)]),
    top: g.mostReferenced(5),
  };
}

describe('DependencyGraphBuilder with ids as numbers (container headers)', () => {
  // The synthetic graph again: a → b d; b → c c b; c → a x; d → c; e → c; e again → a.
  const packages: [string, string[]][] = [['a', ['b', 'd']], ['b', ['c', 'c', 'b']], ['c', ['a', 'x']], ['d', ['c']], ['e', ['c']], ['e', ['a']]];
  const all = ['a', 'b', 'c', 'd', 'e', 'x'].map(id);

  /** The graph added through addPackageIds, the imports read from one header-like buffer. */
  function fromBytes(numberFirst: boolean): DependencyGraph {
    const b = new DependencyGraphBuilder();
    const imports = packages.flatMap(([, list]) => list.map(id));
    const data = idBytes(imports);
    b.reserve(packages.length, imports.length);
    if (numberFirst) b.numberPackages(idWordList(packages.map(([p]) => id(p))));
    let at = 0;
    const added = packages.map(([p, list]) => {
      const words = idWordList([id(p)]);
      const ok = b.addPackageIds(words[0]!, words[1]!, data, at, list.length);
      at += 8 * list.length;
      return ok;
    });
    expect(added).toEqual([true, true, true, true, true, false]);
    for (const n of ['a', 'b', 'c', 'd', 'e']) {
      const w = idWordList([id(n)]);
      b.setNameWords(w[0]!, w[1]!, `/Game/${n}`);
    }
    return b.build();
  }

  it('builds the same graph as addPackage with strings, numbered first (imports used in place) or not', () => {
    const want = describeGraph(synthetic(), all);
    expect(describeGraph(fromBytes(true), all)).toEqual(want);
    expect(describeGraph(fromBytes(false), all)).toEqual(want);
    expect(fromBytes(true).dependencies(id('a'), Infinity).map((s) => [s.id, s.depth])).toEqual(synthetic().dependencies(id('a'), Infinity).map((s) => [s.id, s.depth]));
  });

  it('names packages by number, the names made only when asked for; the first name given stays', () => {
    const b = new DependencyGraphBuilder();
    const names = ['/Game/a', '/Game/b', '/Game/c'];
    const asked: number[] = [];
    b.setNameSource((i) => { asked.push(i); return names[i]!; });
    b.addPackage(id('a'), [id('b'), id('c'), id('x')]);
    names.forEach((n, i) => { const w = idWordList([packageIdFromName(n)]); b.setNameRefWords(w[0]!, w[1]!, i); });
    b.setName(id('b'), '/Game/B-by-string'); // named by number already: ignored
    b.setName(id('x'), '/Game/x');
    const g = b.build();
    expect(g.counts()).toEqual({ packages: 1, referencedOnly: 3, edges: 3, named: 4 });
    expect(asked).toEqual([]);
    expect(g.dependencies(id('a')).map((s) => g.label(s.id))).toEqual(['/Game/b', '/Game/c', '/Game/x']);
    expect(asked.sort()).toEqual([1, 2]);
    expect(g.find('/GAME/A')).toBe(id('a'));
    g.nameUnnamed(id('c'), '/Game/other'); // named already
    expect(g.nameOf(id('c'))).toBe('/Game/c');
  });

  it('keeps packages numbered first in order when classic packages (strings) come after them', () => {
    const b = new DependencyGraphBuilder();
    const ids = Array.from({ length: 3000 }, (_, i) => packageIdFromName(`/Game/P${i}`));
    const imports = ids.map((_, i) => [ids[(i * 7 + 1) % ids.length]!, ids[(i * 13 + 5) % ids.length]!, ids[0]!]);
    const data = idBytes(imports.flat());
    b.numberPackages(idWordList(ids.slice(0, 2000)));
    ids.slice(0, 2000).forEach((x, i) => { const w = idWordList([x]); b.addPackageIds(w[0]!, w[1]!, data, 24 * i, 3); });
    // The rest as a classic package reader adds them (some already numbered as imports).
    ids.slice(2000).forEach((x, i) => b.addPackage(x, imports[2000 + i]!));
    const g = b.build();
    const plain = new DependencyGraphBuilder();
    ids.forEach((x, i) => plain.addPackage(x, imports[i]!));
    const sample = ids.filter((_, i) => i % 97 === 0);
    expect(describeGraph(g, sample)).toEqual(describeGraph(plain.build(), sample));
    expect(g.counts()).toMatchObject({ packages: 3000, referencedOnly: 0 });
    expect(g.importsOf(ids[2500]!)).toEqual(imports[2500]);
  });
});

describe('buildDependencyGraph on cue58', () => {
  let install: Install;
  let packages: InstallPackages;
  let g: DependencyGraph;
  beforeAll(async () => {
    install = await openInstall([corpus('cue58/IoStore/Tagged/Uncompressed')]);
    packages = new InstallPackages(install);
    g = await buildDependencyGraph(install, { index: packages.index });
  });
  afterAll(async () => {
    await packages.close();
    await install.close();
  });

  it('takes the 97 packages and their imports from the container header, every package named', () => {
    expect(g.problems).toEqual([]);
    expect(g.counts()).toEqual({ packages: 97, referencedOnly: 5, edges: 59, named: 97 });
    expect(g.mostReferenced(3).map((r) => [g.label(r.id), r.count])).toEqual([
      ['/Game/Fixtures/Animations/SKEL_Fixture', 8],
      ['/Game/Fixtures/Meshes/SM_Fixture', 7],
      ['/Game/Fixtures/Animations/AS_Fixture', 5],
    ]);
  });

  it('answers both directions and why one package needs another', () => {
    const da = g.find('/Game/Fixtures/Properties/DA_AllProperties')!;
    expect(da).toBe('cdb15c9250e9af86');
    expect(g.dependencies(da).map((s) => g.label(s.id))).toEqual([
      '/Game/Fixtures/DataTables/DT_AllProperties', '/Game/Fixtures/StringTables/ST_Fixed', '/Game/Fixtures/Textures/T_BC7',
    ]);
    expect(g.referencers(da).map((s) => g.label(s.id))).toEqual(['/Game/Fixtures/Blueprints/BP_Fixture']);
    const bp = g.find('/Game/Fixtures/Blueprints/BP_Fixture')!;
    expect(g.shortestPath(bp, g.find('/Game/Fixtures/Textures/T_BC7')!)!.map((x) => g.label(x))).toEqual([
      '/Game/Fixtures/Blueprints/BP_Fixture', '/Game/Fixtures/Properties/DA_AllProperties', '/Game/Fixtures/Textures/T_BC7',
    ]);
    expect(g.shortestPath(da, bp)).toBeUndefined();
  });

  it('names /Engine packages the install lacks from the imported package names of the headers importing them', async () => {
    const mesh = g.find('/Game/Fixtures/Meshes/SM_Fixture')!;
    const [material] = g.importsOf(mesh);
    expect(g.holds(material!)).toBe(false);
    expect(g.nameOf(material!)).toBeUndefined();
    await nameImportedPackages(g, packages, [material!]);
    expect(g.nameOf(material!)).toBe('/Engine/EngineMaterials/WorldGridMaterial');
    expect(material).toBe(packageIdFromName('/Engine/EngineMaterials/WorldGridMaterial'));
  });
});

describe('buildDependencyGraph on classic packages (cue58 LegacyPak)', () => {
  it('reads each package\'s import map: package imports, /Script left out, names from the imports', async () => {
    const install = await openInstall([corpus('cue58/LegacyPak/Tagged/Uncompressed')]);
    try {
      const g = await buildDependencyGraph(install);
      expect(g.problems).toEqual([]);
      // DA_AllProperties, DT_AllProperties, T_Streaming, T_BC6H, Empty; T_BC7 and ST_Fixed only imported.
      expect(g.counts().packages).toBe(5);
      const da = g.find('/Game/Fixtures/Properties/DA_AllProperties')!;
      expect(g.dependencies(da).map((s) => g.label(s.id))).toEqual([
        '/Game/Fixtures/DataTables/DT_AllProperties', '/Game/Fixtures/StringTables/ST_Fixed', '/Game/Fixtures/Textures/T_BC7',
      ]);
      expect(g.holds(g.find('/Game/Fixtures/Textures/T_BC7')!)).toBe(false);
      expect(g.referencers(g.find('/Game/Fixtures/DataTables/DT_AllProperties')!).map((s) => g.label(s.id))).toEqual([
        '/Game/Fixtures/Properties/DA_AllProperties',
      ]);
    } finally {
      await install.close();
    }
  });
});

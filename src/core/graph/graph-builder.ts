/**
 * Builds a DependencyGraph: packages and their imports are added as they are read (ids as strings
 * or as a container header's words), repeated imports dropped, then build() lays the edges out as
 * two compressed adjacency arrays (CSR: an offsets array and a targets array per direction).
 *
 *   const b = new DependencyGraphBuilder();
 *   b.addPackage(id, importedIds);   // once per package (later copies of an id are ignored)
 *   b.addPackageIds(hi, lo, data, at, count);   // the same with ids as numbers (a container header's)
 *   b.setName(id, '/Game/Maps/A');
 *   const g = b.build();
 */
import { DependencyGraph } from './dependency-graph.js';
import { idWords, IdTable, IntList } from './id-table.js';
import { NodeNames } from './node-names.js';

export class DependencyGraphBuilder {
  private readonly index = new IdTable();
  /** Per node: its id's high and low words. */
  private readonly ids = new IntList(2048);
  private readonly names = new NodeNames();
  /** Per node: 1 for packages added with addPackage. */
  private held = new Uint8Array(1024);
  /** Per node: the last package (its number + 1) that imported it, to drop repeated imports. */
  private lastImporter = new Int32Array(1024);
  /** Per package added: its node, and where its imports start in `edges`. */
  private readonly packageNodes = new IntList(1024);
  private readonly packageStarts = new IntList(1024);
  /** Imported nodes, package after package. */
  private readonly edges = new IntList(4096);
  private readonly problems: string[] = [];

  /** The node of an id, added if new. */
  private node(id: string): number {
    const [hi, lo] = idWords(id);
    return this.nodeOfWords(hi, lo);
  }

  /** The node of an id given as its words, added if new (small, so the import loop inlines it). */
  private nodeOfWords(hi: number, lo: number): number {
    const n = this.index.getWords(hi, lo);
    return n >= 0 ? n : this.addNode(hi, lo);
  }

  /** Adds an id the table does not hold. */
  private addNode(hi: number, lo: number): number {
    const n = this.index.getOrAddWords(hi, lo, this.ids.length >> 1);
    this.nodeAdded(hi, lo, n);
    return n;
  }

  /** The per-node arrays for node n, just added to the table. */
  private nodeAdded(hi: number, lo: number, n: number): void {
    this.ids.push(hi | 0);
    this.ids.push(lo | 0);
    this.names.addNode(n);
    if (n === this.held.length) this.growNodes(n + 1);
  }

  /** Per-node arrays with room for `nodes` nodes. */
  private growNodes(nodes: number): void {
    if (nodes <= this.held.length) return;
    const size = Math.max(this.held.length * 2, nodes);
    const held = new Uint8Array(size);
    held.set(this.held);
    this.held = held;
    const last = new Int32Array(size);
    last.set(this.lastImporter);
    this.lastImporter = last;
    this.names.grow(size);
  }

  /**
   * A package the install holds and the package ids it imports (16 lowercase hex digits each).
   * Returns false, changing nothing, when the id was added before: callers add the winning
   * container's copy first. Self-imports and repeated imports are left out.
   */
  addPackage(id: string, imports: readonly string[]): boolean {
    const p = this.startPackage(this.node(id));
    if (p < 0) return false;
    for (const imported of imports) this.addEdge(p, this.node(imported));
    return true;
  }

  /**
   * addPackage with the ids as numbers: the package id's high and low words, and `count` imported
   * ids stored as u64 little-endian from byte `at` of `data` (a container header's store entries,
   * see parseContainerImports). No string is made.
   */
  addPackageIds(hi: number, lo: number, data: DataView, at: number, count: number): boolean {
    const p = this.startPackage(this.nodeOfWords(hi, lo));
    if (p < 0) return false;
    for (let end = at + 8 * count; at < end; at += 8) this.addEdge(p, this.nodeOfWords(data.getUint32(at + 4, true), data.getUint32(at, true)));
    return true;
  }

  /**
   * Numbers packages before they are added (ids as [high, low] word pairs), so that packages added
   * later in this same order are nodes 0, 1, 2...: their imports then already lie in node order,
   * and build() uses them as they are instead of copying them into place.
   */
  numberPackages(words: Uint32Array): void {
    for (let i = 0; i < words.length; i += 2) {
      // Mostly new ids: one probe that adds, rather than a lookup first.
      const next = this.ids.length >> 1;
      if (this.index.getOrAddWords(words[i]!, words[i + 1]!, next) === next) this.nodeAdded(words[i]!, words[i + 1]!, next);
    }
  }

  /** Marks node p held and starts its imports; -1 when it was held already. */
  private startPackage(p: number): number {
    if (this.held[p]) return -1;
    this.held[p] = 1;
    this.packageNodes.push(p);
    this.packageStarts.push(this.edges.length);
    return p;
  }

  /** An import of the package started last, unless it is the package itself or listed already. */
  private addEdge(p: number, q: number): void {
    const stamp = this.packageNodes.length; // the current package's number + 1
    if (q === p || this.lastImporter[q] === stamp) return;
    this.lastImporter[q] = stamp;
    this.edges.push(q);
  }

  /** Room for this many more packages and imports, so a big graph is not grown step by step. */
  reserve(packages: number, imports: number): void {
    this.packageNodes.reserve(packages);
    this.packageStarts.reserve(packages);
    this.edges.reserve(imports);
    this.index.reserve(this.ids.length / 2 + packages);
    this.ids.reserve(2 * packages);
    this.growNodes(this.ids.length / 2 + packages);
  }

  /** Whether addPackage took this id already. */
  holds(id: string): boolean {
    const n = this.index.get(id);
    return n !== -1 && this.held[n] === 1;
  }

  /** Names a package (the first name given stays). */
  setName(id: string, name: string): void {
    this.names.set(this.node(id), name);
  }

  /** setName with the id as its high and low words. */
  setNameWords(hi: number, lo: number, name: string): void {
    this.names.set(this.nodeOfWords(hi, lo), name);
  }

  /**
   * Names a package (id as words) by a number that `source` (setNameSource) turns into its name
   * when the name is first asked for: nothing is made per package while building.
   */
  setNameRefWords(hi: number, lo: number, ref: number): void {
    this.names.setRef(this.nodeOfWords(hi, lo), ref);
  }

  /** What setNameRefWords numbers mean: a package index's nameAt, say. Set it before naming by number. */
  setNameSource(source: (ref: number) => string): void {
    this.names.setSource(source);
  }

  /** Something that could not be read while building (a container header): kept with the graph. */
  addProblem(message: string): void {
    this.problems.push(message);
  }

  /** The graph. It shares the builder's tables (the imports are not copied): build once, then drop the builder. */
  build(): DependencyGraph {
    const n = this.ids.length >> 1;
    const [fwdOffsets, fwd] = forward(n, this.packageNodes, this.packageStarts, this.edges);
    const [revOffsets, rev] = reverse(n, fwdOffsets, fwd);
    return new DependencyGraph(this.ids.data.slice(0, 2 * n), this.names, this.held.slice(0, n), fwdOffsets, fwd, revOffsets, rev, this.index, this.problems);
  }
}

/**
 * The CSR of the imports: offsets[n]..offsets[n+1] index the targets of node n. Each node is one
 * package at most, whose imports lie together in `edges`: they are copied in node order.
 */
function forward(nodes: number, packageNodes: IntList, packageStarts: IntList, edges: IntList): [Int32Array, Int32Array] {
  const count = packageNodes.length;
  const pn = packageNodes.data, ps = packageStarts.data;
  let inOrder = true;
  for (let k = 0; k < count && inOrder; k++) inOrder = pn[k] === k;
  if (inOrder) {
    // Package k is node k (numberPackages): the edges are the targets as they stand.
    const offsets = new Int32Array(nodes + 1).fill(edges.length);
    offsets.set(ps.subarray(0, count));
    return [offsets, edges.data.subarray(0, edges.length)];
  }
  const end = (k: number): number => (k + 1 < count ? ps[k + 1]! : edges.length);
  const offsets = new Int32Array(nodes + 1);
  for (let k = 0; k < count; k++) offsets[pn[k]! + 1] = end(k) - ps[k]!;
  for (let i = 0; i < nodes; i++) offsets[i + 1]! += offsets[i]!;
  const targets = new Int32Array(edges.length);
  for (let k = 0; k < count; k++) targets.set(edges.data.subarray(ps[k]!, end(k)), offsets[pn[k]!]!);
  return [offsets, targets];
}

/** The CSR of the reversed edges; the forward edges are distinct already, so these are too. */
function reverse(nodes: number, offsets: Int32Array, targets: Int32Array): [Int32Array, Int32Array] {
  const revOffsets = new Int32Array(nodes + 1);
  for (let i = 0; i < targets.length; i++) revOffsets[targets[i]! + 1]!++;
  for (let i = 0; i < nodes; i++) revOffsets[i + 1]! += revOffsets[i]!;
  const fill = revOffsets.slice(0, nodes);
  const rev = new Int32Array(targets.length);
  for (let a = 0; a < nodes; a++) {
    for (let i = offsets[a]!, end = offsets[a + 1]!; i < end; i++) rev[fill[targets[i]!]!++] = a;
  }
  return [revOffsets, rev];
}

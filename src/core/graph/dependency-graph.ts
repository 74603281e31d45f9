/**
 * The package dependency graph of an install: which packages each package imports, and the
 * reverse. Package ids are 16 hex digit strings outside; inside, every package is a number, its
 * id two 32-bit words, and the edges are two compressed adjacency arrays (CSR: an offsets array
 * and a targets array per direction), so 250,000 packages with ten imports each take a few tens
 * of MiB, no string per id, and build in a fraction of a second. An id's string is made when a
 * caller asks for it. Walks are breadth-first, bounded by depth and safe on cycles.
 *
 *   const b = new DependencyGraphBuilder();
 *   b.addPackage(id, importedIds);   // once per package (later copies of an id are ignored)
 *   b.addPackageIds(hi, lo, data, at, count);   // the same with ids as numbers (a container header's)
 *   b.setName(id, '/Game/Maps/A');
 *   const g = b.build();
 *   g.dependencies(id, 2); g.referencers(id); g.shortestPath(a, b); g.mostReferenced(10);
 */
import { hexWords, packageIdFromName } from '../hash/cityhash64.js';

/** One package reached by a walk, and how many steps from the start. */
export interface GraphStep {
  id: string;
  depth: number;
}

export interface GraphCounts {
  /** Packages the install holds (with a store entry or a parsed import map). */
  packages: number;
  /** Packages only referenced: imported by a package of the install but not in it. */
  referencedOnly: number;
  /** Import edges (each package → imported package pair once). */
  edges: number;
  /** Nodes with a known name. */
  named: number;
}

const ID_PATTERN = /^[0-9a-f]{16}$/i;

/** Value of each hex digit's char code; -1 for other characters. */
const NIBBLE = new Int8Array(128).fill(-1);
for (let i = 0; i < 16; i++) {
  NIBBLE['0123456789abcdef'.charCodeAt(i)] = i;
  NIBBLE['0123456789ABCDEF'.charCodeAt(i)] = i;
}

/** 8 hex digits of `s` from `at` as a number; -1 when one is not a hex digit. */
function hexHalf(s: string, at: number): number {
  let v = 0;
  for (let i = at; i < at + 8; i++) {
    const c = s.charCodeAt(i);
    const d = c < 128 ? NIBBLE[c]! : -1;
    if (d < 0) return -1;
    v = (v << 4) | d;
  }
  return v >>> 0;
}

/**
 * Package ids (16 hex digits) to node numbers: an open-addressing hash table over the id's two
 * 32-bit halves. Several times faster than a Map of strings when millions of import ids, each a
 * string of its own, are looked up: no string hashing, no per-entry objects. Each slot keeps
 * {high, low, node + 1} together, so a probe touches one cache line.
 */
class IdTable {
  /** Slot i: [3i] high half, [3i+1] low half, [3i+2] node + 1 (0 = empty). */
  private slots: Int32Array;
  private mask: number;
  size = 0;

  constructor(capacity = 1 << 12) {
    this.slots = new Int32Array(capacity * 3);
    this.mask = capacity - 1;
  }

  /** The slot holding the id, or the empty slot where it would go. */
  private slot(hi: number, lo: number): number {
    let h = Math.imul(lo ^ Math.imul(hi, 0x9e3779b1), 0x85ebca6b);
    h ^= h >>> 16;
    const t = this.slots;
    let i = h & this.mask;
    while (t[3 * i + 2] !== 0 && (t[3 * i] !== hi || t[3 * i + 1] !== lo)) i = (i + 1) & this.mask;
    return i;
  }

  /** The node of an id, or -1. */
  get(id: string): number {
    if (id.length !== 16) return -1;
    const hi = hexHalf(id, 0), lo = hexHalf(id, 8);
    if (hi < 0 || lo < 0) return -1;
    return this.getWords(hi, lo);
  }

  /** The node of an id given as its high and low words, or -1. */
  getWords(hi: number, lo: number): number {
    return this.slots[3 * this.slot(hi | 0, lo | 0) + 2]! - 1;
  }

  /** The node of an id given as its high and low words, `next` when new (then added as that). */
  getOrAddWords(hi: number, lo: number, next: number): number {
    hi |= 0;
    lo |= 0;
    let i = this.slot(hi, lo);
    const found = this.slots[3 * i + 2]!;
    if (found !== 0) return found - 1;
    if ((this.size + 1) * 2 > this.mask + 1) {
      this.grow();
      i = this.slot(hi, lo);
    }
    this.slots[3 * i] = hi;
    this.slots[3 * i + 1] = lo;
    this.slots[3 * i + 2] = next + 1;
    this.size++;
    return next;
  }

  /** Room for `ids` ids in all at the table's load factor (at most half full). */
  reserve(ids: number): void {
    const capacity = tableCapacity(ids);
    if (capacity > this.mask + 1) this.grow(capacity);
  }

  private grow(capacity = (this.mask + 1) * 2): void {
    const old = this.slots;
    this.slots = new Int32Array(capacity * 3);
    this.mask = capacity - 1;
    for (let j = 0; j < old.length; j += 3) {
      if (old[j + 2] === 0) continue;
      const i = this.slot(old[j]!, old[j + 1]!);
      this.slots[3 * i] = old[j]!;
      this.slots[3 * i + 1] = old[j + 1]!;
      this.slots[3 * i + 2] = old[j + 2]!;
    }
  }
}

/** A power of two IdTable capacity holding `ids` ids at most half full. */
function tableCapacity(ids: number): number {
  let capacity = 16;
  while (ids * 2 > capacity) capacity *= 2;
  return capacity;
}

/** An Int32Array that doubles when full. */
class IntList {
  data: Int32Array;
  length = 0;
  constructor(capacity = 1024) { this.data = new Int32Array(capacity); }
  push(v: number): void {
    if (this.length === this.data.length) this.reserve(1);
    this.data[this.length++] = v;
  }
  /** Room for n more values. */
  reserve(n: number): void {
    if (this.length + n <= this.data.length) return;
    const bigger = new Int32Array(Math.max(this.data.length * 2, this.length + n));
    bigger.set(this.data.subarray(0, this.length));
    this.data = bigger;
  }
}

/**
 * Node names: strings given, or numbers a name source turns into names when first asked for (a
 * package index's nameAt), so naming 250,000 packages while building makes no string. The first
 * name a node is given stays.
 */
class NodeNames {
  private readonly given: (string | undefined)[] = [];
  /** Per node: the reference + 1 (0 = none). */
  private refs = new Int32Array(1024);
  private source: ((ref: number) => string) | undefined;

  /** Room for node n. */
  addNode(n: number): void {
    this.given.push(undefined);
    if (n >= this.refs.length) this.grow(n + 1);
  }

  grow(nodes: number): void {
    if (nodes <= this.refs.length) return;
    const refs = new Int32Array(Math.max(this.refs.length * 2, nodes));
    refs.set(this.refs);
    this.refs = refs;
  }

  setSource(source: (ref: number) => string): void { this.source = source; }

  get(n: number): string | undefined {
    const s = this.given[n];
    if (s !== undefined) return s;
    const r = this.refs[n]!;
    if (r === 0 || this.source === undefined) return undefined;
    const name = this.source(r - 1);
    this.given[n] = name;
    return name;
  }

  isNamed(n: number): boolean {
    return this.given[n] !== undefined || (this.refs[n]! !== 0 && this.source !== undefined);
  }

  set(n: number, name: string): void {
    if (!this.isNamed(n)) this.given[n] = name;
  }

  setRef(n: number, ref: number): void {
    if (!this.isNamed(n)) this.refs[n] = ref + 1;
  }
}

/** [high, low] of a 16 hex digit id; throws on anything else. */
function idWords(id: string): [number, number] {
  const hi = id.length === 16 ? hexHalf(id, 0) : -1, lo = id.length === 16 ? hexHalf(id, 8) : -1;
  if (hi < 0 || lo < 0) throw new RangeError(`package id "${id}" is not 16 hex digits`);
  return [hi, lo];
}

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

export class DependencyGraph {
  private nameIndex: Map<string, number> | undefined;

  /** @internal built by DependencyGraphBuilder */
  constructor(
    /** Per node: its id's high and low words. */
    private readonly idWords: Int32Array,
    private readonly names: NodeNames,
    private readonly held: Uint8Array,
    private readonly fwdOffsets: Int32Array,
    private readonly fwd: Int32Array,
    private readonly revOffsets: Int32Array,
    private readonly rev: Int32Array,
    private readonly index: IdTable,
    /** What could not be read while building (each container header that failed). */
    readonly problems: readonly string[],
  ) {}

  /** Every package id in the graph, held or only referenced. */
  get nodeCount(): number { return this.held.length; }

  /** Node n's id as 16 lowercase hex digits. */
  private id(n: number): string {
    return hexWords(this.idWords[2 * n]!, this.idWords[2 * n + 1]!);
  }

  counts(): GraphCounts {
    let packages = 0, named = 0;
    for (let i = 0; i < this.held.length; i++) {
      packages += this.held[i]!;
      if (this.names.isNamed(i)) named++;
    }
    return { packages, referencedOnly: this.held.length - packages, edges: this.fwd.length, named };
  }

  has(id: string): boolean { return this.index.get(id) >= 0; }

  /** Whether the install holds the package (rather than only referencing it). */
  holds(id: string): boolean {
    const n = this.index.get(id);
    return n >= 0 && this.held[n] === 1;
  }

  /** Names a package the graph knows but does not name yet (from a header read later). */
  nameUnnamed(id: string, name: string): void {
    const n = this.index.get(id);
    if (n < 0 || this.names.isNamed(n)) return;
    this.names.set(n, name);
    this.nameIndex?.set(name.toLowerCase(), n);
  }

  nameOf(id: string): string | undefined {
    const n = this.index.get(id);
    return n < 0 ? undefined : this.names.get(n);
  }

  /** The package's name where known, else its id. */
  label(id: string): string { return this.nameOf(id) ?? id.toLowerCase(); }

  /**
   * The id of a package given by id (16 hex digits), by name (case-insensitive), or by a name the
   * graph does not know but whose hash (FPackageId) is in it. Undefined when the graph lacks it.
   */
  find(ref: string): string | undefined {
    const text = ref.trim();
    if (ID_PATTERN.test(text) && this.index.get(text) >= 0) return text.toLowerCase();
    if (!this.nameIndex) {
      this.nameIndex = new Map();
      for (let i = 0; i < this.held.length; i++) {
        const name = this.names.get(i)?.toLowerCase();
        if (name !== undefined && !this.nameIndex.has(name)) this.nameIndex.set(name, i);
      }
    }
    const named = this.nameIndex.get(text.toLowerCase());
    if (named !== undefined) return this.id(named);
    const hashed = packageIdFromName(text);
    return this.index.get(hashed) >= 0 ? hashed : undefined;
  }

  /** The ids a package imports directly, in graph order. */
  importsOf(id: string): string[] {
    return this.neighbours(id, this.fwdOffsets, this.fwd);
  }

  /** The ids of the packages importing this one directly. */
  importersOf(id: string): string[] {
    return this.neighbours(id, this.revOffsets, this.rev);
  }

  /** How many packages import this one. */
  referenceCount(id: string): number {
    const n = this.index.get(id);
    return n < 0 ? 0 : this.revOffsets[n + 1]! - this.revOffsets[n]!;
  }

  /**
   * What the package needs, up to `depth` steps (1 = its own imports; Infinity = everything it
   * reaches). Each package once, at its shortest distance; level by level, by label inside a level.
   */
  dependencies(id: string, depth = 1): GraphStep[] {
    return this.walk(id, depth, this.fwdOffsets, this.fwd);
  }

  /** Who needs the package, up to `depth` steps back (1 = the packages importing it). */
  referencers(id: string, depth = 1): GraphStep[] {
    return this.walk(id, depth, this.revOffsets, this.rev);
  }

  /**
   * Why `from` needs `to`: the shortest chain of imports from one to the other, both included
   * ([from] when they are the same); undefined when `from` does not reach `to`.
   */
  shortestPath(from: string, to: string): string[] | undefined {
    const a = this.index.get(from);
    const b = this.index.get(to);
    if (a < 0 || b < 0) return undefined;
    if (a === b) return [this.id(a)];
    const parent = new Int32Array(this.held.length).fill(-1);
    parent[a] = a;
    let frontier = [a];
    while (frontier.length > 0) {
      const next: number[] = [];
      for (const n of frontier) {
        for (let i = this.fwdOffsets[n]!, end = this.fwdOffsets[n + 1]!; i < end; i++) {
          const t = this.fwd[i]!;
          if (parent[t] !== -1) continue;
          parent[t] = n;
          if (t === b) {
            const path = [t];
            for (let p = n; p !== a; p = parent[p]!) path.push(p);
            path.push(a);
            return path.reverse().map((x) => this.id(x));
          }
          next.push(t);
        }
      }
      frontier = next;
    }
    return undefined;
  }

  /** The packages most others import, most first (ties by label), with how many import each. */
  mostReferenced(limit = 10): { id: string; count: number }[] {
    const n = this.held.length;
    if (limit <= 0 || n === 0) return [];
    // The count the limit-th package has, from a histogram: only packages at or above it are sorted.
    let max = 0;
    for (let i = 0; i < n; i++) max = Math.max(max, this.revOffsets[i + 1]! - this.revOffsets[i]!);
    const histogram = new Int32Array(max + 1);
    for (let i = 0; i < n; i++) histogram[this.revOffsets[i + 1]! - this.revOffsets[i]!]!++;
    let threshold = max, taken = 0;
    while (threshold > 1 && taken + histogram[threshold]! < limit) taken += histogram[threshold--]!;
    threshold = Math.max(threshold, 1);
    const picked: { id: string; count: number }[] = [];
    for (let i = 0; i < n; i++) {
      const count = this.revOffsets[i + 1]! - this.revOffsets[i]!;
      if (count >= threshold) picked.push({ id: this.id(i), count });
    }
    picked.sort((x, y) => y.count - x.count || compareText(this.label(x.id), this.label(y.id)));
    return picked.slice(0, limit);
  }

  private neighbours(id: string, offsets: Int32Array, targets: Int32Array): string[] {
    const n = this.index.get(id);
    if (n < 0) return [];
    const out: string[] = [];
    for (let i = offsets[n]!, end = offsets[n + 1]!; i < end; i++) out.push(this.id(targets[i]!));
    return out;
  }

  private walk(id: string, depth: number, offsets: Int32Array, targets: Int32Array): GraphStep[] {
    const start = this.index.get(id);
    if (start < 0) return [];
    const seen = new Uint8Array(this.held.length);
    seen[start] = 1;
    const out: GraphStep[] = [];
    let frontier = [start];
    for (let d = 1; d <= depth && frontier.length > 0; d++) {
      const next: number[] = [];
      for (const n of frontier) {
        for (let i = offsets[n]!, end = offsets[n + 1]!; i < end; i++) {
          const t = targets[i]!;
          if (seen[t]) continue;
          seen[t] = 1;
          next.push(t);
        }
      }
      const ids = next.map((t) => this.id(t));
      const labels = next.map((t, i) => this.names.get(t) ?? ids[i]!);
      const order = next.map((_, i) => i).sort((x, y) => compareText(labels[x]!, labels[y]!));
      for (const i of order) out.push({ id: ids[i]!, depth: d });
      frontier = next;
    }
    return out;
  }
}

function compareText(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

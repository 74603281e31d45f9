/**
 * The package dependency graph of an install: which packages each package imports, and the
 * reverse. Package ids are 16 hex digit strings outside; inside, every package is a number and
 * the edges are two compressed adjacency arrays (CSR: an offsets array and a targets array per
 * direction), so 250,000 packages with ten imports each take a few tens of MiB and build in a
 * fraction of a second. Walks are breadth-first, bounded by depth and safe on cycles.
 *
 *   const b = new DependencyGraphBuilder();
 *   b.addPackage(id, importedIds);   // once per package (later copies of an id are ignored)
 *   b.setName(id, '/Game/Maps/A');
 *   const g = b.build();
 *   g.dependencies(id, 2); g.referencers(id); g.shortestPath(a, b); g.mostReferenced(10);
 */
import { packageIdFromName } from '../hash/cityhash64.js';

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
    return this.slots[3 * this.slot(hi | 0, lo | 0) + 2]! - 1;
  }

  /** The node of an id, given `next` as its number when new. Throws on a malformed id. */
  getOrAdd(id: string, next: number): number {
    const hi = id.length === 16 ? hexHalf(id, 0) : -1, lo = id.length === 16 ? hexHalf(id, 8) : -1;
    if (hi < 0 || lo < 0) throw new RangeError(`package id "${id}" is not 16 hex digits`);
    let i = this.slot(hi | 0, lo | 0);
    const found = this.slots[3 * i + 2]!;
    if (found !== 0) return found - 1;
    if ((this.size + 1) * 2 > this.mask + 1) {
      this.grow();
      i = this.slot(hi | 0, lo | 0);
    }
    this.slots[3 * i] = hi | 0;
    this.slots[3 * i + 1] = lo | 0;
    this.slots[3 * i + 2] = next + 1;
    this.size++;
    return next;
  }

  private grow(): void {
    const old = this.slots;
    this.slots = new Int32Array(old.length * 2);
    this.mask = this.mask * 2 + 1;
    for (let j = 0; j < old.length; j += 3) {
      if (old[j + 2] === 0) continue;
      const i = this.slot(old[j]!, old[j + 1]!);
      this.slots[3 * i] = old[j]!;
      this.slots[3 * i + 1] = old[j + 1]!;
      this.slots[3 * i + 2] = old[j + 2]!;
    }
  }
}

/** An Int32Array that doubles when full. */
class IntList {
  data: Int32Array;
  length = 0;
  constructor(capacity = 1024) { this.data = new Int32Array(capacity); }
  push(v: number): void {
    if (this.length === this.data.length) {
      const bigger = new Int32Array(this.data.length * 2);
      bigger.set(this.data);
      this.data = bigger;
    }
    this.data[this.length++] = v;
  }
}

export class DependencyGraphBuilder {
  private readonly index = new IdTable();
  private readonly ids: string[] = [];
  private readonly names: (string | undefined)[] = [];
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
    const n = this.index.getOrAdd(id, this.ids.length);
    if (n === this.ids.length) {
      this.ids.push(id.toLowerCase());
      this.names.push(undefined);
      if (n === this.held.length) {
        const held = new Uint8Array(this.held.length * 2);
        held.set(this.held);
        this.held = held;
        const last = new Int32Array(this.lastImporter.length * 2);
        last.set(this.lastImporter);
        this.lastImporter = last;
      }
    }
    return n;
  }

  /**
   * A package the install holds and the package ids it imports (16 lowercase hex digits each).
   * Returns false, changing nothing, when the id was added before: callers add the winning
   * container's copy first. Self-imports and repeated imports are left out.
   */
  addPackage(id: string, imports: readonly string[]): boolean {
    const p = this.node(id);
    if (this.held[p]) return false;
    this.held[p] = 1;
    const stamp = this.packageNodes.length + 1;
    this.packageNodes.push(p);
    this.packageStarts.push(this.edges.length);
    for (const imported of imports) {
      const q = this.node(imported);
      if (q === p || this.lastImporter[q] === stamp) continue;
      this.lastImporter[q] = stamp;
      this.edges.push(q);
    }
    return true;
  }

  /** Whether addPackage took this id already. */
  holds(id: string): boolean {
    const n = this.index.get(id);
    return n !== -1 && this.held[n] === 1;
  }

  /** Names a package (the first name given stays). */
  setName(id: string, name: string): void {
    const n = this.node(id);
    this.names[n] ??= name;
  }

  /** Something that could not be read while building (a container header): kept with the graph. */
  addProblem(message: string): void {
    this.problems.push(message);
  }

  build(): DependencyGraph {
    const n = this.ids.length;
    const [fwdOffsets, fwd] = forward(n, this.packageNodes, this.packageStarts, this.edges);
    const [revOffsets, rev] = reverse(n, fwdOffsets, fwd);
    return new DependencyGraph(this.ids, this.names, this.held.slice(0, n), fwdOffsets, fwd, revOffsets, rev, this.index, this.problems);
  }
}

/**
 * The CSR of the imports: offsets[n]..offsets[n+1] index the targets of node n. Each node is one
 * package at most, whose imports lie together in `edges`: they are copied in node order.
 */
function forward(nodes: number, packageNodes: IntList, packageStarts: IntList, edges: IntList): [Int32Array, Int32Array] {
  const count = packageNodes.length;
  const pn = packageNodes.data, ps = packageStarts.data;
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
    private readonly ids: readonly string[],
    private readonly names: readonly (string | undefined)[],
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
  get nodeCount(): number { return this.ids.length; }

  counts(): GraphCounts {
    let packages = 0, named = 0;
    for (let i = 0; i < this.ids.length; i++) {
      packages += this.held[i]!;
      if (this.names[i] !== undefined) named++;
    }
    return { packages, referencedOnly: this.ids.length - packages, edges: this.fwd.length, named };
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
    if (n < 0 || this.names[n] !== undefined) return;
    (this.names as (string | undefined)[])[n] = name;
    this.nameIndex?.set(name.toLowerCase(), n);
  }

  nameOf(id: string): string | undefined {
    const n = this.index.get(id);
    return n < 0 ? undefined : this.names[n];
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
      this.names.forEach((name, i) => { if (name !== undefined && !this.nameIndex!.has(name.toLowerCase())) this.nameIndex!.set(name.toLowerCase(), i); });
    }
    const named = this.nameIndex.get(text.toLowerCase());
    if (named !== undefined) return this.ids[named];
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
    if (a === b) return [this.ids[a]!];
    const parent = new Int32Array(this.ids.length).fill(-1);
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
            return path.reverse().map((x) => this.ids[x]!);
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
    const n = this.ids.length;
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
      if (count >= threshold) picked.push({ id: this.ids[i]!, count });
    }
    picked.sort((x, y) => y.count - x.count || compareText(this.label(x.id), this.label(y.id)));
    return picked.slice(0, limit);
  }

  private neighbours(id: string, offsets: Int32Array, targets: Int32Array): string[] {
    const n = this.index.get(id);
    if (n < 0) return [];
    const out: string[] = [];
    for (let i = offsets[n]!, end = offsets[n + 1]!; i < end; i++) out.push(this.ids[targets[i]!]!);
    return out;
  }

  private walk(id: string, depth: number, offsets: Int32Array, targets: Int32Array): GraphStep[] {
    const start = this.index.get(id);
    if (start < 0) return [];
    const seen = new Uint8Array(this.ids.length);
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
      const labels = next.map((t) => this.names[t] ?? this.ids[t]!);
      const order = next.map((_, i) => i).sort((x, y) => compareText(labels[x]!, labels[y]!));
      for (const i of order) out.push({ id: this.ids[next[i]!]!, depth: d });
      frontier = next;
    }
    return out;
  }
}

function compareText(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

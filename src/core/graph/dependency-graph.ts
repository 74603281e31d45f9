/**
 * The package dependency graph of an install: which packages each package imports, and the
 * reverse. Package ids are 16 hex digit strings outside; inside, every package is a number, its
 * id two 32-bit words, and the edges are two compressed adjacency arrays (CSR: an offsets array
 * and a targets array per direction), so 250,000 packages with ten imports each take a few tens
 * of MiB, no string per id, and build in a fraction of a second. An id's string is made when a
 * caller asks for it. Walks are breadth-first, bounded by depth and safe on cycles.
 * Built by DependencyGraphBuilder (graph-builder.ts); storage in id-table.ts and node-names.ts.
 *
 *   g.dependencies(id, 2); g.referencers(id); g.shortestPath(a, b); g.mostReferenced(10);
 */
import { hexWords, packageIdFromName } from '../hash/cityhash64.js';
import type { IdTable } from './id-table.js';
import type { NodeNames } from './node-names.js';

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

/**
 * The dependency graph view's backend: one DependencyGraph per install (core/graph, built on the
 * first request from the container headers, plus the import maps of classic packages when there
 * are not too many), and the bounded views the UI draws: a package's neighbourhood, the counts
 * and most referenced packages, the shortest chain of imports between two packages, a search.
 */
import { RequestError } from './request-error.js';
import { buildDependencyGraph, nameImportedPackages } from '../core/graph/build-graph.js';
import { packageIdFromName } from '../core/hash/cityhash64.js';
import type { DependencyGraph } from '../core/graph/dependency-graph.js';
import type { Install } from '../core/install/install.js';
import type { InstallPackages } from '../core/package/open-package.js';
import { packageIdOfChunkId } from '../core/package/package-index.js';
import type { GraphDirection, GraphFindView, GraphNode, GraphPathView, GraphStatsView, PackageGraphView } from '../shared/package-api.js';
import type { PackageService } from './packages.js';

/** Deepest walk a view asks for. */
export const MAX_GRAPH_DEPTH = 8;
/** Nodes in one view: a drawing of more is unreadable anyway; the counts say how many there are. */
export const MAX_GRAPH_NODES = 300;
/** Edges in one view. */
export const MAX_GRAPH_EDGES = 4000;
/** Classic packages whose headers are read to add them to the graph; past this they are left out. */
export const MAX_CLASSIC_PACKAGES = 20_000;
/** Packages only referenced that the first search names from their importers' headers. */
export const MAX_NAMED_ON_SEARCH = 2000;
/** Most referenced packages listed. */
export const MOST_REFERENCED = 25;

interface Built {
  graph: DependencyGraph;
  packages: InstallPackages;
  problems: string[];
  /** Ids the install only references (not in its index), found on the first search. */
  referencedOnly?: string[];
}

export class GraphService {
  private readonly graphs = new Map<string, { install: Install; built: Promise<Built> }>();

  constructor(private readonly packageService: PackageService) {}

  /** The install's graph, built once (again after forget). */
  private graphOf(installId: string, install: Install): Promise<Built> {
    const known = this.graphs.get(installId);
    if (known && known.install === install) return known.built;
    const built = (async (): Promise<Built> => {
      const packages = this.packageService.packagesOf(installId, install);
      const index = packages.index;
      const classic = [...index.packages()].filter((p) => p.kind !== 'zen').length;
      const readClassic = classic <= MAX_CLASSIC_PACKAGES;
      const graph = await buildDependencyGraph(install, { index, classicPackages: readClassic });
      const problems = [...graph.problems];
      if (!readClassic) problems.push(`${classic} classic packages (.uasset/.umap, UE1/2) were left out: reading that many headers takes too long`);
      return { graph, packages, problems };
    })();
    this.graphs.set(installId, { install, built });
    built.catch(() => { if (this.graphs.get(installId)?.built === built) this.graphs.delete(installId); });
    return built;
  }

  forget(installId: string): void {
    this.graphs.delete(installId);
  }

  async view(installId: string, install: Install, req: { package: string; direction: GraphDirection; depth?: number }): Promise<PackageGraphView> {
    const b = await this.graphOf(installId, install);
    const g = b.graph;
    let center: string;
    try {
      center = this.resolve(b, install, req.package);
    } catch (e) {
      if (req.direction === 'referencers') throw e;
      const local = await this.localView(b, req.package);
      if (!local) throw e;
      return local;
    }
    const depth = Math.max(1, Math.min(MAX_GRAPH_DEPTH, req.depth ?? 1));
    const deps = req.direction === 'referencers' ? [] : g.dependencies(center, depth);
    const refs = req.direction === 'dependencies' ? [] : g.referencers(center, depth);
    // Nearest first, from both walks in turn, up to the cap.
    const picked = new Map<string, number>([[center, 0]]);
    const queue = [...deps.map((s) => ({ id: s.id, depth: s.depth })), ...refs.map((s) => ({ id: s.id, depth: -s.depth }))]
      .sort((x, y) => Math.abs(x.depth) - Math.abs(y.depth));
    for (const s of queue) {
      if (picked.size >= MAX_GRAPH_NODES) break;
      if (!picked.has(s.id)) picked.set(s.id, s.depth);
    }
    const edges: PackageGraphView['edges'] = [];
    let edgesLeftOut = false;
    for (const id of picked.keys()) {
      for (const to of g.importsOf(id)) {
        if (!picked.has(to)) continue;
        if (edges.length >= MAX_GRAPH_EDGES) { edgesLeftOut = true; break; }
        edges.push({ from: id, to });
      }
    }
    await this.name(b, picked.keys());
    const nodes = [...picked].map(([id, d]) => this.node(b, id, d));
    return {
      center: nodes[0]!,
      nodes,
      edges,
      dependencyCount: deps.length,
      referencerCount: refs.length,
      truncated: picked.size < 1 + deps.length + refs.length || edgesLeftOut,
    };
  }

  async stats(installId: string, install: Install): Promise<GraphStatsView> {
    const b = await this.graphOf(installId, install);
    const top = b.graph.mostReferenced(MOST_REFERENCED);
    await this.name(b, top.map((t) => t.id));
    return {
      ...b.graph.counts(),
      mostReferenced: top.map((t) => ({ ...this.node(b, t.id, 0), count: t.count })),
      problems: b.problems,
    };
  }

  async path(installId: string, install: Install, req: { from: string; to: string }): Promise<GraphPathView> {
    const b = await this.graphOf(installId, install);
    const from = this.resolve(b, install, req.from);
    const to = this.resolve(b, install, req.to);
    const ids = b.graph.shortestPath(from, to);
    if (!ids) return { path: null };
    await this.name(b, ids);
    return { path: ids.map((id, i) => this.node(b, id, i)) };
  }

  async find(installId: string, install: Install, req: { query: string; limit?: number }): Promise<GraphFindView> {
    const b = await this.graphOf(installId, install);
    const limit = Math.max(1, Math.min(200, req.limit ?? 20));
    const q = req.query.trim().toLowerCase();
    if (q === '') return { matches: [], total: 0 };
    const exact = b.graph.find(q);
    const found: { id: string; rank: number; name: string }[] = [];
    const consider = (id: string, text: string): void => {
      const name = text.toLowerCase();
      const at = name.indexOf(q);
      if (at < 0 || id === exact) return;
      // Whole last part first, then a match at a part's start, then anywhere; shorter names first.
      const last = name.slice(name.lastIndexOf('/') + 1);
      found.push({ id, rank: last === q ? 0 : at === 0 || name[at - 1] === '/' || name[at - 1] === '_' ? 1 : 2, name });
    };
    for (const p of b.packages.index.packages()) if (b.graph.has(p.id)) consider(p.id, p.name);
    // Packages the install only references (/Engine/... of a mod): every one has an importer, so
    // mostReferenced over all nodes lists them.
    if (!b.referencedOnly) {
      b.referencedOnly = b.graph.mostReferenced(b.graph.nodeCount).map((t) => t.id).filter((id) => !b.packages.index.byPackageId(id));
      // Their names come from importing packages' headers (UE5.3+): read once, for a bounded number.
      await this.name(b, b.referencedOnly.slice(0, MAX_NAMED_ON_SEARCH));
    }
    for (const id of b.referencedOnly) {
      const name = b.graph.nameOf(id);
      if (name !== undefined) consider(id, name);
    }
    found.sort((x, y) => x.rank - y.rank || x.name.length - y.name.length || (x.name < y.name ? -1 : 1));
    const ids = [...(exact !== undefined ? [exact] : []), ...found.map((f) => f.id)];
    const shown = ids.slice(0, limit);
    await this.name(b, shown);
    return { matches: shown.map((id) => this.node(b, id, 0)), total: ids.length };
  }

  /**
   * A classic package the graph lacks (a loose file whose path maps to no package name): the
   * packages its own import map names, one step deep. Undefined when it is no package.
   */
  private async localView(b: Built, ref: string): Promise<PackageGraphView | undefined> {
    let opened;
    try {
      opened = await b.packages.open(ref.trim());
    } catch {
      return undefined;
    }
    const m = opened.model;
    if (m.format === 'zen') return undefined;
    // The package imports: what build-graph.ts takes from an import map.
    const imported = [...new Set(m.imports.filter((i) => i.outer === null && i.class === 'Package' && !i.path.startsWith('/Script/')).map((i) => i.path))];
    const center: GraphNode = { id: packageIdFromName(m.name), name: m.name, held: true, path: opened.path, depth: 0, referencedBy: 0, imports: imported.length };
    const nodes = [center, ...imported.slice(0, MAX_GRAPH_NODES - 1).map((name): GraphNode => {
      const id = packageIdFromName(name);
      const indexed = b.packages.index.byPackageName(name);
      return {
        id, name, held: b.graph.holds(id) || indexed !== undefined, path: indexed?.file.path ?? null, depth: 1,
        referencedBy: b.graph.referenceCount(id), imports: b.graph.importsOf(id).length,
      };
    })];
    return {
      center, nodes, edges: nodes.slice(1).map((n) => ({ from: center.id, to: n.id })),
      dependencyCount: imported.length, referencerCount: 0, truncated: nodes.length < imported.length + 1,
      note: `${opened.path} is not in the install's dependency graph (its path maps to no package name, e.g. a loose file outside a Content folder): only the packages its own import map names are shown, and nothing is known of what needs it.`,
    };
  }

  /** A package of the graph by tree path, package name or id; an Error naming it otherwise. */
  private resolve(b: Built, install: Install, ref: string): string {
    const trimmed = ref.trim();
    const file = install.file(trimmed.replace(/\\/g, '/').replace(/^\/+/, ''));
    if (file) {
      const indexed = b.packages.index.ofFile(file);
      if (indexed && b.graph.has(indexed.id)) return indexed.id;
      const winner = file.providers[0]?.file;
      if (winner?.chunkType === 'ExportBundleData' && winner.chunkId) {
        const id = packageIdOfChunkId(winner.chunkId);
        if (b.graph.has(id)) return id;
      }
      // A .uexp or .ubulk stands for its package.
      const stem = file.path.replace(/\.(uexp|ubulk|uptnl)$/i, '');
      for (const ext of ['.uasset', '.umap']) {
        const f = stem !== file.path ? install.file(stem + ext) : undefined;
        const p = f ? b.packages.index.ofFile(f) : undefined;
        if (p && b.graph.has(p.id)) return p.id;
      }
    }
    const found = b.graph.find(trimmed);
    if (found !== undefined) return found;
    throw new RequestError(`${ref}: not in this install's dependency graph (${b.graph.counts().packages} packages: IoStore container headers${b.problems.length ? '; see the graph problems' : ''}, classic packages' import maps)`, 404);
  }

  /** Names the packages the graph knows only by id, from the headers of packages importing them (UE5.3+). */
  private async name(b: Built, ids: Iterable<string>): Promise<void> {
    const unnamed = [...ids].filter((id) => b.graph.nameOf(id) === undefined);
    if (unnamed.length > 0) await nameImportedPackages(b.graph, b.packages, unnamed).catch(() => undefined);
  }

  private node(b: Built, id: string, depth: number): GraphNode {
    const g = b.graph;
    const indexed = b.packages.index.byPackageId(id);
    return {
      id,
      name: g.nameOf(id) ?? null,
      held: g.holds(id),
      path: indexed?.file.path ?? null,
      depth,
      referencedBy: g.referenceCount(id),
      imports: g.importsOf(id).length,
    };
  }
}

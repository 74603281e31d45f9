import dagre from '@dagrejs/dagre';

/**
 * Positions for the dependency graph, left to right in layers, behind a small interface. The view
 * uses dagre (dagreLayout); layeredLayout is the dependency-free fallback for graphs dagre cannot
 * place (it throws on some inputs) and the reference the tests compare against. The fallback
 * takes each node's layer as given (its signed depth from the centre: what needs it on the
 * left, what it needs on the right), orders each layer by the barycentre of its neighbours over a
 * few sweeps to cut crossings, and stacks the layers' nodes centred on the centre row.
 */

export interface LayoutNode {
  id: string;
  width: number;
  height: number;
  /** Column: smaller is further left. */
  layer: number;
}

export interface LayoutEdge {
  from: string;
  to: string;
}

export interface Point { x: number; y: number }

export interface LayoutResult {
  /** Top-left corner of each node. */
  positions: Map<string, Point>;
  /** Each edge's points from the source's side to the target's side. */
  edges: { from: string; to: string; points: Point[] }[];
  width: number;
  height: number;
}

export type GraphLayout = (nodes: readonly LayoutNode[], edges: readonly LayoutEdge[], opts?: LayeredOptions) => LayoutResult;

export interface LayeredOptions {
  /** Horizontal gap between layers, vertical gap between nodes. */
  layerGap?: number;
  nodeGap?: number;
  /** Barycentre sweeps. */
  sweeps?: number;
}

/** The built-in layered layout (see the module comment). */
export function layeredLayout(nodes: readonly LayoutNode[], edges: readonly LayoutEdge[], opts: LayeredOptions = {}): LayoutResult {
  const layerGap = opts.layerGap ?? 90;
  const nodeGap = opts.nodeGap ?? 14;
  const sweeps = opts.sweeps ?? 4;
  const byId = new Map(nodes.map((n) => [n.id, n]));
  const layerIds = [...new Set(nodes.map((n) => n.layer))].sort((a, b) => a - b);
  const layers = layerIds.map((l) => nodes.filter((n) => n.layer === l));

  // Neighbours in other layers, for the barycentres.
  const neighbours = new Map<string, string[]>();
  for (const e of edges) {
    if (!byId.has(e.from) || !byId.has(e.to) || e.from === e.to) continue;
    (neighbours.get(e.from) ?? neighbours.set(e.from, []).get(e.from)!).push(e.to);
    (neighbours.get(e.to) ?? neighbours.set(e.to, []).get(e.to)!).push(e.from);
  }
  const rank = new Map<string, number>();
  const setRanks = (): void => layers.forEach((layer) => layer.forEach((n, i) => rank.set(n.id, i)));
  // Start from name order within each layer (stable, as the caller gave them).
  setRanks();
  const reorder = (layer: LayoutNode[], towards: Set<number>): void => {
    const bary = new Map<string, number>();
    for (const n of layer) {
      const ranks = (neighbours.get(n.id) ?? []).filter((m) => towards.has(byId.get(m)!.layer)).map((m) => rank.get(m)!);
      bary.set(n.id, ranks.length ? ranks.reduce((a, b) => a + b, 0) / ranks.length : rank.get(n.id)!);
    }
    layer.sort((a, b) => bary.get(a.id)! - bary.get(b.id)! || rank.get(a.id)! - rank.get(b.id)!);
    layer.forEach((n, i) => rank.set(n.id, i));
  };
  for (let s = 0; s < sweeps; s++) {
    const forward = s % 2 === 0;
    const order = forward ? layers.map((_, i) => i) : layers.map((_, i) => layers.length - 1 - i);
    for (const i of order) {
      const adjacent = new Set([layerIds[i - 1], layerIds[i + 1]].filter((x): x is number => x !== undefined));
      reorder(layers[i]!, adjacent);
    }
  }

  // Coordinates: columns as wide as their widest node; each column centred vertically.
  const columnWidth = layers.map((layer) => Math.max(...layer.map((n) => n.width)));
  const columnHeight = layers.map((layer) => layer.reduce((h, n) => h + n.height, 0) + nodeGap * (layer.length - 1));
  const height = Math.max(0, ...columnHeight);
  const positions = new Map<string, Point>();
  let x = 0;
  layers.forEach((layer, i) => {
    let y = (height - columnHeight[i]!) / 2;
    for (const n of layer) {
      positions.set(n.id, { x: x + (columnWidth[i]! - n.width) / 2, y });
      y += n.height + nodeGap;
    }
    x += columnWidth[i]! + layerGap;
  });
  const width = Math.max(0, x - layerGap);

  const routed = edges.filter((e) => positions.has(e.from) && positions.has(e.to) && e.from !== e.to).map((e) => {
    const a = byId.get(e.from)!, b = byId.get(e.to)!;
    const pa = positions.get(e.from)!, pb = positions.get(e.to)!;
    // Forward edges leave on the right and enter on the left; the rest leave and enter on the facing sides.
    const forward = a.layer < b.layer;
    const start = { x: forward ? pa.x + a.width : pa.x, y: pa.y + a.height / 2 };
    const end = { x: forward ? pb.x : pb.x + b.width, y: pb.y + b.height / 2 };
    if (a.layer === b.layer) {
      start.x = pa.x + a.width;
      end.x = pb.x + b.width;
    }
    return { from: e.from, to: e.to, points: [start, end] };
  });
  return { positions, edges: routed, width, height };
}

/**
 * dagre's layered layout (network-simplex ranking, crossing reduction, spline-like edge points).
 * Each edge points from the lower to the higher given layer with that many ranks between them,
 * so dagre keeps the columns: what needs the centre on the left, what it needs on the right.
 */
export function dagreLayout(nodes: readonly LayoutNode[], edges: readonly LayoutEdge[], opts: LayeredOptions = {}): LayoutResult {
  const byId = new Map(nodes.map((n) => [n.id, n]));
  const g = new dagre.graphlib.Graph({ multigraph: false });
  g.setGraph({ rankdir: 'LR', ranksep: opts.layerGap ?? 90, nodesep: opts.nodeGap ?? 14, marginx: 0, marginy: 0 });
  g.setDefaultEdgeLabel(() => ({}));
  for (const n of nodes) g.setNode(n.id, { width: n.width, height: n.height });
  for (const e of edges) {
    const a = byId.get(e.from), b = byId.get(e.to);
    if (!a || !b || a.layer === b.layer) continue;
    const [left, right] = a.layer < b.layer ? [a, b] : [b, a];
    g.setEdge(left.id, right.id, { minlen: right.layer - left.layer });
  }
  dagre.layout(g);
  const positions = new Map<string, Point>();
  for (const n of nodes) {
    const p = g.node(n.id);
    positions.set(n.id, { x: p.x - n.width / 2, y: p.y - n.height / 2 });
  }
  const routed = edges.filter((e) => positions.has(e.from) && positions.has(e.to) && e.from !== e.to).map((e) => {
    const a = byId.get(e.from)!, b = byId.get(e.to)!;
    const laid = a.layer === b.layer ? undefined : a.layer < b.layer ? g.edge(a.id, b.id) : g.edge(b.id, a.id);
    let points: Point[];
    if (laid?.points?.length) {
      points = laid.points.map((p: Point) => ({ x: p.x, y: p.y }));
      if (a.layer > b.layer) points.reverse();
    } else {
      const pa = positions.get(a.id)!, pb = positions.get(b.id)!;
      points = [{ x: pa.x + a.width, y: pa.y + a.height / 2 }, { x: pb.x + b.width, y: pb.y + b.height / 2 }];
    }
    return { from: e.from, to: e.to, points };
  });
  const graph = g.graph();
  return { positions, edges: routed, width: graph.width ?? 0, height: graph.height ?? 0 };
}

/** The layout the view uses: dagre, and the built-in one where dagre fails. */
export const defaultLayout: GraphLayout = (nodes, edges, opts) => {
  try {
    return dagreLayout(nodes, edges, opts);
  } catch {
    return layeredLayout(nodes, edges, opts);
  }
};

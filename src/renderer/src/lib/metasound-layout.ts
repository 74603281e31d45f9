/**
 * A MetaSound graph laid out as the editor draws it: left to right, each node a box with its input
 * pins down its left edge and its output pins down its right edge (below the inputs), edges as
 * curves from an output pin to an input pin. Columns come from the edges (a node right of every
 * node feeding it), graph inputs first and graph outputs last; the dependency graph's layout
 * (dagre, through graph-layout.ts) places the boxes within them.
 */
import type { MetaSoundGraph, MetaSoundNode } from '../../../shared/api.js';
import { defaultLayout, type Point } from './graph-layout.js';

export const NODE_WIDTH = 280;
export const HEADER = 38;
export const PIN_ROW = 17;

export const nodeHeight = (n: MetaSoundNode): number => HEADER + Math.max(1, n.inputs.length + n.outputs.length) * PIN_ROW + 6;

/**
 * Each node's column: the longest path of edges reaching it, relaxed at most once per node (a
 * cycle, which a valid document has not, stops there instead of looping). Graph outputs with
 * nothing after them go to the last column, after the inputs' when there are no edges.
 */
export function columns(g: MetaSoundGraph): Map<string, number> {
  const col = new Map(g.nodes.map((n) => [n.id, 0]));
  const edges = g.edges.filter((e) => col.has(e.fromNode) && col.has(e.toNode) && e.fromNode !== e.toNode);
  for (let pass = 0; pass < g.nodes.length; pass++) {
    let changed = false;
    for (const e of edges) {
      const want = col.get(e.fromNode)! + 1;
      if (want > col.get(e.toNode)! && want < g.nodes.length) {
        col.set(e.toNode, want);
        changed = true;
      }
    }
    if (!changed) break;
  }
  const feeds = new Set(edges.map((e) => e.fromNode));
  const last = Math.max(1, ...col.values());
  for (const n of g.nodes) if (n.class?.type === 'Output' && !feeds.has(n.id)) col.set(n.id, last);
  return col;
}

export interface PinAt { node: string; vertex: string; side: 'in' | 'out'; at: Point }

export interface MetaSoundLayout {
  /** Top-left corner of each node box. */
  positions: Map<string, Point>;
  /** Each pin's point on its box's edge, by `${node}/${vertex}/${side}`. */
  pins: Map<string, Point>;
  /** Edges with both pins found: the curve's ends. */
  edges: { key: string; from: Point; to: Point }[];
  width: number;
  height: number;
}

export const pinKey = (node: string, vertex: string, side: 'in' | 'out'): string => `${node}/${vertex}/${side}`;

export function layoutMetaSound(g: MetaSoundGraph): MetaSoundLayout {
  const col = columns(g);
  // dagre ranks by edges alone: a node with no edge into it but a column past the first (a graph
  // output nothing feeds) is tied to a node of the column before, for the layout only.
  const fed = new Set(g.edges.map((e) => e.toNode));
  const firstOf = new Map<number, string>();
  for (const n of g.nodes) if (!firstOf.has(col.get(n.id)!)) firstOf.set(col.get(n.id)!, n.id);
  const ties = g.nodes.flatMap((n) => {
    const c = col.get(n.id)!;
    const before = [...firstOf.keys()].filter((k) => k < c).sort((a, b) => b - a)[0];
    return c > 0 && !fed.has(n.id) && before !== undefined ? [{ from: firstOf.get(before)!, to: n.id }] : [];
  });
  const laid = defaultLayout(
    g.nodes.map((n) => ({ id: n.id, width: NODE_WIDTH, height: nodeHeight(n), layer: col.get(n.id) ?? 0 })),
    [...g.edges.map((e) => ({ from: e.fromNode, to: e.toNode })), ...ties],
    { layerGap: 80, nodeGap: 24 },
  );
  const pins = new Map<string, Point>();
  for (const n of g.nodes) {
    const p = laid.positions.get(n.id)!;
    n.inputs.forEach((v, i) => pins.set(pinKey(n.id, v.vertexId, 'in'), { x: p.x, y: p.y + HEADER + i * PIN_ROW + PIN_ROW / 2 }));
    n.outputs.forEach((v, i) => pins.set(pinKey(n.id, v.vertexId, 'out'), { x: p.x + NODE_WIDTH, y: p.y + HEADER + (n.inputs.length + i) * PIN_ROW + PIN_ROW / 2 }));
  }
  const edges = g.edges.flatMap((e, i) => {
    const from = pins.get(pinKey(e.fromNode, e.fromVertex, 'out')), to = pins.get(pinKey(e.toNode, e.toVertex, 'in'));
    return from && to ? [{ key: `${i}:${e.fromVertex}>${e.toVertex}`, from, to }] : [];
  });
  return { positions: laid.positions, pins, edges, width: laid.width, height: laid.height };
}

/** A curve leaving `a` to the right and entering `b` from the left. */
export function edgeCurve(a: Point, b: Point): string {
  const dx = Math.max(30, Math.abs(b.x - a.x) / 2);
  return `M${a.x},${a.y} C${a.x + dx},${a.y} ${b.x - dx},${b.y} ${b.x},${b.y}`;
}

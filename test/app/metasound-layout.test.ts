/**
 * The MetaSound view's layout (renderer lib/metasound-layout.ts): columns from the edges (a node
 * right of what feeds it, unfed graph outputs last), dagre keeping those columns (also for nodes
 * no edge reaches), each edge drawn from its output pin on the right edge of one box to its input
 * pin on the left edge of another, and a cycle (which no valid document has) laid out, not looped.
 */
import { describe, expect, it } from 'vitest';
import { columns, HEADER, layoutMetaSound, NODE_WIDTH, PIN_ROW } from '../../src/renderer/src/lib/metasound-layout.js';
import type { MetaSoundGraph, MetaSoundNode } from '../../src/shared/api.js';

const node = (id: string, type: string, ins: string[], outs: string[]): MetaSoundNode => ({
  id, classId: `c${id}`, name: id, class: { name: `${type}.X`, version: '1.0', type },
  inputs: ins.map((v) => ({ name: v, typeName: 'Float', vertexId: v })),
  outputs: outs.map((v) => ({ name: v, typeName: 'Float', vertexId: v })),
});

// In -> Sine -> Out, and a second output nothing feeds.
const graph: MetaSoundGraph = {
  pageId: '0',
  nodes: [node('In', 'Input', ['i0'], ['o0']), node('Sine', 'External', ['freq', 'phase'], ['audio']), node('Out', 'Output', ['a'], ['b']), node('Done', 'Output', ['t'], ['u'])],
  edges: [
    { fromNode: 'In', fromVertex: 'o0', toNode: 'Sine', toVertex: 'phase' },
    { fromNode: 'Sine', fromVertex: 'audio', toNode: 'Out', toVertex: 'a' },
  ],
  variables: [],
};

describe('MetaSound layout', () => {
  it('columns follow the edges; an unfed output goes last', () => {
    expect(Object.fromEntries(columns(graph))).toEqual({ In: 0, Sine: 1, Out: 2, Done: 2 });
  });

  it('boxes keep their columns and edges join the right pins', () => {
    const l = layoutMetaSound(graph);
    const x = (id: string): number => l.positions.get(id)!.x;
    expect(x('In')).toBeLessThan(x('Sine'));
    expect(x('Sine')).toBeLessThan(x('Out'));
    expect(x('Done')).toBe(x('Out'));
    expect(l.edges).toHaveLength(2);
    const sine = l.positions.get('Sine')!, inp = l.positions.get('In')!;
    // In's output pin (its first row after its one input) -> Sine's second input pin.
    expect(l.edges[0]!.from).toEqual({ x: inp.x + NODE_WIDTH, y: inp.y + HEADER + 1 * PIN_ROW + PIN_ROW / 2 });
    expect(l.edges[0]!.to).toEqual({ x: sine.x, y: sine.y + HEADER + 1 * PIN_ROW + PIN_ROW / 2 });
  });

  it('an edge to a pin the node lacks is not drawn; a cycle is laid out', () => {
    const bad: MetaSoundGraph = { ...graph, edges: [...graph.edges, { fromNode: 'Out', fromVertex: 'b', toNode: 'Sine', toVertex: 'nope' }] };
    expect(layoutMetaSound(bad).edges).toHaveLength(2);
    const cycle: MetaSoundGraph = { ...graph, edges: [...graph.edges, { fromNode: 'Out', fromVertex: 'b', toNode: 'In', toVertex: 'i0' }] };
    const cols = columns(cycle);
    expect(Math.max(...cols.values())).toBeLessThan(cycle.nodes.length);
    expect(layoutMetaSound(cycle).edges).toHaveLength(3);
  });
});

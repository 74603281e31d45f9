/** metaSoundDot: a graph of 150,000 nodes (a damaged or generated document) is written, not a RangeError. */
import { describe, expect, it } from 'vitest';
import { metaSoundDot } from '../../../src/core/assets/metasound/dot.js';
import type { MetaSoundDocument } from '../../../src/core/assets/metasound/types.js';

describe('metaSoundDot on a large graph', () => {
  it('writes one line per node', () => {
    const n = 150_000;
    const nodes = Array.from({ length: n }, (_, i) => ({ id: `id${i}`, name: `N${i}`, classId: 'c', inputs: [], outputs: [] }));
    const doc = { name: 'MS_Big', graphs: [{ pageId: 'p', nodes, edges: [], variables: [] }] } as unknown as MetaSoundDocument;
    const dot = metaSoundDot(doc);
    const nodeLines = dot.split('\n').filter((l) => / n\d+ \[label=/.test(l));
    expect(nodeLines.length).toBe(n);
    expect(nodeLines[n - 1]).toContain(`<B>N${n - 1}</B>`);
  });
});

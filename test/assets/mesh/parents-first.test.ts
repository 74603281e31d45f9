/** parentsFirst: parents before children, a loop cut where it closes, a long chain without a stack overflow. */
import { describe, expect, it } from 'vitest';
import { parentsFirst } from '../../../src/core/assets/mesh/parents-first.js';

describe('parentsFirst', () => {
  it('orders parents before children and cuts a loop where it closes', () => {
    // 0 <- 2 <- 1, and 3 -> 4 -> 3 (a loop).
    const parents = [-1, 2, 0, 4, 3];
    const { order, cut } = parentsFirst(parents.length, (i) => parents[i]!);
    expect(order).toEqual([0, 2, 1, 4, 3]);
    expect([...cut]).toEqual([4]);
  });

  it('a damaged file\'s chain of 1,000,000 parents is ordered, not a stack overflow', () => {
    const n = 1_000_000;
    const { order, cut } = parentsFirst(n, (i) => (i + 1 < n ? i + 1 : -1));
    expect(order.length).toBe(n);
    expect([order[0], order[n - 1]]).toEqual([n - 1, 0]);
    expect(cut.size).toBe(0);
  });
});

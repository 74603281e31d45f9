/** Ordering a hierarchy read from a file (transforms, bodies) so each parent comes before its children. */

/**
 * The indices 0..n-1, each after its parent (`parentOf(i)`, -1 for a root), and the children
 * whose parent link closes a loop (cut: they become roots). Iterative, so a damaged file's chain
 * of a million parents is ordered, not a stack overflow.
 */
export function parentsFirst(n: number, parentOf: (i: number) => number): { order: number[]; cut: Set<number> } {
  const order: number[] = [];
  const cut = new Set<number>();
  const state = new Uint8Array(n); // 0 unseen, 1 on the chain being walked, 2 placed
  for (let i = 0; i < n; i++) {
    if (state[i]) continue;
    // Walk up from i to a placed node or a root, then place the chain top down.
    const chain: number[] = [];
    let j = i;
    while (j >= 0 && state[j] === 0) {
      state[j] = 1;
      chain.push(j);
      j = parentOf(j);
    }
    if (j >= 0 && state[j] === 1) cut.add(chain[chain.length - 1]!); // its parent is on this chain: a loop
    for (let k = chain.length - 1; k >= 0; k--) {
      state[chain[k]!] = 2;
      order.push(chain[k]!);
    }
  }
  return { order, cut };
}

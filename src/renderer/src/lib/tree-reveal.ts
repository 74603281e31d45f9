/**
 * Shows a file in the tree: opens each folder above it, then selects it (the graph's "go to
 * package"). Only the tree model's public moves, so it is tested in Node like the model.
 */
import type { TreeModel } from './tree-model.js';

/** Selects `path`'s row, opening its folders first; false when the tree does not show it (a filter hides it). */
export async function revealPath(tree: TreeModel, path: string): Promise<boolean> {
  const parts = path.split('/');
  for (let i = 1; i < parts.length; i++) {
    const dir = parts.slice(0, i).join('/');
    const at = tree.indexOf(dir);
    if (at < 0) return false;
    if (!tree.rows[at]!.expanded) await tree.expand(at);
  }
  const at = tree.indexOf(path);
  if (at < 0) return false;
  tree.select(at);
  return true;
}

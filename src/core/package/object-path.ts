/**
 * Object paths as packages name each other's objects ("/Game/M/MI_X.MI_X",
 * "/Game/Maps/Sub.Sub:PersistentLevel.Actor"): the package each lives in, and the tree path of
 * that package where the install holds it (the views' links).
 */
import type { InstallPackages } from './open-package.js';

/** The package of an object path: "/Game/M/Sub.Sub:PersistentLevel" -> "/Game/M/Sub"; a package name stays as it is. */
export function packageOfObjectPath(path: string): string {
  const slash = path.lastIndexOf('/');
  const cut = path.slice(slash + 1).search(/[.:]/);
  return cut < 0 ? path : path.slice(0, slash + 1 + cut);
}

/** Object (or package) paths -> tree paths of their packages, for those the install holds. */
export function treePathsOf(paths: Iterable<string>, packages: InstallPackages): Record<string, string> {
  const links: Record<string, string> = Object.create(null) as Record<string, string>;
  for (const p of paths) {
    if (p in links) continue;
    const tree = packages.index.byPackageName(packageOfObjectPath(p))?.file.path;
    if (tree !== undefined) links[p] = tree;
  }
  return links;
}

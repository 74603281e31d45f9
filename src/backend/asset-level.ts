/**
 * The level view: what a map places (core/assets/level, the registry's "level" view), with the
 * tree path of every mesh, material, sublevel and World Partition cell package the install holds
 * (the view's links) and its JSON for Save and Copy.
 */
import { readLevel } from '../core/assets/level/read.js';
import type { LevelAsset } from '../core/assets/level/types.js';
import { treePathsOf } from '../core/package/object-path.js';
import type { InstallPackages } from '../core/package/open-package.js';
import type { Usmap } from '../core/usmap/types.js';
import type { AssetRequest, LevelView } from '../shared/asset-api.js';
import { packageAssets } from './assets.js';
import type { PackageService } from './packages.js';
import { RequestError } from './request-error.js';

/** Object and package paths the level names -> tree paths of the packages the install holds. */
export function levelLinks(l: LevelAsset, packages: InstallPackages): Record<string, string> {
  const paths: string[] = [];
  for (const a of l.actors) {
    for (const c of a.components) {
      if (c.staticMesh) paths.push(c.staticMesh);
      for (const m of c.materials ?? []) if (m) paths.push(m);
    }
  }
  for (const s of l.streamingLevels) paths.push(...[s.worldAsset, s.package].filter((x): x is string => x !== null));
  for (const c of l.cells) paths.push(...[c.worldAsset, c.package].filter((x): x is string => x !== null));
  return treePathsOf(paths, packages);
}

export async function readLevelView(packages: InstallPackages, service: PackageService, req: AssetRequest, mappings: Usmap | undefined): Promise<LevelView> {
  const loc = service.locate(packages, req.path);
  const engine = req.engine?.trim() || undefined;
  const { model } = await packages.open(loc, engine !== undefined ? { engine } : {});
  const worlds = packageAssets(model).filter((a) => a.view === 'level');
  const asset = req.exportIndex !== undefined ? worlds.find((a) => a.exportIndex === req.exportIndex) : worlds[0];
  if (!asset) {
    throw new RequestError(req.exportIndex !== undefined ? `${req.path}: export ${req.exportIndex} is not a World` : `${req.path}: no export of this package is a World`);
  }
  const level = await readLevel({ packages, ref: loc.path }, asset.exportIndex, {
    ...(mappings ? { mappings } : {}), ...(engine !== undefined ? { engine } : {}),
  });
  return { path: loc.path, exportIndex: asset.exportIndex, level, links: levelLinks(level, packages), json: `${JSON.stringify(level, null, 2)}\n` };
}

/**
 * The level view: what a map places (core/assets/level, the registry's "level" view), with the
 * tree path of every mesh, material, sublevel and World Partition cell package the install holds
 * (the view's links) and its JSON for Save and Copy; and its 3D scene (level-scene.ts). The last
 * levels read are kept, so the scene asked for after the view does not read the map again.
 */
import { MAX_MERGED_CELLS } from '../core/assets/level/cells.js';
import { readLevel } from '../core/assets/level/read.js';
import type { LevelAsset } from '../core/assets/level/types.js';
import { treePathsOf } from '../core/package/object-path.js';
import type { InstallPackages } from '../core/package/open-package.js';
import type { Usmap } from '../core/usmap/types.js';
import type { AssetRequest, LevelScene, LevelSceneRequest, LevelView } from '../shared/asset-api.js';
import type { Placement } from '../core/assets/level/types.js';
import { levelScene, type ScenePart } from './level-scene.js';
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

const CACHED_LEVELS = 2;

/** Level views and scenes, the last few levels read kept (per install, path, export, engine and mappings). */
export class LevelService {
  private readonly cache = new Map<string, { mappings: Usmap | undefined; view: Promise<LevelView> }>();

  forget(installId: string): void {
    for (const k of [...this.cache.keys()]) if (k.startsWith(`${installId}|`)) this.cache.delete(k);
  }

  view(packages: InstallPackages, service: PackageService, req: AssetRequest, mappings: Usmap | undefined): Promise<LevelView> {
    const key = `${req.installId}|${req.path}|${req.exportIndex ?? ''}|${req.engine ?? ''}`;
    const hit = this.cache.get(key);
    this.cache.delete(key);
    if (hit && hit.mappings === mappings) {
      this.cache.set(key, hit);
      return hit.view;
    }
    const view = readLevelView(packages, service, req, mappings);
    const entry = { mappings, view };
    view.catch(() => { if (this.cache.get(key) === entry) this.cache.delete(key); });
    this.cache.set(key, entry);
    while (this.cache.size > CACHED_LEVELS) this.cache.delete(this.cache.keys().next().value!);
    return view;
  }

  /** The map's scene; with `sublevels`, its streaming sublevels (at their transforms) and cells too, one level deep. */
  async scene(packages: InstallPackages, service: PackageService, req: LevelSceneRequest, mappings: Usmap | undefined): Promise<LevelScene> {
    const v = await this.view(packages, service, req, mappings);
    const parts: ScenePart[] = [{ level: v.level, links: v.links }];
    const notes: string[] = [];
    if (req.sublevels) {
      const wanted = new Map<string, Placement | undefined>();
      for (const s of v.level.streamingLevels) {
        const tree = s.package ? v.links[s.package] : undefined;
        if (tree !== undefined && tree !== v.path && !wanted.has(tree)) wanted.set(tree, s.transform);
      }
      for (const c of v.level.cells) {
        const tree = c.package ? v.links[c.package] : undefined;
        if (tree !== undefined && tree !== v.path && !wanted.has(tree)) wanted.set(tree, undefined);
      }
      // As --all-cells merges them: a large open world names tens of thousands of cells.
      if (wanted.size > MAX_MERGED_CELLS) notes.push(`the map has ${wanted.size} sublevels and cells: only the first ${MAX_MERGED_CELLS} are drawn`);
      for (const [tree, transform] of [...wanted].slice(0, MAX_MERGED_CELLS)) {
        try {
          const sub = await readLevelView(packages, service, { installId: req.installId, path: tree, ...(req.engine ? { engine: req.engine } : {}) }, mappings);
          parts.push({ level: sub.level, links: sub.links, sublevel: tree, ...(transform ? { transform } : {}) });
        } catch (e) {
          notes.push(`${tree}: ${e instanceof Error ? e.message : String(e)}`);
        }
      }
    }
    return { ...levelScene(parts, v.path, v.exportIndex), notes };
  }
}

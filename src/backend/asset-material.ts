/**
 * The material view: a material's parent chain and parameters (core/assets/material, the
 * registry's "material" view), with the tree path of each level and texture the install holds
 * (the view's links and texture previews) and its JSON for Save and Copy.
 */
import { readMaterial } from '../core/assets/material/read.js';
import type { MaterialAsset } from '../core/assets/material/types.js';
import { treePathsOf } from '../core/package/object-path.js';
import type { InstallPackages } from '../core/package/open-package.js';
import type { Usmap } from '../core/usmap/types.js';
import type { AssetRequest, MaterialView } from '../shared/asset-api.js';
import { packageAssets } from './assets.js';
import type { PackageService } from './packages.js';
import { RequestError } from './request-error.js';

/** Object paths of the chain and of every texture -> tree paths of the packages the install holds. */
export function materialLinks(m: MaterialAsset, packages: InstallPackages): Record<string, string> {
  return treePathsOf([
    ...m.chain.flatMap((l) => [l.path, ...(l.parent !== null ? [l.parent] : [])]),
    ...m.parameters.flatMap((p) => (p.kind === 'texture' && typeof p.value === 'string' ? [p.value] : [])),
    ...m.referencedTextures,
  ], packages);
}

export async function readMaterialView(packages: InstallPackages, service: PackageService, req: AssetRequest, mappings: Usmap | undefined): Promise<MaterialView> {
  const loc = service.locate(packages, req.path);
  const engine = req.engine?.trim() || undefined;
  const { model } = await packages.open(loc, engine !== undefined ? { engine } : {});
  const materials = packageAssets(model).filter((a) => a.view === 'material');
  const asset = req.exportIndex !== undefined ? materials.find((a) => a.exportIndex === req.exportIndex) : materials[0];
  if (!asset) {
    throw new RequestError(req.exportIndex !== undefined ? `${req.path}: export ${req.exportIndex} is not a material` : `${req.path}: no export of this package is a material`);
  }
  const material = await readMaterial({ packages, ref: loc.path }, asset.exportIndex, {
    ...(mappings ? { mappings } : {}), ...(engine !== undefined ? { engine } : {}),
  });
  return { path: loc.path, exportIndex: asset.exportIndex, material, links: materialLinks(material, packages), json: `${JSON.stringify(material, null, 2)}\n` };
}

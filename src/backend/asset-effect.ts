/**
 * The MetaSound and Niagara views (core/assets/metasound and niagara, the registry's "metasound"
 * and "niagara" views): the document or system, the tree path of each asset it references that
 * the install holds (the Niagara view's links), and its JSON (and a MetaSound's .dot) for Save.
 */
import { metaSoundDot } from '../core/assets/metasound/dot.js';
import { readMetaSound } from '../core/assets/metasound/read.js';
import { readNiagaraSystem } from '../core/assets/niagara/read.js';
import { treePathsOf } from '../core/package/object-path.js';
import type { InstallPackages } from '../core/package/open-package.js';
import type { Usmap } from '../core/usmap/types.js';
import type { AssetRequest, MetaSoundView, NiagaraView } from '../shared/asset-api.js';
import { packageAssets } from './assets.js';
import type { PackageService } from './packages.js';
import { RequestError } from './request-error.js';

async function effectAsset(packages: InstallPackages, service: PackageService, req: AssetRequest, view: string, what: string) {
  const loc = service.locate(packages, req.path);
  const engine = req.engine?.trim() || undefined;
  const { model } = await packages.open(loc, engine !== undefined ? { engine } : {});
  const assets = packageAssets(model).filter((a) => a.view === view);
  const asset = req.exportIndex !== undefined ? assets.find((a) => a.exportIndex === req.exportIndex) : assets[0];
  if (!asset) throw new RequestError(req.exportIndex !== undefined ? `${req.path}: export ${req.exportIndex} is not ${what}` : `${req.path}: no export of this package is ${what}`);
  return { loc, engine, exportIndex: asset.exportIndex };
}

export async function readMetaSoundView(packages: InstallPackages, service: PackageService, req: AssetRequest, mappings: Usmap | undefined): Promise<MetaSoundView> {
  const { loc, engine, exportIndex } = await effectAsset(packages, service, req, 'metasound', 'a MetaSound');
  const document = await readMetaSound({ packages, ref: loc.path }, exportIndex, { ...(mappings ? { mappings } : {}), ...(engine !== undefined ? { engine } : {}) });
  return { path: loc.path, exportIndex, document, json: `${JSON.stringify(document, null, 2)}\n`, dot: metaSoundDot(document) };
}

export async function readNiagaraView(packages: InstallPackages, service: PackageService, req: AssetRequest, mappings: Usmap | undefined): Promise<NiagaraView> {
  const { loc, engine, exportIndex } = await effectAsset(packages, service, req, 'niagara', 'a Niagara System');
  const system = await readNiagaraSystem({ packages, ref: loc.path }, exportIndex, { ...(mappings ? { mappings } : {}), ...(engine !== undefined ? { engine } : {}) });
  const links = treePathsOf([...system.referencedAssets, ...system.emitters.flatMap((e) => (e.emitter ? [e.emitter] : []))], packages);
  return { path: loc.path, exportIndex, system, links, json: `${JSON.stringify(system, null, 2)}\n` };
}

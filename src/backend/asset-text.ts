/**
 * The text preview: an export's text (core/assets/script, the registry's "text" view) for the
 * app's Monaco view, found as the package view's preview tabs find their exports.
 */
import { readSourceTextBuffer } from '../core/assets/script/read.js';
import type { InstallPackages } from '../core/package/open-package.js';
import type { AssetRequest, AssetText } from '../shared/asset-api.js';
import { packageAssets } from './assets.js';
import type { PackageService } from './packages.js';
import { RequestError } from './request-error.js';

export async function readAssetText(packages: InstallPackages, service: PackageService, req: AssetRequest): Promise<AssetText> {
  const loc = service.locate(packages, req.path);
  const engine = req.engine?.trim() || undefined;
  const { model } = await packages.open(loc, engine !== undefined ? { engine } : {});
  const texts = packageAssets(model).filter((a) => a.view === 'text');
  const asset = req.exportIndex !== undefined ? texts.find((a) => a.exportIndex === req.exportIndex) : texts[0];
  if (!asset) {
    throw new RequestError(req.exportIndex !== undefined
      ? `${req.path}: export ${req.exportIndex} holds no text`
      : `${req.path}: no export of this package holds text`);
  }
  const t = await readSourceTextBuffer({ packages, ref: loc.path }, asset.exportIndex);
  return { path: loc.path, exportIndex: asset.exportIndex, name: t.name, outer: t.outer, fileName: t.fileName, language: t.language, text: t.text };
}

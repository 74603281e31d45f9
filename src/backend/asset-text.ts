/**
 * The text preview: an export's text (core/assets/script, the registry's "text" view) or a
 * Blueprint's functions as pseudo-code (core/kismet, the "script" view) for the app's Monaco
 * view, found as the package view's preview tabs find their exports.
 */
import { readSourceTextBuffer } from '../core/assets/script/read.js';
import { readBlueprintScript } from '../core/kismet/read.js';
import { scriptText } from '../core/kismet/text.js';
import type { InstallPackages } from '../core/package/open-package.js';
import type { AssetRequest, AssetText } from '../shared/asset-api.js';
import { packageAssets } from './assets.js';
import type { PackageService } from './packages.js';
import { RequestError } from './request-error.js';

export async function readAssetText(packages: InstallPackages, service: PackageService, req: AssetRequest): Promise<AssetText> {
  const loc = service.locate(packages, req.path);
  const engine = req.engine?.trim() || undefined;
  const { model } = await packages.open(loc, engine !== undefined ? { engine } : {});
  const texts = packageAssets(model).filter((a) => a.view === 'text' || a.view === 'script');
  const asset = req.exportIndex !== undefined ? texts.find((a) => a.exportIndex === req.exportIndex) : texts[0];
  if (!asset) {
    throw new RequestError(req.exportIndex !== undefined
      ? `${req.path}: export ${req.exportIndex} holds no text`
      : `${req.path}: no export of this package holds text`);
  }
  if (asset.view === 'script') {
    // A Blueprint: its functions' bytecode as pseudo-code, as `pakscope script` prints it.
    const script = await readBlueprintScript({ packages, ref: loc.path }, engine !== undefined ? { engine } : {});
    const failed = script.functions.filter((f) => f.error !== undefined).length;
    const summary = `${script.functions.length} functions${failed ? `, ${failed} that do not decode` : ''}`;
    return {
      path: loc.path, exportIndex: asset.exportIndex, name: asset.name, outer: null, fileName: `${asset.name}.txt`,
      language: 'unrealscript', description: `Blueprint bytecode as pseudo-code · ${summary}`,
      text: script.functions.length ? scriptText(script) : '// This Blueprint has no functions.\n',
    };
  }
  const t = await readSourceTextBuffer({ packages, ref: loc.path }, asset.exportIndex);
  return { path: loc.path, exportIndex: asset.exportIndex, name: t.name, outer: t.outer, fileName: t.fileName, language: t.language, text: t.text };
}

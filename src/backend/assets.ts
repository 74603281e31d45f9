/**
 * Which exports of a package the converter registry knows (core/assets/registry.ts): the package
 * view's preview tabs and the gallery ask this, never a class name.
 */
import { assetKindOfExport } from '../core/assets/index.js';
import type { PackageModel } from '../core/package-model.js';
import type { PackageAsset } from '../shared/asset-api.js';

export function packageAssets(model: Pick<PackageModel, 'exports'> & Partial<Pick<PackageModel, 'format'>>): PackageAsset[] {
  const out: PackageAsset[] = [];
  model.exports.forEach((e, i) => {
    const kind = assetKindOfExport(e.class, model.format);
    // A text is named by what it belongs to: every class's source is a "ScriptText".
    const name = kind?.view === 'text' && e.outer ? e.outer.slice(e.outer.lastIndexOf('.') + 1) : e.name;
    if (kind) out.push({ exportIndex: i, name, class: e.class, kind: kind.kind, view: kind.view, converts: [...kind.converts] });
  });
  return out;
}

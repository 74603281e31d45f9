/**
 * Converting assets through the registry: which exports of a package convert, and the files one
 * export converts to. `extract --format convert`, `pakscope texture` and the app's backend all
 * come here; none of them knows a class name.
 */
import type { PackageModel } from '../package-model.js';
import { assetKindOfExport, type AssetKind, type AssetSource, type ConvertedFile, type ConvertOptions } from './registry.js';

export interface ConvertibleExport {
  /** 0-based, in the package's export table. */
  index: number;
  name: string;
  class: string;
  kind: AssetKind;
}

/** The exports of a package that a registered kind converts, in export order. */
export function convertibleExports(model: Pick<PackageModel, 'exports'> & Partial<Pick<PackageModel, 'format'>>): ConvertibleExport[] {
  const out: ConvertibleExport[] = [];
  model.exports.forEach((e, index) => {
    const kind = assetKindOfExport(e.class, model.format);
    if (kind?.convert) out.push({ index, name: e.name, class: e.class, kind });
  });
  return out;
}

/** The files export `exp` of `source` converts to (see AssetKind.convert). */
export function convertExport(source: AssetSource, exp: Pick<ConvertibleExport, 'index' | 'kind'>, extension: string | undefined, opts: ConvertOptions = {}): Promise<ConvertedFile[]> {
  if (!exp.kind.convert) throw new Error(`the ${exp.kind.kind} kind converts nothing`);
  if (extension !== undefined && !exp.kind.converts.includes(extension.toLowerCase())) {
    throw new RangeError(`a ${exp.kind.kind} converts to ${exp.kind.converts.map((x) => `.${x}`).join(', ')}, not .${extension}`);
  }
  return exp.kind.convert(source, exp.index, extension?.toLowerCase(), opts);
}

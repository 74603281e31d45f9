/**
 * The Niagara kind in the converter registry: NiagaraSystem, the app's Niagara view (user
 * parameters, emitters, renderers and what they reference), and the same as JSON (what
 * `pakscope effect --json` prints).
 */
import { registerAssetKind, type AssetKind, type ConvertedFile } from '../registry.js';
import { NIAGARA_CLASSES, NIAGARA_SCRIPT_PACKAGE, readNiagaraSystem } from './read.js';
import type { NiagaraSystemAsset } from './types.js';

/** A system read once as its JSON (`pakscope effect -o` reuses the one it prints). */
export function niagaraFile(system: NiagaraSystemAsset): ConvertedFile {
  return { suffix: '', extension: 'json', data: new TextEncoder().encode(`${JSON.stringify(system, null, 2)}\n`) };
}

export const niagaraKind: AssetKind = {
  kind: 'niagara',
  view: 'niagara',
  classes: NIAGARA_CLASSES,
  scriptPackage: NIAGARA_SCRIPT_PACKAGE,
  converts: ['json'],
  async convert(source, exportIndex, _extension, opts) {
    return [niagaraFile(await readNiagaraSystem(source, exportIndex, opts))];
  },
};

registerAssetKind(niagaraKind);

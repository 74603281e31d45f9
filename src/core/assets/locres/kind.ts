/**
 * The localization kind in the converter registry: plain .locres and .locmeta files, shown in
 * the app's localization view (every culture of their target side by side) and converted to
 * JSON: a .locres as `pakscope locres --json` prints one file ({"cultures":{"<culture>":
 * {"<namespace>":{"<key>":"<text>"}}}}), a .locmeta as its fields.
 */
import { registerAssetKind, type PlainFile } from '../registry.js';
import { gatherCultures } from './install.js';
import { cultureOf, parseLocmeta, parseLocres } from './read.js';

const json = (v: unknown): Uint8Array => new TextEncoder().encode(`${JSON.stringify(v, null, 2)}\n`);

export function locresFileJson(file: PlainFile): Uint8Array {
  if (file.path.toLowerCase().endsWith('.locmeta')) return json(parseLocmeta(file.bytes, file.path));
  const locres = parseLocres(file.bytes, file.path);
  return json({ cultures: gatherCultures([{ path: file.path, culture: cultureOf(file.path), locres }]) });
}

registerAssetKind({
  kind: 'localization',
  view: 'localization',
  classes: [],
  converts: ['json'],
  fileExtensions: ['locres', 'locmeta'],
  async convertFile(file) {
    return [{ suffix: '', extension: 'json', data: locresFileJson(file) }];
  },
});

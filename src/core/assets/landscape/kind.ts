/**
 * The landscape kind in the converter registry: a map's Landscape (and proxy) actors, the app's
 * landscape view, and the files a terrain converts to: .png (the stitched heightmap as 16-bit
 * grayscale, then one 8-bit grayscale image of weights per layer, "_<layer>"), .glb (the terrain
 * as a mesh: mesh.ts) and .json (LandscapeInfo, as `pakscope landscape --json` prints it).
 */
import { writeGlb } from '../mesh/gltf/write.js';
import { encodeGray16Png, encodePng } from '../texture/png.js';
import { registerAssetKind, type AssetKind, type ConvertedFile } from '../registry.js';
import { landscapeMesh } from './mesh.js';
import { LANDSCAPE_CLASSES, readLandscape } from './read.js';
import type { Landscape, LandscapeInfo } from './types.js';

export const LANDSCAPE_CONVERSIONS = ['png', 'glb', 'json'] as const;

/** The facts of a landscape without its grids (what --json prints). */
export function landscapeInfo(l: Landscape): LandscapeInfo {
  const { heights: _h, covered: _c, weights: _w, ...info } = l;
  return info;
}

/** The heightmap PNG (16-bit gray) of `l`, then one 8-bit gray PNG per weight layer. */
export function landscapePngs(l: Landscape): ConvertedFile[] {
  if (l.width === 0 || l.height === 0) throw new RangeError(`${l.name} has no components with heights: there is no heightmap to write`);
  const files: ConvertedFile[] = [{ suffix: '', extension: 'png', data: encodeGray16Png(l.width, l.height, l.heights) }];
  l.layers.forEach((layer, i) => {
    const w = l.weights[i]!;
    const rgba = new Uint8Array(w.length * 4);
    for (let p = 0; p < w.length; p++) {
      rgba[p * 4] = rgba[p * 4 + 1] = rgba[p * 4 + 2] = w[p]!;
      rgba[p * 4 + 3] = 255;
    }
    files.push({ suffix: `_${layer.name.replace(/[^\w.-]/g, '_')}`, extension: 'png', data: encodePng({ width: l.width, height: l.height, rgba }) });
  });
  return files;
}

export const landscapeKind: AssetKind = {
  kind: 'landscape',
  view: 'landscape',
  classes: LANDSCAPE_CLASSES,
  converts: LANDSCAPE_CONVERSIONS,
  async convert(source, exportIndex, extension, opts) {
    const ext = (extension ?? 'png').toLowerCase();
    if (!(LANDSCAPE_CONVERSIONS as readonly string[]).includes(ext)) throw new RangeError(`a landscape converts to .png, .glb or .json, not .${ext}`);
    const l = await readLandscape(source, exportIndex, opts);
    const note = l.notes.length > 0 ? { note: l.notes.join('; ') } : {};
    if (ext === 'json') return [{ suffix: '', extension: 'json', data: new TextEncoder().encode(`${JSON.stringify(landscapeInfo(l), null, 2)}\n`), ...note }];
    if (ext === 'glb') {
      const data = await writeGlb(landscapeMesh(l, opts.lod !== undefined ? { lod: opts.lod } : {}));
      return [{ suffix: '', extension: 'glb', data, ...note }];
    }
    const files = landscapePngs(l);
    if (note.note) files[0]!.note = note.note;
    return files;
  },
};

registerAssetKind(landscapeKind);

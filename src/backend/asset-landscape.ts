/**
 * The landscape view: a map's terrain as the landscape kind reads it (core/assets/landscape, the
 * registry's "landscape" view), 8-bit previews of its heightmap and layers, the terrain as the
 * mesh view's scene takes a mesh (thinned for display), and its files for saveConversion.
 */
import { landscapeInfo, landscapePngs } from '../core/assets/landscape/kind.js';
import { defaultLandscapeLod, landscapeMesh } from '../core/assets/landscape/mesh.js';
import { readLandscape } from '../core/assets/landscape/read.js';
import type { Landscape } from '../core/assets/landscape/types.js';
import { writeGlb } from '../core/assets/mesh/gltf/write.js';
import { encodePng } from '../core/assets/texture/png.js';
import type { InstallPackages } from '../core/package/open-package.js';
import type { Usmap } from '../core/usmap/types.js';
import type { AssetRequest, SaveConversionRequest } from '../shared/asset-api.js';
import type { LandscapeView } from '../shared/landscape-api.js';
import { packageAssets } from './assets.js';
import { meshGeometry, meshView } from './mesh-view.js';
import type { PackageService } from './packages.js';
import { RequestError } from './request-error.js';

/** The 3D view draws at most this many vertices (512 x 512): a larger terrain is shown thinned, and saved whole. */
export const PREVIEW_VERTICES = 1 << 18;

async function read(packages: InstallPackages, service: PackageService, req: AssetRequest, mappings: Usmap | undefined): Promise<{ landscape: Landscape; path: string; exportIndex: number; converts: string[] }> {
  const loc = service.locate(packages, req.path);
  const engine = req.engine?.trim() || undefined;
  const { model } = await packages.open(loc, engine !== undefined ? { engine } : {});
  const found = packageAssets(model).filter((a) => a.view === 'landscape');
  const asset = req.exportIndex !== undefined ? found.find((a) => a.exportIndex === req.exportIndex) : found[0];
  if (!asset) {
    throw new RequestError(req.exportIndex !== undefined ? `${req.path}: export ${req.exportIndex} is not a landscape actor` : `${req.path}: no export of this package is a landscape actor`);
  }
  const landscape = await readLandscape({ packages, ref: loc.path }, asset.exportIndex, {
    ...(mappings ? { mappings } : {}), ...(engine !== undefined ? { engine } : {}),
  });
  return { landscape, path: loc.path, exportIndex: asset.exportIndex, converts: ['png', 'glb'] };
}

/** An 8-bit gray PNG of `values`, stretched from `lo` (black) to `hi` (white). */
function grayPng(width: number, height: number, value: (i: number) => number): Uint8Array {
  const rgba = new Uint8Array(width * height * 4);
  for (let i = 0; i < width * height; i++) {
    const v = value(i);
    rgba[i * 4] = rgba[i * 4 + 1] = rgba[i * 4 + 2] = v;
    rgba[i * 4 + 3] = 255;
  }
  return encodePng({ width, height, rgba });
}

/** The smallest level of detail that shows `l` in PREVIEW_VERTICES. */
function previewLod(l: Pick<Landscape, 'width' | 'height'>): number {
  let lod = 0;
  while (Math.ceil(l.width / (1 << lod) + 1) * Math.ceil(l.height / (1 << lod) + 1) > PREVIEW_VERTICES) lod++;
  return lod;
}

export async function readLandscapeView(packages: InstallPackages, service: PackageService, req: AssetRequest, mappings: Usmap | undefined): Promise<LandscapeView> {
  const { landscape: l, path, exportIndex, converts } = await read(packages, service, req, mappings);
  if (l.width === 0 || l.height === 0) throw new RequestError(`${l.name} has no components: there is no terrain to show`);
  const range = l.heightRange;
  const span = range && range.max > range.min ? range.max - range.min : 1;
  const heightmapPreview = grayPng(l.width, l.height, (i) => (range && l.covered[i] ? Math.round(((l.heights[i]! - range.min) / span) * 255) : 0));
  const layerPreviews = l.weights.map((w) => grayPng(l.width, l.height, (i) => w[i]!));
  const lod = previewLod(l);
  const mesh = landscapeMesh(l, { lod });
  return {
    path, exportIndex, landscape: landscapeInfo(l), heightmapPreview, layerPreviews,
    mesh: meshView(mesh, path, exportIndex, converts), geometry: meshGeometry(mesh, 0), previewLod: lod,
    converts, json: `${JSON.stringify(landscapeInfo(l), null, 2)}\n`,
  };
}

/** The file saveConversion writes: the 16-bit heightmap (or `req.layer`'s weights) as .png, or the terrain as .glb. */
export async function landscapeFile(packages: InstallPackages, service: PackageService, req: SaveConversionRequest, mappings: Usmap | undefined): Promise<Uint8Array> {
  const { landscape: l } = await read(packages, service, req, mappings);
  try {
    if (req.format === 'glb') {
      return await writeGlb(landscapeMesh(l, { lod: Math.max(req.lod ?? 0, defaultLandscapeLod(l)) }));
    }
    if (req.format !== 'png') throw new RequestError(`a landscape saves as .png or .glb, not .${req.format}`);
    const files = landscapePngs(l);
    if (req.layer === undefined) return files[0]!.data;
    const i = l.layers.findIndex((x) => x.name === req.layer);
    if (i < 0) throw new RequestError(`${l.name} has no layer ${req.layer} (its layers: ${l.layers.map((x) => x.name).join(', ') || 'none'})`);
    return files[i + 1]!.data;
  } catch (e) {
    if (e instanceof RangeError) throw new RequestError(`${l.name}: ${e.message}`);
    throw e;
  }
}

/**
 * What the landscape view gets from the backend (api.ts names the method): a map's terrain as
 * the landscape kind reads it (core/assets/landscape), images to show of its heightmap and weight
 * layers, and the terrain as the mesh view's scene takes a mesh.
 */
import type { LandscapeComponentInfo, LandscapeComponentLayer, LandscapeInfo, LandscapeLayer } from '../core/assets/landscape/types.js';
import type { MeshGeometry, MeshView } from './asset-api.js';

export type { LandscapeComponentInfo, LandscapeComponentLayer, LandscapeInfo, LandscapeLayer };

export interface LandscapeView {
  /** Tree path of the package, as openPackage gives it. */
  path: string;
  exportIndex: number;
  landscape: LandscapeInfo;
  /** The heightmap to look at: an 8-bit gray PNG, the lowest height black and the highest white (the saved PNG is 16-bit). */
  heightmapPreview: Uint8Array;
  /** Each weight layer as an 8-bit gray PNG, in landscape.layers' order. */
  layerPreviews: Uint8Array[];
  /** The terrain for the 3D view: its facts and arrays as the mesh view takes a mesh's, every 2^previewLod-th vertex. */
  mesh: MeshView;
  geometry: MeshGeometry;
  previewLod: number;
  /** What saveConversion writes for it: "png" (the heightmap, or `layer`'s weights), "glb". */
  converts: string[];
  /** What `pakscope landscape --json` prints, for Save and Copy. */
  json: string;
}

/**
 * The landscape kind's entry points for other layers: read a map's terrain (readLandscape), its
 * mesh (landscapeMesh: in the actor's frame with its scale applied, so a level places it with
 * LandscapeInfo.transform's location and rotation) and its files (landscapePngs).
 */
export { landscapeInfo, landscapePngs, LANDSCAPE_CONVERSIONS } from './kind.js';
export { defaultLandscapeLod, landscapeMesh, MAX_MESH_VERTICES, type LandscapeMeshOptions } from './mesh.js';
export { isLandscapeClass, LANDSCAPE_CLASSES, landscapeOfSource, readLandscape, readLandscapes, type LandscapeReadOptions } from './read.js';
export type { Landscape, LandscapeComponentInfo, LandscapeComponentLayer, LandscapeInfo, LandscapeLayer } from './types.js';

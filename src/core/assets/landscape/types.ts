/**
 * A landscape (the terrain of a map: an ALandscape or ALandscapeProxy actor and its
 * ULandscapeComponents) as PakScope reads it. LandscapeInfo is the JSON `pakscope landscape
 * --json` prints and the app shows; Landscape adds the stitched height and weight grids.
 */
import type { Placement } from '../level/transform.js';

/** A weightmap layer of a component: which texture channel holds its weights. */
export interface LandscapeComponentLayer {
  /** Layer name ("Grass"). */
  name: string;
  /** The layer's ULandscapeLayerInfoObject (object path), null when none is set. */
  layerInfo: string | null;
  /** The weightmap texture (object path). */
  weightmap: string;
  /** 0 R, 1 G, 2 B, 3 A. */
  channel: number;
}

export interface LandscapeComponentInfo {
  name: string;
  path: string;
  /** SectionBaseX / SectionBaseY: where it starts on the landscape's grid, in quads. */
  sectionBaseX: number;
  sectionBaseY: number;
  componentSizeQuads: number;
  subsectionSizeQuads: number;
  numSubsections: number;
  /** HeightmapTexture (object path), null when unset. */
  heightmap: string | null;
  /** HeightmapScaleBias (X, Y, Z, W): Z and W are where its part of the heightmap starts, as fractions of the texture. */
  heightmapScaleBias: [number, number, number, number];
  weightmapScaleBias: [number, number, number, number];
  layers: LandscapeComponentLayer[];
  /** Its material instance (MaterialInstances[0]), null when none. */
  materialInstance: string | null;
}

/** A layer of the whole landscape and the file its weights go to. */
export interface LandscapeLayer {
  name: string;
  layerInfo: string | null;
}

export interface LandscapeInfo {
  /** The map's package ("/Game/Maps/Island"). */
  package: string;
  /** The actor's export name and object path, and its class ("Landscape", "LandscapeStreamingProxy"). */
  name: string;
  path: string;
  class: string;
  componentSizeQuads: number;
  subsectionSizeQuads: number;
  numSubsections: number;
  /** LandscapeMaterial (object path), null when unset. */
  material: string | null;
  /** The actor's root component placement: its scale is world units (cm) per quad in X and Y, and the height scale in Z. */
  transform: Placement;
  components: LandscapeComponentInfo[];
  /** The stitched grid: vertices across and down (quads + 1), and the section base of its first vertex. */
  width: number;
  height: number;
  originX: number;
  originY: number;
  /** Lowest and highest stored 16-bit height (32768 is 0), over the vertices the components cover; null when none. */
  heightRange: { min: number; max: number } | null;
  /** The same in the actor's space before its scale: (h - 32768) / 128. */
  localHeightRange: { min: number; max: number } | null;
  layers: LandscapeLayer[];
  /** What could not be read (a component without a heightmap, a weightmap that does not decode...). */
  notes: string[];
}

export interface Landscape extends LandscapeInfo {
  /** width x height 16-bit heights, row after row (Y down the rows); 0 where no component covers a vertex. */
  heights: Uint16Array;
  /** width x height: 1 where a component covers the vertex. */
  covered: Uint8Array;
  /** Per layer (same order as `layers`), width x height weights 0-255. */
  weights: Uint8Array[];
}

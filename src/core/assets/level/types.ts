/**
 * A level (a .umap's World) as PakScope reads it: what is placed in it. This is also the JSON
 * `pakscope level --json` prints and `--format convert` writes.
 */
import type { Placement, Vec3 } from './transform.js';

export type { Placement, Quat, Rotator, Vec3 } from './transform.js';

/** An instanced static mesh component's instances (PerInstanceSMData), in the component's space. */
export interface LevelInstances {
  count: number;
  transforms: Placement[];
  /** NumCustomDataFloats: custom floats per instance. */
  customDataFloats: number;
  /** PerInstanceSMCustomData: count * customDataFloats floats, instance after instance. */
  customData: number[];
}

export interface LevelLight {
  /** Intensity as the component sets it (its unit depends on the light's class and settings); absent: the class default. */
  intensity?: number;
  /** LightColor (sRGB bytes); absent: white. */
  color?: { r: number; g: number; b: number; a: number };
}

export interface LevelComponent {
  name: string;
  /** Object path in the package ("/Game/M/Map.Map:PersistentLevel.Actor.Root"). */
  path: string;
  class: string;
  /** AttachParent: the scene component it hangs under (object path), null for none. */
  attachParent: string | null;
  /** AttachSocketName, when it is attached to a socket (a socket of the parent's static mesh, read through the install, places it: see `world`). */
  attachSocket?: string;
  /** RelativeLocation / RelativeRotation / RelativeScale3D, the engine's defaults where absent. */
  relative: Placement;
  /** Relative composed up the attach chain (through the sockets of static meshes the install holds): where it is in the level. */
  world: Placement;
  /** Static mesh components: StaticMesh (object path), null when unset. */
  staticMesh?: string | null;
  /** OverrideMaterials (object paths, null for a slot left to the mesh). */
  materials?: (string | null)[];
  instances?: LevelInstances;
  light?: LevelLight;
}

export interface LevelActor {
  name: string;
  path: string;
  class: string;
  /** ActorLabel, when the cook kept it (editor-only, usually not). */
  label?: string;
  /** RootComponent (object path), null when the actor has none. */
  rootComponent: string | null;
  /** The actor its root component is attached to (object path), null at the top. */
  parentActor: string | null;
  components: LevelComponent[];
}

/** A streaming level the World names (StreamingLevels) or a World Partition cell's level. */
export interface StreamingLevel {
  name: string;
  path: string;
  class: string;
  /** WorldAsset: the sublevel's world ("/Game/M/Sub.Sub"), null when unset. */
  worldAsset: string | null;
  /** Its package ("/Game/M/Sub"): PackageNameToLoad where set, else WorldAsset's package. */
  package: string | null;
  /** LevelTransform: where the sublevel is placed. */
  transform: Placement;
}

/** A World Partition runtime cell and the package its actors are cooked into. */
export interface PartitionCell {
  name: string;
  path: string;
  class: string;
  spatiallyLoaded: boolean;
  /** The cell's grid (runtime partition), when its cell data names it. */
  grid?: string;
  /** The streaming level that loads it and the generated package it names. */
  levelStreaming: string | null;
  package: string | null;
  worldAsset: string | null;
  /** Cell bounds (cm), when the cell data holds them. */
  contentBounds?: { min: Vec3; max: Vec3 };
}

export interface LevelCounts {
  actors: number;
  actorsByClass: Record<string, number>;
  components: number;
  /** Static mesh components (instanced ones included). */
  meshComponents: number;
  /** Distinct static meshes placed. */
  meshes: number;
  /** Instances of instanced static mesh components. */
  instances: number;
  lights: number;
}

export interface LevelAsset {
  /** The package ("/Game/Maps/Entry"). */
  package: string;
  /** The World export's name. */
  world: string;
  /** PersistentLevel (object path), null when the package has none. */
  persistentLevel: string | null;
  /** The level is World Partition's (bIsPartitioned). */
  partitioned: boolean;
  actors: LevelActor[];
  streamingLevels: StreamingLevel[];
  cells: PartitionCell[];
  counts: LevelCounts;
  /** What could not be read or placed (a missing export, an attach loop, a property of the wrong type). */
  notes: string[];
}

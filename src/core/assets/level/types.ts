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
  /** The World Partition cell it came from, when the cells' actors are merged in. */
  cell?: string;
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
  /** Bounds of the actors in the cell (cm), when the cell data holds them. */
  contentBounds?: { min: Vec3; max: Vec3 };
  /** The grid cell's own bounds (cm; a 2D grid's Z spans everything), when the cell data holds them. */
  cellBounds?: { min: Vec3; max: Vec3 };
  /** CellDebugColor (linear). */
  debugColor?: LinearColor;
  /** DataLayers: the data layer instances the cell's actors belong to (none: always there). */
  dataLayers: string[];
  /** The cell data's HierarchicalLevel (0: the grid's finest) and Priority, where stored. */
  hierarchicalLevel?: number;
  priority?: number;
}

/** A colour as the engine stores it: FLinearColor floats or FColor bytes. */
export interface LinearColor { r: number; g: number; b: number; a: number }

/** A runtime grid: a runtime partition's layer (main or HLOD) or a spatial hash's streaming grid. */
export interface PartitionGrid {
  name: string;
  /** RuntimePartitionLHGrid, RuntimePartitionPersistent..., or SpatialHashStreamingGrid. */
  class: string;
  /** The layer's export, null for a spatial hash grid (a struct). */
  path: string | null;
  /** The runtime partition the layer belongs to. */
  partition: string;
  spatiallyLoaded: boolean;
  /** CellSize and LoadingRange (cm) where stored (absent: the class default). */
  cellSize?: number;
  loadingRange?: number;
  hlodIndex?: number;
  boundsMethod?: string;
  origin?: Vec3;
  clientOnlyVisible: boolean;
  debugColor?: LinearColor;
}

/** RuntimeStreamingData: a partition's cells as the game streams them, with its loading range. */
export interface PartitionStreamingData {
  name: string;
  loadingRange?: number;
  /** Cell object paths. */
  spatialCells: string[];
  nonSpatialCells: string[];
}

/** A data layer instance of the map, or a DataLayerAsset read through it. */
export interface DataLayer {
  name: string;
  path: string;
  class: string;
  /** DataLayerAsset (object path), null for a private data layer. */
  asset: string | null;
  /** EDataLayerType: Runtime or Editor (the asset's, read through the install where it holds it). */
  type?: string;
  /** EDataLayerLoadFilter: None, ClientOnly, ServerOnly. */
  loadFilter?: string;
  debugColor?: LinearColor;
  initialRuntimeState?: string;
  visible?: boolean;
}

export interface WorldPartitionInfo {
  /** The WorldPartition object. */
  path: string;
  /** bCooked, null where the package predates it. */
  cooked: boolean | null;
  streamingPolicy: string | null;
  runtimeHash: {
    path: string;
    /** WorldPartitionRuntimeHashSet or WorldPartitionRuntimeSpatialHash. */
    class: string;
    grids: PartitionGrid[];
    streamingData: PartitionStreamingData[];
  } | null;
  dataLayers: DataLayer[];
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
  /** The map's World Partition (runtime hash, grids, data layers), null when it has none. */
  partition: WorldPartitionInfo | null;
  /** When the cells' actors are merged in (readLevelWithCells): the cell packages read. */
  mergedCells?: string[];
  counts: LevelCounts;
  /** What could not be read or placed (a missing export, an attach loop, a property of the wrong type). */
  notes: string[];
}

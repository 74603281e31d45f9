/**
 * A mesh as the readers find it and the glTF writer, the CLI and the app's 3D view use it. The
 * readers (UStaticMesh, USkeletalMesh, USkeleton) produce it; nothing here knows where the bytes
 * came from. Everything is in the engine's units and axes as stored: centimetres, Z up,
 * left-handed (X forward, Y right). The glTF writer converts to metres, Y up, right-handed.
 */

/** A rigid transform as the engine stores it (FTransform): translation in cm, rotation a unit quaternion (x, y, z, w). */
export interface MeshTransform {
  translation: [number, number, number];
  rotation: [number, number, number, number];
  scale: [number, number, number];
}

/** One draw range of a LOD: a run of triangles drawn with one material slot. */
export interface MeshSection {
  /** Index into Mesh.materials. */
  materialIndex: number;
  /** First index (not triangle) in MeshLod.indices. */
  firstIndex: number;
  triangles: number;
  /** Skeletal sections: the section's bone map (section-local bone index -> skeleton bone index). */
  boneMap?: Uint16Array;
}

/** One level of detail: plain arrays, one entry (or `n` entries) per vertex. */
export interface MeshLod {
  vertexCount: number;
  /** x, y, z per vertex (cm). */
  positions: Float32Array;
  /** x, y, z per vertex, unit length; absent when the mesh stores none. */
  normals?: Float32Array;
  /** x, y, z, w per vertex (w the bitangent sign, +1 or -1); absent when the mesh stores none. */
  tangents?: Float32Array;
  /** One Float32Array of u, v per vertex for each UV channel (UV 0 first). */
  uvs: Float32Array[];
  /** r, g, b, a per vertex, 0-255 as stored (FColor is BGRA on disk; here RGBA). */
  colors?: Uint8Array;
  /** Triangle list, three vertex indices per triangle, every index < vertexCount. */
  indices: Uint32Array;
  sections: MeshSection[];
  /**
   * Skeletal LODs: `influences` (4 or 8) skeleton bone indices and weights per vertex, already
   * mapped through each section's bone map; weights sum to 1 (stored as 0-255 or 0-65535, divided).
   */
  skin?: { influences: number; joints: Uint16Array; weights: Float32Array };
}

/** One bone of the reference skeleton. */
export interface MeshBone {
  name: string;
  /** Index of the parent bone, -1 for the root. Parents come before children. */
  parent: number;
  /** Bind pose relative to the parent. */
  local: MeshTransform;
}

/**
 * A virtual bone of a skeleton: a bone the engine adds at run time, parented to `source` and
 * pointing at `target` (both names of reference skeleton bones); it has no bind pose of its own.
 */
export interface MeshVirtualBone {
  name: string;
  source: string;
  target: string;
}

/** A morph target's deltas for one LOD: only the vertices it moves. */
export interface MorphTargetLod {
  /** Vertex indices into that LOD. */
  vertices: Uint32Array;
  /** x, y, z position delta (cm) per listed vertex. */
  positionDeltas: Float32Array;
  /** x, y, z tangent-Z (normal) delta per listed vertex. */
  normalDeltas?: Float32Array;
}

export interface MorphTarget {
  name: string;
  /** One entry per LOD of the mesh (an empty LOD has no vertices). */
  lods: MorphTargetLod[];
}

export interface MeshSocket {
  name: string;
  /** Bone it is attached to (skeletal meshes), "" for none. */
  bone: string;
  location: [number, number, number];
  /** Euler angles in degrees as the engine stores them (pitch, yaw, roll). */
  rotation: [number, number, number];
  scale: [number, number, number];
}

/** A material slot of the mesh, with the textures its material names where they were found. */
export interface MeshMaterial {
  /** Slot name ("Mat_A"), or the material's object name when the slot has none. */
  name: string;
  /** The material's object path ("/Game/Materials/M_Fixture.M_Fixture"), "" for none. */
  material: string;
  /** Texture object paths by role, where the material (instance) names them by parameter. */
  textures?: { baseColor?: string; normal?: string; orm?: string };
  /** Linear RGBA base colour its material's colour parameter gives, where no texture gives it (slot-materials.ts). */
  baseColor?: [number, number, number, number];
}

/** The facts the app shows beside the view and `pakscope mesh --json` prints. */
export interface MeshInfo {
  /** Export class: "StaticMesh", "SkeletalMesh", "Skeleton", "GeometryCache", "GeometryCollection", "PhysicsAsset". */
  class: string;
  /** Export name in its package. */
  name: string;
  /** Bounds the mesh stores (cm): origin, box extent, sphere radius. */
  bounds?: { origin: [number, number, number]; extent: [number, number, number]; radius: number };
  materials: MeshMaterial[];
  sockets: MeshSocket[];
  /** Anything the reader wants the user to know ("Nanite mesh with no fallback"...). */
  notes: string[];
}

/** A mesh with its geometry read. A Skeleton has no LODs, only bones. */
export interface Mesh extends MeshInfo {
  lods: MeshLod[];
  /** The reference skeleton (skeletal meshes and skeletons); empty for static meshes. */
  bones: MeshBone[];
  morphTargets: MorphTarget[];
  /** Skeletons (and skeletal meshes, from their skeleton where read): the virtual bones. */
  virtualBones?: MeshVirtualBone[];
  /** Meshes made of several nodes (GeometryCache, GeometryCollection, PhysicsAsset): LOD 0 is their parts merged. */
  parts?: MeshPart[];
  /** Tables of what the reader found besides geometry. */
  facts?: MeshFactTable[];
  physics?: PhysicsSummary;
  geometryCache?: GeometryCacheSummary;
}

/**
 * One node of a mesh made of several (a GeometryCache's tracks and frames, a GeometryCollection's
 * pieces, a PhysicsAsset's bodies and their shapes): its place relative to its parent and its own
 * geometry in its own space. The glTF writer makes a node per part; the view draws the parts
 * merged into LOD 0 (parts.ts).
 */
export interface MeshPart {
  name: string;
  /** Index of the parent part, -1 for a root. Parents come before children. */
  parent: number;
  local: MeshTransform;
  /** Its triangles (section material indices into Mesh.materials); absent for a grouping node. */
  geometry?: MeshLod;
  /**
   * Parts shown only part of the time (a GeometryCache's frames): visible (true) or hidden from
   * each time (seconds) on; the glTF writer animates their scale (1 or 0, step).
   */
  visibility?: { times: number[]; visible: boolean[] };
}

/** A table of facts the reader found (frames, pieces, bodies, constraints), shown by the view and the CLI as they are. */
export interface MeshFactTable {
  title: string;
  columns: string[];
  rows: (string | number | boolean)[][];
}

/** A PhysicsAsset's collision shapes (engine axes, cm), each in its body's bone space. */
export interface PhysicsShape {
  type: 'sphere' | 'box' | 'sphyl' | 'tapered capsule' | 'convex';
  center: [number, number, number];
  /** Pitch, yaw, roll in degrees. */
  rotation: [number, number, number];
  /** Sphere and capsule radius; tapered capsules' first radius. */
  radius?: number;
  /** Tapered capsules' second radius. */
  radius1?: number;
  /** Capsule length (of its cylinder, along its Z). */
  length?: number;
  /** Box full extents along its X, Y, Z. */
  size?: [number, number, number];
  /** Convex hull points (cm). */
  points?: number;
  name?: string;
}

export interface PhysicsBody {
  name: string;
  bone: string;
  shapes: PhysicsShape[];
  physicsType?: string;
  collisionTrace?: string;
}

export interface PhysicsConstraint {
  name: string;
  /** ConstraintBone1 (the child) and ConstraintBone2 (the parent). */
  bone1: string;
  bone2: string;
  disableCollision: boolean;
  /** Limits as stored: "swing1 45° limited"...; empty when the constraint keeps the engine's defaults. */
  limits: string[];
}

/** What a PhysicsAsset holds besides its shapes' geometry (pakscope mesh --json's "physics"). */
export interface PhysicsSummary {
  bodies: PhysicsBody[];
  constraints: PhysicsConstraint[];
  /** CollisionDisableTable: body index pairs and whether collision between them is enabled. */
  collisionPairs: { bodies: [number, number]; enabled: boolean }[];
  boundsBodies: number[];
}

/** A GeometryCache's tracks and frames as stored (pakscope mesh --json's "geometryCache"). */
export interface GeometryCacheSummary {
  tracks: {
    name: string;
    codec: string;
    chunks: { dataSize: number; firstFrame: number; lastFrame: number }[];
    samples: { time: number; vertices: number; indices: number }[];
    visibility: { from: number | null; to: number | null; visible: boolean }[];
    /** Each frame as decoded: vertices, triangles and which attributes it has. */
    frames: { vertices: number; triangles: number; attributes: string[] }[];
  }[];
}

/** Meshes: the model (types.ts), the readers (read/) and the registry's mesh kind (kind.ts). */
export { meshKind, MESH_CONVERSIONS, readMesh } from './kind.js';
export { MESH_CLASSES } from './read/read.js';
export type * from './types.js';
export { meshSummary, positionBounds, type MeshLodSummary, type MeshSummary } from './summary.js';

/**
 * The mesh kind in the converter registry: UStaticMesh, USkeletalMesh and USkeleton, the app's 3D
 * view, and glTF binary (.glb) as the file they convert to (gltf/convert.ts: LOD 0 unless
 * ConvertOptions.lod says, with the textures the materials name embedded).
 */
import { registerAssetKind, type AssetKind, type AssetSource, type ConvertOptions } from '../registry.js';
import { MESH_CLASSES, readInstallMesh, readMeshFile } from './read/read.js';
import type { Mesh } from './types.js';
import { convertMesh } from './gltf/convert.js';
import { resolveSlotMaterials } from './slot-materials.js';

export const MESH_CONVERSIONS = ['glb'] as const;

/** Export `exportIndex` of `source` read as a mesh (the first mesh export when undefined). */
export async function readMesh(source: AssetSource, exportIndex: number | undefined, opts: ConvertOptions = {}): Promise<Mesh> {
  const o = {
    ...(exportIndex !== undefined ? { exportIndex } : {}),
    ...(opts.mappings ? { mappings: opts.mappings } : {}),
    ...(opts.engine !== undefined ? { engine: opts.engine } : {}),
    ...(opts.signal ? { signal: opts.signal } : {}),
  };
  if ('file' in source) return readMeshFile(source.file, o);
  const mesh = await readInstallMesh(source.packages, source.ref, o);
  // The slots' materials name the textures the glTF and the textured view use.
  await resolveSlotMaterials(source.packages, mesh, { ...o, ...(opts.materialReads ? { materialReads: opts.materialReads } : {}) });
  return mesh;
}

export const meshKind: AssetKind = {
  kind: 'mesh',
  view: 'mesh',
  classes: MESH_CLASSES,
  converts: MESH_CONVERSIONS,
  async convert(source, exportIndex, extension, opts) {
    return convertMesh(source, await readMesh(source, exportIndex, opts), extension, opts);
  },
};

registerAssetKind(meshKind);

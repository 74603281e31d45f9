/**
 * The mesh kind's conversion: a mesh as one .glb (the LOD `opts.lod`, default 0), with the
 * textures its materials name read from the install and embedded.
 */
import type { AssetSource, ConvertedFile, ConvertOptions } from '../../registry.js';
import type { Mesh } from '../types.js';
import { readMeshTextures } from './textures.js';
import { writeGlb } from './write.js';

export async function convertMesh(source: AssetSource, mesh: Mesh, extension: string | undefined, opts: ConvertOptions = {}): Promise<ConvertedFile[]> {
  const ext = (extension ?? 'glb').toLowerCase();
  if (ext !== 'glb') throw new RangeError(`a mesh converts to .glb, not .${ext}`);
  const { pngs, notes } = await readMeshTextures(source, mesh, opts);
  const data = await writeGlb(mesh, { ...(opts.lod !== undefined ? { lod: opts.lod } : {}), textures: pngs });
  return [{ suffix: '', extension: 'glb', data, ...(notes.length > 0 ? { note: notes.join('; ') } : {}) }];
}

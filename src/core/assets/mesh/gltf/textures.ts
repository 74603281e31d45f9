/**
 * The textures a mesh's materials name (MeshMaterial.textures), read and decoded by the texture
 * kind and encoded as PNG for the .glb. Normal maps get their green channel inverted: the engine's
 * are DirectX-style (+Y down), glTF's OpenGL-style (+Y up), as Unreal's glTF exporter adjusts them.
 * Only textures of an install can be found (a mesh file on disk names them by package path, not
 * by file); a texture that cannot be read is left out with a note saying why.
 */
import { packageOfObjectPath } from '../../../package/object-path.js';
import type { AssetSource, ConvertOptions } from '../../registry.js';
import { readTexture } from '../../texture/kind.js';
import { canDecode } from '../../texture/convert.js';
import { decodeTextureImage, firstPresentMip, pngPixels } from '../../texture/image.js';
import { encodePng } from '../../texture/png.js';
import type { Mesh } from '../types.js';

export interface MeshTextures {
  /** PNG file by texture object path, as GlbOptions.textures takes it. */
  pngs: Map<string, Uint8Array>;
  notes: string[];
}


/**
 * PNGs of the textures of `mesh`'s materials (the largest mip the install has), added to `pngs`;
 * a texture already there (another mesh's, in a level) is not read again.
 */
export async function readMeshTextures(source: AssetSource, mesh: Mesh, opts: ConvertOptions = {}, pngs = new Map<string, Uint8Array>()): Promise<MeshTextures> {
  const notes: string[] = [];
  const wanted = new Map<string, 'normal' | 'color'>();
  for (const m of mesh.materials) {
    for (const [role, path] of Object.entries(m.textures ?? {})) if (path && !pngs.has(path)) wanted.set(path, role === 'normal' ? 'normal' : 'color');
  }
  if (wanted.size === 0) return { pngs, notes };
  if (!('packages' in source)) {
    notes.push(`the materials' textures (${wanted.size}) are not embedded: a mesh file on its own does not say where their packages are`);
    return { pngs, notes };
  }
  for (const [path, role] of wanted) {
    opts.signal?.throwIfAborted();
    try {
      const texture = await readTexture({ packages: source.packages, ref: packageOfObjectPath(path) }, undefined, opts);
      if (!canDecode(texture)) throw new Error(`${texture.pixelFormat} cannot be decoded`);
      const image = await decodeTextureImage(texture, { mip: firstPresentMip(texture), ...(opts.pool ? { pool: opts.pool } : {}), ...(opts.signal ? { signal: opts.signal } : {}) });
      const rgba = pngPixels(texture.pixelFormat, image, texture);
      if (role === 'normal') for (let i = 1; i < rgba.rgba.length; i += 4) rgba.rgba[i] = 255 - rgba.rgba[i]!;
      pngs.set(path, encodePng(rgba));
    } catch (e) {
      if (opts.signal?.aborted) throw e;
      notes.push(`texture ${path} not embedded: ${e instanceof Error ? e.message : String(e)}`);
    }
  }
  return { pngs, notes };
}

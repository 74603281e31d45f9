/**
 * The mesh view's backend: a mesh's facts, one LOD's arrays for WebGL, and its .glb. Meshes are
 * read by the mesh kind's reader (core/assets/mesh) and the last few kept, so switching LODs or
 * saving does not read the package again.
 */
import { convertMesh } from '../core/assets/mesh/gltf/convert.js';
import type { Mesh } from '../core/assets/mesh/types.js';
import type { AssetSource, ConvertOptions } from '../core/assets/registry.js';
import type { Install } from '../core/install/install.js';
import type { Usmap } from '../core/usmap/types.js';
import type { WorkerPool } from '../core/workers/pool.js';
import type { AssetRequest, MeshGeometry, MeshGeometryRequest, MeshView, PackageAsset, SaveConversionRequest } from '../shared/asset-api.js';
import { packageAssets } from './assets.js';
import { meshGeometry, meshView } from './mesh-view.js';
import type { PackageService } from './packages.js';
import { RequestError } from './request-error.js';

/** Reads export `exportIndex` of `source` as a mesh (the mesh kind's readMesh). */
export type MeshReader = (source: AssetSource, exportIndex: number, opts: ConvertOptions) => Promise<Mesh>;

const CACHED_MESHES = 3;

export interface MeshServiceOptions {
  packages: PackageService;
  read: MeshReader;
  pool?: WorkerPool | undefined;
  mappings: (installId: string) => Promise<Usmap | undefined>;
}

interface Found { mesh: Mesh; asset: PackageAsset; path: string; source: AssetSource; opts: ConvertOptions }

export class MeshService {
  private readonly cache = new Map<string, Promise<Found>>();

  constructor(private readonly opts: MeshServiceOptions) {}

  forget(installId: string): void {
    for (const k of [...this.cache.keys()]) if (k.startsWith(`${installId}|`)) this.cache.delete(k);
  }

  async info(install: Install, req: AssetRequest): Promise<MeshView> {
    const { mesh, asset, path } = await this.mesh(install, req);
    return meshView(mesh, path, asset.exportIndex, asset.converts);
  }

  async geometry(install: Install, req: MeshGeometryRequest): Promise<MeshGeometry> {
    const { mesh } = await this.mesh(install, req);
    try {
      return meshGeometry(mesh, req.lod ?? 0);
    } catch (e) {
      if (e instanceof RangeError) throw new RequestError(e.message);
      throw e;
    }
  }

  /** The .glb of the mesh (the LOD asked for), with its materials' textures embedded where the install has them. */
  async convert(install: Install, req: SaveConversionRequest): Promise<Uint8Array> {
    const { mesh, source, opts } = await this.mesh(install, req);
    try {
      const [file] = await convertMesh(source, mesh, req.format, { ...opts, ...(req.lod !== undefined ? { lod: req.lod } : {}) });
      return file!.data;
    } catch (e) {
      if (e instanceof RangeError) throw new RequestError(`${mesh.name}: ${e.message}`);
      throw e;
    }
  }

  private async mesh(install: Install, req: AssetRequest): Promise<Found> {
    const key = `${req.installId}|${req.path}|${req.exportIndex ?? ''}|${req.engine ?? ''}`;
    let hit = this.cache.get(key);
    if (hit) {
      this.cache.delete(key);
    } else {
      hit = this.read(install, req);
      hit.catch(() => { if (this.cache.get(key) === hit) this.cache.delete(key); });
    }
    this.cache.set(key, hit);
    while (this.cache.size > CACHED_MESHES) this.cache.delete(this.cache.keys().next().value!);
    return hit;
  }

  private async read(install: Install, req: AssetRequest): Promise<Found> {
    const packages = this.opts.packages.packagesOf(req.installId, install);
    const opened = await packages.open(this.opts.packages.locate(packages, req.path), req.engine ? { engine: req.engine } : {});
    const assets = packageAssets(opened.model);
    const asset = req.exportIndex === undefined ? assets.find((a) => a.kind === 'mesh') : assets.find((a) => a.exportIndex === req.exportIndex);
    if (!asset || asset.kind !== 'mesh') {
      throw new RequestError(req.exportIndex === undefined ? `${opened.path} holds no mesh` : `export ${req.exportIndex} of ${opened.path} is not a mesh`);
    }
    const mappings = await this.opts.mappings(req.installId);
    const opts: ConvertOptions = { ...(mappings ? { mappings } : {}), ...(req.engine ? { engine: req.engine } : {}), ...(this.opts.pool ? { pool: this.opts.pool } : {}) };
    const source: AssetSource = { packages, ref: opened.path };
    return { mesh: await this.opts.read(source, asset.exportIndex, opts), asset, path: opened.path, source, opts };
  }
}

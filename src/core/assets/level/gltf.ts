/**
 * A level as one glTF binary (.glb): every static mesh component placed where the level puts it
 * (its world transform), an instanced component's instances as child nodes, each static mesh
 * written once (LOD 0, through the mesh kind's glTF writer, with its materials' textures) and
 * shared by the nodes that place it; each landscape actor's terrain (core/assets/landscape) at
 * its actor's location and rotation (its scale is in the terrain's vertices). Metres and Y up, as
 * the mesh kind writes them. Meshes are read through the install; a package file alone leaves the
 * nodes empty, with a note.
 */
import { Document, NodeIO, VertexLayout, type Mesh as GltfMesh, type Node, type Texture } from '@gltf-transform/core';
import { landscapeMesh } from '../landscape/mesh.js';
import { isLandscapeClass, readLandscapes } from '../landscape/read.js';
import { readMesh } from '../mesh/kind.js';
import { MaterialReads } from '../material/read.js';
import { addStaticMesh } from '../mesh/gltf/write.js';
import { readMeshTextures } from '../mesh/gltf/textures.js';
import { packageOfObjectPath } from '../../package/object-path.js';
import { toGltfAxes, toGltfPosition, toGltfQuat } from '../mesh/gltf/axes.js';
import type { AssetSource, ConvertedFile, ConvertOptions } from '../registry.js';
import type { LevelAsset, Placement } from './types.js';

function place(node: Node, p: Placement): Node {
  return node
    .setTranslation(toGltfPosition([p.location.x, p.location.y, p.location.z]))
    .setRotation(toGltfQuat([p.quat.x, p.quat.y, p.quat.z, p.quat.w]))
    .setScale(toGltfAxes([p.scale.x, p.scale.y, p.scale.z]));
}

/** `level`'s static meshes placed in one .glb. */
export async function levelGlb(source: AssetSource, level: LevelAsset, opts: ConvertOptions = {}): Promise<ConvertedFile> {
  const notes: string[] = [];
  const doc = new Document();
  doc.getRoot().getAsset().generator = 'PakScope';
  doc.createBuffer();
  const scene = doc.createScene(level.world);
  doc.getRoot().setDefaultScene(scene);

  const meshes = new Map<string, GltfMesh | null>();
  // Shared by the meshes: the slots' materials and their parents (a master material under many instances) are opened once.
  const materialReads = opts.materialReads ?? new MaterialReads();
  // Shared by the meshes: a texture several of them use is decoded and embedded once.
  const pngs = new Map<string, Uint8Array>();
  const textures = new Map<string, Texture>();
  const meshOf = async (path: string): Promise<GltfMesh | null> => {
    const known = meshes.get(path);
    if (known !== undefined) return known;
    let made: GltfMesh | null = null;
    if ('file' in source) {
      if (meshes.size === 0) notes.push('a package file alone: its meshes are in other packages, not read (the nodes are placed without them)');
    } else {
      try {
        const mesh = await readMesh({ packages: source.packages, ref: packageOfObjectPath(path) }, undefined, { ...opts, materialReads });
        if (mesh.class !== 'StaticMesh') notes.push(`${path} is a ${mesh.class}, not a static mesh: left out`);
        else {
          const read = await readMeshTextures(source, mesh, opts, pngs);
          notes.push(...read.notes);
          made = addStaticMesh(doc, mesh, 0, pngs, textures) ?? null;
          if (!made) notes.push(`${path} has no LOD 0: left out`);
        }
      } catch (e) {
        if (e instanceof Error && e.name === 'AbortError') throw e;
        notes.push(`${path} does not read: ${e instanceof Error ? e.message : String(e)}`);
      }
    }
    meshes.set(path, made);
    return made;
  };

  for (const actor of level.actors) {
    for (const c of actor.components) {
      opts.signal?.throwIfAborted();
      if (!c.staticMesh) continue;
      const mesh = await meshOf(c.staticMesh);
      const node = place(doc.createNode(`${actor.name}.${c.name}`), c.world);
      scene.addChild(node);
      if (c.instances) {
        c.instances.transforms.forEach((t, i) => {
          const child = place(doc.createNode(`${c.name}[${i}]`), t);
          if (mesh) child.setMesh(mesh);
          node.addChild(child);
        });
      } else if (mesh) node.setMesh(mesh);
    }
  }
  await addTerrains(source, level, doc, scene, opts, notes);
  const data = await new NodeIO().setVertexLayout(VertexLayout.SEPARATE).writeBinary(doc);
  return { suffix: '', extension: 'glb', data, ...(notes.length > 0 ? { note: notes.join('; ') } : {}) };
}

/** Each landscape actor's terrain, a node at the actor's world location and rotation; what does not read is a note. */
async function addTerrains(source: AssetSource, level: LevelAsset, doc: Document, scene: ReturnType<Document['createScene']>, opts: ConvertOptions, notes: string[]): Promise<void> {
  const actors = level.actors.filter((a) => isLandscapeClass(a.class));
  if (actors.length === 0) return;
  try {
    const landscapes = await readLandscapes(source, actors.map((a) => a.path), opts);
    for (const l of landscapes) {
      notes.push(...l.notes.map((n) => `${l.name}: ${n}`));
      const mesh = addStaticMesh(doc, landscapeMesh(l));
      const actor = actors.find((a) => a.path === l.path);
      const root = actor?.components.find((c) => c.path === actor.rootComponent)?.world ?? l.transform;
      const node = doc.createNode(l.name)
        .setTranslation(toGltfPosition([root.location.x, root.location.y, root.location.z]))
        .setRotation(toGltfQuat([root.quat.x, root.quat.y, root.quat.z, root.quat.w]));
      if (mesh) node.setMesh(mesh);
      scene.addChild(node);
    }
  } catch (e) {
    if (e instanceof Error && e.name === 'AbortError') throw e;
    notes.push(`the landscape does not read: ${e instanceof Error ? e.message : String(e)}`);
  }
}

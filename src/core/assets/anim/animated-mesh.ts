/**
 * A sequence with what it plays on: its skeleton (read from the package its Skeleton property
 * names) and a skeletal mesh of that skeleton, looked for beside the sequence and the skeleton
 * (their folders and the folders next to them) unless the caller names one. Without a mesh the
 * skeleton's bones are what plays. The .glb of it: the mesh (or the bones) with the animation.
 */
import { FormatError } from '../../errors.js';
import type { InstallPackages } from '../../package/open-package.js';
import { writeGlb } from '../mesh/gltf/write.js';
import { readMesh } from '../mesh/kind.js';
import type { Mesh } from '../mesh/types.js';
import type { AssetSource, ConvertOptions } from '../registry.js';
import { addGltfAnimation } from './gltf-animation.js';
import { readAnimSequenceFile, readInstallAnimSequence } from './read/read.js';
import type { AnimSequence } from './types.js';

/** Packages opened while looking for a skeletal mesh, at most (their headers only). */
const MAX_CANDIDATES = 64;

export interface AnimatedMesh {
  sequence: AnimSequence;
  /** The sequence's skeleton as read, when it was found. */
  skeleton?: Mesh;
  /** The skeletal mesh it plays on (or the skeleton when no mesh was found). */
  mesh?: Mesh;
  /** The package of `mesh`, as `ls` prints it. */
  meshPath?: string;
  notes: string[];
}

const packageOf = (objectPath: string): string => (objectPath.includes('.') ? objectPath.slice(0, objectPath.lastIndexOf('.')) : objectPath);
const folderOf = (path: string): string => path.slice(0, Math.max(0, path.lastIndexOf('/')));

/** The sequence, its skeleton and the mesh to show it on. `meshRef` names the mesh instead of looking for one. */
export async function readAnimatedMesh(source: AssetSource, exportIndex: number | undefined, opts: ConvertOptions & { meshRef?: string } = {}): Promise<AnimatedMesh> {
  const o = {
    ...(exportIndex !== undefined ? { exportIndex } : {}), ...(opts.mappings ? { mappings: opts.mappings } : {}),
    ...(opts.engine !== undefined ? { engine: opts.engine } : {}), ...(opts.signal ? { signal: opts.signal } : {}),
  };
  if ('file' in source) {
    const sequence = await readAnimSequenceFile(source.file, o);
    return { sequence, notes: ['a package file on its own: its skeleton is in another package, so the sequence is shown without it'] };
  }
  const { packages } = source;
  const sequence = await readInstallAnimSequence(packages, source.ref, o);
  const notes: string[] = [];
  if (!sequence.skeleton) return { sequence, notes: ['the sequence\'s skeleton is not known'] };
  const meshOpts = { ...(opts.mappings ? { mappings: opts.mappings } : {}), ...(opts.engine !== undefined ? { engine: opts.engine } : {}) };
  let skeleton: Mesh;
  let skeletonPath: string;
  try {
    skeletonPath = packages.locate(packageOf(sequence.skeleton)).path;
    skeleton = await readMesh({ packages, ref: skeletonPath }, undefined, meshOpts);
  } catch (e) {
    return { sequence, notes: [`its skeleton ${sequence.skeleton} could not be read (${(e as Error).message})`] };
  }
  let meshPath = opts.meshRef ? packages.locate(opts.meshRef).path : await findSkeletalMesh(packages, [packages.locate(source.ref).path, skeletonPath], sequence.skeleton);
  let mesh: Mesh = skeleton;
  if (meshPath) {
    try {
      mesh = await readMesh({ packages, ref: meshPath }, undefined, meshOpts);
    } catch (e) {
      if (opts.meshRef) throw e;
      notes.push(`the skeletal mesh ${meshPath} could not be read (${(e as Error).message}): the skeleton's bones play the sequence`);
      mesh = skeleton;
      meshPath = undefined;
    }
  } else notes.push('no skeletal mesh of its skeleton was found beside the sequence or the skeleton: its bones play the sequence');
  return { sequence, skeleton, mesh, ...(meshPath ? { meshPath } : {}), notes };
}

/**
 * A SkeletalMesh package that imports `skeleton` (an object path), in the folders of `near` (ls
 * paths) and the folders beside them; undefined when none is.
 */
export function findSkeletalMesh(packages: InstallPackages, near: readonly string[], skeleton: string): Promise<string | undefined> {
  // Remembered per install, skeleton and folders: converting a folder of sequences of one
  // skeleton looks once, not once per sequence.
  let found = searches.get(packages);
  if (!found) searches.set(packages, (found = new Map()));
  const key = `${skeleton}|${near.map(folderOf).join('|')}`;
  let hit = found.get(key);
  if (!hit) found.set(key, (hit = searchSkeletalMesh(packages, near, skeleton)));
  return hit;
}

const searches = new WeakMap<InstallPackages, Map<string, Promise<string | undefined>>>();

async function searchSkeletalMesh(packages: InstallPackages, near: readonly string[], skeleton: string): Promise<string | undefined> {
  const folders: string[] = [];
  const add = (f: string) => { if (!folders.includes(f)) folders.push(f); };
  for (const p of near) add(folderOf(p));
  for (const p of near) {
    const parent = folderOf(folderOf(p));
    for (const e of packages.install.listDir(parent)) if (e.isDir) add(e.path);
  }
  let opened = 0;
  for (const folder of folders) {
    for (const e of packages.install.listDir(folder)) {
      if (e.isDir || !/\.uasset$/i.test(e.name) || near.some((p) => p === e.path)) continue;
      if (++opened > MAX_CANDIDATES) return undefined;
      try {
        const { model } = await packages.open(e.path);
        if (model.exports.some((x) => x.class === 'SkeletalMesh') && model.imports.some((i) => i.path === skeleton)) return e.path;
      } catch {
        // A package that does not open is not the one.
      }
    }
  }
  return undefined;
}

/** The .glb of the sequence on its mesh (or skeleton): the mesh's LOD `lod` with the animation on its joints. */
export async function writeAnimatedGlb(a: AnimatedMesh, lod = 0): Promise<Uint8Array> {
  const { sequence, mesh, skeleton } = a;
  if (!mesh || !skeleton) throw new FormatError(sequence.name, 'animation sequence', 0, 'its skeleton was not read, so there is nothing to play it on');
  if (sequence.tracks.length === 0) throw new FormatError(sequence.name, 'animation sequence', 0, `its bone tracks are not decoded (${sequence.codecs.boneFormat || sequence.codecs.bone || 'no bone data'})`);
  return writeGlb(mesh, { lod, extend: (doc, nodes) => { addGltfAnimation(doc, nodes, mesh.bones, sequence, skeleton.bones); } });
}

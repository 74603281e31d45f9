/**
 * The sockets a level's components are attached to: a component whose AttachSocketName names a
 * socket of its parent static mesh component's mesh hangs at that socket (UStaticMeshSocket's
 * RelativeLocation, RelativeRotation and RelativeScale, in the mesh's space), not at the parent's
 * origin. Each mesh named is read once from the install (its package's StaticMeshSocket exports);
 * a mesh the install lacks, or a socket it does not have, leaves the component at its parent's
 * origin with a note, as the engine places a socket it cannot find.
 */
import type { InstallPackages } from '../../package/open-package.js';
import { packageOfObjectPath } from '../../package/object-path.js';
import { installPackageProperties } from '../../properties/open.js';
import type { ConvertOptions } from '../registry.js';
import { ONE, ZERO, placement, type Placement } from './transform.js';
import type { LevelAsset } from './types.js';
import { Reader } from './values.js';
import { valuesOf } from '../../properties/fields.js';

export const socketKey = (mesh: string, socket: string): string => `${mesh}\0${socket.toLowerCase()}`;

/** Static meshes (object paths) -> the socket names components attach to on them. */
export function attachSockets(level: LevelAsset): Map<string, Set<string>> {
  const byPath = new Map(level.actors.flatMap((a) => a.components.map((c) => [c.path, c] as const)));
  const out = new Map<string, Set<string>>();
  for (const a of level.actors) {
    for (const c of a.components) {
      const mesh = c.attachSocket && c.attachParent ? byPath.get(c.attachParent)?.staticMesh : undefined;
      if (!mesh) continue;
      let names = out.get(mesh);
      if (!names) out.set(mesh, (names = new Set()));
      names.add(c.attachSocket!);
    }
  }
  return out;
}

/** The placements of the sockets `level`'s components attach to, by socketKey, and notes on those not found. */
export async function readAttachSockets(packages: InstallPackages, level: LevelAsset, opts: Pick<ConvertOptions, 'mappings' | 'engine' | 'signal'> = {}): Promise<{ sockets: Map<string, Placement>; notes: string[] }> {
  const sockets = new Map<string, Placement>();
  const notes: string[] = [];
  for (const [mesh, names] of attachSockets(level)) {
    opts.signal?.throwIfAborted();
    const pkg = packageOfObjectPath(mesh);
    if (!packages.index.byPackageName(pkg)) {
      notes.push(`${mesh} is not in the install: what is attached to its sockets (${[...names].join(', ')}) is placed at its component's origin`);
      continue;
    }
    const found = new Map<string, Placement>();
    try {
      const opened = await installPackageProperties(packages, pkg, { ...(opts.mappings ? { mappings: opts.mappings } : {}), ...(opts.engine !== undefined ? { engine: opts.engine } : {}) });
      const rd = new Reader();
      for (const e of opened.properties.exports) {
        if (e.class !== 'StaticMeshSocket') continue;
        const v = valuesOf(e.properties);
        const name = rd.str(v['SocketName'], `${e.name}.SocketName`) ?? e.name;
        found.set(name.toLowerCase(), placement(rd.vec(v['RelativeLocation'], `${e.name}.RelativeLocation`, ZERO), rd.rot(v['RelativeRotation'], `${e.name}.RelativeRotation`), rd.vec(v['RelativeScale'], `${e.name}.RelativeScale`, ONE)));
      }
      notes.push(...rd.notes.map((n) => `${mesh}: ${n}`));
    } catch (e) {
      if (opts.signal?.aborted) throw e;
      notes.push(`${mesh} does not read (${e instanceof Error ? e.message : String(e)}): what is attached to its sockets is placed at its component's origin`);
      continue;
    }
    for (const name of names) {
      const p = found.get(name.toLowerCase());
      if (p) sockets.set(socketKey(mesh, name), p);
      else notes.push(`${mesh} has no socket ${name}: what is attached to it is placed at its component's origin`);
    }
  }
  return { sockets, notes };
}

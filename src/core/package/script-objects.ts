/**
 * The global script objects Zen packages import /Script/... objects by: UE5's ScriptObjects chunk,
 * UE4.26/27's LoaderInitialLoadMeta + LoaderGlobalNames, both in the global container. An install
 * usually holds global.utoc beside its pakchunks; when the user named only a pakchunk (or a
 * folder below the Paks folder), the global.utoc beside it or one folder up is opened too.
 */
import { stat } from 'node:fs/promises';
import { dirname, join, resolve } from 'node:path';
import { openIoStoreContainer, type IoStoreContainer } from '../iostore/container.js';
import { parseLegacyScriptObjects, parseScriptObjects, type ScriptObjects } from '../zen/script-objects.js';

/** Folders above a container searched for global.utoc (0 = its own folder). */
const GLOBAL_SEARCH_LEVELS = 1;

export interface ScriptObjectsFound {
  objects: ScriptObjects;
  /** The global container they came from. */
  container: string;
  /** Opened here (not part of the install): the caller closes it. */
  opened?: IoStoreContainer;
}

/** Reads the script objects of a container that has them; undefined when it has none. */
export async function readScriptObjects(c: IoStoreContainer): Promise<ScriptObjects | undefined> {
  const ue5 = c.entriesOfType('ScriptObjects')[0];
  if (ue5 !== undefined) return parseScriptObjects(await c.readChunk(ue5), `${c.path} (script objects)`);
  const meta = c.entriesOfType('LoaderInitialLoadMeta')[0];
  const names = c.entriesOfType('LoaderGlobalNames')[0];
  if (meta === undefined || names === undefined) return undefined;
  const hashes = c.entriesOfType('LoaderGlobalNameHashes')[0];
  return parseLegacyScriptObjects(await c.readChunk(meta), await c.readChunk(names), `${c.path} (initial load meta)`, {
    namesFileName: `${c.path} (global names)`,
    ...(hashes !== undefined ? { globalNameHashes: await c.readChunk(hashes), hashesFileName: `${c.path} (global name hashes)` } : {}),
  });
}

/** global.utoc files beside the given containers or up to GLOBAL_SEARCH_LEVELS folders above, nearest first. */
export async function globalContainersNear(containerPaths: readonly string[]): Promise<string[]> {
  const candidates: string[] = [];
  for (const p of containerPaths) {
    let dir = dirname(resolve(p));
    for (let level = 0; level <= GLOBAL_SEARCH_LEVELS; level++) {
      const candidate = join(dir, 'global.utoc');
      if (!candidates.includes(candidate)) candidates.push(candidate);
      const up = dirname(dir);
      if (up === dir) break;
      dir = up;
    }
  }
  const present = await Promise.all(candidates.map((c) => stat(c).then((s) => s.isFile(), () => false)));
  return candidates.filter((_, i) => present[i]);
}

/**
 * The script objects of the install's containers (the winner first), else of a global.utoc near
 * them. A global container that cannot be read is skipped: /Script imports then stay hashes.
 */
export async function findScriptObjects(containers: readonly IoStoreContainer[]): Promise<{ found?: ScriptObjectsFound; problems: string[] }> {
  const problems: string[] = [];
  const note = (e: unknown): void => { problems.push(e instanceof Error ? e.message : String(e)); };
  for (const c of containers) {
    try {
      const objects = await readScriptObjects(c);
      if (objects) return { found: { objects, container: c.path }, problems };
    } catch (e) {
      note(e);
    }
  }
  const inInstall = new Set(containers.map((c) => resolve(c.path)));
  for (const path of await globalContainersNear(containers.map((c) => c.path))) {
    if (inInstall.has(path)) continue;
    let opened: IoStoreContainer | undefined;
    try {
      opened = await openIoStoreContainer(path);
      const objects = await readScriptObjects(opened);
      if (objects) return { found: { objects, container: path, opened }, problems };
    } catch (e) {
      note(e);
    }
    await opened?.close();
  }
  return { problems };
}

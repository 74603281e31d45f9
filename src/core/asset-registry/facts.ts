/**
 * What an asset registry says of each asset, in a form small enough to cross threads: the
 * package, object, class and tags. The app's details pane shows these for a package without
 * opening it; a big game's registry is parsed in a worker (WorkerPool.registryFacts) so that
 * reading it does not hold up the requests in between.
 */
import { parseAssetRegistry } from './read.js';

export interface RegistryAssetFact {
  /** "/Game/Path/Asset". */
  package: string;
  object: string;
  class: string;
  tags: [string, string][];
}

/** The assets of the registry file `path` (FormatError when it does not read). */
export function registryAssetFacts(data: Uint8Array, path: string): RegistryAssetFact[] {
  return parseAssetRegistry(data, path).assets.map((a) => ({ package: a.package, object: a.object, class: a.class, tags: Object.entries(a.tags) }));
}

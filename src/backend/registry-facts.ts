/**
 * The install's asset registries as answers about single packages: once per install, every
 * AssetRegistry.bin it holds is read and its assets indexed by package name, so the details pane
 * can show a package's class and tags (a texture's size, a mesh's triangle count) without opening
 * the package. A big game's registry takes seconds to parse: it is read in the background (parsed
 * in the worker pool where there is one) and no request waits for it; onReady says when it is
 * there, and the page asks again. An install with no registry costs one scan of its file names.
 */
import { registryAssetFacts, type RegistryAssetFact } from '../core/asset-registry/facts.js';
import { isAssetRegistryPath } from '../core/asset-registry/install.js';
import type { Install } from '../core/install/install.js';
import type { WorkerPool } from '../core/workers/pool.js';
import type { RegistryFact } from '../shared/data-api.js';

export interface RegistryFactsOptions {
  /** Parses the registries off this thread; without one they are parsed here, after the request that asked. */
  pool?: WorkerPool | undefined;
  /** An install's registries have been read (or failed to): their facts are there now. */
  onReady?: (installId: string) => void;
}

interface Indexed {
  install: Install;
  /** Package name (lowercase) -> its assets in every registry; set once read. */
  byPackage?: Map<string, RegistryFact[]>;
}

export class RegistryFactsService {
  private readonly byInstall = new Map<string, Indexed>();
  private readonly holdsRegistry = new WeakMap<Install, boolean>();

  constructor(private readonly opts: RegistryFactsOptions = {}) {}

  /** Whether the install holds any asset registry (its file names, scanned once). */
  hasRegistry(install: Install): boolean {
    let known = this.holdsRegistry.get(install);
    if (known === undefined) {
      known = false;
      for (const f of install.files()) if (isAssetRegistryPath(f.path)) { known = true; break; }
      this.holdsRegistry.set(install, known);
    }
    return known;
  }

  /**
   * The registries' assets of package `packageName` ("/Game/Maps/Entry") when they have been read
   * ([] when none lists it); undefined while they are being read (the reading starts now if it
   * has not yet: onReady follows).
   */
  factsIfRead(installId: string, install: Install, packageName: string): RegistryFact[] | undefined {
    const read = this.entry(installId, install).byPackage;
    return read ? read.get(packageName.toLowerCase()) ?? [] : undefined;
  }

  forget(installId: string): void {
    this.byInstall.delete(installId);
  }

  private entry(installId: string, install: Install): Indexed {
    let o = this.byInstall.get(installId);
    if (!o || o.install !== install) {
      const entry: Indexed = { install };
      void this.index(install).then((map) => {
        entry.byPackage = map;
        if (this.byInstall.get(installId) === entry) this.opts.onReady?.(installId);
      });
      this.byInstall.set(installId, o = entry);
    }
    return o;
  }

  /** Never rejects: a registry that does not read is left out. */
  private async index(install: Install): Promise<Map<string, RegistryFact[]>> {
    const out = new Map<string, RegistryFact[]>();
    if (!this.hasRegistry(install)) return out;
    const paths = [...install.files()].map((f) => f.path).filter(isAssetRegistryPath).sort();
    for (const path of paths) {
      let facts: RegistryAssetFact[];
      try {
        const p = install.file(path)!.providers[0]!;
        const data = await p.archive.read(p.file.ref);
        if (this.opts.pool) {
          facts = await this.opts.pool.registryFacts(path, data);
        } else {
          // Parsed on this thread: after the request that asked has had its answer.
          await new Promise((resolve) => setImmediate(resolve));
          facts = registryAssetFacts(data, path);
        }
      } catch {
        continue; // a registry that does not read is left out here; its own view (the Assets tab) says why
      }
      for (const a of facts) {
        const key = a.package.toLowerCase();
        const list = out.get(key) ?? [];
        list.push({ registry: path, object: a.object, class: a.class, tags: a.tags });
        out.set(key, list);
      }
    }
    return out;
  }
}

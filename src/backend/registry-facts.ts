/**
 * The install's asset registries as answers about single packages: once per install, every
 * AssetRegistry.bin it holds is read and its assets indexed by package name, so the details pane
 * can show a package's class and tags (a texture's size, a mesh's triangle count) without opening
 * the package. An install with no registry costs one scan of its file names.
 */
import { readInstallRegistries, isAssetRegistryPath } from '../core/asset-registry/install.js';
import type { Install } from '../core/install/install.js';
import type { RegistryFact } from '../shared/data-api.js';

interface Indexed {
  install: Install;
  /** Package name -> its assets in every registry; empty when the install has none. */
  byPackage: Promise<Map<string, RegistryFact[]>>;
}

export class RegistryFactsService {
  private readonly byInstall = new Map<string, Indexed>();
  private readonly holdsRegistry = new WeakMap<Install, boolean>();

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

  /** The registries' assets of package `packageName` ("/Game/Maps/Entry"); [] when none lists it. */
  async factsOf(installId: string, install: Install, packageName: string): Promise<RegistryFact[]> {
    let o = this.byInstall.get(installId);
    if (!o || o.install !== install) {
      o = { install, byPackage: this.index(install) };
      this.byInstall.set(installId, o);
    }
    return (await o.byPackage).get(packageName.toLowerCase()) ?? [];
  }

  forget(installId: string): void {
    this.byInstall.delete(installId);
  }

  private async index(install: Install): Promise<Map<string, RegistryFact[]>> {
    const out = new Map<string, RegistryFact[]>();
    if (!this.hasRegistry(install)) return out;
    // A registry that does not read is left out here; its own view (the Assets tab) says why.
    for (const file of await readInstallRegistries(install)) {
      for (const a of file.registry?.assets ?? []) {
        const key = a.package.toLowerCase();
        const list = out.get(key) ?? [];
        list.push({ registry: file.path, object: a.object, class: a.class, tags: Object.entries(a.tags) });
        out.set(key, list);
      }
    }
    return out;
  }
}

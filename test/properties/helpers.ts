/** Reading properties of corpus packages for the tests, and finding values in the result. */
import { existsSync, readFileSync } from 'node:fs';
import { openInstall, type Install } from '../../src/core/install/install.js';
import { InstallPackages } from '../../src/core/package/open-package.js';
import { installPackageProperties, type OpenPropertiesOptions } from '../../src/core/properties/open.js';
import { uassetProperties } from '../../src/core/properties/package.js';
import type { ExportProperties, PackageProperties, PropertyEntry, PropertyValue } from '../../src/core/properties/types.js';
import { parseUAsset } from '../../src/core/uasset/parse.js';
import type { Usmap } from '../../src/core/usmap/types.js';

/** A loose .uasset/.umap with its .uexp, if there is one beside it. */
export function looseProperties(path: string, mappings?: Usmap): PackageProperties {
  const bytes = new Uint8Array(readFileSync(path));
  const uexpPath = path.replace(/\.(uasset|umap)$/i, '.uexp');
  const uexp = existsSync(uexpPath) ? new Uint8Array(readFileSync(uexpPath)) : undefined;
  const pkg = parseUAsset(bytes, path, uexp ? { uexpSize: uexp.length } : {});
  return uassetProperties(pkg, bytes, uexp, { mappings });
}

/** Opens an install for the duration of `fn`. */
export async function withInstall<T>(root: string, fn: (packages: InstallPackages, install: Install) => Promise<T>): Promise<T> {
  const install = await openInstall([root]);
  const packages = new InstallPackages(install);
  try {
    return await fn(packages, install);
  } finally {
    await packages.close();
    await install.close();
  }
}

export async function installProperties(root: string, ref: string, opts: OpenPropertiesOptions = {}): Promise<PackageProperties> {
  return withInstall(root, async (packages) => (await installPackageProperties(packages, ref, opts)).properties);
}

export function exportNamed(p: PackageProperties, name: string): ExportProperties {
  const e = p.exports.find((x) => x.name === name);
  if (!e) throw new Error(`no export ${name} in ${p.package}`);
  return e;
}

/** The value of the first property with this name (of a property list or an export). */
export function prop(list: ExportProperties | PropertyValue, name: string): PropertyValue {
  const entries = (Array.isArray(list) ? list : (list as ExportProperties).properties) as PropertyEntry[];
  const e = entries.find((x) => x.name === name);
  if (!e) throw new Error(`no property ${name} among ${entries.map((x) => x.name).join(', ')}`);
  return e.value;
}

export function entry(list: ExportProperties | PropertyEntry[], name: string): PropertyEntry {
  const entries = Array.isArray(list) ? list : list.properties;
  const e = entries.find((x) => x.name === name);
  if (!e) throw new Error(`no property ${name}`);
  return e;
}

/** Every entry of an export, nested ones included (structs, arrays of structs, map values). */
export function allEntries(list: readonly PropertyEntry[]): PropertyEntry[] {
  const out: PropertyEntry[] = [];
  const visit = (v: PropertyValue): void => {
    if (Array.isArray(v)) {
      for (const x of v) {
        if (x && typeof x === 'object' && !Array.isArray(x) && 'name' in x && 'type' in x && 'value' in x) {
          out.push(x as unknown as PropertyEntry);
          visit((x as unknown as PropertyEntry).value);
        } else {
          visit(x);
        }
      }
    } else if (v && typeof v === 'object') {
      for (const x of Object.values(v)) visit(x);
    }
  };
  visit(list as unknown as PropertyValue);
  return out;
}

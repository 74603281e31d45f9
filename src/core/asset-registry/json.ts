/**
 * An asset registry as JSON: `pakscope registry --json` and `extract --format convert` (which
 * writes AssetRegistry.bin as AssetRegistry.json) print the same object. Dependencies name the
 * nodes they link (a package name, a primary asset id "Type:Name", a searchable name
 * "/Game/P::Value") instead of their indices.
 */
import type { AssetIdentifier, AssetRegistry, RegistryAsset } from './types.js';

/** A class filter: the class path or its short name, any case ("Texture2D" matches /Script/Engine.Texture2D). */
export function classMatches(cls: string, filter: string): boolean {
  const c = cls.toLowerCase();
  const f = filter.toLowerCase();
  return c === f || c.endsWith(`.${f}`);
}

/** A dependency node as the engine prints an FAssetIdentifier. */
export function identifierText(id: AssetIdentifier | undefined): string {
  if (!id) return '';
  if (id.primaryAssetType !== undefined) return `${id.primaryAssetType}:${id.objectName ?? ''}`;
  let s = id.packageName ?? '';
  if (id.objectName !== undefined) s += `.${id.objectName}`;
  if (id.valueName !== undefined) s += `::${id.valueName}`;
  return s;
}

const PROPERTY_NAMES: [number, string][] = [[1, 'Hard'], [2, 'Game'], [4, 'Build']];

/** A package dependency's property set as names: ["Hard", "Game"], [] for a soft one. */
export function propertyNames(set: number): string[] {
  return PROPERTY_NAMES.filter(([bit]) => set & bit).map(([, n]) => n);
}

export interface RegistryJsonOptions {
  /** Only assets of this class (classMatches). */
  class?: string;
  /** Also the package data and the dependencies (the converted file has them; the CLI only with --all). */
  full?: boolean;
}

function assetJson(a: RegistryAsset): Record<string, unknown> {
  const o: Record<string, unknown> = { object: a.object, class: a.class, package: a.package, tags: a.tags };
  if (a.bundles.length > 0) o['bundles'] = Object.fromEntries(a.bundles.map((b) => [b.name, b.assets]));
  return o;
}

export function registryJson(reg: AssetRegistry, opts: RegistryJsonOptions = {}): Record<string, unknown> {
  const assets = opts.class === undefined ? reg.assets : reg.assets.filter((a) => classMatches(a.class, opts.class!));
  const out: Record<string, unknown> = { version: reg.version, versionName: reg.versionName, assets: assets.map(assetJson) };
  if (!opts.full) return out;
  out['packages'] = reg.packages;
  const name = (i: number): string => identifierText(reg.dependencies[i]?.id);
  out['dependencies'] = reg.dependencies.map((n) => ({
    node: identifierText(n.id),
    packages: n.packages.map((d) => ({ node: name(d.node), properties: d.properties.map(propertyNames) })),
    ...(n.names.length ? { names: n.names.map(name) } : {}),
    ...(n.manages.length ? { manages: n.manages.map(name) } : {}),
    ...(n.referencers.length ? { referencers: n.referencers.map(name) } : {}),
  }));
  if (reg.warnings.length) out['warnings'] = reg.warnings;
  return out;
}

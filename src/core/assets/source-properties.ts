/**
 * The properties of an asset's package, wherever the AssetSource says it is (a package file, or
 * a package of an install), read with the mappings and engine release a conversion was given.
 * The one place the asset readers open their package, instead of each spelling out both ways.
 */
import { installPackageProperties, packageFileProperties, type OpenedProperties, type OpenPropertiesOptions } from '../properties/open.js';
import type { AssetSource, ConvertOptions } from './registry.js';

export function sourceProperties(
  source: AssetSource,
  opts: Pick<ConvertOptions, 'mappings' | 'engine'>,
  extra: Omit<OpenPropertiesOptions, 'mappings' | 'engine'> = {},
): Promise<OpenedProperties> {
  const o: OpenPropertiesOptions = { ...extra };
  if (opts.mappings) o.mappings = opts.mappings;
  if (opts.engine !== undefined) o.engine = opts.engine;
  return 'file' in source ? packageFileProperties(source.file, o) : installPackageProperties(source.packages, source.ref, o);
}

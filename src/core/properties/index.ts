/** The properties of every export of a package: tagged, unversioned (with mappings), UE1/2. */
export type { ExportProperties, PackageProperties, PropertyEntry, PropertyValue, PropsJson } from './types.js';
export type { PropertyContext, PropType } from './context.js';
export { typeName } from './context.js';
export type { PropertyVersions } from './versions.js';
export { readObjectProperties, type ObjectBytes } from './object.js';
export { uassetProperties, zenProperties, zenPropertyVersions, type ReadPropertiesOptions } from './package.js';
export { ue12Properties } from './ue12.js';
export { installPackageProperties, packageFileProperties, type OpenPropertiesOptions, type OpenedProperties } from './open.js';
export { PropertyReader } from './reader.js';
export { readUnversionedHeader } from './unversioned-stream.js';
export { MAX_PROPERTY_DEPTH } from './property-errors.js';

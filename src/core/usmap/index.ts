/** Mappings files (.usmap): the schema unversioned properties need. */
export { parseUsmap, findStruct, findEnum, UsmapVersion, USMAP_LATEST, USMAP_MAGIC } from './parse.js';
export type { Usmap, UsmapCompression, MappedType, MappedProperty, MappedStruct, MappedEnum } from './types.js';

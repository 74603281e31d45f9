/**
 * Schemas of the classes and structs a package defines itself (Blueprint generated classes and
 * user structs), so their instances' unversioned properties can be read: not written yet.
 */
import type { MappedStruct } from '../usmap/types.js';
import type { PropertyContext } from './context.js';
import type { ObjectBytes } from './object.js';

export function classSchemas(_ctx: PropertyContext, _objects: readonly ObjectBytes[]): Map<string, MappedStruct> {
  return new Map();
}

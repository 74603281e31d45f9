/**
 * EIoChunkType: the last byte of a chunk id. The engine renumbered the types for UE5, and the
 * first TOC version written by UE5 packaging is PerfectHashWithOverflow (v5), so TOC v1-v4 use the
 * UE4 numbering (as retoc decides; CUE4Parse decides by the game's engine version).
 */
import { TocVersion } from './toc-version.js';

const UE4_CHUNK_TYPES = [
  'Invalid', 'InstallManifest', 'ExportBundleData', 'BulkData', 'OptionalBulkData', 'MemoryMappedBulkData',
  'LoaderGlobalMeta', 'LoaderInitialLoadMeta', 'LoaderGlobalNames', 'LoaderGlobalNameHashes', 'ContainerHeader',
  'ShaderCodeLibrary', 'ShaderCode',
] as const;

const UE5_CHUNK_TYPES = [
  'Invalid', 'ExportBundleData', 'BulkData', 'OptionalBulkData', 'MemoryMappedBulkData', 'ScriptObjects',
  'ContainerHeader', 'ExternalFile', 'ShaderCodeLibrary', 'ShaderCode', 'PackageStoreEntry', 'DerivedData',
  'EditorDerivedData', 'PackageResource',
] as const;

export type ChunkTypeName = (typeof UE4_CHUNK_TYPES)[number] | (typeof UE5_CHUNK_TYPES)[number];

export function usesUe5ChunkTypes(version: number): boolean {
  return version >= TocVersion.PerfectHashWithOverflow;
}

export function chunkTypeNames(version: number): readonly string[] {
  return usesUe5ChunkTypes(version) ? UE5_CHUNK_TYPES : UE4_CHUNK_TYPES;
}

/** The name of a chunk-type byte in a TOC of this version; unknown values as "Unknown(n)". */
export function chunkTypeName(version: number, type: number): string {
  return chunkTypeNames(version)[type] ?? `Unknown(${type})`;
}

/** The byte for a type name in a TOC of this version, or undefined if that version has no such type. */
export function chunkTypeValue(version: number, name: string): number | undefined {
  const i = chunkTypeNames(version).indexOf(name);
  if (i >= 0) return i;
  const m = /^Unknown\((\d+)\)$/.exec(name);
  return m ? Number(m[1]) : undefined;
}

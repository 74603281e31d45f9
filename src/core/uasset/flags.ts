/** A bit flag table: name → bit(s). */
export type FlagTable = Readonly<Record<string, number>>;

const tableEntries = new WeakMap<FlagTable, [string, number][]>();

/**
 * The names of the set bits, in table order; bits no name covers come last as hex ("0x00001000").
 * Works for 32-bit values (flags are read as u32).
 */
export function decodeFlags(value: number, table: FlagTable): string[] {
  const out: string[] = [];
  let rest = value >>> 0;
  if (rest === 0) return out;
  let entries = tableEntries.get(table);
  if (!entries) tableEntries.set(table, entries = Object.entries(table));
  for (const [name, bit] of entries) {
    if (bit !== 0 && (value & bit) >>> 0 === bit >>> 0) {
      out.push(name);
      rest = (rest & ~bit) >>> 0;
    }
  }
  for (let b = 0; b < 32; b++) {
    const bit = (1 << b) >>> 0;
    if (rest & bit) out.push(`0x${bit.toString(16).toUpperCase().padStart(8, '0')}`);
  }
  return out;
}

/** EPackageFlags (UE4/UE5). */
export const PackageFlags = {
  PKG_NewlyCreated: 0x00000001,
  PKG_ClientOptional: 0x00000002,
  PKG_ServerSideOnly: 0x00000004,
  PKG_CompiledIn: 0x00000010,
  PKG_ForDiffing: 0x00000020,
  PKG_EditorOnly: 0x00000040,
  PKG_Developer: 0x00000080,
  PKG_UncookedOnly: 0x00000100,
  PKG_Cooked: 0x00000200,
  PKG_ContainsNoAsset: 0x00000400,
  PKG_NotExternallyReferenceable: 0x00000800,
  PKG_UnversionedProperties: 0x00002000,
  PKG_ContainsMapData: 0x00004000,
  PKG_IsSaving: 0x00008000,
  PKG_Compiling: 0x00010000,
  PKG_ContainsMap: 0x00020000,
  PKG_RequiresLocalizationGather: 0x00040000,
  PKG_PlayInEditor: 0x00100000,
  PKG_ContainsScript: 0x00200000,
  PKG_DisallowExport: 0x00400000,
  PKG_CookGenerated: 0x08000000,
  PKG_DynamicImports: 0x10000000,
  PKG_RuntimeGenerated: 0x20000000,
  PKG_ReloadingForCooker: 0x40000000,
  PKG_FilterEditorOnly: 0x80000000,
} as const;

/** EObjectFlags (UE4/UE5) as stored in the export map. */
export const ObjectFlags = {
  RF_Public: 0x00000001,
  RF_Standalone: 0x00000002,
  RF_MarkAsNative: 0x00000004,
  RF_Transactional: 0x00000008,
  RF_ClassDefaultObject: 0x00000010,
  RF_ArchetypeObject: 0x00000020,
  RF_Transient: 0x00000040,
  RF_MarkAsRootSet: 0x00000080,
  RF_TagGarbageTemp: 0x00000100,
  RF_NeedInitialization: 0x00000200,
  RF_NeedLoad: 0x00000400,
  RF_KeepForCooker: 0x00000800,
  RF_NeedPostLoad: 0x00001000,
  RF_NeedPostLoadSubobjects: 0x00002000,
  RF_NewerVersionExists: 0x00004000,
  RF_BeginDestroyed: 0x00008000,
  RF_FinishDestroyed: 0x00010000,
  RF_BeingRegenerated: 0x00020000,
  RF_DefaultSubObject: 0x00040000,
  RF_WasLoaded: 0x00080000,
  RF_TextExportTransient: 0x00100000,
  RF_LoadCompleted: 0x00200000,
  RF_InheritableComponentTemplate: 0x00400000,
  RF_DuplicateTransient: 0x00800000,
  RF_StrongRefOnFrame: 0x01000000,
  RF_NonPIEDuplicateTransient: 0x02000000,
  RF_Dynamic: 0x04000000,
  RF_WillBeLoaded: 0x08000000,
  RF_HasExternalPackage: 0x10000000,
  RF_PendingKill: 0x20000000,
  RF_Garbage: 0x40000000,
  RF_AllocatedInSharedPage: 0x80000000,
} as const;

/** EObjectDataResourceFlags (UE5 data resource table). */
export const DataResourceFlags = {
  Inline: 1 << 0,
  Streaming: 1 << 1,
  Optional: 1 << 2,
  Duplicate: 1 << 3,
  MemoryMapped: 1 << 4,
  DerivedDataReference: 1 << 5,
} as const;

/**
 * How a package's properties are stored, which its PKG_UnversionedProperties flag says (and the
 * property reader follows): "tagged" (each with its name and type) or "unversioned" (by schema
 * index, needing mappings). Apart from whether the header states its file versions.
 */
export function propertyEncodingOf(packageFlags: number): 'tagged' | 'unversioned' {
  return (packageFlags & PackageFlags.PKG_UnversionedProperties) !== 0 ? 'unversioned' : 'tagged';
}

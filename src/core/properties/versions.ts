/**
 * The package versions property serialization depends on, and the format changes it asks about,
 * each named after the engine version that made it. A versioned package answers from its object
 * and custom versions; an unversioned one (cooked, custom versions stripped) from the engine
 * release its layout says, as CUE4Parse's per-game defaults do.
 */
import { UE4Version, UE5Version } from '../uasset/versions.js';

export interface PropertyVersions {
  /** FPackageFileVersion UE4 part (522 for every UE5 package). */
  ue4: number;
  /** FPackageFileVersion UE5 part (0 before UE5). */
  ue5: number;
  /** The package's custom versions; null for an unversioned package. */
  custom: readonly { guid: string; version: number }[] | null;
  /** PKG_FilterEditorOnly: editor-only data is stripped. */
  cooked: boolean;
}

/** Custom version keys (FGuid words in hex) and the members these readers ask about. */
export const CustomVersionKey = {
  Editor: 'E4B068EDF49442E9A231DA0B2E46BB41',
  FortniteMain: '601D1886AC644F84AA16D3DE0DEAC7D6',
  Release: '9C54D522A8264FBE9421074661B482D0',
  UE5ReleaseStream: 'D89B5E4224BD4D468412ACA8DF641779',
  Core: '375EC13C06E448FBB50084F0262A717E',
  Framework: 'CFFC743F43B04480939114DF171D2073',
  InstancedStruct: 'E21E1CAAAF47425E89BF6AD44C44A8BB',
  Blueprints: 'B0D832E41F894F0DACCF7EB736FD4AA2',
  AnimPhys: '29E575DDE0A346279D10D276232CDCEA',
  Niagara: 'F2AED0AC9AFE416F8664AA7FFA26D6FC',
  Sequencer: '7B5AE74CD2704C10A95857980B212A5A',
} as const;

export const EditorObjectVersion = {
  TextFormatArgumentDataIsVariant: 5,
  AddedAlwaysSignNumberFormattingOption: 21,
  CultureInvariantTextSerializationKeyStability: 32,
} as const;
export const FortniteMainBranchObjectVersion = {
  FFieldPathOwnerSerialization: 33, MaterialInputUsesLinearColor: 171, SoftObjectPathUtf8SubPaths: 192, AddDevNotesToFText: 260,
} as const;
export const ReleaseObjectVersion = { FFieldPathOwnerSerialization: 30 } as const;
export const UE5ReleaseStreamObjectVersion = { TextFormatArgumentData64bitSupport: 12 } as const;
export const CoreObjectVersion = { MaterialInputNativeSerialize: 1 } as const;
export const FrameworkObjectVersion = { PinsStoreFName: 31 } as const;
export const InstancedStructCustomVersion = { CustomVersionAdded: 0 } as const;

function custom(v: PropertyVersions, guid: string): number | null {
  if (v.custom === null) return null;
  return v.custom.find((c) => c.guid === guid)?.version ?? -1;
}

/**
 * Whether the package's custom version `guid` is at least `value`; an unversioned package
 * answers `unversioned` (what the engines that cook unversioned packages, 4.23 on, write).
 */
export function customVersionAtLeast(v: PropertyVersions, guid: string, value: number, unversioned = true): boolean {
  const c = custom(v, guid);
  return c === null ? unversioned : c >= value;
}

/** UE4.21 (FNiagaraObjectVersion::SkeletalMeshVertexSampling): a skeletal mesh sampling region lists its vertices. */
export function hasSamplingRegionVertices(v: PropertyVersions): boolean {
  const n = custom(v, CustomVersionKey.Niagara);
  return n === null ? v.ue4 >= 517 || v.ue5 > 0 : n >= 1;
}

/** UE5.0: vectors, rotators, quats and boxes hold doubles. */
export const hasLargeWorldCoordinates = (v: PropertyVersions): boolean => v.ue5 >= UE5Version.LARGE_WORLD_COORDINATES;
/** UE5.4: a tag stores its complete type name as a tree, then flags. */
export const hasCompleteTypeName = (v: PropertyVersions): boolean => v.ue5 >= UE5Version.PROPERTY_TAG_COMPLETE_TYPE_NAME;
/** UE5.4 (one version before the type name): tag extensions and the object's serialization control byte. */
export const hasTagExtensions = (v: PropertyVersions): boolean => v.ue5 >= UE5Version.PROPERTY_TAG_EXTENSION_AND_OVERRIDABLE_SERIALIZATION;
export const hasPropertyGuid = (v: PropertyVersions): boolean => v.ue4 >= UE4Version.PROPERTY_GUID_IN_PROPERTY_TAG;
export const hasStructGuid = (v: PropertyVersions): boolean => v.ue4 >= UE4Version.STRUCT_GUID_IN_PROPERTY_TAG;
export const hasArrayInnerType = (v: PropertyVersions): boolean => v.ue4 >= UE4Version.ARRAY_PROPERTY_INNER_TAGS;
/** Arrays of structs carry an inner tag naming the struct. */
export const hasInnerArrayTag = (v: PropertyVersions): boolean => v.ue4 >= UE4Version.INNER_ARRAY_TAG_INFO;
export const hasSetMapTypes = (v: PropertyVersions): boolean => v.ue4 >= UE4Version.PROPERTY_TAG_SET_MAP_SUPPORT;
/** Before this, a soft object reference was an FString. */
export const hasSoftObjectPath = (v: PropertyVersions): boolean => v.ue4 >= UE4Version.ADDED_SOFT_OBJECT_PATH;
/** UE5.1: FSoftObjectPath stores an FTopLevelAssetPath (two names) instead of one path name. */
export const hasTopLevelAssetPath = (v: PropertyVersions): boolean => v.ue5 >= UE5Version.FSOFTOBJECTPATH_REMOVE_ASSET_PATH_FNAMES;
/** UE5.1 uncooked: soft object paths are indices into the header's list. */
export const hasSoftObjectPathList = (v: PropertyVersions): boolean => !v.cooked && v.ue5 >= UE5Version.ADD_SOFTOBJECTPATH_LIST;
export const hasFTextHistory = (v: PropertyVersions): boolean => v.ue4 >= UE4Version.FTEXT_HISTORY;

/** UE5.6: FSoftObjectPath's sub-path is an FUtf8String. */
export function hasUtf8SoftObjectSubPath(v: PropertyVersions): boolean {
  const c = custom(v, CustomVersionKey.FortniteMain);
  return c === null ? v.ue5 >= UE5Version.OS_SUB_OBJECT_SHADOW_SERIALIZATION : c >= FortniteMainBranchObjectVersion.SoftObjectPathUtf8SubPaths;
}

/** UE4.25: FFieldPath stores its resolved owner after the path. */
export function hasFieldPathOwner(v: PropertyVersions): boolean {
  const f = custom(v, CustomVersionKey.FortniteMain);
  const r = custom(v, CustomVersionKey.Release);
  if (f === null || r === null) return true; // FieldPathProperty arrived with the owner (4.25)
  return f >= FortniteMainBranchObjectVersion.FFieldPathOwnerSerialization || r >= ReleaseObjectVersion.FFieldPathOwnerSerialization;
}

/** UE4.23: FText history None may carry a culture-invariant string. */
export function hasCultureInvariantText(v: PropertyVersions): boolean {
  const e = custom(v, CustomVersionKey.Editor);
  return e === null ? v.ue4 >= UE4Version.ADDED_PACKAGE_OWNER || v.ue5 > 0 : e >= EditorObjectVersion.CultureInvariantTextSerializationKeyStability;
}

export function hasNumberFormattingAlwaysSign(v: PropertyVersions): boolean {
  const e = custom(v, CustomVersionKey.Editor);
  return e === null ? true : e >= EditorObjectVersion.AddedAlwaysSignNumberFormattingOption;
}

/** Old editor packages stored a format argument's value as an FText only. */
export function isTextFormatArgumentText(v: PropertyVersions): boolean {
  const e = custom(v, CustomVersionKey.Editor);
  return e !== null && e <= EditorObjectVersion.TextFormatArgumentDataIsVariant;
}

/** UE5.0: integer format argument data is 64-bit. */
export function hasTextFormatArgument64(v: PropertyVersions): boolean {
  const c = custom(v, CustomVersionKey.UE5ReleaseStream);
  return c === null ? v.ue5 > 0 : c >= UE5ReleaseStreamObjectVersion.TextFormatArgumentData64bitSupport;
}

/** Editor packages of UE5.5+ keep a dev note with each text. */
export function hasTextDevNotes(v: PropertyVersions): boolean {
  if (v.cooked) return false;
  const c = custom(v, CustomVersionKey.FortniteMain);
  return c !== null && c >= FortniteMainBranchObjectVersion.AddDevNotesToFText;
}

/** Material expression inputs serialize natively (UE4.12). */
export function hasNativeMaterialInput(v: PropertyVersions): boolean {
  const c = custom(v, CustomVersionKey.Core);
  return c === null ? true : c >= CoreObjectVersion.MaterialInputNativeSerialize;
}

export function hasPinNamesAsFName(v: PropertyVersions): boolean {
  const c = custom(v, CustomVersionKey.Framework);
  return c === null ? true : c >= FrameworkObjectVersion.PinsStoreFName;
}

/** Before the custom version, an instanced struct started with an editor header and a version byte. */
export function hasLegacyInstancedStructHeader(v: PropertyVersions): boolean {
  const c = custom(v, CustomVersionKey.InstancedStruct);
  return c !== null && c < InstancedStructCustomVersion.CustomVersionAdded;
}

/** UE5.6: FColorMaterialInput's constant is an FLinearColor. */
export function hasLinearColorMaterialInput(v: PropertyVersions): boolean {
  const c = custom(v, CustomVersionKey.FortniteMain);
  return c === null ? v.ue5 >= UE5Version.OS_SUB_OBJECT_SHADOW_SERIALIZATION : c >= FortniteMainBranchObjectVersion.MaterialInputUsesLinearColor;
}

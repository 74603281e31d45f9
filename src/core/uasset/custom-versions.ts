import type { BinaryReader } from '../io/binary-reader.js';
import { LegacyFileVersion } from './versions.js';

/** One entry of the summary's custom version container: a subsystem's own format version. */
export interface CustomVersion {
  /** The key as the engine prints an FGuid (32 uppercase hex digits). */
  guid: string;
  /** The registered name of the key ("FEditorObjectVersion"), or the stored friendly name, or null. */
  name: string | null;
  version: number;
}

/**
 * Well-known custom version keys (the engine's *ObjectVersion.h / *CustomVersion.h registrations,
 * as collected by CUE4Parse and UAssetAPI). Keys are FGuid words A B C D in hex.
 */
const CUSTOM_VERSION_NAMES: Record<string, string> = {
  'B0D832E41F894F0DACCF7EB736FD4AA2': 'FBlueprintsObjectVersion',
  'E1C64328A22C4D53A36C8E866417BD8C': 'FBuildObjectVersion',
  '375EC13C06E448FBB50084F0262A717E': 'FCoreObjectVersion',
  'E4B068EDF49442E9A231DA0B2E46BB41': 'FEditorObjectVersion',
  'CFFC743F43B04480939114DF171D2073': 'FFrameworkObjectVersion',
  'B02B49B5BB2044E9A30432B752E40360': 'FMobileObjectVersion',
  'A4E4105C59A149B5A7C540C4547EDFEE': 'FNetworkingObjectVersion',
  '39C831C95AE647DC9A449C173E1C8E7C': 'FOnlineObjectVersion',
  '78F01B33EBEA4F98B9B484EACCB95AA2': 'FPhysicsObjectVersion',
  '6631380F2D4D43E08009CF276956A95A': 'FPlatformObjectVersion',
  '12F88B9F88754AFCA67CD90C383ABD29': 'FRenderingObjectVersion',
  '7B5AE74CD2704C10A95857980B212A5A': 'FSequencerObjectVersion',
  'D72969181DD64BDD9DE264A83CC13884': 'FVRObjectVersion',
  'C2A15278BFE74AFE6C1790FF531DF755': 'FLoadTimesObjectVersion',
  '6EACA3D440EC4CC1B7868BED09428FC5': 'FGeometryObjectVersion',
  '29E575DDE0A346279D10D276232CDCEA': 'FAnimPhysObjectVersion',
  'AF43A65D7FD3494798733E8ED9C1BB05': 'FAnimObjectVersion',
  '6B266CEC1EC74B8FA30BE4D90942FC07': 'FReflectionCaptureObjectVersion',
  '0DF73D61A23F47EAB72789E90C41499A': 'FAutomationObjectVersion',
  '601D1886AC644F84AA16D3DE0DEAC7D6': 'FFortniteMainBranchObjectVersion',
  'E70863686B234C5884391B7016265E91': 'FFortniteReleaseBranchCustomObjectVersion',
  '5B4C06B724634AF8805BBF70CDF5D0DD': 'FFortniteSeasonBranchObjectVersion',
  '9DFFBCD6494F0158E22112823C92A888': 'FEnterpriseObjectVersion',
  'F2AED0AC9AFE416F8664AA7FFA26D6FC': 'FNiagaraObjectVersion',
  'FCF57AFA50764283B9A9E658FFA02D32': 'FNiagaraCustomVersion',
  '174F1F0BB4C645A5B13F2EE8D0FB917D': 'FDestructionObjectVersion',
  '35F94A83E258406CA31809F59610247C': 'FExternalPhysicsCustomObjectVersion',
  'B68FC16E8B1B42E2B453215C058844FE': 'FExternalPhysicsMaterialCustomObjectVersion',
  'B2E185064273CFC2A54EF4BB758BBA07': 'FCineCameraObjectVersion',
  '64F58936FD1B42BABA967289D5D0FA4E': 'FVirtualProductionObjectVersion',
  '6F0ED827A60948959C91998D90180EA4': 'FMediaFrameworkObjectVersion',
  'AFE086913A0D4952B673673B7CF22D1E': 'FPoseDriverCustomVersion',
  'CB8AB0CDE78C4BDEA862139314E9EF62': 'FTempCustomVersion',
  '2EB5FDBD01AC4D108136F38F3393A5DA': 'FAnimationCustomVersion',
  '717F9EE7E9B0493A88B391321B388107': 'FAssetRegistryVersion',
  'FB680AF259EF4BA3BAA819B573C8443D': 'FClothingAssetCustomVersion',
  '9C54D522A8264FBE9421074661B482D0': 'FReleaseObjectVersion',
  '4A56EB4010F511DC92D3347EB2C96AE7': 'FParticleSystemCustomVersion',
  'D78A4A00E8584697BAA819B5487D46B4': 'FSkeletalMeshCustomVersion',
  '5579F886933A4C1F83BA087B6361B92F': 'FRecomputeTangentCustomVersion',
  '612FBE52DA53400B910D4F919FB1857C': 'FOverlappingVerticesCustomVersion',
  '430C4D197154497087699B69DF90B0E5': 'FFoliageCustomVersion',
  'AAFE32BD53954C14B66A5E251032D1DD': 'FProceduralFoliageCustomVersion',
  'AB96519645D808FCB7D7228D78AD569E': 'FLiveLinkCustomVersion',
  'D89B5E4224BD4D468412ACA8DF641779': 'FUE5ReleaseStreamObjectVersion',
  '697DD581E64F41ABAA4A51ECBEB7B628': 'FUE5MainStreamObjectVersion',
  '59DA5D5212324948B878597870B8E98B': 'FUE5SpecialProjectStreamObjectVersion',
  'E21E1CAAAF47425E89BF6AD44C44A8BB': 'FInstancedStructCustomVersion',
  'A7820CFB20A743598C542C149623CF50': 'FControlRigObjectVersion',
  'DC49959B53C04DE79156EA885E7C5D39': 'FRigVMObjectVersion',
  'A26D36AE26935388A8C5CB962B95B4AF': 'FCurveExpressionCustomVersion',
  '9DE7BD9867D445B28C0E9D73FDE1E367': 'FDNAAssetCustomVersion',
  '92738C4329884D9C9A3D9BBE6EFF9FC0': 'FInterchangeCustomVersion',
  '5426C2274B3145B29B9BED1F327FB126': 'FOverridablePropertyBagCustomVersion',
  '2763920D0F784B39986E4BB3A88D666D': 'FPCGCustomVersion',
  '134A157ED5E249A38D4E843C98FE9E31': 'FPropertyBagCustomVersion',
  '60C4F0DE8B264C34AA9372015DFF09CC': 'FStateTreeInstanceStorageCustomVersion',
  '24BB7AF356464F831F2F2DC249AD96FF': 'FVariantManagerObjectVersion',
  '000000000000000000000000F99D40C1': 'UnusedCustomVersionKey',
};

/** The registered name of a custom version key, or null. */
export function customVersionName(guid: string): string | null {
  return CUSTOM_VERSION_NAMES[guid] ?? null;
}

/**
 * Reads the summary's custom version container in the format its LegacyFileVersion implies:
 * none before -2, enum tags at -2, GUIDs with friendly names at -3..-5, plain GUIDs from -6.
 */
export function readCustomVersions(r: BinaryReader, legacyFileVersion: number): CustomVersion[] {
  if (legacyFileVersion > LegacyFileVersion.ENUM_CUSTOM_VERSIONS) return [];
  const out: CustomVersion[] = [];
  if (legacyFileVersion === LegacyFileVersion.ENUM_CUSTOM_VERSIONS) {
    const n = r.count(8, 'custom version count');
    for (let i = 0; i < n; i++) {
      const tag = r.u32();
      const guid = `000000000000000000000000${tag.toString(16).toUpperCase().padStart(8, '0')}`;
      out.push({ guid, name: customVersionName(guid), version: r.i32() });
    }
  } else if (legacyFileVersion > LegacyFileVersion.OPTIMIZED_CUSTOM_VERSIONS) {
    const n = r.count(24, 'custom version count');
    for (let i = 0; i < n; i++) {
      const guid = r.guid();
      const version = r.i32();
      const friendly = r.fstring(1024);
      out.push({ guid, name: customVersionName(guid) ?? (friendly || null), version });
    }
  } else {
    const n = r.count(20, 'custom version count');
    for (let i = 0; i < n; i++) {
      const guid = r.guid();
      out.push({ guid, name: customVersionName(guid), version: r.i32() });
    }
  }
  return out;
}

/** FFortniteMainBranchObjectVersion members the header reader looks at. */
export const FortniteMainBranchObjectVersion = {
  GUID: '601D1886AC644F84AA16D3DE0DEAC7D6',
  /** FSoftObjectPath::SubPathString became an FUtf8String (UE5.6). */
  SoftObjectPathUtf8SubPaths: 192,
} as const;

/** A custom version's value in the container, or -1 when the package does not use it (as the engine's CustomVer). */
export function customVersionOf(versions: readonly CustomVersion[], guid: string): number {
  return versions.find((v) => v.guid === guid)?.version ?? -1;
}

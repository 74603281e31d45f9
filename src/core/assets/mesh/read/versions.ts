/**
 * Which fields a cooked mesh's native data has, by engine release. Mesh serialization follows
 * custom versions (FRenderingObjectVersion, FUE5ReleaseStreamObjectVersion, ...) that cooked Zen
 * packages do not store, so the release is what decides; where a package's object versions fit
 * several releases (4.26 and 4.27 both save 522, 5.7 to 6.0 save 522/1018), each is tried newest
 * first and the first that reads the whole structure wins (static-mesh.ts).
 *
 * Releases are numbered major * 100 + minor (427, 508, 600), so `release >= 425` reads like the
 * format's history.
 */
import { findClassicEngineRelease, releasesWithVersions } from '../../../uasset/versions.js';

/** Releases a mesh reader knows (4.14 up); older packages are refused with a clear message. */
export const OLDEST_MESH_RELEASE = 414;

export const Release = {
  /** FStaticMeshVertexBuffer: separate tangent and UV arrays (no Strides field). */
  SplitVertexStreams: 419,
  /**
   * FRenderingObjectVersion::IncreaseNormalPrecision: packed normals signed, FPackedRGBA16N offset.
   * 4.20, not 4.19: CUE4Parse gives 4.20 that version (4.19 has ShaderPermutationId, the one before)
   * and flips FPackedRGBA16N from GAME_UE4_20.
   */
  SignedNormals: 420,
  /** FSkeletalMeshCustomVersion::UseSeparateSkinWeightBuffer (4.15): skin weights out of the GPU vertices; colours as FColorVertexBuffer. */
  SeparateSkinWeights: 415,
  /** FSkeletalMeshCustomVersion::NewClothingSystemAdded (4.16): FClothingSectionData in the section. */
  NewClothingSystem: 416,
  /** FSkeletalMeshCustomVersion::CompactClothVertexBuffer (4.18): the cloth buffer's index mapping. */
  CompactClothBuffer: 418,
  /** FSkeletalMeshCustomVersion::SkinWeightProfiles (4.23): the LOD's skin weight profiles. */
  SkinWeightProfiles: 423,
  /** VER_UE4_SKINWEIGHT_PROFILE_DATA_LAYOUT_CHANGES (4.26): a profile's bone IDs and weights as bytes. */
  SkinWeightProfileLayout: 426,
  /** FStaticMeshLODResources: bIsLODCookedOut, bInlined, the buffers in their own block. */
  NewCookedStaticLod: 423,
  /** FStaticMeshRenderData: NumInlinedLODs. */
  InlinedLodCount: 423,
  /** Skeletal meshes: the new cooked LOD format (FSkeletalMeshLODRenderData). */
  NewCookedSkeletalLod: 424,
  /** FRawStaticIndexBuffer: bShouldExpandTo32Bit; the ray tracing geometry; bForceOpaque per section. */
  RayTracing: 425,
  /** FStaticMeshSection: bVisibleInRayTracing. */
  VisibleInRayTracing: 426,
  /** FSkeletalMeshCustomVersion::SplitModelAndRenderData: cooked skeletal LODs apart from the editor's. */
  SplitSkeletalRenderData: 419,
  /** FSkeletalMaterial: bSerializeImportedMaterialSlotName (FCoreObjectVersion::SkeletalMaterialEditorDataStripping). */
  SkeletalMaterialStripping: 422,
  /** FSkinWeightVertexBuffer: variable influences, 16-bit bone indices (FAnimObjectVersion::UnlimitedBoneInfluences). */
  UnlimitedBoneInfluences: 425,
  /** FSkelMeshSection: RecomputeTangentsVertexMaskChannel (u8). */
  RecomputeTangentMask: 426,
  /** Skeletal LODs: the ray tracing geometry. */
  SkeletalRayTracing: 427,
  /** Large world coordinates: bounds and vectors of 64-bit floats. */
  LargeWorldCoordinates: 500,
  /** FUE5ReleaseStreamObjectVersion::RemovingTessellation: no adjacency index buffer. */
  NoAdjacency: 500,
  /** FSkelMeshSection: bVisibleInRayTracing; cloth mapping per LOD bias; skeletal morph target render data. */
  SkeletalUE5: 500,
  /** FStaticMeshSection: bAffectDistanceFieldLighting. */
  AffectDistanceFieldLighting: 501,
  /** FStaticMeshLODResources: bHasRayTracingGeometry before the buffers. */
  RayTracingGeometryFlag: 505,
  /** FSkinWeightVertexBuffer: bUse16BitBoneWeight. */
  SkinWeight16: 502,
  /** Skeletal LODs: the vertex attribute buffers. */
  SkeletalVertexAttributes: 503,
  /** Skeletal LODs: the half-edge buffer's strip flags. */
  SkeletalHalfEdges: 504,
  /** FStaticMeshLODResources: SourceMeshBounds; ray tracing geometry with a 24-byte raw data header. */
  SourceMeshBounds: 506,
  /** FSkeletalMaterial: OverlayMaterialInterface. */
  SkeletalOverlayMaterial: 506,
  /** Skeletal LODs always in an FByteBulkData; FSkelMeshSection's influences packed with the unified bone map bit. */
  SkeletalBulkAlways: 508,
} as const;

const releaseNumber = (engine: string): number => {
  const [a, b] = engine.split('.').map(Number);
  return a! * 100 + b!;
};

/** The releases (newest first) whose mesh layout a package with these versions may have. */
export function candidateReleases(ue4: number, ue5: number, engine?: string, layoutFits?: readonly string[]): number[] {
  if (engine !== undefined) {
    const given = findClassicEngineRelease(engine);
    if (given) return [releaseNumber(given.engine)];
  }
  // An unversioned classic package: its object versions are assumed (the newest fitting), so
  // every release its header layout fits may have written the mesh.
  if (layoutFits && layoutFits.length > 0) return [...new Set(layoutFits.map(releaseNumber))].sort((a, b) => b - a);
  return releasesWithVersions(ue4, ue5).map((r) => releaseNumber(r.engine)).reverse();
}

export const releaseLabel = (release: number): string => `${Math.floor(release / 100)}.${release % 100}`;

/**
 * The kinds of cooked assets the synthetic install holds: their name prefix, engine class, the
 * subobjects a package of that kind carries, how big its export data and bulk data run, and which
 * kinds it imports (so the dependency graph looks like a game's: materials import textures, meshes
 * import material instances, maps import meshes and blueprints ...).
 */
export type AssetKind =
  | 'Texture' | 'StaticMesh' | 'SkeletalMesh' | 'Skeleton' | 'PhysicsAsset' | 'Material' | 'MaterialInstance'
  | 'MaterialFunction' | 'AnimSequence' | 'AnimMontage' | 'AnimBlueprint' | 'Blueprint' | 'Widget' | 'World'
  | 'WorldCell' | 'SoundWave' | 'SoundCue' | 'NiagaraSystem' | 'DataTable' | 'Curve' | 'Font';

export interface KindSpec {
  prefix: string;
  /** The asset object's class ("/Script/Engine.StaticMesh"). */
  classPath: string;
  /** A blueprint-like package: a generated class, its CDO and functions. */
  generatedClass?: { parent: string };
  /** Subobjects: class path, base name, how many. */
  subobjects: [string, string, number, number][];
  umap?: boolean;
  /** Median export data size in KiB (log-normal spread). */
  exportKiB: number;
  /** Chance of a .ubulk file. */
  bulkChance: number;
  /** Kinds imported: [kind, min, max]. */
  imports: [AssetKind, number, number][];
  /** Has a shader map (materials). */
  shaderMap?: boolean;
}

export const KINDS: Record<AssetKind, KindSpec> = {
  Texture: { prefix: 'T', classPath: '/Script/Engine.Texture2D', subobjects: [], exportKiB: 2, bulkChance: 0.35, imports: [] },
  StaticMesh: {
    prefix: 'SM', classPath: '/Script/Engine.StaticMesh',
    subobjects: [['/Script/Engine.BodySetup', 'BodySetup', 1, 1], ['/Script/NavigationSystem.NavCollision', 'NavCollision', 0, 1]],
    exportKiB: 12, bulkChance: 0.12, imports: [['MaterialInstance', 1, 4], ['Material', 0, 1]],
  },
  SkeletalMesh: {
    prefix: 'SK', classPath: '/Script/Engine.SkeletalMesh', subobjects: [['/Script/Engine.SkeletalMeshLODSettings', 'LODSettings', 0, 1]],
    exportKiB: 36, bulkChance: 0.3, imports: [['MaterialInstance', 2, 6], ['Skeleton', 1, 1], ['PhysicsAsset', 1, 1]],
  },
  Skeleton: { prefix: 'SKEL', classPath: '/Script/Engine.Skeleton', subobjects: [], exportKiB: 8, bulkChance: 0, imports: [] },
  PhysicsAsset: {
    prefix: 'PHYS', classPath: '/Script/Engine.PhysicsAsset', subobjects: [['/Script/Engine.SkeletalBodySetup', 'SkeletalBodySetup', 4, 18]],
    exportKiB: 5, bulkChance: 0, imports: [['Skeleton', 0, 1]],
  },
  Material: {
    prefix: 'M', classPath: '/Script/Engine.Material', subobjects: [['/Script/Engine.MaterialExpressionTextureSample', 'MaterialExpressionTextureSample', 0, 4]],
    exportKiB: 8, bulkChance: 0, imports: [['Texture', 2, 6], ['MaterialFunction', 1, 4]], shaderMap: true,
  },
  MaterialInstance: {
    prefix: 'MI', classPath: '/Script/Engine.MaterialInstanceConstant', subobjects: [],
    exportKiB: 2.5, bulkChance: 0, imports: [['Material', 1, 1], ['Texture', 3, 7]], shaderMap: true,
  },
  MaterialFunction: {
    prefix: 'MF', classPath: '/Script/Engine.MaterialFunction', subobjects: [['/Script/Engine.MaterialExpressionFunctionInput', 'MaterialExpressionFunctionInput', 1, 4]],
    exportKiB: 4, bulkChance: 0, imports: [['Texture', 0, 2], ['MaterialFunction', 0, 2]],
  },
  AnimSequence: {
    prefix: 'A', classPath: '/Script/Engine.AnimSequence', subobjects: [['/Script/Engine.AnimNotify_PlaySound', 'AnimNotify_PlaySound', 0, 2]],
    exportKiB: 20, bulkChance: 0, imports: [['Skeleton', 1, 1], ['SoundCue', 0, 2]],
  },
  AnimMontage: { prefix: 'AM', classPath: '/Script/Engine.AnimMontage', subobjects: [], exportKiB: 4, bulkChance: 0, imports: [['AnimSequence', 1, 5], ['Skeleton', 1, 1], ['SoundCue', 0, 3]] },
  AnimBlueprint: {
    prefix: 'ABP', classPath: '/Script/Engine.AnimBlueprintGeneratedClass', generatedClass: { parent: '/Script/Engine.AnimInstance' },
    subobjects: [['/Script/CoreUObject.Function', 'AnimGraph', 1, 1], ['/Script/CoreUObject.Function', 'ExecuteUbergraph', 1, 1]],
    exportKiB: 50, bulkChance: 0, imports: [['AnimSequence', 6, 20], ['Skeleton', 1, 1], ['AnimMontage', 0, 4]],
  },
  Blueprint: {
    prefix: 'BP', classPath: '/Script/Engine.BlueprintGeneratedClass', generatedClass: { parent: '/Script/Engine.Actor' },
    subobjects: [['/Script/Engine.SceneComponent', 'DefaultSceneRoot', 1, 1], ['/Script/Engine.StaticMeshComponent', 'StaticMesh', 0, 4],
      ['/Script/CoreUObject.Function', 'ReceiveBeginPlay', 0, 1], ['/Script/CoreUObject.Function', 'ExecuteUbergraph', 1, 1]],
    exportKiB: 16, bulkChance: 0,
    imports: [['StaticMesh', 1, 6], ['SkeletalMesh', 0, 2], ['SoundCue', 0, 4], ['Blueprint', 1, 5], ['NiagaraSystem', 0, 3],
      ['MaterialInstance', 0, 3], ['Widget', 0, 2], ['DataTable', 0, 1], ['Curve', 0, 1]],
  },
  Widget: {
    prefix: 'WBP', classPath: '/Script/UMG.WidgetBlueprintGeneratedClass', generatedClass: { parent: '/Script/UMG.UserWidget' },
    subobjects: [['/Script/UMG.WidgetTree', 'WidgetTree', 1, 1], ['/Script/UMG.TextBlock', 'TextBlock', 1, 6], ['/Script/UMG.Image', 'Image', 0, 6]],
    exportKiB: 18, bulkChance: 0, imports: [['Texture', 2, 8], ['Widget', 0, 4], ['Font', 0, 1], ['MaterialInstance', 0, 2]],
  },
  World: {
    prefix: 'L', classPath: '/Script/Engine.World', umap: true,
    subobjects: [['/Script/Engine.Level', 'PersistentLevel', 1, 1], ['/Script/Engine.WorldSettings', 'WorldSettings', 1, 1],
      ['/Script/Engine.StaticMeshActor', 'StaticMeshActor', 10, 60], ['/Script/Engine.PointLight', 'PointLight', 0, 10]],
    exportKiB: 90, bulkChance: 0, imports: [['StaticMesh', 15, 40], ['Blueprint', 5, 15], ['MaterialInstance', 3, 10], ['SoundCue', 0, 4]],
  },
  WorldCell: {
    prefix: '', classPath: '/Script/Engine.World', umap: true,
    subobjects: [['/Script/Engine.Level', 'PersistentLevel', 1, 1], ['/Script/Engine.StaticMeshActor', 'StaticMeshActor', 3, 30]],
    exportKiB: 14, bulkChance: 0, imports: [['StaticMesh', 5, 18], ['Blueprint', 0, 5], ['MaterialInstance', 0, 3]],
  },
  SoundWave: { prefix: 'SW', classPath: '/Script/Engine.SoundWave', subobjects: [], exportKiB: 1.5, bulkChance: 0.4, imports: [] },
  SoundCue: {
    prefix: 'SC', classPath: '/Script/Engine.SoundCue', subobjects: [['/Script/Engine.SoundNodeWavePlayer', 'SoundNodeWavePlayer', 1, 5]],
    exportKiB: 2.5, bulkChance: 0, imports: [['SoundWave', 1, 6]],
  },
  NiagaraSystem: {
    prefix: 'NS', classPath: '/Script/Niagara.NiagaraSystem', subobjects: [['/Script/Niagara.NiagaraEmitter', 'NiagaraEmitter', 1, 4]],
    exportKiB: 28, bulkChance: 0, imports: [['Texture', 1, 5], ['MaterialInstance', 1, 3], ['StaticMesh', 0, 2], ['Curve', 0, 2]],
  },
  DataTable: { prefix: 'DT', classPath: '/Script/Engine.DataTable', subobjects: [], exportKiB: 6, bulkChance: 0, imports: [['Blueprint', 0, 6], ['Texture', 0, 6]] },
  Curve: { prefix: 'Curve', classPath: '/Script/Engine.CurveFloat', subobjects: [], exportKiB: 1, bulkChance: 0, imports: [] },
  Font: { prefix: 'Font', classPath: '/Script/Engine.Font', subobjects: [['/Script/Engine.FontFace', 'FontFace', 1, 3]], exportKiB: 10, bulkChance: 0, imports: [] },
};

/** Every script class a package of the catalog can name (for the global ScriptObjects chunk). */
export function allScriptClasses(): string[] {
  const out = new Set<string>();
  for (const k of Object.values(KINDS)) {
    out.add(k.classPath);
    if (k.generatedClass) out.add(k.generatedClass.parent);
    for (const [cls] of k.subobjects) out.add(cls);
  }
  out.add('/Script/CoreUObject.Package');
  return [...out].sort();
}

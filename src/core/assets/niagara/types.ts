/**
 * A Niagara System as PakScope shows it: the user parameters it exposes (with their defaults),
 * its emitters and their renderers, and the assets those reference (meshes, materials, textures).
 */

/** An object reference found in a property, by where it was found ("Meshes[0].Mesh"). */
export interface NiagaraReference {
  property: string;
  /** Object path ("/Game/FX/M_Spark.M_Spark"). */
  path: string;
}

export interface NiagaraUserParameter {
  /** Without the "User." namespace ("FixtureScale"). */
  name: string;
  /** The type as the editor names it: "float", "int32", "bool", "Vector3", "LinearColor", a data interface's class, an enum's name. */
  type: string;
  /** The type's object path ("/Script/Niagara.NiagaraFloat"). */
  typePath: string;
  /**
   * The default: a number, a boolean, a list of numbers (vectors, colours, quaternions,
   * matrices), an object path (a data interface's or object's), or null when the store has none
   * or the type is not decoded (a note says which).
   */
  value: number | boolean | number[] | string | null;
  /** A data interface parameter: its class and the assets its properties reference (a texture DI's Texture). */
  dataInterface?: { class: string; references: NiagaraReference[] };
}

export interface NiagaraRenderer {
  /** Export name ("NiagaraSpriteRendererProperties_0"). */
  name: string;
  class: string;
  enabled: boolean;
  /** Meshes, materials and other assets its properties reference. */
  references: NiagaraReference[];
}

export interface NiagaraEmitter {
  /** The handle's name in the system. */
  name: string;
  enabled: boolean;
  /** The emitter object's path; null when the handle has none. */
  emitter: string | null;
  /** "CPUSim" or "GPUComputeSim"; null when the emitter is not in the package. */
  simTarget: string | null;
  renderers: NiagaraRenderer[];
}

export interface NiagaraSystemAsset {
  name: string;
  class: string;
  /** Object path. */
  path: string;
  userParameters: NiagaraUserParameter[];
  emitters: NiagaraEmitter[];
  /** Every asset outside the package that the parameters and renderers reference, once each. */
  referencedAssets: string[];
  notes: string[];
}

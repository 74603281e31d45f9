/**
 * A material as PakScope reads it: the asset, its parent chain (instance -> parent instance ->
 * base material) and the parameters each level sets, with the value that takes effect (the
 * nearest level's). This is also the JSON `pakscope material --json` prints and `--format
 * convert` writes.
 */

export type MaterialParameterKind = 'scalar' | 'vector' | 'texture' | 'switch';

/** A linear colour (or a double vector, as X Y Z W). */
export interface LinearColor {
  r: number;
  g: number;
  b: number;
  a: number;
}

export type MaterialParameterValue = number | LinearColor | string | boolean | null;

export interface MaterialParameter {
  kind: MaterialParameterKind;
  name: string;
  /** Scalar: number; vector: LinearColor; texture: object path ("/Game/T.T") or null; switch: boolean. */
  value: MaterialParameterValue;
  /** Layer parameters: "LayerParameter" / "BlendParameter" and the layer index; absent for global ones. */
  association?: string;
  layerIndex?: number;
}

/** One asset of the chain: what it sets itself. */
export interface MaterialLevel {
  /** Object path: "/Game/Materials/MI_Rock.MI_Rock". */
  path: string;
  name: string;
  class: string;
  /** The parent's object path as stored; null for a base material (or none set). */
  parent: string | null;
  /**
   * An instance: the parameters it overrides. A base material: the defaults its cook keeps
   * (CachedExpressionData), empty when it keeps none.
   */
  parameters: MaterialParameter[];
  /** Base material settings it sets (an instance: only those it overrides). */
  blendMode?: string;
  shadingModel?: string;
  twoSided?: boolean;
  /** Textures the asset references (its own texture parameters, default textures, cached ones). */
  referencedTextures: string[];
}

/** A parameter with the value that takes effect and where it comes from. */
export interface EffectiveParameter extends MaterialParameter {
  /** Index in `chain` of the level whose value this is (0: the asset itself). */
  from: number;
  /** Object path of that level. */
  fromPath: string;
  /** Levels further up that set it too (their values are overridden). */
  overrides?: { from: number; value: MaterialParameterValue }[];
}

export interface MaterialAsset {
  name: string;
  class: string;
  path: string;
  /** The asset, then its parent, its parent's parent... to the base material (or where the chain breaks). */
  chain: MaterialLevel[];
  /** Every parameter of the chain, in kind then name order, with its effective value. */
  parameters: EffectiveParameter[];
  /** Effective settings: the nearest level that sets them, else the engine's defaults. */
  blendMode: string;
  shadingModel: string;
  twoSided: boolean;
  /** Every texture any level references, deduplicated, nearest level first. */
  referencedTextures: string[];
  /** What could not be read or followed (a missing parent, a loop, a value of the wrong type). */
  notes: string[];
}

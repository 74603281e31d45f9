/**
 * One material export's own parameters and settings (a MaterialLevel) from its properties:
 *
 *   Instances (MaterialInstanceConstant/Dynamic): ScalarParameterValues, VectorParameterValues
 *   (LinearColor), DoubleVectorParameterValues (Vector4d), TextureParameterValues (object
 *   reference), each an array of structs {ParameterInfo {Name, Association, Index} (UE4.19+; a
 *   bare ParameterName before), ParameterValue}; static switches in StaticParametersRuntime
 *   (UE5 cooks) or StaticParameters (editor data, UE4.19+) .StaticSwitchParameters {Value,
 *   bOverride, ParameterInfo}, in UE5.1+ editor assets on their MaterialInstanceEditorOnlyData
 *   export; BasePropertyOverrides {bOverride_BlendMode, BlendMode, ...}.
 *
 *   Base materials: the cooked FMaterialCachedExpressionData (native data, or the property of
 *   the same name before UE5): RuntimeEntries[type].ParameterInfoSet (UE5.1+; .ParameterInfos in
 *   its older Parameters struct) name the parameters whose values are, in the same order,
 *   ScalarValues, VectorValues, TextureValues and StaticSwitchValues. Editor (uncooked) materials
 *   and functions: their parameter expressions (MaterialExpressionScalarParameter ... with
 *   ParameterName and DefaultValue or Texture), exports of the same package.
 *
 * A value of an unexpected type is skipped with a note, never trusted.
 */
import type { PropertyEntry, PropertyValue } from '../../properties/types.js';
import type { NativeMaterial } from './native.js';
import type { LinearColor, MaterialLevel, MaterialParameter, MaterialParameterKind } from './types.js';

/** An export's class, name and properties as the property reader gives them. */
export interface MaterialExport {
  name: string;
  class: string;
  properties: readonly PropertyEntry[];
  native?: unknown;
}

const isEntryList = (v: unknown): v is PropertyEntry[] =>
  Array.isArray(v) && v.every((e) => e !== null && typeof e === 'object' && !Array.isArray(e) && 'name' in e && 'value' in e);

/** The value of the first entry named `name` (the first element of a static array). */
export function field(entries: readonly PropertyEntry[], name: string): PropertyValue | undefined {
  return entries.find((e) => e.name === name && !e.arrayIndex)?.value;
}

/** "EBlendMode::BLEND_Masked" and "BLEND_Masked" alike -> "BLEND_Masked". */
export function enumMember(v: string): string {
  const i = v.lastIndexOf('::');
  return i < 0 ? v : v.slice(i + 2);
}

function linearColor(v: unknown): LinearColor | undefined {
  if (v === null || typeof v !== 'object' || Array.isArray(v)) {
    // A color struct read property by property (a tagged struct the reader does not know natively).
    if (isEntryList(v)) return linearColor(Object.fromEntries(v.map((e) => [e.name, e.value])));
    return undefined;
  }
  const o = v as Record<string, PropertyValue>;
  const n = (k: string): number | undefined => (typeof o[k] === 'number' ? (o[k] as number) : undefined);
  const [r, g, b, a] = 'R' in o ? [n('R'), n('G'), n('B'), n('A')] : [n('X'), n('Y'), n('Z'), n('W')];
  if (r === undefined || g === undefined || b === undefined) return undefined;
  return { r, g, b, a: a ?? 1 };
}

/** A parameter's name, association and layer index from its ParameterInfo (or bare ParameterName). */
function parameterInfo(entries: readonly PropertyEntry[]): Pick<MaterialParameter, 'name' | 'association' | 'layerIndex'> | undefined {
  const info = field(entries, 'ParameterInfo');
  return isEntryList(info) ? infoOf(info) : typeof field(entries, 'ParameterName') === 'string' ? { name: field(entries, 'ParameterName') as string } : undefined;
}

function infoOf(info: readonly PropertyEntry[]): Pick<MaterialParameter, 'name' | 'association' | 'layerIndex'> | undefined {
  const name = field(info, 'Name');
  if (typeof name !== 'string') return undefined;
  const association = field(info, 'Association');
  const index = field(info, 'Index');
  const out: Pick<MaterialParameter, 'name' | 'association' | 'layerIndex'> = { name };
  const assoc = typeof association === 'string' ? enumMember(association) : 'GlobalParameter';
  if (assoc !== 'GlobalParameter') {
    out.association = assoc;
    if (typeof index === 'number') out.layerIndex = index;
  }
  return out;
}

type ValueOf = (v: unknown) => MaterialParameter['value'] | undefined;

const scalarOf: ValueOf = (v) => (typeof v === 'number' ? v : undefined);
const vectorOf: ValueOf = (v) => linearColor(v);
const textureOf: ValueOf = (v) => (typeof v === 'string' ? v : v === null ? null : undefined);
const switchOf: ValueOf = (v) => (typeof v === 'boolean' ? v : undefined);

/** The parameters of one *ParameterValues array property. */
function instanceParameters(props: readonly PropertyEntry[], property: string, kind: MaterialParameterKind, valueOf: ValueOf, notes: string[]): MaterialParameter[] {
  const list = field(props, property);
  if (list === undefined) return [];
  if (!Array.isArray(list)) {
    notes.push(`${property} is not a list (${typeof list}): skipped`);
    return [];
  }
  const out: MaterialParameter[] = [];
  list.forEach((element, i) => {
    const info = isEntryList(element) ? parameterInfo(element) : undefined;
    const value = isEntryList(element) ? valueOf(field(element, 'ParameterValue')) : undefined;
    if (!info || value === undefined) {
      notes.push(`${property}[${i}] is not a ${kind} parameter PakScope reads: skipped`);
      return;
    }
    out.push({ kind, ...info, value });
  });
  return out;
}

/** Static switches an instance overrides (bOverride set), from the cooked runtime set or the editor set. */
function staticSwitches(props: readonly PropertyEntry[], notes: string[]): MaterialParameter[] {
  const out: MaterialParameter[] = [];
  for (const setName of ['StaticParametersRuntime', 'StaticParameters']) {
    const set = field(props, setName);
    if (set === undefined) continue;
    const list = isEntryList(set) ? field(set, 'StaticSwitchParameters') : undefined;
    if (list === undefined) continue;
    if (!Array.isArray(list)) {
      notes.push(`${setName}.StaticSwitchParameters is not a list: skipped`);
      continue;
    }
    list.forEach((element, i) => {
      const info = isEntryList(element) ? parameterInfo(element) : undefined;
      const value = isEntryList(element) ? field(element, 'Value') : undefined;
      // bOverride false (or absent: a tagged false is not stored) means the parent's value stands.
      const override = isEntryList(element) ? field(element, 'bOverride') === true : false;
      if (!info || (value !== undefined && typeof value !== 'boolean')) {
        notes.push(`${setName}.StaticSwitchParameters[${i}] is not a static switch PakScope reads: skipped`);
        return;
      }
      if (override && !out.some((p) => p.name === info.name)) out.push({ kind: 'switch', ...info, value: value === true });
    });
  }
  return out;
}

/** RuntimeEntries by type index (static array elements carry their index; a skipped one is absent). */
function runtimeEntries(cached: readonly PropertyEntry[]): Map<number, PropertyEntry[]> {
  const out = new Map<number, PropertyEntry[]>();
  for (const e of cached) if (e.name === 'RuntimeEntries' && isEntryList(e.value)) out.set(e.arrayIndex ?? 0, e.value);
  return out;
}

function infos(entry: readonly PropertyEntry[] | undefined): unknown[] | undefined {
  if (!entry) return undefined;
  const set = field(entry, 'ParameterInfoSet') ?? field(entry, 'ParameterInfos');
  return Array.isArray(set) ? set : undefined;
}

/** A base material's parameter defaults from its cached expression data. */
function cachedParameters(cached: readonly PropertyEntry[], notes: string[]): MaterialParameter[] {
  // Before UE5.1 the names and values sit in a Parameters struct, with no double-vector type (texture at 2).
  const legacy = field(cached, 'Parameters');
  const holder = isEntryList(legacy) ? legacy : cached;
  const entries = runtimeEntries(holder);
  const textureType = isEntryList(legacy) ? 2 : 3;
  const out: MaterialParameter[] = [];
  const take = (type: number | undefined, values: string, kind: MaterialParameterKind, valueOf: ValueOf): void => {
    const names = type === undefined ? undefined : infos(entries.get(type));
    const list = field(holder, values);
    if (!names || names.length === 0) return;
    if (!Array.isArray(list) || list.length !== names.length) {
      notes.push(`cached ${kind} parameters: ${names.length} names but ${Array.isArray(list) ? list.length : 'no'} ${values}: skipped`);
      return;
    }
    names.forEach((n, i) => {
      const info = isEntryList(n) ? infoOf(n) : undefined;
      const value = valueOf(list[i]);
      if (!info || value === undefined) {
        notes.push(`cached ${kind} parameter ${i} does not read: skipped`);
        return;
      }
      out.push({ kind, ...info, value });
    });
  };
  take(0, 'ScalarValues', 'scalar', scalarOf);
  take(1, 'VectorValues', 'vector', vectorOf);
  take(textureType, 'TextureValues', 'texture', textureOf);
  // The static switch type follows the runtime types, one before the static component mask (the last).
  const last = Math.max(-1, ...entries.keys());
  if (!isEntryList(legacy) && last >= 2) take(last - 1, 'StaticSwitchValues', 'switch', switchOf);
  return out;
}

function stringList(v: unknown): string[] {
  return Array.isArray(v) ? v.filter((x): x is string => typeof x === 'string') : [];
}

/** The parameter kind of an editor expression class; undefined for the classes that are not parameters. */
function expressionKind(cls: string): MaterialParameterKind | undefined {
  if (!cls.startsWith('MaterialExpression') || !cls.includes('Parameter')) return undefined;
  if (cls.includes('StaticSwitch') || cls.includes('StaticBool')) return 'switch';
  if (cls.includes('Texture')) return 'texture';
  if (cls.includes('Scalar')) return 'scalar';
  if (cls.includes('Vector') || cls.includes('ChannelMask')) return 'vector';
  return undefined;
}

/**
 * An editor material's (or function's) parameters: its parameter expressions, exports of the
 * same package whose Material (Function) is `path`. A tagged property equal to the class default
 * is not stored: a missing ParameterName is the engine's "Param", a missing DefaultValue zero
 * (false), a missing Texture none.
 */
function expressionParameters(siblings: readonly MaterialExport[], path: string, notes: string[]): MaterialParameter[] {
  const out: MaterialParameter[] = [];
  for (const e of siblings) {
    const kind = expressionKind(e.class);
    if (!kind) continue;
    const owner = field(e.properties, 'Material') ?? field(e.properties, 'Function');
    if (typeof owner === 'string' && owner.toLowerCase() !== path.toLowerCase()) continue;
    const name = field(e.properties, 'ParameterName') ?? 'Param';
    const stored = field(e.properties, kind === 'texture' ? 'Texture' : 'DefaultValue');
    const value = stored === undefined
      ? (kind === 'scalar' ? 0 : kind === 'vector' ? { r: 0, g: 0, b: 0, a: 0 } : kind === 'switch' ? false : null)
      : (kind === 'scalar' ? scalarOf : kind === 'vector' ? vectorOf : kind === 'texture' ? textureOf : switchOf)(stored);
    if (typeof name !== 'string' || value === undefined) {
      notes.push(`${e.name} (${e.class}) is not a parameter PakScope reads: skipped`);
      continue;
    }
    if (!out.some((p) => p.kind === kind && p.name === name)) out.push({ kind, name, value });
  }
  return out;
}

/**
 * The properties of the export an editor asset keeps its editor-only data in (UE5.1+:
 * MaterialInstanceEditorOnlyData, with the instance's StaticParameters), when it is in the package.
 */
function editorOnlyProperties(props: readonly PropertyEntry[], siblings: readonly MaterialExport[]): readonly PropertyEntry[] {
  const ref = field(props, 'EditorOnlyData');
  if (typeof ref !== 'string') return [];
  const name = ref.slice(Math.max(ref.lastIndexOf(':'), ref.lastIndexOf('.')) + 1);
  return siblings.find((e) => e.name === name && e.class.endsWith('EditorOnlyData'))?.properties ?? [];
}

/**
 * One export's level of the chain; `path` is its object path, `siblings` the other exports of its
 * package (an editor material's parameter expressions).
 */
export function materialLevel(exp: MaterialExport, path: string, notes: string[], siblings: readonly MaterialExport[] = []): MaterialLevel {
  const props = exp.properties;
  const native = (exp.native ?? {}) as NativeMaterial;
  const parentValue = field(props, 'Parent');
  if (parentValue !== undefined && parentValue !== null && typeof parentValue !== 'string') notes.push(`${exp.name}: Parent is not an object reference: ignored`);
  const level: MaterialLevel = {
    path, name: exp.name, class: exp.class,
    parent: typeof parentValue === 'string' ? parentValue : null,
    parameters: [],
    referencedTextures: [],
  };
  const local: string[] = [];
  level.parameters.push(
    ...instanceParameters(props, 'ScalarParameterValues', 'scalar', scalarOf, local),
    ...instanceParameters(props, 'VectorParameterValues', 'vector', vectorOf, local),
    ...instanceParameters(props, 'DoubleVectorParameterValues', 'vector', vectorOf, local),
    ...instanceParameters(props, 'TextureParameterValues', 'texture', textureOf, local),
    ...staticSwitches([...props, ...editorOnlyProperties(props, siblings)], local),
  );
  const cachedProp = field(props, 'CachedExpressionData');
  const cached = native.cachedExpressionData ?? (isEntryList(cachedProp) ? cachedProp : undefined);
  if (cached) {
    const have = new Set(level.parameters.map((p) => `${p.kind}:${p.name}`));
    for (const p of cachedParameters(cached, local)) if (!have.has(`${p.kind}:${p.name}`)) level.parameters.push(p);
  }
  if (!exp.class.startsWith('MaterialInstance')) {
    const have = new Set(level.parameters.map((p) => `${p.kind}:${p.name}`));
    for (const p of expressionParameters(siblings, path, local)) if (!have.has(`${p.kind}:${p.name}`)) level.parameters.push(p);
  }
  notes.push(...local.map((n) => `${exp.name}: ${n}`));

  const overrides = field(props, 'BasePropertyOverrides');
  const set = (key: 'BlendMode' | 'ShadingModel' | 'TwoSided', v: PropertyValue | undefined): void => {
    if (key === 'TwoSided') {
      if (typeof v === 'boolean') level.twoSided = v;
    } else if (typeof v === 'string') {
      level[key === 'BlendMode' ? 'blendMode' : 'shadingModel'] = enumMember(v);
    }
  };
  if (isEntryList(overrides)) {
    // An instance overrides only what its bOverride_ flags say.
    for (const key of ['BlendMode', 'ShadingModel', 'TwoSided'] as const) {
      if (field(overrides, `bOverride_${key}`) === true) set(key, field(overrides, key) ?? (key === 'TwoSided' ? false : undefined));
    }
  } else if (level.parent === null) {
    for (const key of ['BlendMode', 'ShadingModel', 'TwoSided'] as const) set(key, field(props, key));
  }

  const textures = [
    ...level.parameters.filter((p) => p.kind === 'texture').map((p) => p.value),
    ...stringList(field(props, 'ReferencedTextures')),
    ...stringList(field(props, 'ReferencedDefaultTextures')),
    ...(cached ? stringList(field(cached, 'ReferencedTextures')) : []),
  ];
  level.referencedTextures = [...new Set(textures.filter((t): t is string => typeof t === 'string'))];
  return level;
}

/**
 * Niagara Systems: what a VFX modder looks for, read from the cooked properties.
 * - User parameters: ExposedParameters (an FNiagaraUserRedirectionParameterStore), whose
 *   SortedParameterOffsets (before UE4.25 the ParameterOffsets map) name each "User." variable
 *   with its type and offset. A value type's
 *   default is at that byte offset of ParameterData (floats and int32s, little-endian); a data
 *   interface's offset indexes DataInterfaces, another object's indexes UObjects.
 * - Emitters: EmitterHandles (name, bIsEnabled, the emitter: VersionedInstance.Emitter from UE5.1,
 *   Instance before), each emitter's SimTarget and RendererProperties (in VersionData[0] from
 *   UE5.1, on the emitter before), and each renderer's referenced assets (meshes, materials).
 * Objects inside the package are found by their object path (exports' paths from the package).
 */
import { FormatError } from '../../errors.js';
import { packageOfObjectPath } from '../../package/object-path.js';
import type { NativeDataReader } from '../../properties/context.js';
import type { ExportProperties, PropertyEntry, PropertyValue } from '../../properties/types.js';
import { knownClass, type AssetSource, type ConvertOptions } from '../registry.js';
import { sourceProperties } from '../source-properties.js';
import { scriptImportIndex } from '../../zen/object-index.js';
import { enumValue, StructFields } from '../struct-fields.js';
import type { NiagaraEmitter, NiagaraReference, NiagaraRenderer, NiagaraSystemAsset, NiagaraUserParameter } from './types.js';

export const NIAGARA_CLASSES: readonly string[] = ['NiagaraSystem'];
export const NIAGARA_SCRIPT_PACKAGE = '/Script/Niagara';
const isSystemClass = (cls: string): boolean => knownClass(cls, NIAGARA_CLASSES, NIAGARA_SCRIPT_PACKAGE) !== undefined;

/** Value types by their type's short name: the editor's name and how many 32-bit components. */
const VALUE_TYPES: Record<string, { type: string; floats?: number; ints?: number; bool?: true }> = {
  NiagaraFloat: { type: 'float', floats: 1 },
  NiagaraInt32: { type: 'int32', ints: 1 },
  NiagaraBool: { type: 'bool', bool: true },
  NiagaraID: { type: 'NiagaraID', ints: 2 },
  NiagaraPosition: { type: 'Position', floats: 3 },
  NiagaraMatrix: { type: 'Matrix', floats: 16 },
  NiagaraHalf: { type: 'half', floats: 0 },
  Vector2f: { type: 'Vector2', floats: 2 }, Vector2D: { type: 'Vector2', floats: 2 },
  Vector3f: { type: 'Vector3', floats: 3 }, Vector: { type: 'Vector3', floats: 3 },
  Vector4f: { type: 'Vector4', floats: 4 }, Vector4: { type: 'Vector4', floats: 4 },
  LinearColor: { type: 'LinearColor', floats: 4 },
  Quat4f: { type: 'Quat', floats: 4 }, Quat: { type: 'Quat', floats: 4 },
};

/** The value types by the script import hash of their path: a Zen package read without the global container names them so. */
const VALUE_TYPE_HASHES = new Map(Object.keys(VALUE_TYPES).flatMap((t) => ['/Script/Niagara', '/Script/CoreUObject'].map((p) => [scriptImportIndex(`${p}.${t}`), t] as const)));

/** The native reader: every export's object path, to find the objects the system points at. */
export const niagaraNativeReader: NativeDataReader = (pr, _r, exp) => (exp.index !== undefined ? { path: pr.ctx.objectPath(exp.index + 1) ?? undefined } : {});

const OBJECT_TYPE = /^(Object|SoftObject|Class|SoftClass|WeakObject|LazyObject|Interface)Property/;
const MAX_DEPTH = 24;

/** Object paths in a property tree, each with the property path it sits at. */
export function referencesIn(entries: readonly PropertyEntry[], prefix = '', depth = 0): NiagaraReference[] {
  const out: NiagaraReference[] = [];
  if (depth > MAX_DEPTH) return out;
  const visit = (v: PropertyValue, type: string, at: string): void => {
    if (typeof v === 'string') {
      if ((OBJECT_TYPE.test(type) || type === 'StructProperty<SoftObjectPath>') && v !== '' && v !== 'None') out.push({ property: at, path: v });
    } else if (Array.isArray(v)) {
      if (v.length > 0 && v.every((e) => e !== null && typeof e === 'object' && !Array.isArray(e) && 'name' in e && 'type' in e)) {
        for (const x of referencesIn(v as PropertyEntry[], `${at}.`, depth + 1)) out.push(x); // not push(...): a long array would overflow the call
        return;
      }
      const inner = /^(?:Array|Set)Property<(.*)>$/.exec(type)?.[1] ?? type;
      v.forEach((e, i) => visit(e as PropertyValue, inner, `${at}[${i}]`));
    } else if (v !== null && typeof v === 'object') {
      const path = (v as Record<string, PropertyValue>)['AssetPathName'];
      if (typeof path === 'string' && path !== 'None' && path !== '') out.push({ property: at, path });
    }
  };
  for (const e of entries) visit(e.value, e.type, `${prefix}${e.name}`);
  return out;
}

const shortTypeName = (path: string): string => path.slice(Math.max(path.lastIndexOf('.'), path.lastIndexOf('/')) + 1);

interface Store {
  data: Uint8Array;
  dataInterfaces: (string | null)[];
  objects: (string | null)[];
}

function userParameter(v: StructFields, store: Store, exportsByPath: ReadonlyMap<string, ExportProperties>, notes: string[]): NiagaraUserParameter {
  const fullName = v.string('Name', 'None');
  const typeDef = v.struct('TypeDef');
  const typePath = typeDef.reference('ClassStructOrEnum') ?? typeDef.reference('Struct') ?? typeDef.reference('Enum') ?? '';
  const hashed = /\?0x([0-9a-f]{16})$/.exec(typePath)?.[1];
  const short = (hashed ? VALUE_TYPE_HASHES.get(hashed) : undefined) ?? shortTypeName(typePath);
  const underlying = typeDef.number('UnderlyingType', -1);
  const name = fullName.replace(/^User\./, '');
  const offset = v.number('Offset', 0);
  const where = `${v.where}.Offset`;
  const valueType = VALUE_TYPES[short];
  const isEnum = underlying === 3 || (underlying === -1 && /^E[A-Z]/.test(short));
  const isClass = underlying === 1 || (underlying === -1 && !valueType && !isEnum);

  if (valueType || isEnum) {
    const words = valueType ? (valueType.floats ?? valueType.ints ?? 1) : 1;
    if (offset < 0 || offset + words * 4 > store.data.length) {
      throw new FormatError(v.file, where, v.offsetOf('Offset'), `${fullName}'s value at ${offset} (${words * 4} bytes) is past ParameterData's ${store.data.length} bytes`);
    }
    const dv = new DataView(store.data.buffer, store.data.byteOffset + offset, words * 4);
    if (isEnum) return { name, type: short, typePath, value: dv.getInt32(0, true) };
    if (valueType!.floats === 0) {
      notes.push(`${fullName}: a ${short} is not decoded`);
      return { name, type: valueType!.type, typePath, value: null };
    }
    if (valueType!.bool) return { name, type: 'bool', typePath, value: dv.getInt32(0, true) !== 0 };
    const values = Array.from({ length: words }, (_, i) => (valueType!.ints ? dv.getInt32(i * 4, true) : dv.getFloat32(i * 4, true)));
    return { name, type: valueType!.type, typePath, value: words === 1 ? values[0]! : values };
  }
  if (isClass) {
    // A class named by hash is a data interface when the data interfaces hold an export at its offset.
    const isDataInterface = short.startsWith('NiagaraDataInterface')
      || (hashed !== undefined && exportsByPath.has(store.dataInterfaces[offset]?.toLowerCase() ?? ''));
    const list = isDataInterface ? store.dataInterfaces : store.objects;
    if (offset < 0 || offset >= list.length) {
      notes.push(`${fullName}: its ${isDataInterface ? 'data interface' : 'object'} ${offset} is not in the store (it has ${list.length})`);
      return { name, type: short, typePath, value: null };
    }
    const path = list[offset] ?? null;
    const param: NiagaraUserParameter = { name, type: short, typePath, value: path };
    if (isDataInterface && path !== null) {
      const di = exportsByPath.get(path.toLowerCase());
      if (di) param.dataInterface = { class: di.class, references: referencesIn(di.properties) };
      else notes.push(`${fullName}: its data interface ${path} is not among the package's exports`);
    }
    return param;
  }
  notes.push(`${fullName}: its type ${typePath || '(none)'} is not decoded`);
  return { name, type: short || 'unknown', typePath, value: null };
}

/**
 * The store's variables with their offsets: SortedParameterOffsets (UE4.25+), or before it the
 * ParameterOffsets map of variable -> offset.
 */
function storeVariables(store: StructFields): StructFields[] {
  if (store.has('SortedParameterOffsets') || !store.has('ParameterOffsets')) return store.structs('SortedParameterOffsets');
  return store.array('ParameterOffsets').map((pair, i) => {
    const where = `${store.where}.ParameterOffsets[${i}]`;
    const p = pair as { key?: PropertyValue; value?: PropertyValue } | null;
    const key = p && typeof p === 'object' && !Array.isArray(p) ? p.key : undefined;
    if (!key || typeof key !== 'object' || Array.isArray(key) || typeof p!.value !== 'number') {
      throw new FormatError(store.file, where, store.offsetOf('ParameterOffsets'), 'not a variable and its offset');
    }
    return new StructFields(store.file, where, { ...(key as Record<string, PropertyValue>), Offset: p!.value }, store.offsetOf('ParameterOffsets'));
  });
}

function objectPaths(s: StructFields, name: string): (string | null)[] {
  return s.array(name).map((p, i) => {
    if (p !== null && typeof p !== 'string') throw new FormatError(s.file, `${s.where}.${name}[${i}]`, s.offsetOf(name), 'not an object reference');
    return p === '' || p === 'None' ? null : p;
  });
}

function byteArray(s: StructFields, name: string): Uint8Array {
  const list = s.array(name);
  if (!list.every((b) => typeof b === 'number' && b >= 0 && b <= 255 && Number.isInteger(b))) throw new FormatError(s.file, `${s.where}.${name}`, s.offsetOf(name), 'not a list of bytes');
  return Uint8Array.from(list as number[]);
}

function renderersOf(paths: readonly (string | null)[], ownPackage: string, exportsByPath: ReadonlyMap<string, ExportProperties>, file: string, notes: string[]): NiagaraRenderer[] {
  const out: NiagaraRenderer[] = [];
  for (const p of paths) {
    if (p === null) continue;
    const exp = exportsByPath.get(p.toLowerCase());
    if (!exp) {
      notes.push(`renderer ${p} is not among the package's exports`);
      continue;
    }
    const s = StructFields.of(file, `${exp.class} "${exp.name}"`, exp.properties);
    out.push({
      name: exp.name, class: exp.class, enabled: s.bool('bIsEnabled', true),
      references: referencesIn(exp.properties).filter((r) => packageOfObjectPath(r.path) !== ownPackage && !r.path.startsWith('/Script/')),
    });
  }
  return out;
}

function emitterOf(h: StructFields, ownPackage: string, exportsByPath: ReadonlyMap<string, ExportProperties>, file: string, notes: string[]): NiagaraEmitter {
  const name = h.string('Name', 'None');
  const enabled = h.bool('bIsEnabled', true);
  const emitter = h.optionalStruct('VersionedInstance')?.reference('Emitter') ?? h.reference('Instance');
  if (emitter === null) return { name, enabled, emitter, simTarget: null, renderers: [] };
  const exp = exportsByPath.get(emitter.toLowerCase());
  if (!exp) {
    notes.push(`emitter ${name}: ${emitter} is not among the package's exports`);
    return { name, enabled, emitter, simTarget: null, renderers: [] };
  }
  const props = StructFields.of(file, `${exp.class} "${exp.name}"`, exp.properties);
  // UE5.1+ keeps an emitter's data per version; a cook keeps the exposed one first.
  const data = props.has('VersionData') ? props.structs('VersionData')[0] ?? props : props;
  const simTarget = enumValue(data.string('SimTarget', 'ENiagaraSimTarget::CPUSim'));
  return { name, enabled, emitter, simTarget, renderers: renderersOf(objectPaths(data, 'RendererProperties'), ownPackage, exportsByPath, file, notes) };
}

/** The system of a package's exports (read with niagaraNativeReader); `file` names the package in errors. */
export function niagaraOfExport(exp: ExportProperties, exports: readonly ExportProperties[], packageName: string, file: string, warnings: readonly string[] = []): NiagaraSystemAsset {
  const notes = [...warnings];
  for (const e of exports) if (e.error) notes.push(`${e.name} (${e.class}): its properties stop early: ${e.error}`);
  const exportsByPath = new Map<string, ExportProperties>();
  for (const e of exports) {
    const p = (e.native as { path?: string } | undefined)?.path ?? `${packageName}.${e.name}`;
    exportsByPath.set(p.toLowerCase(), e);
  }
  const props = StructFields.of(file, `${exp.class} "${exp.name}"`, exp.properties);
  const exposed = props.struct('ExposedParameters');
  const store: Store = { data: byteArray(exposed, 'ParameterData'), dataInterfaces: objectPaths(exposed, 'DataInterfaces'), objects: objectPaths(exposed, 'UObjects') };
  const userParameters = storeVariables(exposed).map((v) => userParameter(v, store, exportsByPath, notes));
  const emitters = props.structs('EmitterHandles').map((h) => emitterOf(h, packageName, exportsByPath, file, notes));
  const referenced = [
    ...userParameters.flatMap((p) => p.dataInterface?.references.map((r) => r.path) ?? []),
    ...userParameters.flatMap((p) => (!p.dataInterface && typeof p.value === 'string' ? [p.value] : [])),
    ...emitters.flatMap((e) => [...(e.emitter && packageOfObjectPath(e.emitter) !== packageName ? [e.emitter] : []), ...e.renderers.flatMap((r) => r.references.map((x) => x.path))]),
  ].filter((p) => packageOfObjectPath(p) !== packageName && !p.startsWith('/Script/'));
  return { name: exp.name, class: knownClass(exp.class, NIAGARA_CLASSES, NIAGARA_SCRIPT_PACKAGE) ?? exp.class, path: `${packageName}.${exp.name}`, userParameters, emitters, referencedAssets: [...new Set(referenced)], notes };
}

/** Export `exportIndex` of `source` (or its Niagara System) read as a Niagara System. */
export async function readNiagaraSystem(source: AssetSource, exportIndex: number | undefined, opts: Pick<ConvertOptions, 'mappings' | 'engine'> = {}): Promise<NiagaraSystemAsset> {
  const opened = await sourceProperties(source, opts, { offsets: true, nativeData: niagaraNativeReader });
  const file = opened.path;
  const exports = opened.properties.exports;
  const exp = exportIndex !== undefined ? exports[exportIndex] : exports.find((e) => isSystemClass(e.class));
  if (!exp) {
    if (exportIndex !== undefined) throw new FormatError(file, 'export map', 0, `no export ${exportIndex} (the package has ${exports.length})`);
    throw new FormatError(file, 'export map', 0, `no Niagara System (its exports are ${exports.map((e) => `${e.name}: ${e.class}`).join(', ') || 'none'})`);
  }
  const where = `export ${exp.index} "${exp.name}"`;
  if (!isSystemClass(exp.class)) throw new FormatError(file, where, 0, `a ${exp.class}, not a Niagara System`);
  if (exp.encoding === 'unversioned' && exp.properties.length === 0 && exp.notes?.some((n) => n.includes('mappings'))) {
    throw new FormatError(file, where, 0, "the package is unversioned: the game's mappings (.usmap) are needed to read its Niagara System");
  }
  if (exp.error && exp.properties.length === 0) {
    if (exp.errorData) throw FormatError.within(null, exp.errorData, 'the property stream stops there, so the Niagara System cannot be read');
    throw new FormatError(file, where, 0, `its properties do not read: ${exp.error}`);
  }
  return niagaraOfExport(exp, exports, opened.properties.package, file, opened.warnings);
}

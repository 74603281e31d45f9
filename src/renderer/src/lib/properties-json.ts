/**
 * The JSON tab's "Properties" mode (no DOM, tested in Node): the package's export data in a shape
 * close to FModel's (CUE4Parse's JSON) so scripts written for it read ours: an array of exports
 * {Type, Name, Outer?, Flags?, Properties: {name: value}}, structs as objects of their
 * properties, maps as [{Key, Value}], object references as {ObjectName: "Class'Path'",
 * ObjectPath: "/Game/Package.ExportIndex"} and soft references as {AssetPathName, SubPathString}.
 * Not exactly FModel's: text is its display string, values the reader kept raw are their hex.
 */
import type { PropertyEntry, PropertyValue } from '../../../shared/package-api.js';
import type { PackagePropertiesView } from '../../../shared/api.js';
import { isEntryList, parseTypeName } from './properties-tree.js';

type Json = null | boolean | number | string | Json[] | { [k: string]: Json };

const OBJECT_TYPES = new Set(['ObjectProperty', 'ClassProperty', 'InterfaceProperty', 'WeakObjectProperty', 'VerseDynamicProperty']);
const SOFT_TYPES = new Set(['SoftObjectProperty', 'SoftClassProperty', 'AssetObjectProperty', 'AssetClassProperty']);
const SOFT_STRUCTS = new Set(['SoftObjectPath', 'SoftClassPath', 'StringAssetReference', 'StringClassReference']);

export function fmodelJson(view: PackagePropertiesView): Json[] {
  const pkg = view.package;

  const packageOf = (path: string): string => {
    const dot = path.indexOf('.');
    return dot < 0 ? path : path.slice(0, dot);
  };

  /** An FPackageIndex as CUE4Parse writes it. */
  const objectRef = (path: string, type: string): Json => {
    const link = view.links[path];
    const owner = link?.package ?? packageOf(path);
    const inner = path.length > owner.length + 1 ? path.slice(owner.length + 1) : path.slice(path.lastIndexOf('/') + 1);
    const cls = link?.class || (type === 'ClassProperty' ? 'Class' : 'Object');
    return { ObjectName: `${cls}'${inner}'`, ObjectPath: link?.kind === 'export' ? `${pkg}.${link.index}` : owner };
  };

  const softRef = (path: string): Json => {
    const colon = path.indexOf(':', path.indexOf('.'));
    return colon < 0 ? { AssetPathName: path, SubPathString: '' } : { AssetPathName: path.slice(0, colon), SubPathString: path.slice(colon + 1) };
  };

  const properties = (list: readonly PropertyEntry[]): { [k: string]: Json } => {
    const out: { [k: string]: Json } = {};
    for (const e of list) out[e.arrayIndex ? `${e.name}[${e.arrayIndex}]` : e.name] = e.raw ? String(e.value) : value(e.value, e.type);
    return out;
  };

  const value = (v: PropertyValue, type: string): Json => {
    if (v === null) return null;
    if (isEntryList(v, type)) return properties(v);
    const t = parseTypeName(type);
    if (t.name === 'OptionalProperty') return value(v, t.params[0] ?? '');
    if (typeof v === 'string') {
      if (OBJECT_TYPES.has(t.name)) return objectRef(v, t.name);
      if (SOFT_TYPES.has(t.name) || (t.name === 'StructProperty' && SOFT_STRUCTS.has(t.params[0] ?? ''))) return softRef(v);
      return v;
    }
    if (typeof v !== 'object') return v;
    if (Array.isArray(v)) {
      if (t.name === 'MapProperty') {
        return v.map((x) => {
          const pair = (x ?? {}) as { key?: PropertyValue; value?: PropertyValue };
          return { Key: value(pair.key ?? null, t.params[0] ?? ''), Value: value(pair.value ?? null, t.params[1] ?? '') };
        });
      }
      const inner = t.name === 'ArrayProperty' || t.name === 'SetProperty' ? t.params[0] ?? '' : '';
      return v.map((x) => value(x, inner));
    }
    const out: { [k: string]: Json } = {};
    for (const [k, x] of Object.entries(v)) out[k] = value(x, k === 'value' && isEntryList(x) ? 'StructProperty' : '');
    return out;
  };

  return view.exports.map((e) => {
    const out: { [k: string]: Json } = { Type: e.class, Name: e.name };
    if (e.outer) out['Outer'] = e.outer.slice(Math.max(e.outer.lastIndexOf('.'), e.outer.lastIndexOf(':')) + 1);
    if (e.flags && e.flags.length > 0) out['Flags'] = e.flags.join(' | ');
    out['Properties'] = properties(e.properties);
    if (e.error) out['Error'] = e.error;
    if (e.notes && e.notes.length > 0) out['Notes'] = e.notes;
    return out;
  });
}

import { FormatError } from '../errors.js';

/** What resolution needs of an import (UE4/5 FObjectImport and UE1/2 import entries alike). */
export interface ResolvableImport {
  classPackage: string;
  className: string;
  outerIndex: number;
  objectName: string;
  /** Package of an import outside its package's outer chain (UE4 NON_OUTER_PACKAGE_IMPORT). */
  packageName?: string | null;
  offset: number;
}

/** What resolution needs of an export. */
export interface ResolvableExport {
  classIndex: number;
  outerIndex: number;
  objectName: string;
  offset: number;
}

/** How paths are spelled. */
export interface PathStyle {
  /** Prefix of objects directly in the package ("/Game/Map" → "/Game/Map.Map"); null: none (UE1/2). */
  packageName: string | null;
  /** ':' after an object directly in the package (UE4 on); '.' everywhere otherwise. */
  subobjectDelimiter: boolean;
  /** Class of an export whose class index is 0 (a class itself). */
  nullClass: { className: string; classPath: string };
  /** What the format calls its tables, for errors ("import map", "import table"). */
  tables: { imports: string; exports: string };
}

/** UE4/UE5 path style for a package. */
export function ue4PathStyle(packageName: string): PathStyle {
  return {
    packageName, subobjectDelimiter: true, nullClass: { className: 'Class', classPath: '/Script/CoreUObject.Class' },
    tables: { imports: 'import map', exports: 'export map' },
  };
}

/** An import or export with its place in the object tree worked out. */
export interface ResolvedObject {
  /** Full path as the engine prints it: /Game/Map.Map:PersistentLevel.Actor. */
  path: string;
  /** The outer's full path; null for a package import and for an export directly in the package. */
  outer: string | null;
  /** Short class name ("Blueprint", "Package"). */
  className: string;
  /** Full class path where known ("/Script/Engine.Blueprint"); the short name otherwise. */
  classPath: string;
}

const NONE = 'None';
const SUBOBJECT_DELIMITER = ':';
/**
 * Longest object path taken, and all paths together (floor + per object): a deep outer chain of
 * long names would otherwise make each path the whole chain, quadratic in the package's size.
 */
const MAX_OBJECT_PATH_CHARS = 4096;
const PATH_CHARS_FLOOR = 16 << 20;
const PATH_CHARS_PER_OBJECT = 1024;

/**
 * Works out the paths of every import and export from the outer chains. A chain is followed
 * iteratively and at most once per object, so a long chain cannot overflow the stack and a
 * cyclic one fails with a FormatError at the entry that closes the cycle.
 */
export function resolveObjects(
  file: string, style: PathStyle, imports: readonly ResolvableImport[], exports: readonly ResolvableExport[],
): { imports: ResolvedObject[]; exports: ResolvedObject[] } {
  const packageName = style.packageName;
  const ni = imports.length, total = ni + exports.length;
  // Node k: import k for k < ni, export k - ni otherwise.
  const paths: (string | undefined)[] = new Array(total);
  const isPackage: boolean[] = new Array(total).fill(false);
  /** The object's outer is a package (so its children use ':'). */
  const outerIsPackage: boolean[] = new Array(total).fill(false);
  const state = new Uint8Array(total); // 0 new, 1 on the current chain, 2 done
  const pathCharsBudget = PATH_CHARS_FLOOR + total * PATH_CHARS_PER_OBJECT;
  let pathChars = 0;

  const where = (k: number): { structure: string; offset: number; label: string } => k < ni
    ? { structure: style.tables.imports, offset: imports[k]!.offset, label: `import ${k} "${imports[k]!.objectName}"` }
    : { structure: style.tables.exports, offset: exports[k - ni]!.offset, label: `export ${k - ni} "${exports[k - ni]!.objectName}"` };

  /** Node of an FPackageIndex, -1 for null; throws if out of range. */
  const nodeOf = (index: number, from: number, field: string): number => {
    if (index === 0) return -1;
    const k = index < 0 ? -index - 1 : ni + index - 1;
    if (index < 0 ? -index - 1 >= ni : index - 1 >= exports.length) {
      const w = where(from);
      throw new FormatError(file, w.structure, w.offset, `${w.label}: ${field} ${index} points past the ${index < 0 ? `${ni} imports` : `${exports.length} exports`}`);
    }
    return k;
  };
  const outerOf = (k: number): number => nodeOf(k < ni ? imports[k]!.outerIndex : exports[k - ni]!.outerIndex, k, 'outer index');
  const nameOf = (k: number): string => (k < ni ? imports[k]!.objectName : exports[k - ni]!.objectName);

  /** Path of a node whose outer (if any) is resolved. */
  const place = (k: number, outer: number): void => {
    const name = nameOf(k);
    if (outer < 0) {
      if (k < ni) {
        const imp = imports[k]!;
        if (imp.className === 'Package' || !imp.packageName || imp.packageName === NONE) {
          paths[k] = name;
          isPackage[k] = imp.className === 'Package';
        } else {
          // An import outside the outer chain of its package (NON_OUTER_PACKAGE_IMPORT).
          paths[k] = `${imp.packageName}.${name}`;
          outerIsPackage[k] = true;
        }
      } else {
        paths[k] = packageName === null ? name : `${packageName}.${name}`;
        outerIsPackage[k] = true;
      }
      return;
    }
    const sep = style.subobjectDelimiter && !isPackage[outer] && outerIsPackage[outer] ? SUBOBJECT_DELIMITER : '.';
    const path = `${paths[outer]!}${sep}${name}`;
    pathChars += path.length;
    if (path.length > MAX_OBJECT_PATH_CHARS || pathChars > pathCharsBudget) {
      const w = where(k);
      throw new FormatError(file, w.structure, w.offset, path.length > MAX_OBJECT_PATH_CHARS
        ? `${w.label}: its path is ${path.length} characters long (limit ${MAX_OBJECT_PATH_CHARS}): the outer chain is too deep`
        : `${w.label}: the object paths add up to over ${pathCharsBudget} characters`);
    }
    paths[k] = path;
    outerIsPackage[k] = isPackage[outer]!;
  };

  const chain: number[] = [];
  for (let start = 0; start < total; start++) {
    if (state[start] === 2) continue;
    chain.length = 0;
    let k = start;
    while (k >= 0 && state[k] !== 2) {
      if (state[k] === 1) {
        const w = where(k);
        throw new FormatError(file, w.structure, w.offset, `${w.label}: the outer chain loops back to it`);
      }
      state[k] = 1;
      chain.push(k);
      k = outerOf(k);
    }
    for (let i = chain.length - 1; i >= 0; i--) {
      const node = chain[i]!;
      place(node, outerOf(node));
      state[node] = 2;
    }
  }

  const classOf = (index: number, from: number): { className: string; classPath: string } => {
    const k = nodeOf(index, from, 'class index');
    if (k < 0) return { ...style.nullClass };
    return { className: nameOf(k), classPath: paths[k]! };
  };
  const outerPath = (k: number): string | null => {
    const o = outerOf(k);
    if (o >= 0) return paths[o]!;
    // A top-level import outside its package's outer chain: its outer is that package.
    if (k < ni) return paths[k] === imports[k]!.objectName ? null : imports[k]!.packageName ?? null;
    return null;
  };

  return {
    imports: imports.map((imp, k) => ({
      path: paths[k]!, outer: outerPath(k), className: imp.className,
      classPath: imp.classPackage === NONE || imp.classPackage === '' ? imp.className : `${imp.classPackage}.${imp.className}`,
    })),
    exports: exports.map((exp, j) => ({ path: paths[ni + j]!, outer: outerPath(ni + j), ...classOf(exp.classIndex, ni + j) })),
  };
}

/** Path of any FPackageIndex once resolved: null for 0. */
export function indexPath(index: number, imports: readonly ResolvedObject[], exports: readonly ResolvedObject[]): string | null {
  if (index === 0) return null;
  const o = index < 0 ? imports[-index - 1] : exports[index - 1];
  return o ? o.path : null;
}

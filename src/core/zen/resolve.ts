/**
 * Names what a Zen package's object indices point at: each export's class, outer, super and
 * template, each import's path, printed as UObject::GetPathName prints them. Script imports need
 * the global script objects; package imports need the imported packages parsed (by package id).
 * Whatever cannot be resolved is printed as a placeholder naming what is known.
 */
import type { ObjectRef } from './object-index.js';
import type { ZenPackage } from './types.js';
import { findScriptObject, scriptObjectPath, type ScriptObjects } from './script-objects.js';

export interface ResolveOptions {
  scriptObjects?: ScriptObjects;
  /** Parsed packages by package id (16 hex digits). */
  importedPackages?: ReadonlyMap<string, ZenPackage> | ((packageId: string) => ZenPackage | undefined);
}

/** What an object index points at. */
export interface ResolvedRef {
  /** Full path ("/Script/Engine.StaticMesh", "/Game/A.A:Comp"), or a placeholder when unresolved. */
  path: string;
  /** The object's own name ("" when unknown). */
  name: string;
  resolved: boolean;
  kind: ObjectRef['kind'];
  /** For package imports: the imported package's name or id. */
  packageName?: string;
  packageId?: string;
  /** Its class's path, when it lives in a parsed package or the script objects. */
  classPath?: string;
}

export interface ResolvedExport {
  index: number;
  name: string;
  path: string;
  className?: string;
  classPath?: string;
  outerPath?: string;
  superPath?: string;
  templatePath?: string;
}

export interface ResolvedImport {
  index: number;
  path: string;
  name: string;
  resolved: boolean;
  kind: ObjectRef['kind'];
  packageName?: string;
  packageId?: string;
  classPath?: string;
}

export interface ResolvedPackage {
  name: string;
  exports: ResolvedExport[];
  imports: ResolvedImport[];
}

/** Hops followed through outers (within and across packages) before giving up. */
const MAX_OUTER_DEPTH = 64;

/** A located object: its path and how deep it sits (0 = package, 1 = top-level asset). */
interface Located {
  path: string;
  name: string;
  depth: number;
  resolved: boolean;
  classPath?: string;
  packageName?: string;
  packageId?: string;
}

class Resolver {
  private readonly exportCache = new WeakMap<ZenPackage, (Located | undefined)[]>();
  private readonly publicExports = new WeakMap<ZenPackage, Map<string, number>>();
  constructor(private readonly opts: ResolveOptions) {}

  /** The export of `pkg` with this public export hash (UE5) or global import index (UE4). */
  private publicExport(pkg: ZenPackage, hash: string): number | undefined {
    let map = this.publicExports.get(pkg);
    if (!map) {
      map = new Map();
      for (const e of pkg.exports) if (e.isPublic && !map.has(e.publicExportHash)) map.set(e.publicExportHash, e.index);
      this.publicExports.set(pkg, map);
    }
    return map.get(hash);
  }

  private lookupPackage(id: string | undefined): ZenPackage | undefined {
    if (id === undefined) return undefined;
    const p = this.opts.importedPackages;
    if (!p) return undefined;
    return typeof p === 'function' ? p(id) : p.get(id);
  }

  /** The separator GetPathName puts before an object whose outer sits at `outerDepth`. */
  private static join(outer: Located, name: string): string {
    return outer.path + (outer.depth === 1 ? ':' : '.') + name;
  }

  locateExport(pkg: ZenPackage, index: number, budget: number, onPath: Set<string>): Located {
    let cache = this.exportCache.get(pkg);
    if (!cache) this.exportCache.set(pkg, (cache = new Array(pkg.exports.length)));
    const hit = cache[index];
    if (hit) return hit;
    const e = pkg.exports[index]!;
    const key = `${pkg.packageId}:${index}`;
    let located: Located;
    if (budget <= 0 || onPath.has(key)) {
      located = { path: `?.${e.name}`, name: e.name, depth: -1, resolved: false };
    } else {
      onPath.add(key);
      const outer = e.outer.kind === 'null'
        ? { path: pkg.name, name: pkg.name, depth: 0, resolved: true }
        : this.locate(pkg, e.outer, budget - 1, onPath);
      const cls = this.locate(pkg, e.class, budget - 1, onPath);
      onPath.delete(key);
      located = {
        path: Resolver.join(outer, e.name),
        name: e.name,
        depth: outer.depth >= 0 ? outer.depth + 1 : -1,
        resolved: outer.resolved,
        classPath: cls.kind === 'null' ? undefined : cls.path,
      };
    }
    if (located.resolved) cache[index] = located;
    return located;
  }

  locate(pkg: ZenPackage, ref: ObjectRef, budget = MAX_OUTER_DEPTH, onPath = new Set<string>()): Located & { kind: ObjectRef['kind'] } {
    switch (ref.kind) {
      case 'null':
        return { kind: 'null', path: 'None', name: 'None', depth: -1, resolved: true }; // as GetPathName prints null
      case 'export':
        return { kind: 'export', ...this.locateExport(pkg, ref.index, budget, onPath) };
      case 'script': {
        const so = this.opts.scriptObjects;
        const i = so ? findScriptObject(so, ref.raw) : undefined;
        if (so === undefined || i === undefined) return { kind: 'script', path: `/Script/?0x${ref.raw}`, name: '', depth: -1, resolved: false };
        const path = scriptObjectPath(so, i);
        let depth = 0;
        for (let o = so.objects[i]!.outer; o !== undefined && depth < MAX_OUTER_DEPTH; depth++) {
          const next = so.byIndex.get(o);
          o = next === undefined ? undefined : so.objects[next]!.outer;
        }
        const cdo = so.objects[i]!.cdoClass;
        const classIdx = cdo ? so.byIndex.get(cdo) : undefined;
        return {
          kind: 'script', path, name: so.objects[i]!.name, depth, resolved: !path.startsWith('?'),
          classPath: classIdx !== undefined ? scriptObjectPath(so, classIdx) : undefined,
        };
      }
      case 'package': {
        const packageId = pkg.importedPackageIds[ref.packageIndex];
        const packageName = pkg.importedPackageNames[ref.packageIndex];
        const hash = pkg.importedPublicExportHashes[ref.hashIndex];
        const imported = this.lookupPackage(packageId);
        const at = imported && hash !== undefined ? this.publicExport(imported, hash) : undefined;
        if (imported && at !== undefined) {
          return { kind: 'package', packageId, packageName: imported.name, ...this.locateExport(imported, at, budget - 1, onPath) };
        }
        return {
          kind: 'package', packageId, packageName, depth: -1, resolved: false, name: '',
          path: `${packageName ?? (packageId !== undefined ? `/?${packageId}` : `/?package${ref.packageIndex}`)}.?0x${hash ?? '?'}`,
        };
      }
      case 'globalImport': {
        for (const id of pkg.importedPackageIds) {
          const imported = this.lookupPackage(id);
          const at = imported ? this.publicExport(imported, ref.raw) : undefined;
          if (imported && at !== undefined) {
            return { kind: 'globalImport', packageId: id, packageName: imported.name, ...this.locateExport(imported, at, budget - 1, onPath) };
          }
        }
        return { kind: 'globalImport', path: `/?0x${ref.raw}`, name: '', depth: -1, resolved: false };
      }
    }
  }
}

/** What one object index of `pkg` points at. */
export function resolveObjectRef(pkg: ZenPackage, ref: ObjectRef, opts: ResolveOptions = {}): ResolvedRef {
  const l = new Resolver(opts).locate(pkg, ref);
  return {
    path: l.path, name: l.name, resolved: l.resolved, kind: l.kind,
    ...(l.packageName !== undefined ? { packageName: l.packageName } : {}),
    ...(l.packageId !== undefined ? { packageId: l.packageId } : {}),
    ...(l.classPath !== undefined ? { classPath: l.classPath } : {}),
  };
}

/** Every export's and import's names and paths. */
export function resolvePackage(pkg: ZenPackage, opts: ResolveOptions = {}): ResolvedPackage {
  const resolver = new Resolver(opts);
  const pathOf = (ref: ObjectRef): string | undefined => (ref.kind === 'null' ? undefined : resolver.locate(pkg, ref).path);
  const exports: ResolvedExport[] = pkg.exports.map((e) => {
    const self = resolver.locateExport(pkg, e.index, MAX_OUTER_DEPTH, new Set());
    const cls = e.class.kind === 'null' ? undefined : resolver.locate(pkg, e.class);
    return {
      index: e.index,
      name: e.name,
      path: self.path,
      className: cls ? (cls.resolved ? cls.name : undefined) : undefined,
      classPath: cls?.path,
      outerPath: pathOf(e.outer),
      superPath: pathOf(e.super),
      templatePath: pathOf(e.template),
    };
  });
  const imports: ResolvedImport[] = pkg.imports.map((ref, index) => {
    const l = resolver.locate(pkg, ref);
    return {
      index, path: l.path, name: l.name, resolved: l.resolved, kind: l.kind,
      ...(l.packageName !== undefined ? { packageName: l.packageName } : {}),
      ...(l.packageId !== undefined ? { packageId: l.packageId } : {}),
      ...(l.classPath !== undefined ? { classPath: l.classPath } : {}),
    };
  });
  return { name: pkg.name, exports, imports };
}

/**
 * Writes the global container's ScriptObjects chunk (UE5) as src/core/zen/script-objects.ts reads
 * it: a name batch of the global names, then u32 count and 32-byte entries {FMappedName name
 * (global), u64 global index, u64 outer, u64 CDO class}. For each class path given
 * ("/Script/Engine.StaticMesh") it writes the /Script package, the class and its CDO
 * (Default__StaticMesh), as the engine's script object table holds them.
 */
import { scriptImportIndex } from '../src/core/zen/object-index.js';
import { ByteWriter } from '../test/fixtures/byte-writer.js';
import { writeNameBatch } from './name-batch-writer.js';
import { NULL_INDEX } from './zen-writer.js';

interface ScriptEntry { name: string; globalIndex: string; outer: string; cdoClass: string }

/** "/Script/Engine.StaticMesh" → its CDO's path, "/Script/Engine.Default__StaticMesh". */
export function cdoPath(classPath: string): string {
  const dot = classPath.lastIndexOf('.');
  return `${classPath.slice(0, dot)}.Default__${classPath.slice(dot + 1)}`;
}

export function writeScriptObjects(classPaths: readonly string[]): Uint8Array {
  const entries: ScriptEntry[] = [];
  const packages = new Set<string>();
  for (const path of [...new Set(classPaths)].sort()) {
    const dot = path.lastIndexOf('.');
    const pkg = path.slice(0, dot);
    const cls = path.slice(dot + 1);
    if (!packages.has(pkg)) {
      packages.add(pkg);
      entries.push({ name: pkg, globalIndex: scriptImportIndex(pkg), outer: NULL_INDEX, cdoClass: NULL_INDEX });
    }
    const classIndex = scriptImportIndex(path);
    entries.push({ name: cls, globalIndex: classIndex, outer: scriptImportIndex(pkg), cdoClass: NULL_INDEX });
    entries.push({ name: `Default__${cls}`, globalIndex: scriptImportIndex(cdoPath(path)), outer: scriptImportIndex(pkg), cdoClass: classIndex });
  }
  const names = [...new Set(entries.map((e) => e.name))];
  const index = new Map(names.map((n, i) => [n, i]));
  const w = new ByteWriter();
  writeNameBatch(w, names);
  w.u32(entries.length);
  for (const e of entries) {
    w.u32(((2 << 30) | index.get(e.name)!) >>> 0).u32(0); // a global name
    w.hex64(e.globalIndex).hex64(e.outer).hex64(e.cdoClass);
  }
  return w.finish();
}

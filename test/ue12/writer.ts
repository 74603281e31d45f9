// Writes small Unreal Engine 1/2 packages in memory, for layouts the corpus lacks (versions
// before 68 with a heritage table, before 64 with NUL-terminated names) and for bad input.

export interface WriterName { name: string; flags?: number }
export interface WriterImport { classPackage: number; className: number; outer: number; objectName: number }
export interface WriterExport {
  classIndex: number; superIndex: number; outer: number; objectName: number; flags?: number; data?: number[];
  /** Store this serial offset instead of where the data is (bad input). */
  serialOffset?: number;
}

export interface PackageSpec {
  version: number;
  licensee?: number;
  packageFlags?: number;
  names: WriterName[];
  imports: WriterImport[];
  exports: WriterExport[];
  /** GUIDs (16 bytes each) for the heritage table (versions before 68). */
  heritage?: number[][];
}

/** UE1/2 compact index: sign + continue + 6 bits, then 7 bits + continue per byte. */
export function compactIndex(v: number): number[] {
  const out: number[] = [];
  let a = Math.abs(v);
  let b0 = (v < 0 ? 0x80 : 0) | (a & 0x3f);
  a = Math.floor(a / 64);
  if (a > 0) b0 |= 0x40;
  out.push(b0);
  while (a > 0) {
    let b = a & 0x7f;
    a = Math.floor(a / 128);
    if (a > 0) b |= 0x80;
    out.push(b);
  }
  return out;
}

const i32 = (v: number): number[] => { const b = new Uint8Array(4); new DataView(b.buffer).setInt32(0, v, true); return [...b]; };

/** Header, names, export data, imports, exports (and heritage), as UnrealEd lays them out. */
export function writeUe12Package(spec: PackageSpec): Uint8Array {
  const old = spec.version < 68;
  const headerSize = old ? 44 : 36 + 16 + 4 + 8;
  const names: number[] = [];
  for (const n of spec.names) {
    const bytes = [...Buffer.from(n.name, 'latin1'), 0];
    if (spec.version >= 64) names.push(...compactIndex(bytes.length));
    names.push(...bytes, ...i32(n.flags ?? 0));
  }
  const nameOffset = headerSize;
  let at = nameOffset + names.length;
  const data: number[] = [];
  const offsets: number[] = [];
  for (const e of spec.exports) {
    offsets.push(at + data.length);
    data.push(...(e.data ?? []));
  }
  at += data.length;
  const importOffset = at;
  const imports: number[] = [];
  for (const i of spec.imports) imports.push(...compactIndex(i.classPackage), ...compactIndex(i.className), ...i32(i.outer), ...compactIndex(i.objectName));
  const exportOffset = importOffset + imports.length;
  const exports: number[] = [];
  spec.exports.forEach((e, k) => {
    const size = e.data?.length ?? 0;
    exports.push(...compactIndex(e.classIndex), ...compactIndex(e.superIndex), ...i32(e.outer), ...compactIndex(e.objectName), ...i32(e.flags ?? 0), ...compactIndex(size));
    if (size > 0) exports.push(...compactIndex(e.serialOffset ?? offsets[k]!));
  });
  const heritageOffset = exportOffset + exports.length;
  const heritage = (spec.heritage ?? []).flat();

  const header = [
    0xc1, 0x83, 0x2a, 0x9e, ...i32(spec.version | ((spec.licensee ?? 0) << 16)), ...i32(spec.packageFlags ?? 1),
    ...i32(spec.names.length), ...i32(nameOffset), ...i32(spec.exports.length), ...i32(exportOffset),
    ...i32(spec.imports.length), ...i32(importOffset),
  ];
  if (old) header.push(...i32(spec.heritage?.length ?? 0), ...i32(heritageOffset));
  else header.push(...Array.from({ length: 16 }, (_, i) => i + 1), ...i32(1), ...i32(spec.exports.length), ...i32(spec.names.length));
  return Uint8Array.from([...header, ...names, ...data, ...imports, ...exports, ...heritage]);
}


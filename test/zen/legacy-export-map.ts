// Just enough of a cooked legacy .uasset to list its exports' names and serial sizes, so the Zen
// tests can compare a Zen package with its legacy twin. The full legacy parser lives elsewhere.
import { readFileSync } from 'node:fs';

export interface LegacyExport {
  name: string;
  serialSize: number;
  serialOffset: number;
}

/**
 * `ue5` is the UE5 object version the (unversioned) file was cooked with: 0 for UE4.27, 1012
 * for 5.4, 1013 for 5.5, 1017 for 5.6. It decides which summary fields exist.
 */
export function readLegacyExports(path: string, ue5: number): { names: string[]; exports: LegacyExport[] } {
  const b = readFileSync(path);
  const dv = new DataView(b.buffer, b.byteOffset, b.byteLength);
  let p = 0;
  const i32 = (): number => { const v = dv.getInt32(p, true); p += 4; return v; };
  const fstring = (): string => {
    const n = i32();
    if (n >= 0) { const s = b.subarray(p, p + Math.max(0, n - 1)).toString('latin1'); p += n; return s; }
    const s = b.subarray(p, p + (-n - 1) * 2).toString('utf16le'); p += -n * 2; return s;
  };
  if (dv.getUint32(0, true) !== 0x9e2a83c1) throw new Error(`${path} is not a .uasset`);
  p = 4;
  const legacy = i32();
  if (legacy !== -4) i32(); // UE3 version
  i32(); // UE4 version
  if (legacy <= -8) i32(); // UE5 version
  i32(); // licensee
  if (legacy <= -9) p += 20 + 4; // saved hash, total header size
  const customs = i32();
  p += customs * 20;
  if (legacy > -9) i32(); // total header size
  fstring(); // folder name
  i32(); // package flags (cooked: FilterEditorOnly, so no localization id below)
  const nameCount = i32();
  const nameOffset = i32();
  if (ue5 >= 1008) p += 8; // soft object paths
  p += 8; // gatherable text data
  const exportCount = i32();
  const exportOffset = i32();
  i32(); i32(); // imports
  if (ue5 >= 1015) p += 16; // cell exports, cell imports
  if (ue5 >= 1014) p += 4; // metadata offset
  const dependsOffset = i32();

  p = nameOffset;
  const names: string[] = [];
  for (let i = 0; i < nameCount; i++) {
    names.push(fstring());
    p += 4; // hashes
  }
  const entrySize = (dependsOffset - exportOffset) / exportCount;
  const exports: LegacyExport[] = [];
  for (let i = 0; i < exportCount; i++) {
    p = exportOffset + i * entrySize + 16; // class, super, template, outer
    const nameIndex = i32();
    const number = i32();
    p += 4; // object flags
    const serialSize = Number(dv.getBigInt64(p, true));
    const serialOffset = Number(dv.getBigInt64(p + 8, true));
    exports.push({ name: number === 0 ? names[nameIndex]! : `${names[nameIndex]}_${number - 1}`, serialSize, serialOffset });
  }
  return { names, exports };
}

// Writes a UE1/2 sound package (.uax) in memory: the corpus's UE1/2 packages import sounds but
// hold none. The sound's bytes are a real file (cue58's source WAV); the package around it is
// laid out as UnrealEd writes it (test/ue12/writer.ts).
import { parseUe12Package } from '../../../src/core/ue12/package.js';
import { compactIndex, writeUe12Package, type PackageSpec } from '../../ue12/writer.js';

const i32 = (v: number): number[] => { const b = new Uint8Array(4); new DataView(b.buffer).setInt32(0, v, true); return [...b]; };
const f32 = (v: number): number[] => { const b = new Uint8Array(4); new DataView(b.buffer).setFloat32(0, v, true); return [...b]; };

export interface SoundPackageOptions {
  /** 69: UT99; 128 with licensee 29: UT2004 (a Likelihood float before the data). */
  version: number;
  licensee?: number;
  fileType?: string;
  /** Bad input: store this lazy-array end offset instead of the right one. */
  badSkip?: boolean;
}

/** A package "Sounds" with one Sound export "Hit" holding `file`. */
export function writeSoundPackage(file: Uint8Array, o: SoundPackageOptions): Uint8Array {
  const names = ['None', 'Core', 'Engine', 'Package', 'Class', 'Sound', 'Hit', o.fileType ?? 'WAV'];
  const likelihood = o.version >= 100 && (o.licensee ?? 0) >= 2;
  const body = (skip: number): number[] => [
    ...compactIndex(0), // properties: "None"
    ...compactIndex(7), // FileType
    ...(likelihood ? f32(1) : []),
    ...(o.version >= 63 ? i32(skip) : []),
    ...compactIndex(file.length), ...file,
  ];
  const spec = (skip: number): PackageSpec => ({
    version: o.version, ...(o.licensee !== undefined ? { licensee: o.licensee } : {}),
    names: names.map((name) => ({ name })),
    imports: [
      { classPackage: 1, className: 3, outer: 0, objectName: 2 }, // Engine (a package)
      { classPackage: 1, className: 4, outer: -1, objectName: 5 }, // Engine.Sound (a class)
    ],
    exports: [{ classIndex: -2, superIndex: 0, outer: 0, objectName: 6, flags: 0x4, data: body(skip) }],
  });
  // The lazy array's end offset is absolute: lay the package out once to learn where the data lands.
  const first = writeUe12Package(spec(0));
  const at = parseUe12Package(first, 'Sounds.uax').exports[0]!.serialOffset;
  const end = at + body(0).length;
  return writeUe12Package(spec(o.badSkip ? end + 7 : end));
}

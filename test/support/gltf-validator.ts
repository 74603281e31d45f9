/**
 * The Khronos glTF validator (npm gltf-validator) on a .glb: its report, and the messages of
 * severity error (0) in one line each, so a test can expect none and say which when there are.
 */
import { createRequire } from 'node:module';

interface ValidatorMessage { code: string; message: string; severity: number; pointer?: string }
export interface ValidatorReport {
  issues: { numErrors: number; numWarnings: number; messages: ValidatorMessage[] };
  info?: Record<string, unknown>;
}

const validator = createRequire(import.meta.url)('gltf-validator') as {
  validateBytes(data: Uint8Array, options?: Record<string, unknown>): Promise<ValidatorReport>;
};

export async function validateGlb(glb: Uint8Array): Promise<{ report: ValidatorReport; errors: string[]; warnings: string[] }> {
  const report = await validator.validateBytes(new Uint8Array(glb), { maxIssues: 100 });
  const line = (m: ValidatorMessage) => `${m.code} ${m.pointer ?? ''}: ${m.message}`;
  return {
    report,
    errors: report.issues.messages.filter((m) => m.severity === 0).map(line),
    warnings: report.issues.messages.filter((m) => m.severity === 1).map(line),
  };
}

/** The JSON chunk and the binary chunk of a .glb (as the GLB layout says: 12-byte header, then chunks). */
export function parseGlb(glb: Uint8Array): { json: any; bin: Uint8Array } {
  const dv = new DataView(glb.buffer, glb.byteOffset, glb.byteLength);
  if (dv.getUint32(0, true) !== 0x46546c67) throw new Error('not a .glb');
  const jsonLength = dv.getUint32(12, true);
  const json = JSON.parse(new TextDecoder().decode(glb.subarray(20, 20 + jsonLength)));
  const binAt = 20 + jsonLength;
  const bin = binAt < glb.length ? glb.subarray(binAt + 8, binAt + 8 + dv.getUint32(binAt, true)) : new Uint8Array();
  return { json, bin };
}

/** The values of accessor `index` as numbers (tightly packed or with the view's stride; not sparse). */
export function accessorValues(gltf: { json: any; bin: Uint8Array }, index: number): number[] {
  const a = gltf.json.accessors[index];
  const comps = ({ SCALAR: 1, VEC2: 2, VEC3: 3, VEC4: 4, MAT4: 16 } as Record<string, number>)[a.type]!;
  const read = (viewIndex: number, byteOffset: number, componentType: number, count: number, n: number): number[] => {
    const view = gltf.json.bufferViews[viewIndex];
    const sz = ({ 5121: 1, 5123: 2, 5125: 4, 5126: 4 } as Record<number, number>)[componentType]!;
    const stride = view.byteStride ?? n * sz;
    const dv = new DataView(gltf.bin.buffer, gltf.bin.byteOffset + (view.byteOffset ?? 0) + byteOffset);
    const values: number[] = [];
    for (let i = 0; i < count; i++) {
      for (let c = 0; c < n; c++) {
        const at = i * stride + c * sz;
        values.push(componentType === 5126 ? dv.getFloat32(at, true) : componentType === 5125 ? dv.getUint32(at, true) : componentType === 5123 ? dv.getUint16(at, true) : dv.getUint8(at));
      }
    }
    return values;
  };
  const out = a.bufferView === undefined ? new Array<number>(a.count * comps).fill(0) : read(a.bufferView, a.byteOffset ?? 0, a.componentType, a.count, comps);
  if (a.sparse) {
    const at = read(a.sparse.indices.bufferView, a.sparse.indices.byteOffset ?? 0, a.sparse.indices.componentType, a.sparse.count, 1);
    const values = read(a.sparse.values.bufferView, a.sparse.values.byteOffset ?? 0, a.componentType, a.sparse.count, comps);
    at.forEach((v, i) => { for (let c = 0; c < comps; c++) out[v * comps + c] = values[i * comps + c]!; });
  }
  return out;
}

// The app's backend and meshes: SM_Fixture lists under the registry's "mesh" view; meshInfo gives
// the counts and bounds, meshGeometry the arrays in the view's axes, saveConversion a .glb
// the Khronos validator accepts; the request checks refuse a bad LOD.
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { Backend } from '../../src/backend/backend.js';
import { ApiValidationError, validateRequest } from '../../src/shared/api.js';
import { decodeFrame, encodeFrame } from '../../src/shared/wire.js';
import { useBackend } from '../support/backend-session.js';
import { corpus } from '../support/corpus.js';
import { parseGlb, validateGlb } from '../support/gltf-validator.js';

const UNCOMPRESSED = corpus('cue58/IoStore/Tagged/Uncompressed');
const SM = 'CUE4ParseFixtures/Content/Fixtures/Meshes/SM_Fixture.uasset';

const session = useBackend(UNCOMPRESSED, 'pakscope-meshes-');
let backend: Backend, installId: string, configDir: string;
beforeAll(() => ({ backend, installId, configDir } = session));

/** A frame's parts joined, as the web client receives them. */
function frameBuffer(parts: Uint8Array[]): ArrayBuffer {
  const out = new Uint8Array(parts.reduce((n, x) => n + x.byteLength, 0));
  let at = 0;
  for (const x of parts) { out.set(x, at); at += x.byteLength; }
  return out.buffer;
}

describe('meshes in the backend', () => {
  it('a mesh package lists its StaticMesh under the mesh view', async () => {
    const view = await backend.openPackage({ installId, path: SM });
    expect(view.assets.map((a) => [a.name, a.class, a.kind, a.view, a.converts])).toEqual([['SM_Fixture', 'StaticMesh', 'mesh', 'mesh', ['glb']]]);
  });

  it('meshInfo gives SM_Fixture\'s LODs, sections, bounds and socket', async () => {
    const v = await backend.meshInfo({ installId, path: SM });
    expect([v.class, v.name, v.converts]).toEqual(['StaticMesh', 'SM_Fixture', ['glb']]);
    expect(v.lods.map((l) => [l.vertices, l.triangles, l.sections.length, l.uvChannels])).toEqual([[6, 2, 2, 2], [6, 2, 2, 2]]);
    expect(v.lods[0]!.bounds).toEqual({ min: [-50, -50, 0], max: [50, 50, 20] });
    expect(v.sockets.map((s) => s.name)).toEqual(['FixtureSocket']);
    // (12.5, -25, 37.5) cm in the engine's axes is (12.5, 37.5, -25) in the view's.
    v.sockets[0]!.position.forEach((x, i) => expect(x).toBeCloseTo([12.5, 37.5, -25][i]!, 4));
  });

  it('meshGeometry gives a LOD\'s arrays as bytes that survive the browser host\'s wire format', async () => {
    const g = decodeFrame(frameBuffer(encodeFrame({ ok: true, value: await backend.meshGeometry({ installId, path: SM, lod: 1 }) })!)) as { value: Awaited<ReturnType<Backend['meshGeometry']>> };
    const geo = g.value;
    expect([geo.lod, geo.vertices, geo.uvChannels]).toEqual([1, 6, 2]);
    expect(geo.positions).toBeInstanceOf(Uint8Array);
    // Views on the frame at multiples of 8: the view makes floats of them without a copy.
    expect(geo.positions.byteOffset % 8).toBe(0);
    const p = new Float32Array(geo.positions.buffer, geo.positions.byteOffset, geo.vertices * 3);
    // Vertex 0 (-50, -50, 0) in the view's axes: (-50, 0, -50).
    expect(Array.from(p.subarray(0, 3))).toEqual([-50, 0, -50]);
    expect(new Uint32Array(geo.indices.slice().buffer).length).toBe(6);
    await expect(backend.meshGeometry({ installId, path: SM, lod: 2 })).rejects.toThrow(/LODs 0 to 1, not 2/);
  });

  it('saveConversion writes the LOD asked for as a valid .glb; other formats and a bad LOD are refused', async () => {
    const file = join(configDir, 'SM_Fixture.glb');
    const saved = await backend.saveConversion({ installId, path: SM, format: 'glb', lod: 1, destination: file });
    expect(saved.path).toBe(file);
    const glb = new Uint8Array(await readFile(file));
    expect((await validateGlb(glb)).errors).toEqual([]);
    expect(parseGlb(glb).json.meshes[0].primitives).toHaveLength(2);
    await expect(backend.saveConversion({ installId, path: SM, format: 'glb', lod: 5, destination: join(configDir, 'x.glb') })).rejects.toThrow(/LODs 0 to 1, not 5/);
    expect(() => validateRequest('meshGeometry', { installId, path: SM, lod: -1 })).toThrow(ApiValidationError);
    expect(validateRequest('saveConversion', { installId, path: SM, format: 'glb', lod: 1, destination: file })).toMatchObject({ format: 'glb', lod: 1 });
  });
});

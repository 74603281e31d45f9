// The app's backend and animations: AS_Fixture lists under the "animation" view; animInfo gives
// CUE4Parse's facts, the bones posed at each frame (Root 10 cm along X at the end, as PA_Fixture's
// last pose stores it; FixtureCurve 2.5 at frame 15, as its Pose_15 stores), SK_Fixture skinned
// (each bone's skinning matrix takes its bind position to its posed one), and saveConversion the
// animated .glb; AM_Fixture gives its facts.
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Backend } from '../../src/backend/backend.js';
import { validateRequest } from '../../src/shared/api.js';
import { corpus } from '../support/corpus.js';
import { parseGlb, validateGlb } from '../support/gltf-validator.js';

const UNCOMPRESSED = corpus('cue58/IoStore/Tagged/Uncompressed');
const AS = 'CUE4ParseFixtures/Content/Fixtures/Animations/AS_Fixture.uasset';
const AM = 'CUE4ParseFixtures/Content/Fixtures/Animations/AM_Fixture.uasset';
const info = { name: 'PakScope', version: '0', electron: null, chrome: null, mode: 'web' as const };

let configDir: string;
let backend: Backend;
let installId: string;
beforeAll(async () => {
  configDir = await mkdtemp(join(tmpdir(), 'pakscope-anims-'));
  backend = new Backend({ configDir, dialogs: { pickFolder: async () => null, pickFile: async () => null }, info, anyPath: true });
  installId = (await backend.openInstall({ path: UNCOMPRESSED })).id;
});
afterAll(async () => {
  await backend.close();
  await rm(configDir, { recursive: true, force: true });
});

describe('animations in the backend', () => {
  it('AS_Fixture lists under the animation view, converting to .glb', async () => {
    const view = await backend.openPackage({ installId, path: AS });
    expect(view.assets.map((a) => [a.name, a.class, a.kind, a.view, a.converts])).toEqual([['AS_Fixture', 'AnimSequence', 'anim', 'animation', ['glb']]]);
    expect(() => validateRequest('animInfo', { installId, path: AS })).not.toThrow();
  });

  it('animInfo: the facts, the poses at every frame, the skinning of SK_Fixture', async () => {
    const v = await backend.animInfo({ installId, path: AS });
    expect([v.sequenceLength, v.rateScale, v.frames]).toEqual([1, 1.25, 31]);
    expect(v.bones.map((b) => [b.name, b.parent])).toEqual([['Root', -1], ['Joint_1', 0], ['Joint_2', 1]]);
    expect(v.mesh).toBe('CUE4ParseFixtures/Content/Fixtures/Meshes/SK_Fixture.uasset');
    expect(v.positions).toHaveLength(31 * 3 * 3);
    // Root at the last frame: (10, 0, 0) cm, the same in the view's axes (x, z, y).
    expect(v.positions.slice(30 * 9, 30 * 9 + 3).map((x) => +x.toFixed(4))).toEqual([10, 0, 0]);
    expect(v.curves[0]!.name).toBe('FixtureCurve');
    expect(v.curves[0]!.values[15]).toBeCloseTo(2.5, 5);
    const skin = v.skin!;
    expect(skin.vertices).toBe(6);
    expect(skin.bones).toBe(3);
    // Bind positions of the bones (view axes): Root at 0, Joint_1 6.67 cm up, Joint_2 13.33 cm up (engine Z is the view's Y).
    const bind = [[0, 0, 0], [0, 20 / 3, 0], [0, 40 / 3, 0]];
    for (const f of [0, 15, 30]) {
      for (let j = 0; j < 3; j++) {
        const m = skin.matrices.slice((f * 3 + j) * 12, (f * 3 + j) * 12 + 12);
        const [x, y, z] = bind[j]!;
        const moved = [0, 1, 2].map((r) => m[r * 4]! * x! + m[r * 4 + 1]! * y! + m[r * 4 + 2]! * z! + m[r * 4 + 3]!);
        moved.forEach((c, k) => expect(c).toBeCloseTo(v.positions[(f * 3 + j) * 3 + k]!, 4));
      }
    }
  });

  it('saveConversion writes the sequence on SK_Fixture as a valid animated .glb', async () => {
    const file = join(configDir, 'AS_Fixture.glb');
    await backend.saveConversion({ installId, path: AS, format: 'glb', destination: file });
    const glb = new Uint8Array(await readFile(file));
    expect((await validateGlb(glb)).errors).toEqual([]);
    const { json } = parseGlb(glb);
    expect(json.animations[0].channels).toHaveLength(9);
    expect(json.skins).toHaveLength(1);
  });

  it('AM_Fixture: its facts, no poses of its own, nothing to save', async () => {
    const v = await backend.animInfo({ installId, path: AM });
    expect(v.class).toBe('AnimMontage');
    expect(v.sequenceLength).toBe(1.28);
    expect(v.composition!.slots[0]!.name).toBe('FixtureSlot');
    expect(v.composition!.sections.map((s) => [s.name, s.startTime])).toEqual([['Intro', 0], ['Loop', 1]]);
    expect(v.positions).toEqual([]);
    expect(v.converts).toEqual([]);
  });
});

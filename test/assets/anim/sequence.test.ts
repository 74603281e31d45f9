// The UAnimSequence reader on cue58's AS_Fixture and AS_Additive (IoStore, UE 5.8): tagged, and
// unversioned with the usmap alike. The facts are CUE4Parse's fixture test's
// (FixtureAnimationTests.AnimationSequencePreservesCompressedTracksAndCurve: SequenceLength 1,
// RateScale 1.25, skeleton SKEL_Fixture, tracks for bones 0, 1, 2, the curve FixtureCurve;
// FixtureAdvancedAssetTests: AS_Additive local-space additive on AS_Fixture, RateScale 0.875).
// Poses and curve values are checked against what the engine baked into AS_Additive: the
// editor computed it from AS_Fixture's raw (uncompressed) data as "AS_Fixture minus its frame 0"
// and compressed it on its own, so its keys are an independent statement of AS_Fixture's motion.
import { beforeAll, describe, expect, it } from 'vitest';
import { curveValue, localPose, readInstallAnimSequence, sampleKeys, type AnimSequence } from '../../../src/core/assets/anim/index.js';
import { readMesh } from '../../../src/core/assets/mesh/index.js';
import { parseUsmap } from '../../../src/core/usmap/parse.js';
import type { Usmap } from '../../../src/core/usmap/types.js';
import { loadCorpus } from '../../support/corpus.js';
import { openedPackages } from '../../support/opened-packages.js';

const VARIANTS: Record<string, { path: string; mappings: boolean }> = {
  'Tagged Uncompressed': { path: 'cue58/IoStore/Tagged/Uncompressed/CUE4ParseFixtures-Minimal-Uncompressed-Windows.utoc', mappings: false },
  'Tagged Zlib': { path: 'cue58/IoStore/Tagged/Zlib/CUE4ParseFixtures-Minimal-Zlib-Windows.utoc', mappings: false },
  'Unversioned Zlib with the usmap': { path: 'cue58/IoStore/Unversioned/Zlib/CUE4ParseFixtures-Minimal-Zlib-Windows.utoc', mappings: true },
};
const A = (name: string): string => `/Game/Fixtures/Animations/${name}`;

let mappings: Usmap;
beforeAll(() => {
  mappings = parseUsmap(loadCorpus('cue58/Mappings/CUE4ParseFixtures-Uncompressed.usmap'), 'cue58.usmap');
});

for (const [variant, v] of Object.entries(VARIANTS)) {
  describe(`cue58 IoStore ${variant}`, () => {
    const packages = openedPackages(v.path);
    const read = (name: string): Promise<AnimSequence> => readInstallAnimSequence(packages(), A(name), v.mappings ? { mappings } : {});

    it('AS_Fixture: the facts of CUE4Parse\'s fixture test, UE\'s per-track codec decoded', async () => {
      const s = await read('AS_Fixture');
      expect(s.class).toBe('AnimSequence');
      expect(s.sequenceLength).toBe(1);
      expect(s.rateScale).toBe(1.25);
      expect(s.skeleton).toBe('/Game/Fixtures/Animations/SKEL_Fixture.SKEL_Fixture');
      expect(s.trackBones).toEqual([0, 1, 2]);
      expect(s.curveNames).toEqual(['FixtureCurve']);
      expect(s.additive).toBe('AAT_None');
      // 1 s at 30 frames per second, both ends sampled.
      expect(s.frames).toBe(31);
      expect(s.codecs).toMatchObject({ bone: 'AnimCompress_PerTrackCompression_1', boneFormat: 'PerTrackCompression', boneDecoded: true, curveFormat: 'CompressedRichCurve', curveDecoded: true });
      expect(s.tracks.map((t) => t.bone)).toEqual([0, 1, 2]);
      expect(s.notes).toEqual([]);
    });

    it('AS_Additive: local-space additive on AS_Fixture, RateScale 0.875, as CUE4Parse reads it', async () => {
      const s = await read('AS_Additive');
      expect(s.additive).toBe('AAT_LocalSpaceBase');
      expect(s.refPoseSequence).toBe('/Game/Fixtures/Animations/AS_Fixture.AS_Fixture');
      expect(s.rateScale).toBe(0.875);
      expect(s.trackBones.length).toBeGreaterThan(0);
    });

    it('AS_Fixture\'s poses, frame by frame, are AS_Additive\'s keys plus AS_Fixture\'s frame 0', async () => {
      const [fixture, additive] = await Promise.all([read('AS_Fixture'), read('AS_Additive')]);
      const skeleton = await readMesh({ packages: packages(), ref: A('SKEL_Fixture') }, undefined, v.mappings ? { mappings } : {});
      const base = localPose(fixture, skeleton.bones, 0);
      for (let frame = 0; frame < 31; frame++) {
        const pose = localPose(fixture, skeleton.bones, frame / 30);
        for (const t of additive.tracks) {
          const p = pose[t.bone]!, b = base[t.bone]!;
          if (t.translation) {
            const d = sampleKeys(t.translation, frame, 3);
            p.translation.forEach((x, i) => expect(x).toBeCloseTo(b.translation[i]! + d[i]!, 2));
          }
          if (t.scale) {
            // Additive scale is stored as the difference from 1.
            const d = sampleKeys(t.scale, frame, 3);
            p.scale.forEach((x, i) => expect(x).toBeCloseTo(b.scale[i]! * (1 + d[i]!), 3));
          }
          if (t.rotation) {
            // Frame 0 is the identity here, so the additive rotation is the pose's own (same sign or opposite).
            const d = sampleKeys(t.rotation, frame, 4);
            const dot = p.rotation.reduce((sum, x, i) => sum + x * d[i]!, 0);
            expect(Math.abs(dot)).toBeCloseTo(1, 3);
          }
        }
      }
      // The motion itself: Root moves 10 cm along X and Joint_1 bobs 4 cm along Y (a half sine), Joint_2 rises 6 cm.
      const end = localPose(fixture, skeleton.bones, 1), mid = localPose(fixture, skeleton.bones, 0.5);
      expect(end[0]!.translation[0]).toBeCloseTo(10, 4);
      expect(mid[1]!.translation[1]).toBeCloseTo(4, 4);
      expect(end[2]!.translation[2]).toBeCloseTo(6, 4);
      expect(end[1]!.scale[0]).toBeCloseTo(1.05, 5);
      expect(end[2]!.scale[0]).toBeCloseTo(1.1, 5);
    });

    it('FixtureCurve: its keys, and its values where AS_Additive baked them (its value minus the value at frame 0)', async () => {
      const [fixture, additive] = await Promise.all([read('AS_Fixture'), read('AS_Additive')]);
      const curve = fixture.curves[0]!;
      expect(curve.keys.map((k) => [k.time, k.value, k.interp])).toEqual([[0, -1, 'linear'], [0.5, 2.5, 'cubic'], [1, 0.25, 'constant']]);
      const baked = additive.curves[0]!;
      expect(baked.keys.length).toBeGreaterThan(10);
      const at0 = curveValue(curve, 0);
      for (const k of baked.keys) expect(curveValue(curve, k.time) - at0).toBeCloseTo(k.value, 3);
    });
  });
}

describe('cue58 IoStore Unversioned Zlib without the usmap', () => {
  const packages = openedPackages(VARIANTS['Unversioned Zlib with the usmap']!.path);
  it('AS_Fixture: the tracks are found and decoded, the facts the properties hold are said to be unknown', async () => {
    const s = await readInstallAnimSequence(packages(), A('AS_Fixture'));
    expect(s.trackBones).toEqual([0, 1, 2]);
    expect(s.frames).toBe(31);
    expect(s.codecs.boneDecoded).toBe(true);
    expect(s.notes.join(' ')).toMatch(/length, rate scale and skeleton are not known/);
  });
});

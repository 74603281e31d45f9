// AS_Fixture's decoded poses against an independent statement of them: PA_Fixture, the pose
// asset the editor made from AS_Fixture's raw (uncompressed) data, one pose per frame (Pose_0 to
// Pose_30), each bone's local transform stored whole in its properties, and FixtureCurve's value
// at that frame. Read from the unversioned container with the usmap, where the property reader
// knows the PoseDataContainer struct. The compressed sequence is the raw one after the engine's
// key reduction and quantization, so they agree within its error (a fraction of a degree, of a
// millimetre), not exactly. FixtureCurve's value at every frame checks the curve evaluation too.
import { beforeAll, describe, expect, it } from 'vitest';
import { curveValue, localPose, readInstallAnimSequence } from '../../../src/core/assets/anim/index.js';
import { readMesh } from '../../../src/core/assets/mesh/index.js';
import { installTextureSource } from '../../../src/core/assets/texture/read/package-source.js';
import type { PropertyEntry, PropertyValue } from '../../../src/core/properties/types.js';
import { parseUsmap } from '../../../src/core/usmap/parse.js';
import type { Usmap } from '../../../src/core/usmap/types.js';
import { loadCorpus } from '../../support/corpus.js';
import { openedPackages } from '../../support/opened-packages.js';

const A = (name: string): string => `/Game/Fixtures/Animations/${name}`;
const field = (entries: unknown, name: string): PropertyValue | undefined => (entries as PropertyEntry[]).find((p) => p.name === name)?.value;
type Xyzw = { X: number; Y: number; Z: number; W?: number };

let mappings: Usmap;
beforeAll(() => {
  mappings = parseUsmap(loadCorpus('cue58/Mappings/CUE4ParseFixtures-Uncompressed.usmap'), 'cue58.usmap');
});

describe('AS_Fixture against PA_Fixture (cue58 IoStore Unversioned Zlib with the usmap)', () => {
  const packages = openedPackages('cue58/IoStore/Unversioned/Zlib/CUE4ParseFixtures-Minimal-Zlib-Windows.utoc');

  it('every frame\'s bone transforms and curve value match the pose the editor stored for it', async () => {
    const seq = await readInstallAnimSequence(packages(), A('AS_Fixture'), { mappings });
    const skeleton = await readMesh({ packages: packages(), ref: A('SKEL_Fixture') }, undefined, { mappings });
    const pa = (await installTextureSource(packages(), A('PA_Fixture'), { mappings })).exports.find((e) => e.name === 'PA_Fixture')!;
    const container = field(pa.properties.properties, 'PoseContainer');
    const tracks = field(container, 'Tracks') as string[];
    const poses = field(container, 'Poses') as PropertyEntry[][];
    const influences = field(container, 'TrackPoseInfluenceIndices') as PropertyEntry[][];
    expect(tracks).toEqual(['Root', 'Joint_1', 'Joint_2']);
    expect(poses).toHaveLength(31);
    expect(seq.frames).toBe(31);
    // Which stored transform of which pose is each track's.
    const at = new Map<string, number>();
    influences.forEach((inf, track) => {
      for (const i of field(inf, 'Influences') as PropertyEntry[][]) at.set(`${field(i, 'PoseIndex')}|${track}`, field(i, 'BoneTransformIndex') as number);
    });
    let compared = 0, worstAngle = 0, worstMove = 0, worstScale = 0;
    for (let p = 0; p < 31; p++) {
      const pose = localPose(seq, skeleton.bones, p / 30);
      const stored = field(poses[p], 'LocalSpacePose') as PropertyEntry[][];
      for (let track = 0; track < tracks.length; track++) {
        const index = at.get(`${p}|${track}`);
        if (index === undefined) continue;
        const t = stored[index]!;
        const bone = skeleton.bones.findIndex((b) => b.name === tracks[track]);
        const mine = pose[bone]!;
        const q = field(t, 'Rotation') as Xyzw, v = field(t, 'Translation') as Xyzw, s = field(t, 'Scale3D') as Xyzw;
        const dot = Math.abs(mine.rotation[0] * q.X + mine.rotation[1] * q.Y + mine.rotation[2] * q.Z + mine.rotation[3] * q.W!);
        worstAngle = Math.max(worstAngle, (2 * Math.acos(Math.min(1, dot)) * 180) / Math.PI);
        worstMove = Math.max(worstMove, Math.hypot(mine.translation[0] - v.X, mine.translation[1] - v.Y, mine.translation[2] - v.Z));
        worstScale = Math.max(worstScale, Math.abs(mine.scale[0] - s.X), Math.abs(mine.scale[1] - s.Y), Math.abs(mine.scale[2] - s.Z));
        compared++;
      }
      const curve = field(poses[p], 'CurveData') as number[];
      expect(curveValue(seq.curves[0]!, p / 30)).toBeCloseTo(curve[0]!, 4);
    }
    expect(compared).toBeGreaterThan(80);
    // Measured: 92 transforms, worst 0.033 degrees (Fixed48 rotations, fewer keys), translations and scales exact.
    expect(worstAngle).toBeLessThan(0.1);
    expect(worstMove).toBeLessThan(0.001);
    expect(worstScale).toBeLessThan(1e-5);
  });
});

// `pakscope mesh` on an AnimSequence (issue 22 item 4): the facts of CUE4Parse's fixture test for
// cue58's AS_Fixture (SequenceLength 1, RateScale 1.25, SKEL_Fixture, tracks for bones 0, 1, 2,
// the curve FixtureCurve), the same from tagged and from unversioned packages with their
// mappings; -o writes it on SK_Fixture (the skeletal mesh of its skeleton) as a glTF animation
// the Khronos validator passes, and `extract --format convert` does the same.
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { corpus } from '../support/corpus.js';
import { accessorValues, parseGlb, validateGlb } from '../support/gltf-validator.js';
import { buildCli, pakscope } from './run-cli.js';

const TAGGED = corpus('cue58/IoStore/Tagged/Uncompressed');
const UNVERSIONED = corpus('cue58/IoStore/Unversioned/Zlib');
const USMAP = corpus('cue58/Mappings/CUE4ParseFixtures-Uncompressed.usmap');
const AS = '/Game/Fixtures/Animations/AS_Fixture';

let temp: string;
beforeAll(async () => {
  buildCli();
  temp = await mkdtemp(join(tmpdir(), 'pakscope-anim-'));
});
afterAll(() => rm(temp, { recursive: true, force: true }));

describe('pakscope mesh <AnimSequence>', () => {
  it('--json: the sequence\'s facts and keys, the same from tagged and unversioned packages', async () => {
    const [tagged, unversioned] = await Promise.all([
      pakscope(['mesh', TAGGED, AS, '--json']),
      pakscope(['mesh', UNVERSIONED, AS, '--json', '--usmap', USMAP]),
    ]);
    expect([tagged.code, unversioned.code]).toEqual([0, 0]);
    const t = JSON.parse(tagged.out), u = JSON.parse(unversioned.out);
    expect(u).toEqual(t);
    expect(t).toMatchObject({
      class: 'AnimSequence', name: 'AS_Fixture', skeleton: '/Game/Fixtures/Animations/SKEL_Fixture.SKEL_Fixture',
      sequenceLength: 1, rateScale: 1.25, frames: 31, additive: 'AAT_None',
      codecs: { boneFormat: 'PerTrackCompression', boneDecoded: true, curveFormat: 'CompressedRichCurve', curveDecoded: true },
      mesh: 'CUE4ParseFixtures/Content/Fixtures/Meshes/SK_Fixture.uasset',
    });
    expect(t.tracks.map((x: { bone: number; boneName: string }) => [x.bone, x.boneName])).toEqual([[0, 'Root'], [1, 'Joint_1'], [2, 'Joint_2']]);
    expect(t.curves.map((c: { name: string }) => c.name)).toEqual(['FixtureCurve']);
    // Root's translation: two keys, at frames 0 and 30, from (0, 0, 0) to (10, 0, 0) cm.
    expect(t.tracks[0].translation).toEqual({ format: 'Fixed48NoW', times: [0, 30], values: [[0, 0, 0], [10, 0, 0]] });
  });

  it('the facts in words name the codecs and whether they were decoded', async () => {
    const r = await pakscope(['mesh', TAGGED, AS]);
    expect(r.code).toBe(0);
    expect(r.out).toMatch(/length 1 s, 31 keys, rate scale 1\.25/);
    expect(r.out).toMatch(/bone codec: AnimCompress_PerTrackCompression_1 \(PerTrackCompression\), decoded/);
    expect(r.out).toMatch(/track Joint_1: translation 31 keys \(Float96NoW\)/);
  });

  it('-o AS_Fixture.glb: SK_Fixture with the sequence on its joints, valid glTF', async () => {
    const file = join(temp, 'AS_Fixture.glb');
    const r = await pakscope(['mesh', TAGGED, AS, '-o', file]);
    expect(r.code).toBe(0);
    const glb = new Uint8Array(await readFile(file));
    expect((await validateGlb(glb)).errors).toEqual([]);
    const gltf = parseGlb(glb);
    const { json } = gltf;
    expect(json.skins).toHaveLength(1);
    expect(json.animations).toHaveLength(1);
    const anim = json.animations[0];
    expect(anim.name).toBe('AS_Fixture');
    const targets = anim.channels.map((c: { target: { node: number; path: string } }) => `${json.nodes[c.target.node].name}.${c.target.path}`);
    expect(targets.sort()).toEqual(['Joint_1', 'Joint_2', 'Root'].flatMap((b) => ['rotation', 'scale', 'translation'].map((p) => `${b}.${p}`)).sort());
    const sampler = (bone: string, path: string) => {
      const c = anim.channels.find((x: { target: { node: number; path: string } }) => json.nodes[x.target.node].name === bone && x.target.path === path);
      return anim.samplers[c.sampler];
    };
    // 31 samples over 1 s; Root's last translation 10 cm along the engine's X, 0.1 m along glTF's X.
    const input = accessorValues(gltf, sampler('Root', 'translation').input);
    expect(input).toHaveLength(31);
    expect(input[30]).toBeCloseTo(1, 6);
    const rootT = accessorValues(gltf, sampler('Root', 'translation').output);
    expect(rootT.slice(90)).toEqual([expect.closeTo(0.1, 6), 0, 0]);
    // Joint_2 rises 6 cm along the engine's Z: glTF's Y.
    const j2 = accessorValues(gltf, sampler('Joint_2', 'translation').output);
    expect(j2.slice(90)).toEqual([0, expect.closeTo(0.06, 6), 0]);
  });

  it('extract --format convert writes AS_Fixture.glb beside its .uasset', async () => {
    const dir = join(temp, 'extract');
    const r = await pakscope(['extract', TAGGED, '--filter', 'Animations/AS_Fixture', '--format', 'convert', '--out', dir]);
    expect(r.code, r.stderr).toBe(0);
    const glb = new Uint8Array(await readFile(join(dir, 'CUE4ParseFixtures/Content/Fixtures/Animations/AS_Fixture.glb')));
    expect((await validateGlb(glb)).errors).toEqual([]);
    expect(parseGlb(glb).json.animations).toHaveLength(1);
  });

  it('AnimMontage, AnimComposite and BlendSpace: their facts as CUE4Parse\'s fixture tests state them, tagged and unversioned alike', async () => {
    const A = (n: string) => `/Game/Fixtures/Animations/${n}`;
    const AS_PATH = '/Game/Fixtures/Animations/AS_Fixture.AS_Fixture';
    for (const [dir, extra] of [[TAGGED, []], [UNVERSIONED, ['--usmap', USMAP]]] as const) {
      const [am, ac, bs] = await Promise.all(['AM_Fixture', 'AC_Fixture', 'BS_Fixture'].map((n) => pakscope(['mesh', dir, A(n), '--json', ...extra])));
      expect([am!.code, ac!.code, bs!.code]).toEqual([0, 0, 0]);
      // FixtureAnimationTests.AnimationMontagePreservesSlotSegmentAndSections: one slot FixtureSlot, one segment of AS_Fixture
      // (start 0, 0 to 1 s, rate 1.25, 2 loops), length 1.28, sections Intro and Loop, both followed by Loop.
      const m = JSON.parse(am!.out);
      expect(m).toMatchObject({ class: 'AnimMontage', length: 1.28, slots: [{ name: 'FixtureSlot', segments: [{ animation: AS_PATH, startPos: 0, animStartTime: 0, animEndTime: 1, playRate: 1.25, loopingCount: 2 }] }] });
      expect(m.sections.map((x: { name: string; next: string }) => [x.name, x.next])).toEqual([['Intro', 'Loop'], ['Loop', 'Loop']]);
      // ...AnimationCompositePreservesOrderedSegmentsAndPlayback: two segments of AS_Fixture, (0, 1, 1, 1) and (0, 1, 0.5, 2), the second starting where the first ends.
      const c = JSON.parse(ac!.out);
      const seg = c.slots[0].segments;
      expect(seg.map((g: { animStartTime: number; animEndTime: number; playRate: number; loopingCount: number }) => [g.animStartTime, g.animEndTime, g.playRate, g.loopingCount])).toEqual([[0, 1, 1, 1], [0, 1, 0.5, 2]]);
      expect(seg.every((g: { animation: string }) => g.animation === AS_PATH)).toBe(true);
      // ...BlendSpacePreservesSamples: AnimLength 1, samples at (0, 0, 0), (50, 25, 0), (100, 100, 0), each AS_Fixture at rate 1.
      const b = JSON.parse(bs!.out);
      expect(b.length).toBe(1);
      expect(b.samples).toEqual([[0, 0, 0], [50, 25, 0], [100, 100, 0]].map((value) => ({ animation: AS_PATH, value, rateScale: 1 })));
    }
  });

  it('mesh SK_Fixture --anim AS_Fixture -o: the skeletal mesh\'s .glb takes the sequence as a glTF animation', async () => {
    const file = join(temp, 'SK_Fixture_AS_Fixture.glb');
    const r = await pakscope(['mesh', TAGGED, '/Game/Fixtures/Meshes/SK_Fixture', '--anim', AS, '-o', file]);
    expect(r.code, r.stderr).toBe(0);
    const glb = new Uint8Array(await readFile(file));
    expect((await validateGlb(glb)).errors).toEqual([]);
    const { json } = parseGlb(glb);
    expect(json.animations.map((a: { name: string; channels: unknown[] }) => [a.name, a.channels.length])).toEqual([['AS_Fixture', 9]]);
    expect(json.meshes[0].name).toBe('SK_Fixture');
    expect((await pakscope(['mesh', TAGGED, '/Game/Fixtures/Meshes/SK_Fixture', '--anim', AS])).code).toBe(2);
  });
});

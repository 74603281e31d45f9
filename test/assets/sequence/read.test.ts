/**
 * Level Sequences of the corpus. cue58's LS_Fixture and LS_Nested (IoStore, tagged and
 * unversioned with the fixture mappings) against the values CUE4Parse's FixtureEngineAssetTests.cs
 * asserts (LevelSequencePreservesMpcTrackAndParameterChannels,
 * NestedLevelSequencePreservesSubSequenceTiming); Snake Pass's MP00_GateTutorial (UE4.14: seconds,
 * MasterTracks, a camera cut and an event) against its property dump read by hand
 * (`pakscope props`): PlaybackRange's upper bound 6.666667, FixedFrameInterval 0.033333335, the
 * possessable Gate_Tutorial_Cam of class CameraActor bound to MP00_TRIG's Gate_Tutorial_Cam, the
 * camera cut's CameraGuid and EndTime, the event key GateTut_End at 6.6333337 s.
 */
import { describe, expect, it } from 'vitest';
import { assetKindOf, convertExport, convertibleExports } from '../../../src/core/assets/index.js';
import { readSequence } from '../../../src/core/assets/sequence/read.js';
import type { SequenceAsset, SequenceChannel } from '../../../src/core/assets/sequence/types.js';
import { parseUsmap } from '../../../src/core/usmap/parse.js';
import type { Usmap } from '../../../src/core/usmap/types.js';
import { installProperties, withInstall } from '../../properties/helpers.js';
import { corpus, loadCorpus } from '../../support/corpus.js';

const mappings: Usmap = parseUsmap(loadCorpus('cue58/Mappings/CUE4ParseFixtures-Uncompressed.usmap'), 'CUE4ParseFixtures-Uncompressed.usmap');
const VARIANTS: [string, string, Usmap | undefined][] = [
  ['IoStore tagged', 'cue58/IoStore/Tagged/Zlib', undefined],
  ['IoStore unversioned', 'cue58/IoStore/Unversioned/Zlib', mappings],
];

const channel = (s: SequenceAsset, name: string): SequenceChannel => {
  const c = s.tracks.flatMap((t) => t.sections).flatMap((x) => x.channels).find((x) => x.name === name);
  if (!c) throw new Error(`no channel ${name}`);
  return c;
};
const ticks = (c: SequenceChannel): (number | null)[] => c.keys.map((k) => k.time.tick);
const values = (c: SequenceChannel): unknown[] => c.keys.map((k) => k.value);

describe.each(VARIANTS)('cue58 %s', (_label, root, usmap) => {
  const read = (ref: string) => withInstall(corpus(root), (packages) => readSequence({ packages, ref }, undefined, usmap ? { mappings: usmap } : {}));

  it('LS_Fixture: 24000 ticks/s at 24 fps over [0, 24001), one MPC track whose section keys FixtureScalar and FixtureColor', async () => {
    const s = await read('/Game/Fixtures/Sequences/LS_Fixture');
    expect(s.notes).toEqual([]);
    expect(s.class).toBe('LevelSequence');
    // The sequence names MovieScene_36; the cook keeps 36 stale MovieScene exports besides it.
    expect(s.movieScene).toBe('/Game/Fixtures/Sequences/LS_Fixture.LS_Fixture:MovieScene_36');
    expect(s.tickResolution).toEqual({ numerator: 24000, denominator: 1 });
    expect(s.displayRate).toEqual({ numerator: 24, denominator: 1 });
    expect(s.playbackRange.start?.tick).toBe(0);
    expect(s.playbackRange.end?.tick).toBe(24001);
    expect(s.playbackRange.end?.seconds).toBeCloseTo(24001 / 24000, 9);
    expect(s.playbackRange.end?.frame).toBeCloseTo(24.001, 9);
    expect(s.tracks).toHaveLength(1);
    const track = s.tracks[0]!;
    expect(track.class).toBe('MovieSceneMaterialParameterCollectionTrack');
    expect(track.mpc).toBe('/Game/Fixtures/Materials/MPC_Fixture.MPC_Fixture');
    expect(track.sections).toHaveLength(1);
    expect(track.sections[0]!.parameters).toEqual(['FixtureScalar', 'FixtureColor']);
    const scalar = channel(s, 'FixtureScalar.ParameterCurve');
    expect(scalar.type).toBe('float');
    expect(ticks(scalar)).toEqual([0, 12000, 24000]);
    expect(values(scalar)).toEqual([0.125, 0.75, -0.25]);
    expect(scalar.keys.map((k) => k.time.frame)).toEqual([0, 12, 24]);
    expect(scalar.keys[1]!.time.seconds).toBe(0.5);
    for (const [curve, v] of [['RedCurve', [1, 0]], ['GreenCurve', [0, 0.75]], ['BlueCurve', [0.25, 1]], ['AlphaCurve', [1, 0.5]]] as const) {
      const c = channel(s, `FixtureColor.${curve}`);
      expect(ticks(c)).toEqual([0, 24000]);
      expect(values(c)).toEqual(v);
    }
    expect(s.counts).toEqual({ bindings: 0, tracks: 1, sections: 1, channels: 5, keys: 11 });
  });

  it('LS_Nested: [0, 48001), a subsequence track of two LS_Fixture sections with their play rate, offset and bias', async () => {
    const s = await read('/Game/Fixtures/Sequences/LS_Nested');
    expect(s.notes).toEqual([]);
    expect(s.tickResolution).toEqual({ numerator: 24000, denominator: 1 });
    expect(s.displayRate).toEqual({ numerator: 24, denominator: 1 });
    expect([s.playbackRange.start?.tick, s.playbackRange.end?.tick]).toEqual([0, 48001]);
    const track = s.tracks[0]!;
    expect(track.class).toBe('MovieSceneSubTrack');
    const sections = [...track.sections].sort((a, b) => a.range.start!.tick! - b.range.start!.tick!);
    expect(sections.map((x) => [x.range.start?.tick, x.range.end?.tick, x.timeScale, x.startFrameOffset, x.hierarchicalBias])).toEqual([
      [6000, 30001, 0.5, 1200, 100],
      [30001, 42001, 1.5, 0, 37],
    ]);
    expect(sections.map((x) => x.subSequence)).toEqual(['/Game/Fixtures/Sequences/LS_Fixture.LS_Fixture', '/Game/Fixtures/Sequences/LS_Fixture.LS_Fixture']);
    expect(s.subSequences).toEqual(['/Game/Fixtures/Sequences/LS_Fixture.LS_Fixture']);
  });
});

describe('cue58 LS_Fixture\'s compiled data', () => {
  it('reads to its end unversioned: the entity field\'s one node spans the section\'s [0, 24001) and names its 2 entities', async () => {
    const p = await installProperties(corpus('cue58/IoStore/Unversioned/Zlib'), '/Game/Fixtures/Sequences/LS_Fixture', { mappings });
    expect(p.exports.filter((e) => e.error).map((e) => e.name)).toEqual([]);
    const compiled = p.exports.find((e) => e.class === 'MovieSceneCompiledData')!;
    const field = compiled.properties.find((e) => e.name === 'EntityComponentField')!.value as { name: string; value: unknown }[];
    const tree = field.find((e) => e.name === 'PersistentEntityTree')!.value as { ChildNodes: { Items: { Range: unknown }[] }; Data: { Items: unknown[] } };
    expect(tree.ChildNodes.Items.map((n) => n.Range)).toEqual([{ LowerBound: { Type: 'Inclusive', Value: 0 }, UpperBound: { Type: 'Exclusive', Value: 24001 } }]);
    expect(tree.Data.Items).toEqual([{ EntityIndex: 0, MetaDataIndex: -1 }, { EntityIndex: 1, MetaDataIndex: -1 }]);
  });
});

describe('cue58 through the converter registry', () => {
  it('a LevelSequence is the sequence kind; it converts to JSON and to a CSV of its keys', async () => {
    expect(assetKindOf('LevelSequence')?.kind).toBe('sequence');
    await withInstall(corpus('cue58/IoStore/Tagged/Zlib'), async (packages) => {
      const exportOf = async (ref: string) => convertibleExports((await packages.open(ref)).model).find((e) => e.kind.kind === 'sequence')!;
      const csv = await convertExport({ packages, ref: '/Game/Fixtures/Sequences/LS_Fixture' }, await exportOf('/Game/Fixtures/Sequences/LS_Fixture'), 'csv', {});
      const lines = new TextDecoder().decode(csv[0]!.data).split('\r\n');
      expect(lines[0]).toBe('binding,track,section,channel,tick,frame,seconds,value');
      expect(lines.filter((l) => l.length)).toHaveLength(12);
      expect(lines[2]).toBe(',Material Parameter Collection,MovieSceneParameterSection_0,FixtureScalar.ParameterCurve,12000,12,0.5,0.75');
      expect(lines[3]).toBe(',Material Parameter Collection,MovieSceneParameterSection_0,FixtureScalar.ParameterCurve,24000,24,1,-0.25');
      const json = await convertExport({ packages, ref: '/Game/Fixtures/Sequences/LS_Nested' }, await exportOf('/Game/Fixtures/Sequences/LS_Nested'), 'json', {});
      const parsed = JSON.parse(new TextDecoder().decode(json[0]!.data)) as SequenceAsset;
      expect(parsed.tracks[0]!.sections).toHaveLength(2);
    });
  });
});

describe('UE4.14: Snake Pass MP00_GateTutorial', () => {
  it('seconds at 30 fps, a possessed camera, a camera cut to it and an event key', async () => {
    const s = await readSequence({ file: corpus('cooked/uapi414_MP00_GateTutorial.uasset') }, undefined);
    expect(s.notes).toEqual([]);
    expect(s.tickResolution).toBeNull();
    expect(s.displayRate).toEqual({ numerator: 30, denominator: 1 });
    expect(s.playbackRange.start).toEqual({ tick: null, seconds: 0, frame: 0 });
    expect(s.playbackRange.end?.seconds).toBeCloseTo(6.666667, 5);
    expect(s.playbackRange.end?.frame).toBeCloseTo(200, 3);
    expect(s.bindings).toHaveLength(1);
    const cam = s.bindings[0]!;
    expect(cam).toMatchObject({
      guid: 'D37E0526438A789C7811A4BAC9F039A2', name: 'Gate_Tutorial_Cam', kind: 'possessable', class: '/Script/Engine.CameraActor',
      boundObjects: ['/Game/Maps/MP00/MP00_TRIG.MP00_TRIG:PersistentLevel.Gate_Tutorial_Cam'],
    });
    expect(s.tracks.map((t) => t.class)).toEqual(['MovieSceneCameraCutTrack', 'MovieSceneEventTrack']);
    const cut = s.tracks[0]!.sections[0]!;
    expect(cut.cameraBinding).toBe('D37E0526438A789C7811A4BAC9F039A2');
    expect(cut.cameraName).toBe('Gate_Tutorial_Cam');
    expect(cut.range.start?.seconds).toBe(0);
    expect(cut.range.end?.seconds).toBeCloseTo(6.666667, 5);
    const events = s.tracks[1]!.sections[0]!.channels;
    expect(events).toHaveLength(1);
    expect(events[0]!.type).toBe('name');
    expect(events[0]!.keys).toHaveLength(1);
    expect(events[0]!.keys[0]!.value).toBe('GateTut_End');
    expect(events[0]!.keys[0]!.time.seconds).toBeCloseTo(6.6333337, 5);
  });
});

/**
 * A UE5-shaped sequence built from property lists as the engine names them (the corpus has no
 * cooked UE5 sequence with bindings): BindingReferences' BindingIdToReferences (FLevelSequence-
 * BindingReferences: GUID -> References of {ExternalObjectPath, ObjectPath}), a possessable under
 * a spawnable whose ObjectTemplate is an export of the package, ObjectBindings with a transform
 * track, a camera cut track whose section's CameraBindingID names the spawnable, a subsequence
 * section with a UE5.0-5.4 float TimeScale, and folders, one inside itself.
 */
import { describe, expect, it } from 'vitest';
import { sequenceOfPackage } from '../../../src/core/assets/sequence/read.js';
import type { ExportProperties, PackageProperties, PropertyEntry, PropertyValue } from '../../../src/core/properties/types.js';

const PKG = '/Game/Cine/Intro';
const path = (sub: string): string => `${PKG}.Intro:${sub}`;
const entry = (name: string, type: string, value: PropertyValue): PropertyEntry => ({ name, type, value });
let index = 0;
const exp = (name: string, cls: string, objectPath: string, properties: PropertyEntry[]): ExportProperties => ({
  index: index++, name, class: cls, properties, propertyBytes: 0, propertyStart: 0, serialSize: 0, encoding: 'tagged', error: null, native: { path: objectPath },
});
const range = (lo: number, hi: number): PropertyEntry => entry('SectionRange', 'StructProperty<MovieSceneFrameRange>', { LowerBound: { Type: 'Inclusive', Value: lo }, UpperBound: { Type: 'Exclusive', Value: hi } });
const CAM = 'AAAAAAAABBBBBBBBCCCCCCCCDDDDDDDD';
const ACTOR = '11111111222222223333333344444444';

function intro(): PackageProperties {
  index = 0;
  const ms = path('MovieScene_0');
  return {
    package: PKG,
    exports: [
      exp('Intro', 'LevelSequence', `${PKG}.Intro`, [
        entry('MovieScene', 'ObjectProperty', ms),
        entry('BindingReferences', 'StructProperty<LevelSequenceBindingReferences>', [
          entry('BindingIdToReferences', 'MapProperty<StructProperty<Guid>, StructProperty<LevelSequenceBindingReferenceArray>>', [
            { key: ACTOR, value: [entry('References', 'ArrayProperty<StructProperty<LevelSequenceBindingReference>>', [[
              entry('ExternalObjectPath', 'StructProperty<SoftObjectPath>', '/Game/Maps/Town.Town:PersistentLevel.Door_3'),
              entry('ObjectPath', 'StrProperty', 'PersistentLevel.Door_3'),
            ]])] },
          ]),
        ]),
      ]),
      exp('MovieScene_0', 'MovieScene', ms, [
        entry('Spawnables', 'ArrayProperty<StructProperty<MovieSceneSpawnable>>', [[
          entry('Guid', 'StructProperty<Guid>', CAM), entry('Name', 'StrProperty', 'CineCam'), entry('ObjectTemplate', 'ObjectProperty', path('MovieScene_0.CineCameraActor_0')),
        ]]),
        entry('Possessables', 'ArrayProperty<StructProperty<MovieScenePossessable>>', [[
          entry('Guid', 'StructProperty<Guid>', ACTOR), entry('Name', 'StrProperty', 'Door'), entry('ParentGuid', 'StructProperty<Guid>', CAM),
        ]]),
        entry('ObjectBindings', 'ArrayProperty<StructProperty<MovieSceneBinding>>', [
          [entry('ObjectGuid', 'StructProperty<Guid>', CAM), entry('BindingName', 'StrProperty', 'CineCam'), entry('Tracks', 'ArrayProperty<ObjectProperty>', [])],
          [entry('ObjectGuid', 'StructProperty<Guid>', ACTOR), entry('BindingName', 'StrProperty', 'Door'), entry('Tracks', 'ArrayProperty<ObjectProperty>', [path('MovieScene_0.MovieScene3DTransformTrack_0')])],
        ]),
        entry('Tracks', 'ArrayProperty<ObjectProperty>', [path('MovieScene_0.MovieSceneSubTrack_0')]),
        entry('CameraCutTrack', 'ObjectProperty', path('MovieScene_0.MovieSceneCameraCutTrack_0')),
        entry('RootFolders', 'ArrayProperty<ObjectProperty>', [path('MovieScene_0.MovieSceneFolder_0')]),
        entry('PlaybackRange', 'StructProperty<MovieSceneFrameRange>', { LowerBound: { Type: 'Inclusive', Value: 0 }, UpperBound: { Type: 'Exclusive', Value: 120000 } }),
      ]),
      exp('CineCameraActor_0', 'CineCameraActor', path('MovieScene_0.CineCameraActor_0'), []),
      exp('MovieScene3DTransformTrack_0', 'MovieScene3DTransformTrack', path('MovieScene_0.MovieScene3DTransformTrack_0'), [
        entry('PropertyBinding', 'StructProperty<MovieScenePropertyBinding>', [entry('PropertyName', 'NameProperty', 'Transform'), entry('PropertyPath', 'NameProperty', 'Transform')]),
        entry('Sections', 'ArrayProperty<ObjectProperty>', [path('MovieScene_0.MovieScene3DTransformTrack_0.MovieScene3DTransformSection_0')]),
      ]),
      exp('MovieScene3DTransformSection_0', 'MovieScene3DTransformSection', path('MovieScene_0.MovieScene3DTransformTrack_0.MovieScene3DTransformSection_0'), [
        range(0, 60000), entry('RowIndex', 'IntProperty', 1),
        { ...entry('Translation', 'StructProperty<MovieSceneDoubleChannel>', { Times: [0, 60000], Values: [{ Value: 0 }, { Value: 250 }] }), arrayIndex: 0 },
      ]),
      exp('MovieSceneSubTrack_0', 'MovieSceneCinematicShotTrack', path('MovieScene_0.MovieSceneSubTrack_0'), [
        entry('Sections', 'ArrayProperty<ObjectProperty>', [path('MovieScene_0.MovieSceneSubTrack_0.Shot_0'), path('MovieScene_0.MovieSceneSubTrack_0.Missing')]),
      ]),
      exp('Shot_0', 'MovieSceneCinematicShotSection', path('MovieScene_0.MovieSceneSubTrack_0.Shot_0'), [
        range(60000, 120000), entry('bIsActive', 'BoolProperty', false),
        entry('Parameters', 'StructProperty<MovieSceneSectionParameters>', [entry('TimeScale', 'FloatProperty', 2), entry('StartFrameOffset', 'StructProperty<FrameNumber>', { Value: 30 })]),
        entry('SubSequence', 'ObjectProperty', '/Game/Cine/Shot01.Shot01'),
      ]),
      exp('MovieSceneCameraCutTrack_0', 'MovieSceneCameraCutTrack', path('MovieScene_0.MovieSceneCameraCutTrack_0'), [
        entry('Sections', 'ArrayProperty<ObjectProperty>', [path('MovieScene_0.MovieSceneCameraCutTrack_0.Cut_0')]),
      ]),
      exp('Cut_0', 'MovieSceneCameraCutSection', path('MovieScene_0.MovieSceneCameraCutTrack_0.Cut_0'), [
        range(0, 120000),
        entry('CameraBindingID', 'StructProperty<MovieSceneObjectBindingID>', [entry('Guid', 'StructProperty<Guid>', CAM)]),
      ]),
      exp('MovieSceneFolder_0', 'MovieSceneFolder', path('MovieScene_0.MovieSceneFolder_0'), [
        entry('FolderName', 'NameProperty', 'Cameras'),
        entry('ChildFolders', 'ArrayProperty<ObjectProperty>', [path('MovieScene_0.MovieSceneFolder_0')]),
        entry('ChildObjectBindingStrings', 'ArrayProperty<StrProperty>', [CAM]),
      ]),
    ],
  };
}

describe('a UE5-shaped sequence', () => {
  const s = sequenceOfPackage(intro(), 'Intro.uasset', undefined);

  it('60000 ticks/s and 30 fps by default: playback 0 to 2 s, frames 0 to 60', () => {
    expect([s.tickResolution, s.displayRate]).toEqual([{ numerator: 60000, denominator: 1 }, { numerator: 30, denominator: 1 }]);
    expect([s.playbackRange.start?.frame, s.playbackRange.end?.frame, s.playbackRange.end?.seconds]).toEqual([0, 60, 2]);
  });

  it('the spawnable with its template\'s class, the possessable under it bound to the map\'s door, and its transform track', () => {
    expect(s.bindings.map((b) => [b.name, b.kind, b.class, b.template, b.parent, b.boundObjects])).toEqual([
      ['CineCam', 'spawnable', 'CineCameraActor', path('MovieScene_0.CineCameraActor_0'), undefined, undefined],
      ['Door', 'possessable', undefined, undefined, CAM, ['/Game/Maps/Town.Town:PersistentLevel.Door_3']],
    ]);
    const t = s.bindings[1]!.tracks[0]!;
    expect([t.displayName, t.property, t.sections[0]!.row]).toEqual(['Transform', 'Transform', 1]);
    expect(t.sections[0]!.channels.map((c) => [c.name, c.keys.map((k) => [k.time.frame, k.value])])).toEqual([['Translation[0]', [[0, 0], [30, 250]]]]);
  });

  it('camera cuts first, to the spawnable; the shot plays Shot01 muted at twice the rate; a missing section is a note', () => {
    expect(s.tracks.map((t) => t.class)).toEqual(['MovieSceneCameraCutTrack', 'MovieSceneCinematicShotTrack']);
    expect(s.tracks[0]!.sections[0]).toMatchObject({ cameraBinding: CAM, cameraName: 'CineCam' });
    expect(s.tracks[1]!.sections).toHaveLength(1);
    expect(s.tracks[1]!.sections[0]).toMatchObject({ subSequence: '/Game/Cine/Shot01.Shot01', timeScale: 2, startFrameOffset: 30, hierarchicalBias: 100, active: false });
    expect(s.subSequences).toEqual(['/Game/Cine/Shot01.Shot01']);
    expect(s.notes).toContain(`section ${path('MovieScene_0.MovieSceneSubTrack_0.Missing')} is not among the package's exports`);
  });

  it('the folder, read once though it holds itself', () => {
    expect(s.folders).toEqual([{ name: 'Cameras', folders: [], tracks: [], bindings: [CAM] }]);
    expect(s.notes).toContain(`folder ${path('MovieScene_0.MovieSceneFolder_0')} is inside itself: not read again`);
    expect(s.counts).toEqual({ bindings: 2, tracks: 3, sections: 3, channels: 1, keys: 2 });
  });
});

/**
 * The MIDI kind: MIDI_Fixture (cue58, tagged and unversioned) written as a Standard MIDI File and
 * read back by a reader written from the SMF spec (test/support/smf-reference.ts). Expected values:
 * 960 ticks per quarter note and tracks (CUE4Parse's FixtureExtendedAssetTests
 * MidiFileCustomSerializerDeserializes); the track names, tempo and last tick the engine's importer
 * derived into the asset's SongMaps (TrackNames "Conductor", "Track-0"; TempoMap 500000 us per
 * quarter note; LengthData.LastTick 960), which the converter does not read.
 */
import { describe, expect, it } from 'vitest';
import { assetKindOf } from '../../../src/core/assets/index.js';
import { midiSong } from '../../../src/core/assets/midi/read.js';
import { FormatError } from '../../../src/core/errors.js';
import type { ExportProperties, PropertyValue } from '../../../src/core/properties/types.js';
import { parseUsmap } from '../../../src/core/usmap/parse.js';
import { corpus, loadCorpus } from '../../support/corpus.js';
import { parseSmf } from '../../support/smf-reference.js';
import { withInstall } from '../../properties/helpers.js';

const midiKind = assetKindOf('MidiFile')!;
const mappings = parseUsmap(loadCorpus('cue58/Mappings/CUE4ParseFixtures-Uncompressed.usmap'), 'm.usmap');

describe('MIDI kind: MIDI_Fixture', () => {
  for (const [mode, dir] of [['Tagged', 'Tagged/Uncompressed'], ['Unversioned', 'Unversioned/Zlib']] as const) {
    it(`${mode}: a format 1 .mid of 960 ticks per quarter note, its tracks named, its tempo and note as the song map says`, async () => {
      const files = await withInstall(corpus('cue58/IoStore', dir), (packages) => midiKind.convert!({ packages, ref: '/Game/Fixtures/Midi/MIDI_Fixture' }, 0, undefined, { mappings }));
      expect(files.map((f) => [f.suffix, f.extension])).toEqual([['', 'mid']]);
      const smf = parseSmf(files[0]!.data);
      expect([smf.format, smf.division, smf.tracks.length]).toEqual([1, 960, 2]);
      const names = smf.tracks.map((t) => t.find((e) => e.meta === 3)?.text);
      expect(names).toEqual(['Conductor', 'Track-0']);
      const tempo = smf.tracks[0]!.find((e) => e.meta === 0x51)!.bytes;
      expect(tempo[0]! * 65536 + tempo[1]! * 256 + tempo[2]!).toBe(500_000);
      const notes = smf.tracks[1]!.filter((e) => e.meta === undefined);
      expect(notes.length).toBeGreaterThan(0);
      // Middle C on at 0, off at the song's last tick.
      expect(notes.map((e) => [e.tick, e.bytes[0]! & 0xf0, e.bytes[1]])).toEqual([[0, 0x90, 60], [960, 0x80, 60]]);
      expect(smf.tracks[1]!.at(-1)).toEqual({ tick: 960, bytes: [], meta: 0x2f });
    });
  }

  it('JSON: the tracks and their events', async () => {
    const [json] = await withInstall(corpus('cue58/IoStore/Tagged/Uncompressed'), (packages) => midiKind.convert!({ packages, ref: '/Game/Fixtures/Midi/MIDI_Fixture' }, 0, 'json', {}));
    const song = JSON.parse(new TextDecoder().decode(json!.data)) as { ticksPerQuarterNote: number; tracks: { name: string; events: unknown[] }[] };
    expect([song.ticksPerQuarterNote, song.tracks.map((t) => [t.name, t.events.length])]).toEqual([960, [['Conductor', 2], ['Track-0', 3]]]);
  });
});

/** A MidiFile export as the property reader gives it, with one track of `events`. */
function exportOf(events: PropertyValue[], extra: Partial<ExportProperties> = {}): ExportProperties {
  return {
    index: 0, name: 'MIDI_Bad', class: 'MidiFile', propertyBytes: 0, propertyStart: 0, serialSize: 0, encoding: 'tagged', error: null, ...extra,
    properties: [{
      name: 'TheMidiData', type: 'StructProperty<MidiFileData>', range: { start: 4, value: 40, end: 400 }, value: [{
        name: 'Tracks', type: 'ArrayProperty<StructProperty<MidiTrack>>', elements: [120], value: [[
          { name: 'Events', type: 'ArrayProperty<StructProperty<MidiEvent>>', elements: events.map((_, i) => 200 + 8 * i), value: events },
          { name: 'Strings', type: 'ArrayProperty<StrProperty>', value: ['Lead'] },
        ]],
      }],
    }],
  };
}

describe('MIDI kind: bad input', () => {
  const std = (tick: number, status: number, d1 = 60, d2 = 100): PropertyValue => ({ Tick: tick, Message: { Type: 'Std', Status: status, Data1: d1, Data2: d2 } });
  const error = (exp: ExportProperties): FormatError => {
    try { midiSong('Game/MIDI_Bad.uasset', exp); } catch (e) { if (e instanceof FormatError) return e; throw e; }
    throw new Error('no error');
  };

  it('a status byte that is no channel message names the event and its offset', () => {
    const e = error(exportOf([std(0, 0x90), std(10, 0x20)]));
    expect([e.file, e.structure, e.offset]).toEqual(['Game/MIDI_Bad.uasset', 'MidiFile "MIDI_Bad" Tracks[0].Events[1]', 208]);
    expect(e.message).toMatch(/status 0x20 is no channel message/);
  });

  it('a text index past the track\'s strings, a negative tick and a data byte over 7 bits are FormatErrors', () => {
    expect(error(exportOf([{ Tick: 0, Message: { Type: 'Text', TextType: 3, TextIndex: 4 } }])).message).toMatch(/Events\[0\] at byte 200: text index 4 is past the track's 1 strings/);
    expect(error(exportOf([std(-5, 0x90)])).message).toMatch(/tick -5 is negative/);
    expect(error(exportOf([std(0, 0x90, 200)])).message).toMatch(/data bytes 200, 100 are not 7-bit/);
  });

  it('a cut export (its properties stop early) and one without TheMidiData are FormatErrors, not an empty song', () => {
    const stop = new FormatError('Game/MIDI_Bad.uexp', 'export 0 "MIDI_Bad" properties > property "TheMidiData" (StructProperty)', 212, 'needs 8 bytes but only 3 remain');
    // The stream's own error, once: its file, its structure path and its byte offset.
    expect(error(exportOf([], { error: stop.message, errorData: stop.data() })).message).toBe(
      'Game/MIDI_Bad.uexp: export 0 "MIDI_Bad" properties > property "TheMidiData" (StructProperty) at byte 212: needs 8 bytes but only 3 remain; the property stream stops there, so the MIDI data cannot be read');
    expect(error({ ...exportOf([]), properties: [] }).message).toMatch(/no TheMidiData struct/);
  });

  it('a song of events written to SMF reads back with its deltas (a long gap as a multi-byte quantity)', async () => {
    const { writeSmf } = await import('../../../src/core/assets/midi/smf.js');
    const song = midiSong('x', exportOf([std(0, 0x90), std(200_000, 0x80, 60, 0), { Tick: 300_000, Message: { Type: 'Std', Status: 0xc3, Data1: 5, Data2: 0 } }]));
    const smf = parseSmf(writeSmf(song));
    expect(smf.tracks[0]!.map((e) => [e.tick, ...e.bytes])).toEqual([[0, 0x90, 60, 100], [200_000, 0x80, 60, 0], [300_000, 0xc3, 5], [300_000]]);
  });
});

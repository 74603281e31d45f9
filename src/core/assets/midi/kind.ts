/**
 * The MIDI kind in the converter registry: MidiFile (Harmonix) as a Standard MIDI File (.mid,
 * format 1) or its tracks and events as JSON.
 */
import { registerAssetKind, type AssetKind } from '../registry.js';
import { MIDI_CLASSES, readMidi } from './read.js';
import { writeSmf } from './smf.js';

export const midiKind: AssetKind = {
  kind: 'midi',
  view: 'midi',
  classes: MIDI_CLASSES,
  converts: ['mid', 'json'],
  async convert(source, exportIndex, extension, opts) {
    const song = await readMidi(source, exportIndex, opts);
    if (extension === 'json') return [{ suffix: '', extension: 'json', data: new TextEncoder().encode(`${JSON.stringify(song, null, 2)}\n`) }];
    return [{ suffix: '', extension: 'mid', data: writeSmf(song) }];
  },
};

registerAssetKind(midiKind);

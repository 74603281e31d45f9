/**
 * A MidiFile (Harmonix plugin, UE5): its TheMidiData property, FMidiFileData: TicksPerQuarterNote
 * (the class default 960 when the package leaves it out) and Tracks, each FMidiTrack its Events
 * (FMidiEvent: a tick and an FMidiMsg, which the property reader reads as a native struct: a
 * channel message's status and data, a tempo, a time signature, a text naming an entry of the
 * track's Strings) and Strings.
 */
import { FormatError } from '../../errors.js';
import type { ExportProperties, PropertyEntry, PropertyValue } from '../../properties/types.js';
import type { AssetSource, ConvertOptions } from '../registry.js';
import { sourceProperties } from '../source-properties.js';

export const MIDI_CLASSES: readonly string[] = ['MidiFile'];

export type MidiMessage =
  | { type: 'std'; status: number; data1: number; data2: number }
  | { type: 'tempo'; microsPerQuarterNote: number }
  | { type: 'timeSig'; numerator: number; denominator: number }
  | { type: 'text'; textType: number; text: string }
  | { type: 'runtime' };

export interface MidiEvent { tick: number; message: MidiMessage }

export interface MidiTrack {
  /** The track's name (its first track-name text), "" when it has none. */
  name: string;
  events: MidiEvent[];
}

export interface MidiSong {
  name: string;
  ticksPerQuarterNote: number;
  tracks: MidiTrack[];
  notes: string[];
}

/** UMidiFile's default for TheMidiData.TicksPerQuarterNote (Harmonix: 960). */
const DEFAULT_TICKS_PER_QUARTER_NOTE = 960;

const entry = (list: readonly PropertyEntry[], name: string): PropertyEntry | undefined => list.find((e) => e.name === name);
const entries = (v: PropertyValue | undefined): PropertyEntry[] | undefined =>
  (Array.isArray(v) && v.every((e) => e !== null && typeof e === 'object' && 'name' in (e as object)) ? (v as PropertyEntry[]) : undefined);
const num = (v: PropertyValue | undefined): number | undefined => (typeof v === 'number' ? v : undefined);

/** Export `exportIndex` of `source` read as a MidiFile. */
export async function readMidi(source: AssetSource, exportIndex: number, opts: ConvertOptions = {}): Promise<MidiSong> {
  const opened = await sourceProperties(source, opts, { offsets: true });
  const exp = opened.properties.exports[exportIndex];
  if (!exp) throw new FormatError(opened.path, 'export map', 0, `no export ${exportIndex} (the package has ${opened.properties.exports.length})`);
  return midiSong(opened.path, exp, opened.warnings);
}

/** The song of a MidiFile export's properties (read with offsets, for errors that say where). */
export function midiSong(file: string, exp: ExportProperties, warnings: readonly string[] = []): MidiSong {
  const exportIndex = exp.index;
  const where = `MidiFile "${exp.name}"`;
  if (!MIDI_CLASSES.includes(exp.class)) throw new FormatError(file, `export ${exportIndex} "${exp.name}"`, 0, `a ${exp.class}, not a MidiFile`);
  if (exp.encoding === 'unversioned' && exp.properties.length === 0 && exp.notes?.some((n) => n.includes('mappings'))) {
    throw new FormatError(file, where, 0, "the package is unversioned: the game's mappings (.usmap) are needed to read its MIDI data");
  }
  if (exp.errorData) throw FormatError.within(null, exp.errorData, 'the property stream stops there, so the MIDI data cannot be read');
  const data = entry(exp.properties, 'TheMidiData');
  const fields = entries(data?.value);
  if (!data || !fields) throw new FormatError(file, where, data?.range?.start ?? 0, 'no TheMidiData struct');
  const tpq = num(entry(fields, 'TicksPerQuarterNote')?.value) ?? DEFAULT_TICKS_PER_QUARTER_NOTE;
  // SMF's division: 15 bits of ticks per quarter note.
  if (!Number.isInteger(tpq) || tpq < 1 || tpq > 0x7fff) throw new FormatError(file, `${where} TicksPerQuarterNote`, entry(fields, 'TicksPerQuarterNote')?.range?.value ?? 0, `${tpq} ticks per quarter note is outside 1..32767`);
  const tracksEntry = entry(fields, 'Tracks');
  const trackValues = Array.isArray(tracksEntry?.value) ? (tracksEntry.value as PropertyValue[]) : [];
  const tracks = trackValues.map((t, i) => readTrack(file, `${where} Tracks[${i}]`, entries(t) ?? [], tracksEntry?.elements?.[i] ?? 0));
  return { name: exp.name, ticksPerQuarterNote: tpq, tracks, notes: [...warnings] };
}

function readTrack(file: string, where: string, fields: PropertyEntry[], at: number): MidiTrack {
  const stringsValue = entry(fields, 'Strings')?.value;
  const strings = Array.isArray(stringsValue) ? stringsValue.map((s) => (typeof s === 'string' ? s : '')) : [];
  const eventsEntry = entry(fields, 'Events');
  const values = Array.isArray(eventsEntry?.value) ? (eventsEntry.value as PropertyValue[]) : [];
  let name = '';
  const events = values.map((v, j): MidiEvent => {
    const off = eventsEntry?.elements?.[j] ?? at;
    const fail = (detail: string): FormatError => new FormatError(file, `${where}.Events[${j}]`, off, detail);
    const o = v !== null && typeof v === 'object' && !Array.isArray(v) ? (v as Record<string, PropertyValue>) : undefined;
    const m = o?.['Message'];
    const msg = m !== null && typeof m === 'object' && !Array.isArray(m) ? (m as Record<string, PropertyValue>) : undefined;
    const tick = num(o?.['Tick']);
    if (tick === undefined || !msg) throw fail('not a MidiEvent (Tick and Message)');
    if (tick < 0) throw fail(`tick ${tick} is negative`);
    const byte = (k: string): number => {
      const x = num(msg[k]);
      if (x === undefined) throw fail(`its ${String(msg['Type'])} message has no ${k}`);
      return x;
    };
    switch (msg['Type']) {
      case 'Std': {
        const status = byte('Status');
        const data1 = byte('Data1');
        const data2 = byte('Data2');
        if (status < 0x80 || status >= 0xf0) throw fail(`status 0x${status.toString(16)} is no channel message (0x80..0xEF)`);
        if (data1 > 0x7f || data2 > 0x7f) throw fail(`data bytes ${data1}, ${data2} are not 7-bit`);
        return { tick, message: { type: 'std', status, data1, data2 } };
      }
      case 'Tempo':
        return { tick, message: { type: 'tempo', microsPerQuarterNote: byte('MicsPerQuarterNoteH') * 0x10000 + byte('MicsPerQuarterNoteL') } };
      case 'TimeSig': {
        const denominator = byte('Denominator');
        // SMF stores the denominator as a power of two.
        if (denominator < 1 || (denominator & (denominator - 1)) !== 0) throw fail(`time signature denominator ${denominator} is not a power of two`);
        return { tick, message: { type: 'timeSig', numerator: byte('Numerator'), denominator } };
      }
      case 'Text': {
        const index = byte('TextIndex');
        const textType = byte('TextType');
        const text = strings[index];
        if (text === undefined) throw fail(`text index ${index} is past the track's ${strings.length} strings`);
        if (textType < 1 || textType > 0x0f) throw fail(`text type ${textType} is no text meta event (1..15)`);
        if (textType === 3 && name === '') name = text;
        return { tick, message: { type: 'text', textType, text } };
      }
      case 'Runtime':
        return { tick, message: { type: 'runtime' } };
      default:
        throw fail(`unknown message type ${String(msg['Type'])}`);
    }
  });
  // Sorted by tick (stable): SMF's delta times cannot go back.
  events.sort((a, b) => a.tick - b.tick);
  return { name, events };
}

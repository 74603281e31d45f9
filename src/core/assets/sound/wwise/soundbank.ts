/**
 * A sound bank as PakScope lists it: its events (named where the metadata or the install's asset
 * names give a name) with the media each plays, and its embedded media with their codecs; each
 * medium a Sound of its own (wemSound). The "soundbank" kind claims .bnk files for the app's bank
 * view; a bank converts to its media, each a .wav (or the .wem as stored) named by the metadata.
 */
import { registerAssetKind, type AssetKind, type ConvertedFile, type ConvertOptions, type PlainFile } from '../../registry.js';
import { safeFileName } from '../../../export/safe-path.js';
import { convertSound } from '../kind.js';
import type { Sound } from '../types.js';
import { bankMediaBytes, parseBank, type SoundBank } from './bank.js';
import { installWwiseNames } from './install-names.js';
import { mediumIdOfPath } from './install-labels.js';
import { emptyNames, type WwiseNames } from './names.js';
import { wemInfo, wemSound } from './wem.js';
import { FormatError } from '../../../errors.js';

export interface BankListing {
  version: number;
  bankId: number;
  events: { id: number; name: string | null; media: number[] }[];
  media: { id: number; bytes: number; codec: string; name: string | null; samples: number; sampleRate: number; channels: number }[];
  /** Media the events play that the bank does not embed, with their original file's name where the metadata gives it. */
  otherMedia: { id: number; name: string | null }[];
  notes: string[];
}

export function bankListing(bytes: Uint8Array, file: string, names: WwiseNames = emptyNames()): BankListing {
  const bank = parseBank(bytes, file);
  return listing(bank, bytes, file, names);
}

function listing(bank: SoundBank, bytes: Uint8Array, file: string, names: WwiseNames): BankListing {
  const notes = [...bank.notes];
  const media = bank.media.map((m) => {
    const name = names.media.get(m.id)?.name ?? null;
    try {
      const info = wemInfo(bankMediaBytes(bytes, m), `${file}#${m.id}`);
      return { id: m.id, bytes: m.size, codec: info.codec, name, samples: info.samples, sampleRate: info.sampleRate, channels: info.channels };
    } catch (e) {
      notes.push(`medium ${m.id}: ${e instanceof Error ? e.message : String(e)}`);
      return { id: m.id, bytes: m.size, codec: 'unreadable', name, samples: 0, sampleRate: 0, channels: 0 };
    }
  });
  const events = bank.events.map((e) => ({ id: e.id, name: names.events.get(e.id) ?? null, media: e.media }));
  const embedded = new Set(bank.media.map((m) => m.id));
  const otherMedia = [...new Set(bank.events.flatMap((e) => e.media))].filter((id) => !embedded.has(id)).map((id) => ({ id, name: names.media.get(id)?.name ?? null }));
  return { version: bank.version, bankId: bank.bankId, events, media, otherMedia, notes };
}

/** Medium `id` of a bank as a Sound, named by its original file where the metadata says, else by its id. */
export function bankMediaSound(bytes: Uint8Array, file: string, id: number, names: WwiseNames = emptyNames()): Sound & { codec: string } {
  const bank = parseBank(bytes, file);
  const m = bank.media.find((x) => x.id === id);
  if (!m) throw new FormatError(file, 'DIDX chunk', 0, `the bank has no medium ${id} (it has ${bank.media.length}: ${bank.media.slice(0, 8).map((x) => x.id).join(', ')}${bank.media.length > 8 ? ', ...' : ''})`);
  const original = names.media.get(id)?.name;
  return withWwiseNames(wemSound(bankMediaBytes(bytes, m), original ? original.replace(/\.[^.]+$/, '') : String(id), `${file}#${id}`), id, names);
}

/** The medium id a .wem's file name gives ("123456.wem", "Hit_01_123456.wem" has none), if any: mediumIdOfPath's, for .wem files only. */
export function wemIdOfPath(path: string): number | undefined {
  return /\.wem$/i.test(path) ? mediumIdOfPath(path.replace(/\\/g, '/')) : undefined;
}

/** A medium's sound with what the metadata names of it: the events that play it and its original file. */
export function withWwiseNames<S extends Sound>(sound: S, id: number, names: WwiseNames): S {
  const original = names.media.get(id);
  const events = names.mediaEvents.get(id) ?? [];
  return {
    ...sound,
    ...(events.length > 0 ? { wwiseEvents: [...events] } : {}),
    ...(original ? { originalFile: `${original.name}${original.path ? ` (${original.path})` : ''}` } : {}),
  };
}

/**
 * The file name (no extension) of each embedded medium: its original file's name where the
 * metadata gives one ("Footstep_01"), else the event that plays it ("Play_Test", or
 * "Play_Steps_123456" when the event plays several), else its id. Names are made safe to write
 * (safeFileName) and unique in the bank (a second "Hit" is "Hit_<id>").
 */
export function bankMediaFileNames(bank: SoundBank, names: WwiseNames): Map<number, string> {
  const eventOf = new Map<number, { name: string; several: boolean }>();
  for (const e of bank.events) {
    const name = names.events.get(e.id);
    if (name === undefined) continue;
    for (const m of e.media) if (!eventOf.has(m)) eventOf.set(m, { name, several: e.media.length > 1 });
  }
  const out = new Map<number, string>();
  const taken = new Set<string>();
  for (const m of bank.media) {
    const id = String(m.id);
    const original = names.media.get(m.id)?.name.split(/[\\/]/).pop()!.replace(/\.[^.]*$/, '');
    const metaEvent = names.mediaEvents.get(m.id);
    const event = eventOf.get(m.id) ?? (metaEvent?.length ? { name: metaEvent[0]!, several: true } : undefined);
    const wanted = original || (event ? (event.several ? `${event.name}_${id}` : event.name) : id);
    let name = safeFileName(wanted, id);
    if (taken.has(name.toLowerCase())) name = safeFileName(`${wanted}_${id}`, id);
    taken.add(name.toLowerCase());
    out.set(m.id, name);
  }
  return out;
}

/** A bank's embedded media as files, in a folder named after the bank: .wav where they decode, else (or `extension` "wem") as stored. */
export async function convertBank(file: PlainFile, extension: string | undefined, opts: ConvertOptions): Promise<ConvertedFile[]> {
  if (extension !== undefined && extension !== 'wav' && extension !== 'wem') throw new RangeError(`a sound bank's media convert to .wav or .wem, not .${extension}`);
  const bank = parseBank(file.bytes, file.path);
  const names = opts.install ? await installWwiseNames(opts.install, file.path, bank.events.map((e) => e.id)) : emptyNames();
  const fileNames = bankMediaFileNames(bank, names);
  const out: ConvertedFile[] = [];
  for (const m of bank.media) {
    opts.signal?.throwIfAborted();
    const name = fileNames.get(m.id)!;
    const bytes = bankMediaBytes(file.bytes, m);
    let sound: Sound;
    try {
      sound = wemSound(bytes, name, `${file.path}#${m.id}`);
    } catch (e) {
      // One medium that does not read does not cost the others: it goes out as stored.
      out.push({ name, suffix: '', extension: 'wem', data: bytes, note: `medium ${m.id}: ${e instanceof Error ? e.message : String(e)}; written as stored (.wem)` });
      continue;
    }
    out.push({ ...(await convertSound(sound, extension ?? (sound.decodable ? 'wav' : 'wem'), opts.signal, opts.pool)), name });
  }
  return out;
}

export const soundbankKind: AssetKind = {
  kind: 'soundbank',
  view: 'soundbank',
  classes: [],
  converts: ['wav', 'wem'],
  fileExtensions: ['bnk'],
  convertFile: convertBank,
};

registerAssetKind(soundbankKind);

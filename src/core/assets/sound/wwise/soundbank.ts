/**
 * A sound bank as PakScope lists it: its events (named where the metadata or the install's asset
 * names give a name) with the media each plays, and its embedded media with their codecs; each
 * medium a Sound of its own (wemSound). The "soundbank" kind claims .bnk files for the app's bank
 * view; a bank converts to nothing itself (its media do, one at a time).
 */
import { registerAssetKind, type AssetKind } from '../../registry.js';
import type { Sound } from '../types.js';
import { bankMediaBytes, parseBank, type SoundBank } from './bank.js';
import { emptyNames, type WwiseNames } from './names.js';
import { wemInfo, wemSound } from './wem.js';
import { FormatError } from '../../../errors.js';

export interface BankListing {
  version: number;
  bankId: number;
  events: { id: number; name: string | null; media: number[] }[];
  media: { id: number; bytes: number; codec: string; name: string | null; samples: number; sampleRate: number; channels: number }[];
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
  return { version: bank.version, bankId: bank.bankId, events, media, notes };
}

/** Medium `id` of a bank as a Sound, named by its original file where the metadata says, else by its id. */
export function bankMediaSound(bytes: Uint8Array, file: string, id: number, names: WwiseNames = emptyNames()): Sound & { codec: string } {
  const bank = parseBank(bytes, file);
  const m = bank.media.find((x) => x.id === id);
  if (!m) throw new FormatError(file, 'DIDX chunk', 0, `the bank has no medium ${id} (it has ${bank.media.length}: ${bank.media.slice(0, 8).map((x) => x.id).join(', ')}${bank.media.length > 8 ? ', ...' : ''})`);
  const original = names.media.get(id)?.name;
  return withWwiseNames(wemSound(bankMediaBytes(bytes, m), original ? original.replace(/\.[^.]+$/, '') : String(id), `${file}#${id}`), id, names);
}

/** The medium id a .wem's file name gives ("123456.wem", "Hit_01_123456.wem" has none), if any. */
export function wemIdOfPath(path: string): number | undefined {
  const m = /(?:^|[\\/])(\d{1,10})\.wem$/i.exec(path);
  const id = m ? Number(m[1]) : NaN;
  return Number.isInteger(id) && id <= 0xffffffff ? id : undefined;
}

/** A medium's sound with what the metadata names of it in its notes: its original file and the events that play it. */
export function withWwiseNames<S extends Sound>(sound: S, id: number, names: WwiseNames): S {
  const original = names.media.get(id);
  const events = names.mediaEvents.get(id) ?? [];
  const notes = [...sound.notes];
  if (original) notes.unshift(`original file: ${original.name}${original.path ? ` (${original.path})` : ''}`);
  if (events.length > 0) notes.unshift(`played by event${events.length === 1 ? '' : 's'} ${events.join(', ')}`);
  return { ...sound, notes };
}

export const soundbankKind: AssetKind = {
  kind: 'soundbank',
  view: 'soundbank',
  classes: [],
  converts: [],
  fileExtensions: ['bnk'],
};

registerAssetKind(soundbankKind);

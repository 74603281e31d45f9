/**
 * Wwise sound banks (.bnk) of three Wwise versions (test/corpus/wwise, SOURCES.tsv): the media
 * index (every medium a .wem whose figures ffmpeg gave, expected.json), events to the media
 * their play actions reach (Test.bnk against the SoundbanksInfo.json the Wwise project wrote
 * beside it), names from that metadata and from the id hash (the bank's own id is the hash of
 * its name there). Bad input: a truncated chunk, a medium past DATA, a HIRC count past its end.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { parseBank } from '../../../src/core/assets/sound/wwise/bank.js';
import { nameEventsByHash, readSoundbanksInfo, wwiseId, emptyNames } from '../../../src/core/assets/sound/wwise/names.js';
import { bankListing, bankMediaFileNames, bankMediaSound } from '../../../src/core/assets/sound/wwise/soundbank.js';
import { checkName, safeFileName } from '../../../src/core/export/safe-path.js';
import { formatError } from '../../support/format-error.js';
import { bankMedia, loadWwise, wwiseExpected, wwiseFile } from '../../support/wwise-corpus.js';

const info = JSON.parse(readFileSync(wwiseFile('SoundbanksInfo.json'), 'utf8')).SoundBanksInfo;
const testBankInfo = info.SoundBanks.find((b: { ShortName: string }) => b.ShortName === 'Test');

describe('Wwise sound banks', () => {
  it('Test.bnk (version 140): its id, its medium and its event as SoundbanksInfo.json lists them', () => {
    const bytes = loadWwise('Test.bnk');
    const bank = parseBank(bytes, 'Test.bnk');
    expect(bank.version).toBe(Number(info.SoundbankVersion));
    expect(bank.bankId).toBe(Number(testBankInfo.Id));
    const events = testBankInfo.IncludedEvents as { Id: string; Name: string; IncludedMemoryFiles: { Id: string; ShortName: string }[] }[];
    expect(bank.events.map((e) => [e.id, e.media])).toEqual(events.map((e) => [Number(e.Id), e.IncludedMemoryFiles.map((f) => Number(f.Id))]));
    expect(bank.media.map((m) => m.id)).toEqual(events.flatMap((e) => e.IncludedMemoryFiles.map((f) => Number(f.Id))));

    const names = readSoundbanksInfo(readFileSync(wwiseFile('SoundbanksInfo.json'), 'utf8'));
    const listing = bankListing(bytes, 'Test.bnk', names);
    expect(listing.events).toEqual([{ id: 3187507146, name: 'Play_Test', media: [799259675] }]);
    expect(listing.media).toEqual([{ id: 799259675, bytes: 71744, codec: 'PCM', name: '金币.wav', samples: 17920, sampleRate: 16000, channels: 2 }]);
    expect(names.mediaEvents.get(799259675)).toEqual(['Play_Test']);
    const sound = bankMediaSound(bytes, 'Test.bnk', 799259675, names);
    expect(sound.name).toBe('金币');
    expect([sound.wwiseEvents, sound.originalFile]).toEqual([['Play_Test'], '金币.wav (SFX\\金币_10C4C929.wem)']);
  });

  it('Wwise ids are the FNV-1 hash of the lowercased name: the bank and its event', () => {
    expect(wwiseId(testBankInfo.ShortName)).toBe(Number(testBankInfo.Id));
    expect(wwiseId('PLAY_TEST')).toBe(3187507146);
    const names = emptyNames();
    expect(nameEventsByHash([3187507146, 1], ['Other', 'Play_Test'], names)).toBe(1);
    expect(names.events.get(3187507146)).toBe('Play_Test');
  });

  it('every medium of the three banks is the .wem the DIDX table cuts out, and those ffmpeg measured decode to its length', async () => {
    const expected = wwiseExpected();
    for (const [file, version, count] of [['Test.bnk', 140, 1], ['LE3_v134_1.bnk', 134, 35], ['ME3_v56_1.bnk', 56, 36]] as const) {
      const bytes = loadWwise(file);
      const bank = parseBank(bytes, file);
      expect([bank.version, bank.media.length]).toEqual([version, count]);
      const independent = bankMedia(bytes);
      for (const m of bank.media) expect(bytes.subarray(m.offset, m.offset + m.size)).toEqual(independent.get(m.id));
      for (const [key, want] of Object.entries(expected).filter(([k]) => k.startsWith(`${file}#`))) {
        const sound = bankMediaSound(bytes, file, Number(key.split('#')[1]));
        expect([sound.codec, sound.samples]).toEqual([want.codec, want.frames]);
        const pcm = await sound.decode!();
        expect(pcm.samples.length / pcm.channels).toBe(want.frames);
      }
    }
  });

  it('events reach media through containers (LE3 version 134, ME3 version 56): every medium played is in the bank or named as not embedded', () => {
    for (const file of ['LE3_v134_1.bnk', 'ME3_v56_1.bnk']) {
      const bank = parseBank(loadWwise(file), file);
      const played = new Set(bank.events.flatMap((e) => e.media));
      const embedded = new Set(bank.media.map((m) => m.id));
      // Every embedded medium is played by some event (the banks hold only what their events use).
      expect([...embedded].filter((id) => !played.has(id))).toEqual([]);
      expect(bank.events.length).toBeGreaterThan(0);
    }
  });

  it('version 56 action types (a u32 each, as the AkActionType_056 table of bnnm/wwiser gives them): play actions reach media, stop actions do not', () => {
    const me3 = parseBank(loadWwise('ME3_v56_1.bnk'), 'ME3');
    // Event 1685608839 plays container 944665163 (0x04011 Play) and stops 967571972 (0x01011 Stop_E_O): only the played container's 8 media.
    const e = me3.events.find((x) => x.id === 1685608839)!;
    expect(e.actions.map((a) => [a.type, a.target])).toEqual([[0x04011, 944665163], [0x01011, 967571972]]);
    expect(e.media).toHaveLength(8);
    // Its twin 2811049484 plays what the other stops: another 8, none shared.
    const twin = me3.events.find((x) => x.id === 2811049484)!;
    expect(twin.media).toHaveLength(8);
    expect(twin.media.filter((m) => e.media.includes(m))).toEqual([]);
    // Event 3769598348 only stops (four 0x01011 actions): it plays nothing.
    const stops = me3.events.find((x) => x.id === 3769598348)!;
    expect(stops.actions.map((a) => a.type)).toEqual([0x01011, 0x01011, 0x01011, 0x01011]);
    expect(stops.media).toEqual([]);
    expect(me3.notes).toEqual([]);
  });
});

describe('file names of a bank\'s media (bank export)', () => {
  const test = parseBank(loadWwise('Test.bnk'), 'Test.bnk');
  const le3 = parseBank(loadWwise('LE3_v134_1.bnk'), 'LE3');

  it('the original file where the metadata names it, else the event that plays it, else the id', () => {
    const names = readSoundbanksInfo(readFileSync(wwiseFile('SoundbanksInfo.json'), 'utf8'));
    expect([...bankMediaFileNames(test, names)]).toEqual([[799259675, '金币']]);
    const eventOnly = emptyNames();
    eventOnly.events.set(3187507146, 'Play_Test');
    expect([...bankMediaFileNames(test, eventOnly)]).toEqual([[799259675, 'Play_Test']]);
    expect([...bankMediaFileNames(test, emptyNames())]).toEqual([[799259675, '799259675']]);
    // An event of LE3 that plays several media names each with its id after the event.
    const several = le3.events.find((e) => e.media.filter((m) => le3.media.some((x) => x.id === m)).length > 1)!;
    const named = emptyNames();
    named.events.set(several.id, 'Play_Many');
    const files = bankMediaFileNames(le3, named);
    for (const m of several.media.filter((id) => le3.media.some((x) => x.id === id))) expect(files.get(m)).toBe(`Play_Many_${m}`);
  });

  it('hostile names from metadata become one safe file name each, unique in the bank', () => {
    const ids = le3.media.map((m) => m.id);
    const names = emptyNames();
    const hostile = ['..\\..\\Windows\\evil.wav', 'CON.wav', 'a:b*c?.wav', '..', 'tab\there.wav', 'dots... ', 'same.wav', 'same.wav', 'x'.repeat(400), 'sub/dir/../name.wav'];
    hostile.forEach((n, i) => names.media.set(ids[i]!, { name: n }));
    const files = bankMediaFileNames(le3, names);
    expect(ids.slice(0, hostile.length).map((id) => files.get(id))).toEqual([
      'evil', '_CON', 'a_b_c_', String(ids[3]), 'tab_here', 'dots', 'same', `same_${ids[7]}`, 'x'.repeat(200), 'name',
    ]);
    for (const name of files.values()) expect(checkName(`${name}.wav`)).toBeNull();
    expect(new Set([...files.values()].map((n) => n.toLowerCase())).size).toBe(files.size);
    expect(safeFileName('COM1.part', 'id')).toBe('_COM1.part');
    expect(safeFileName('\u2215etc\u2215passwd', 'id')).toBe('_etc_passwd');
    expect(safeFileName(' . ', 'id')).toBe('id');
  });
});

describe('Wwise sound bank bad input', () => {
  const good = loadWwise('Test.bnk');

  it('a truncated bank names the chunk that runs past the end', () => {
    const e = formatError(() => parseBank(good.subarray(0, 5000), 'cut.bnk'));
    expect(e.structure).toBe('DATA chunk');
    expect(e.message).toContain('truncated');
  });

  it('a medium past the DATA chunk names its DIDX entry', () => {
    const b = good.slice();
    const didx = 8 + new DataView(b.buffer).getUint32(4, true) + 8;
    new DataView(b.buffer).setUint32(didx + 8, 0x7fffffff, true);
    const e = formatError(() => parseBank(b, 'didx.bnk'));
    expect([e.structure, e.offset]).toEqual(['DIDX entry', didx]);
  });

  it('a HIRC object count past the chunk is refused before anything is read', () => {
    const b = good.slice();
    const v = new DataView(b.buffer);
    let at = 0;
    while (String.fromCharCode(...b.subarray(at, at + 4)) !== 'HIRC') at += 8 + v.getUint32(at + 4, true);
    v.setUint32(at + 8, 0x10000000, true);
    const e = formatError(() => parseBank(b, 'hirc.bnk'));
    expect(e.structure).toBe('HIRC chunk');
    expect(e.message).toContain('268435456 objects');
  });

  it('not a bank', () => {
    expect(formatError(() => parseBank(loadWwise('apcr_armor_not_pierce_small_01_3F75BDB9.wem'), 'x.bnk')).message).toContain('starts with BKHD');
  });
});

/**
 * AkAudioEvent assets of the Wwise Unreal integration, read through the property reader, in the
 * two editor layouts: Play_Footsteps (Wwise 2021.1, UE 5.0: ShortID and a media list of
 * AkMediaAsset objects) and Bullet_Impact (Wwise 2023.1, UE 5.3: EventInfo), written by
 * test/support/wwise-event-assets.ts with the values of the SoundbanksInfo metadata the same
 * public Wwise projects generated (test/corpus/wwise, SOURCES.tsv), and checked here against that
 * metadata. Their Wwise ids are the FNV-1 hash of their names. The 2022+ cooked data
 * (EventCookedData after the properties) has no public sample: its bytes are written with the
 * values of Bullet_Impact.json, in the layout CUE4Parse's FWwiseLocalizedEventCookedData reads,
 * and read through the property reader; the collecting of media and banks is also tested on
 * values shaped as CUE4Parse names their fields.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { readWwiseCookedData, wwiseAssetsOf } from '../../../src/core/assets/sound/wwise/audio-asset.js';
import { parseBank } from '../../../src/core/assets/sound/wwise/bank.js';
import { readSoundbanksInfo, wwiseId } from '../../../src/core/assets/sound/wwise/names.js';
import { packageFileProperties } from '../../../src/core/properties/open.js';
import type { ExportProperties, PropertyEntry } from '../../../src/core/properties/types.js';
import { loadWwise, wwiseFile } from '../../support/wwise-corpus.js';
import { BinaryReader } from '../../../src/core/io/binary-reader.js';
import { PropertyReader } from '../../../src/core/properties/reader.js';
import { bulletImpactAsset, bulletImpactCookedData, playFootstepsAsset } from '../../support/wwise-event-assets.js';
import { formatError } from '../../support/format-error.js';

const json = (name: string) => JSON.parse(readFileSync(wwiseFile(name), 'utf8')).SoundBanksInfo;

const temp = mkdtempSync(join(tmpdir(), 'pakscope-wwise-asset-'));
afterAll(() => rmSync(temp, { recursive: true, force: true }));

/** The Wwise events of a package, written to a file first (the property reader opens files). */
async function assetsOf(file: string, bytes: Uint8Array) {
  writeFileSync(join(temp, file), bytes);
  const { properties } = await packageFileProperties(join(temp, file), { nativeData: readWwiseCookedData });
  return wwiseAssetsOf(properties.exports);
}

describe('AkAudioEvent assets', () => {
  it('Play_Footsteps (Wwise 2021.1): its ShortID and the 20 media its AkAudioEventData lists, as the bank metadata lists them', async () => {
    const info = json('SB_D2173AB754ED4F0FB9051789FBFD7213.json');
    const event = info.SoundBanks[0].IncludedEvents[0] as { Id: string; Name: string; ExcludedMemoryFiles: { Id: string }[] };
    const [a, ...rest] = await assetsOf('Play_Footsteps.uasset', playFootstepsAsset());
    expect(rest).toEqual([]);
    expect(a).toMatchObject({ kind: 'event', name: 'Play_Footsteps', class: 'AkAudioEvent', shortId: Number(event.Id), wwiseName: null, banks: [] });
    expect(event.Name).toBe('Play_Footsteps');
    expect(wwiseId(a!.name)).toBe(a!.shortId);
    expect(a!.media.map((m) => m.id).sort((x, y) => x - y)).toEqual(event.ExcludedMemoryFiles.map((f) => Number(f.Id)).sort((x, y) => x - y));
    expect(a!.media[0]).toEqual({ id: 47342949, path: '/Game/WwiseAudio/Media/47342949.47342949' });
  });

  it('Bullet_Impact (Wwise 2023.1): EventInfo gives its id and name; the event bank beside it plays the media its metadata lists', async () => {
    const info = json('Bullet_Impact.json');
    const event = info.SoundBanks[0].Events[0] as { Id: string; Name: string; MediaRefs: { Id: string }[] };
    const [a] = await assetsOf('Bullet_Impact.uasset', bulletImpactAsset());
    expect(a).toMatchObject({ kind: 'event', name: 'Bullet_Impact', shortId: Number(event.Id), wwiseName: event.Name, media: [], banks: [] });
    expect(wwiseId('Bullet_Impact')).toBe(a!.shortId);
    // The event's own bank (Event/Bullet_Impact.bnk, version 150): its event reaches the media MediaRefs names.
    const bank = parseBank(loadWwise('Bullet_Impact.bnk'), 'Bullet_Impact.bnk');
    expect(bank.version).toBe(Number(info.SoundBankVersion));
    expect(bank.events.map((e) => e.id)).toEqual([a!.shortId]);
    expect([...bank.events[0]!.media].sort()).toEqual(event.MediaRefs.map((m) => Number(m.Id)).sort());
    // The metadata names the event, the media it plays, and each medium's original file.
    const names = readSoundbanksInfo(readFileSync(wwiseFile('Bullet_Impact.json'), 'utf8'));
    expect(names.events.get(a!.shortId!)).toBe('Bullet_Impact');
    expect(names.mediaEvents.get(115002319)).toEqual(['Bullet_Impact']);
    expect(names.media.get(115002319)).toEqual({ name: 'Bullet_Impact_4.wav', path: 'Media/115002319.wem' });
  });

  it('2021 metadata that lists an event\'s media as ExcludedMemoryFiles names the event of each', () => {
    const names = readSoundbanksInfo(readFileSync(wwiseFile('SB_D2173AB754ED4F0FB9051789FBFD7213.json'), 'utf8'));
    expect(names.mediaEvents.get(47342949)).toEqual(['Play_Footsteps']);
    expect(names.media.get(47342949)?.name).toBe('Footsteps\\Gravel\\sx_character_WORLD_footsteps_gravel_1.wav');
  });
});

describe('cooked data of Wwise 2022+ (EventCookedData)', () => {
  it('bytes of a cooked Bullet_Impact (written with its metadata\'s values) read through the property reader: its id, bank and media', () => {
    const info = json('Bullet_Impact.json');
    const bank = info.SoundBanks[0] as { Id: string; Path: string; Media: { Id: string; Path: string }[]; Events: { Id: string; Name: string }[] };
    const eventId = Number(bank.Events[0]!.Id);
    const { bytes, names } = bulletImpactCookedData();
    const pr = new PropertyReader({ file: 'Bullet_Impact (cooked fixture)', names, objectPath: () => undefined, versions: { ue4: 522, ue5: 0, custom: [], cooked: true }, unversioned: false });
    const native = readWwiseCookedData(pr, new BinaryReader(bytes, 'Bullet_Impact (cooked fixture)'), { name: 'Bullet_Impact', class: 'AkAudioEvent', properties: [] });
    const [a] = wwiseAssetsOf([{ index: 0, name: 'Bullet_Impact', class: 'AkAudioEvent', properties: [], propertyBytes: 0, propertyStart: 0, serialSize: bytes.length, encoding: 'tagged', error: null, native }]);
    expect(a).toMatchObject({ shortId: eventId, wwiseName: 'Bullet_Impact', banks: [{ id: Number(bank.Id), name: 'Event/Bullet_Impact.bnk' }] });
    expect(a!.media).toEqual(bank.Media.map((m) => ({ id: Number(m.Id), path: m.Path })));
    // Cut short, the struct is a FormatError naming where (the property reader keeps it as the export's nativeError).
    const cut = formatError(() => readWwiseCookedData(pr, new BinaryReader(bytes.subarray(0, 100), 'cut'), { name: 'X', class: 'AkAudioEvent', properties: [] }));
    expect(cut.file).toBe('cut');
    // An older asset (nothing after the GUID flag) has no cooked data.
    expect(readWwiseCookedData(pr, new BinaryReader(new Uint8Array(4), 'old'), { name: 'X', class: 'AkAudioEvent', properties: [] })).toBeUndefined();
    expect(readWwiseCookedData(pr, new BinaryReader(bytes, 'not Wwise'), { name: 'X', class: 'SoundWave', properties: [] })).toBeUndefined();
  });

  const e = (name: string, type: string, value: PropertyEntry['value']): PropertyEntry => ({ name, type, value });
  const medium = (id: number, path: string) => [e('MediaId', 'UInt32Property', id), e('MediaPathName', 'NameProperty', path), e('bStreaming', 'BoolProperty', false)];
  const eventCooked = (id: number) => [
    e('EventId', 'UInt32Property', id),
    e('SoundBanks', 'ArrayProperty<StructProperty<WwiseSoundBankCookedData>>', [[e('SoundBankId', 'UInt32Property', 1355168291), e('SoundBankPathName', 'NameProperty', 'Event/Play_Shot.bnk')]]),
    e('Media', 'ArrayProperty<StructProperty<WwiseMediaCookedData>>', [medium(111, 'Media/111.wem'), medium(222, 'Media/222.wem')]),
    e('SwitchContainerLeaves', 'ArrayProperty<StructProperty<WwiseSwitchContainerLeafCookedData>>', [[e('Media', 'ArrayProperty<StructProperty<WwiseMediaCookedData>>', [medium(333, 'Media/333.wem')])]]),
    e('DebugName', 'NameProperty', 'Play_Shot'),
  ];
  const exp = (native: unknown, cls = 'AkAudioEvent'): ExportProperties => ({
    index: 0, name: 'Play_Shot', class: cls, properties: [], propertyBytes: 8, propertyStart: 0, serialSize: 200, encoding: 'tagged', error: null, native,
  });

  it('media and banks are collected from every language and switch leaf; the id and name from the struct', () => {
    const native = [
      e('EventLanguageMap', 'MapProperty<StructProperty<WwiseLanguageCookedData>, StructProperty<WwiseEventCookedData>>', [
        { key: [e('LanguageId', 'UInt32Property', 0), e('LanguageName', 'NameProperty', 'SFX')], value: eventCooked(3187507146) },
      ]),
      e('DebugName', 'NameProperty', 'Play_Shot'),
      e('EventId', 'IntProperty', 3187507146 | 0),
    ];
    const [a] = wwiseAssetsOf([exp(native)]);
    expect(a).toMatchObject({ shortId: 3187507146, wwiseName: 'Play_Shot', banks: [{ id: 1355168291, name: 'Event/Play_Shot.bnk' }] });
    expect(a!.media).toEqual([{ id: 111, path: 'Media/111.wem' }, { id: 222, path: 'Media/222.wem' }, { id: 333, path: 'Media/333.wem' }]);
    expect(a!.notes).toEqual(['cooked data (WwiseLocalizedEventCookedData) read']);
  });

  it('a bank\'s cooked data: its id, its events, not itself among its banks', () => {
    const native = [
      e('SoundBankLanguageMap', 'MapProperty', [{ key: [e('LanguageId', 'UInt32Property', 0)], value: [e('SoundBankId', 'UInt32Property', 77), e('SoundBankPathName', 'NameProperty', 'Weapons.bnk')] }]),
      e('DebugName', 'NameProperty', 'Weapons'),
      e('SoundBankId', 'UInt32Property', 77),
      e('IncludedEventNames', 'ArrayProperty<NameProperty>', ['Play_Shot', 'Stop_Shot']),
    ];
    const [a] = wwiseAssetsOf([{ ...exp(native, 'AkAudioBank'), name: 'Weapons' }]);
    expect(a).toMatchObject({ kind: 'bank', shortId: 77, wwiseName: 'Weapons', banks: [], events: ['Play_Shot', 'Stop_Shot'] });
  });

  it('cooked data that does not read is named, the properties kept', () => {
    const [a] = wwiseAssetsOf([{ ...exp(undefined), properties: [e('ShortID', 'UInt32Property', 5)], nativeError: 'struct runs past the export at 0x40' }]);
    expect(a).toMatchObject({ shortId: 5, media: [], notes: ['cooked data not read: struct runs past the export at 0x40'] });
  });
});

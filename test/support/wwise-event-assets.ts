/**
 * The Wwise Unreal integration's AkAudioEvent assets, written (test/fixtures/uasset-writer.ts)
 * with the values of the bank metadata the same Wwise projects generated (test/corpus/wwise,
 * SOURCES.tsv), in the two layouts the reader knows from editor assets, and the cooked data of
 * 2022+:
 *
 *   Play_Footsteps   Wwise 2021.1, UE 5.0 (object version 1004): ShortID and ID on the event,
 *                    PlatformAssetData -> AkAssetPlatformData -> AkAudioEventData whose MediaList
 *                    holds the AkMediaAsset of each medium (SB_D2173AB754ED4F0FB9051789FBFD7213.json)
 *   Bullet_Impact    Wwise 2023.1, UE 5.3 (1009): EventInfo { WwiseGuid, WwiseShortId, WwiseName }
 *                    (Bullet_Impact.json)
 *   cooked           WwiseLocalizedEventCookedData as a 2022+ cooked AkAudioEvent carries it after
 *                    its properties, in the layout CUE4Parse's FWwiseLocalizedEventCookedData reads
 *
 * Each was checked against the editor asset of the public project it replaces: the reader gives
 * both the same id, names, media and labels (the commit that added this file says how).
 */
import { readFileSync } from 'node:fs';
import { writeEditorPackage } from '../fixtures/uasset-writer.js';
import { type TaggedProps, type TaggedValue, TaggedWriter } from './tagged-writer.js';
import { wwiseFile } from './wwise-corpus.js';

const EVENTS = '/Game/WwiseAudio/Events/Default_Work_Unit';
const u32 = (value: number): TaggedValue => ({ type: 'UInt32Property', value });
const name = (value: string): TaggedValue => ({ type: 'NameProperty', value });
const guid = (text: string): TaggedValue => ({ type: 'StructProperty', struct: 'Guid', guid: text });
const info = (file: string) => JSON.parse(readFileSync(wwiseFile(file), 'utf8')).SoundBanksInfo;

interface Footsteps2021 {
  Platform: string;
  SoundBanks: {
    Hash: string;
    IncludedEvents: { Id: string; Name: string; GUID: string; DurationMin: string; DurationMax: string; DefaultSwitchValue: string; ExcludedMemoryFiles: { Id: string }[] }[];
    SwitchGroups: { Name: string; ObjectPath: string; Switches: { Name: string; GUID: string }[] }[];
  }[];
}

/** Play_Footsteps.uasset as the Wwise 2021.1 integration saves it in UE 5.0.3. */
export function playFootstepsAsset(): Uint8Array {
  const meta = info('SB_D2173AB754ED4F0FB9051789FBFD7213.json') as Footsteps2021;
  const bank = meta.SoundBanks[0]!;
  const event = bank.IncludedEvents[0]!;
  const pkg = `${EVENTS}/${event.Name}`;
  const asset = `${pkg}.${event.Name}`;
  // The default switch, as the integration names its asset: the group's folder, "Group-Switch".
  const group = bank.SwitchGroups.find((g) => g.Switches.some((s) => s.GUID === event.DefaultSwitchValue))!;
  const folder = group.ObjectPath.split('\\').slice(1).map((p) => p.replaceAll(' ', '_')).join('/');
  const switchName = `${group.Name}-${group.Switches.find((s) => s.GUID === event.DefaultSwitchValue)!.Name}`;
  const switchAsset = `/Game/WwiseAudio/${folder}/${switchName}.${switchName}`;
  return writeEditorPackage({
    name: pkg, ue5: 1004, savedBy: [5, 0, 3, 20979098, '++UE5+Release-5.0'],
    exports: [
      {
        name: 'AkAssetPlatformData_0', class: '/Script/AkAudio.AkAssetPlatformData', outer: event.Name,
        props: (ref) => [['AssetDataPerPlatform', { type: 'MapProperty', key: 'StrProperty', valueType: 'ObjectProperty', value: [[{ type: 'StrProperty', value: meta.Platform }, { type: 'ObjectProperty', value: ref(`${asset}:AkAudioEventData_0`) }]] }]],
      },
      {
        name: event.Name, class: '/Script/AkAudio.AkAudioEvent',
        props: (ref) => [
          ['PlatformAssetData', { type: 'ObjectProperty', value: ref(`${asset}:AkAssetPlatformData_0`) }],
          ['ID', guid(event.GUID)],
          ['ShortID', u32(Number(event.Id))],
        ],
      },
      {
        name: 'AkAudioEventData_0', class: '/Script/AkAudio.AkAudioEventData', outer: event.Name,
        props: (ref) => [
          ['MinimumDuration', { type: 'FloatProperty', value: Number(event.DurationMin) }],
          ['MaximumDuration', { type: 'FloatProperty', value: Number(event.DurationMax) }],
          ['DefaultGroupValue', { type: 'ObjectProperty', value: ref(switchAsset, '/Script/AkAudio.AkSwitchValue') }],
          ['AssetPlatform', { type: 'StrProperty', value: meta.Platform }],
          ['MediaList', { type: 'ArrayProperty', inner: 'ObjectProperty', value: event.ExcludedMemoryFiles.map((m) => ({ type: 'ObjectProperty', value: ref(`/Game/WwiseAudio/Media/${m.Id}.${m.Id}`, '/Script/AkAudio.AkMediaAsset') })) }],
          ['CachedHash', u32(Number(bank.Hash))],
        ],
      },
    ],
  });
}

interface ImpactBank2023 {
  Id: string;
  Path: string;
  Media: { Id: string; Path: string }[];
  Events: { Id: string; Name: string; GUID: string }[];
}
const impactBank = (): ImpactBank2023 => info('Bullet_Impact.json').SoundBanks[0];

/** Bullet_Impact.uasset as the Wwise 2023.1 integration saves it in UE 5.3.2. */
export function bulletImpactAsset(): Uint8Array {
  const event = impactBank().Events[0]!;
  return writeEditorPackage({
    name: `${EVENTS}/${event.Name}`, ue5: 1009, savedBy: [5, 3, 2, 29314046, '++UE5+Release-5.3'],
    exports: [{
      name: event.Name, class: '/Script/AkAudio.AkAudioEvent',
      props: () => [['EventInfo', { type: 'StructProperty', struct: 'WwiseEventInfo', value: [['WwiseGuid', guid(event.GUID)], ['WwiseShortId', u32(Number(event.Id))], ['WwiseName', name(event.Name)]] }]],
    }],
  });
}

/**
 * A cooked Bullet_Impact's native data (after its properties): UObject's GUID flag (0), the
 * WwiseLocalizedEventCookedData struct (one language, SFX: the event's bank and media), then the
 * event's durations (13 bytes the reader leaves). `names` is the name table the bytes index.
 */
export function bulletImpactCookedData(): { bytes: Uint8Array; names: string[] } {
  const bank = impactBank();
  const event = bank.Events[0]!;
  const struct = (s: string, value: TaggedProps): TaggedValue => ({ type: 'StructProperty', struct: s, value });
  const cooked: TaggedProps = [
    ['EventId', u32(Number(event.Id))],
    ['SoundBanks', { type: 'ArrayProperty', inner: 'StructProperty', struct: 'WwiseSoundBankCookedData', value: [struct('WwiseSoundBankCookedData', [['SoundBankId', u32(Number(bank.Id))], ['SoundBankPathName', name(bank.Path)], ['bContainsMedia', { type: 'BoolProperty', value: false }], ['DebugName', name(event.Name)]])] }],
    ['Media', { type: 'ArrayProperty', inner: 'StructProperty', struct: 'WwiseMediaCookedData', value: bank.Media.map((m) => struct('WwiseMediaCookedData', [['MediaId', u32(Number(m.Id))], ['MediaPathName', name(m.Path)], ['PrefetchSize', { type: 'IntProperty', value: 0 }], ['bStreaming', { type: 'BoolProperty', value: false }]])) }],
    ['DebugName', name(event.Name)],
  ];
  const w = new TaggedWriter();
  w.props([
    ['EventLanguageMap', { type: 'MapProperty', key: 'StructProperty', valueType: 'StructProperty', value: [[struct('WwiseLanguageCookedData', [['LanguageId', u32(0)], ['LanguageName', name('SFX')]]), struct('WwiseEventCookedData', cooked)]] }],
    ['DebugName', name(event.Name)],
    ['EventId', u32(Number(event.Id))],
  ]);
  return { bytes: w.finish([0, 0, 0, 0], new Array<number>(13).fill(0)), names: w.names };
}

/**
 * A media asset, Media/<id>.uasset, as the Wwise 2021.1 integration saves it in UE 5.0.3 (the
 * layout of a public project's, checked field by field): the AkMediaAsset { Id,
 * MediaAssetDataPerPlatform (platform -> its AkMediaAssetData), MediaName } and that
 * AkMediaAssetData { AssetPlatform }, whose DataChunks are one chunk (IsPrefetch 0; FByteBulkData
 * flags 0x401, PayloadAtEndOfFile | Force_NOT_InlinePayload, 32-bit sizes, offset 0) holding
 * `wem` at the end of the file.
 */
export function mediaAssetPackage(id: number, mediaName: string, wem: Uint8Array, platform = 'Windows'): Uint8Array {
  const pkg = `/Game/WwiseAudio/Media/${id}`;
  const u32le = (v: number): number[] => [v & 0xff, (v >>> 8) & 0xff, (v >>> 16) & 0xff, v >>> 24];
  const chunks = [...u32le(1), ...u32le(0), ...u32le(0x401), ...u32le(wem.length), ...u32le(wem.length), ...u32le(0), ...u32le(0)];
  return writeEditorPackage({
    name: pkg, ue5: 1004, savedBy: [5, 0, 3, 20979098, '++UE5+Release-5.0'],
    exports: [
      {
        name: String(id), class: '/Script/AkAudio.AkMediaAsset',
        props: (ref) => [
          ['Id', u32(id)],
          ['MediaAssetDataPerPlatform', { type: 'MapProperty', key: 'StrProperty', valueType: 'ObjectProperty', value: [[{ type: 'StrProperty', value: platform }, { type: 'ObjectProperty', value: ref(`${pkg}.${id}:AkMediaAssetData_0`) }]] }],
          ['MediaName', { type: 'StrProperty', value: mediaName }],
        ],
      },
      { name: 'AkMediaAssetData_0', class: '/Script/AkAudio.AkMediaAssetData', outer: String(id), props: () => [['AssetPlatform', { type: 'StrProperty', value: platform }]], native: chunks },
    ],
    bulkData: wem,
  });
}

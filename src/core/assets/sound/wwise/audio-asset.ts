/**
 * The Wwise Unreal integration's assets, AkAudioEvent and AkAudioBank, read from what the property
 * reader makes of them. Their layouts by integration:
 *
 *   up to 2019.1    AkAudioEvent { ShortID: u32, RequiredBank: AkAudioBank }, AkAudioBank { ShortID? }
 *   2019.2-2021.1   AkAudioEvent { ShortID, PlatformAssetData: AkAssetPlatformData }; that object's
 *                   AssetDataPerPlatform (platform -> AkAudioEventData) or CurrentAssetData names an
 *                   AkAudioEventData whose MediaList holds AkMediaAsset objects named by medium id
 *   2022.1+         EventInfo / BankInfo { WwiseShortId, WwiseName, WwiseGuid }; cooked, the export's
 *                   native data is a WwiseLocalizedEventCookedData (or ...SoundBankCookedData) struct:
 *                   a language map to WwiseEventCookedData { EventId, SoundBanks [{ SoundBankId,
 *                   SoundBankPathName }], Media [{ MediaId, MediaPathName }], SwitchContainerLeaves
 *                   [{ Media, SoundBanks }] } and the DebugName; a bank's has IncludedEventNames
 *
 * The cooked struct is read by readWwiseCookedData (a NativeDataReader) as a property struct; the
 * media and banks are then collected wherever they sit in it (languages, switch leaves).
 */
import type { NativeDataReader } from '../../../properties/context.js';
import type { ExportProperties, PropertyEntry, PropertyValue } from '../../../properties/types.js';
import type { AssetSource, ConvertOptions } from '../../registry.js';
import { sourceProperties } from '../../source-properties.js';

/** The classes read here, and the older integrations' names for them (Borderlands 3, Captain Spirit). */
export const WWISE_EVENT_CLASSES: readonly string[] = ['AkAudioEvent', 'WwiseEvent', 'WuiEvent'];
export const WWISE_BANK_CLASSES: readonly string[] = ['AkAudioBank', 'WwiseBank', 'WuiBank'];

export interface WwiseAssetMedium {
  id: number;
  /** Where the medium is: an AkMediaAsset's object path, or the cooked data's MediaPathName ("Media/123.wem"). */
  path: string | null;
}

export interface WwiseAsset {
  kind: 'event' | 'bank';
  /** The export's name, which the integration gives the Wwise object's name. */
  name: string;
  class: string;
  /** The name Wwise knows it by, where stored (EventInfo.WwiseName, the cooked DebugName). */
  wwiseName: string | null;
  /** Its Wwise id (ShortID, WwiseShortId, the cooked EventId or SoundBankId). */
  shortId: number | null;
  /** Banks it is in: the RequiredBank reference, or the cooked SoundBanks' path names and ids. */
  banks: { id: number | null; name: string }[];
  /** Media it plays (events) or holds, as the asset lists them. */
  media: WwiseAssetMedium[];
  /** A bank's events, as its cooked data names them. */
  events: string[];
  /** Where each part was read from, or why it was not. */
  notes: string[];
}

const COOKED_STRUCT: Record<'event' | 'bank', string> = { event: 'WwiseLocalizedEventCookedData', bank: 'WwiseLocalizedSoundBankCookedData' };

/** Whether exports of this class are a Wwise event or bank asset. */
export const isWwiseAssetClass = (cls: string): boolean => kindOfClass(cls) !== undefined;

const kindOfClass = (cls: string): 'event' | 'bank' | undefined =>
  WWISE_EVENT_CLASSES.includes(cls) ? 'event' : WWISE_BANK_CLASSES.includes(cls) ? 'bank' : undefined;

/**
 * Reads a cooked 2022+ asset's native data, the localized cooked-data struct after its
 * properties. Older assets end with their properties (a few bytes of object GUID flag at most):
 * nothing is read then.
 */
export const readWwiseCookedData: NativeDataReader = (pr, r, exp) => {
  const kind = kindOfClass(exp.class);
  if (!kind) return undefined;
  // UObject's own native data first: a bool32, and the object's GUID when it is set.
  if (r.remaining >= 4 && r.bool32()) r.skip(16);
  // A struct needs at least its terminator ("None": 8 bytes tagged); less is no cooked data.
  if (r.remaining < 8) return undefined;
  return pr.struct(r, COOKED_STRUCT[kind]);
};

const isEntries = (v: PropertyValue): v is PropertyEntry[] =>
  Array.isArray(v) && v.length > 0 && v.every((x) => x !== null && typeof x === 'object' && !Array.isArray(x) && 'name' in x && 'type' in x && 'value' in x);

const field = (entries: readonly PropertyEntry[], name: string): PropertyValue | undefined =>
  entries.find((e) => e.name.toLowerCase() === name.toLowerCase())?.value;

const idOf = (v: PropertyValue | undefined): number | null => {
  // Cooked ids are int32 properties in some versions: the bits are the u32 id.
  if (typeof v === 'number' && Number.isInteger(v) && v >= -0x80000000 && v <= 0xffffffff) return v >>> 0;
  if (typeof v === 'string' && /^\d+$/.test(v) && Number(v) <= 0xffffffff) return Number(v);
  return null;
};

const textOf = (v: PropertyValue | undefined): string | null => (typeof v === 'string' && v !== '' && v !== 'None' ? v : null);

/** The object an export's reference names, among the package's exports ("/Game/X.X:AkAudioEventData_0"). */
function exportOf(exports: readonly ExportProperties[], ref: PropertyValue | undefined): ExportProperties | undefined {
  if (typeof ref !== 'string') return undefined;
  const name = ref.slice(Math.max(ref.lastIndexOf(':'), ref.lastIndexOf('.')) + 1);
  return exports.find((e) => e.name === name);
}

/** An AkMediaAsset reference's medium id: the asset is named by it ("/Game/WwiseAudio/Media/47342949.47342949"). */
function mediumOfReference(ref: PropertyValue): WwiseAssetMedium | null {
  if (typeof ref !== 'string') return null;
  const name = ref.slice(Math.max(ref.lastIndexOf('.'), ref.lastIndexOf('/'), ref.lastIndexOf(':')) + 1);
  const id = idOf(name);
  return id === null ? null : { id, path: ref };
}

/** Collects, anywhere in a cooked-data value, the media (MediaId) and banks (SoundBankId) it names. */
function collectCooked(v: PropertyValue, into: WwiseAsset, depth = 0): void {
  if (depth > 32 || v === null || typeof v !== 'object') return;
  if (isEntries(v)) {
    const mediaId = idOf(field(v, 'MediaId'));
    if (mediaId !== null && !into.media.some((m) => m.id === mediaId)) into.media.push({ id: mediaId, path: textOf(field(v, 'MediaPathName')) ?? textOf(field(v, 'DebugName')) });
    const bankId = idOf(field(v, 'SoundBankId'));
    const bankName = textOf(field(v, 'SoundBankPathName')) ?? textOf(field(v, 'DebugName'));
    if (bankId !== null && bankName !== null && !into.banks.some((b) => b.id === bankId)) into.banks.push({ id: bankId, name: bankName });
    for (const e of v) collectCooked(e.value, into, depth + 1);
    return;
  }
  for (const x of Array.isArray(v) ? v : Object.values(v)) collectCooked(x, into, depth + 1);
}

/** The Wwise events and banks among a package's exports (read with readWwiseCookedData for their cooked data). */
export function wwiseAssetsOf(exports: readonly ExportProperties[]): WwiseAsset[] {
  const out: WwiseAsset[] = [];
  for (const exp of exports) {
    const kind = kindOfClass(exp.class);
    if (!kind) continue;
    const a: WwiseAsset = { kind, name: exp.name, class: exp.class, wwiseName: null, shortId: null, banks: [], media: [], events: [], notes: [] };
    const p = exp.properties;
    a.shortId = idOf(field(p, 'ShortID'));
    const info = field(p, kind === 'event' ? 'EventInfo' : 'BankInfo') ?? field(p, 'WwiseObjectInfo');
    if (info !== undefined && isEntries(info)) {
      a.shortId ??= idOf(field(info, 'WwiseShortId'));
      a.wwiseName = textOf(field(info, 'WwiseName'));
    }
    const required = textOf(field(p, 'RequiredBank'));
    if (required) a.banks.push({ id: null, name: required.slice(required.lastIndexOf('.') + 1) });

    // 2019.2-2021.1: the platform data object, its per-platform event data, their media lists.
    const platform = exportOf(exports, field(p, 'PlatformAssetData'));
    if (platform) {
      const perPlatform = field(platform.properties, 'AssetDataPerPlatform');
      const refs: PropertyValue[] = [field(platform.properties, 'CurrentAssetData') ?? null];
      if (Array.isArray(perPlatform)) for (const pair of perPlatform) if (pair && typeof pair === 'object' && !Array.isArray(pair) && 'value' in pair) refs.push((pair as { value: PropertyValue }).value);
      for (const ref of refs) {
        const data = exportOf(exports, ref);
        const list = data ? field(data.properties, 'MediaList') : undefined;
        if (!Array.isArray(list)) continue;
        for (const m of list) {
          const medium = mediumOfReference(m as PropertyValue);
          if (medium && !a.media.some((x) => x.id === medium.id)) a.media.push(medium);
        }
      }
    }

    // 2022.1+ cooked: the localized cooked data after the properties.
    if (exp.native !== undefined && exp.native !== null) {
      const cooked = exp.native as PropertyValue;
      collectCooked(cooked, a);
      if (isEntries(cooked)) {
        a.shortId ??= idOf(field(cooked, kind === 'event' ? 'EventId' : 'SoundBankId'));
        a.wwiseName ??= textOf(field(cooked, 'DebugName'));
        const included = field(cooked, 'IncludedEventNames');
        if (Array.isArray(included)) a.events.push(...included.filter((x): x is string => typeof x === 'string'));
      }
      // A bank's own id is not one of the banks it is in.
      if (kind === 'bank') a.banks = a.banks.filter((b) => b.id !== a.shortId);
      a.notes.push(`cooked data (${COOKED_STRUCT[kind]}) read`);
    } else if (exp.nativeError) {
      a.notes.push(`cooked data not read: ${exp.nativeError}`);
    }
    out.push(a);
  }
  return out;
}

/** The Wwise events and banks of a package (on disk or of an install), its cooked data read too. */
export async function readWwiseAssets(source: AssetSource, opts: Pick<ConvertOptions, 'mappings' | 'engine'> = {}): Promise<{ assets: WwiseAsset[]; warnings: string[] }> {
  const opened = await sourceProperties(source, opts, { nativeData: readWwiseCookedData });
  return { assets: wwiseAssetsOf(opened.properties.exports), warnings: opened.warnings };
}

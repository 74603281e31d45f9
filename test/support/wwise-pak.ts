import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { writePak } from '../fixtures/pak-writer.js';
import { bankMedia, loadWwise } from './wwise-corpus.js';
import { bulletImpactAsset, mediaAssetPackage, playFootstepsAsset } from './wwise-event-assets.js';

/** Where the Wwise pak puts its files, as a game's WwiseAudio folder. */
export const WWISE_DIR = 'Game/Content/WwiseAudio';
export const WEM_VORBIS = `${WWISE_DIR}/Media/surface_hits_medium_hard_01.wem`;
export const WEM_VORBIS_48K = `${WWISE_DIR}/Media/apcr_armor_not_pierce_small_01.wem`;
export const TEST_BANK = `${WWISE_DIR}/Test.bnk`;
export const LE3_BANK = `${WWISE_DIR}/LE3_v134_1.bnk`;
export const SOUNDBANKS_INFO = `${WWISE_DIR}/SoundbanksInfo.json`;

/** Writes WwiseAudio-Windows.pak (version 11) into `dir`: the test corpus's Wwise files, as a game ships them. */
export async function writeWwisePak(dir: string): Promise<string> {
  const at = (p: string): string => p.slice('Game/'.length);
  const pak = writePak([
    { name: at(WEM_VORBIS), data: loadWwise('surface_hits_medium_hard_01_3F75BDB9.wem') },
    { name: at(WEM_VORBIS_48K), data: loadWwise('apcr_armor_not_pierce_small_01_3F75BDB9.wem') },
    { name: at(TEST_BANK), data: loadWwise('Test.bnk') },
    { name: at(LE3_BANK), data: loadWwise('LE3_v134_1.bnk') },
    { name: at(SOUNDBANKS_INFO), data: loadWwise('SoundbanksInfo.json') },
  ], { version: 11, mountPoint: '../../../Game/' });
  const path = join(dir, 'WwiseAudio-Windows.pak');
  await writeFile(path, pak.bytes);
  return path;
}

/** The Wwise 2022+ layout (an event's own bank and metadata, media loose by id) and the integration's event assets (written: wwise-event-assets.ts). */
export const EVENT_BANK = `${WWISE_DIR}/Event/Bullet_Impact.bnk`;
export const MEDIA_IMPACT_4 = `${WWISE_DIR}/Media/115002319.wem`;
export const MEDIA_RICOCHET_2 = `${WWISE_DIR}/Media/156526235.wem`;
/** Named by id as Play_Footsteps' media list names one of its media (its bytes are Ricochet_2's: only the name is tested). */
export const MEDIA_FOOTSTEP = `${WWISE_DIR}/Media/47342949.wem`;
/**
 * A Wwise 2021.1 media asset (AkMediaAsset and its AkMediaAssetData, the .wem in bulk data), named
 * as one of Play_Footsteps' media; it holds Test.bnk's PCM medium (MEDIA_ASSET_WEM, whose ffmpeg
 * figures are expected.json's "Test.bnk#799259675").
 */
export const MEDIA_ASSET = `${WWISE_DIR}/Media/290492006.uasset`;
export const MEDIA_ASSET_WEM = 'Test.bnk#799259675';
export const mediaAsset = (): Uint8Array => mediaAssetPackage(290492006, 'sx_character_WORLD_footsteps_asphalt_2', bankMedia(loadWwise('Test.bnk')).get(799259675)!);
export const FOOTSTEPS_EVENT = `${WWISE_DIR}/Events/Default_Work_Unit/Play_Footsteps.uasset`;
export const IMPACT_EVENT = `${WWISE_DIR}/Events/Default_Work_Unit/Bullet_Impact.uasset`;

/** Writes WwiseEvents-Windows.pak (version 11) into `dir`. */
export async function writeWwiseEventsPak(dir: string): Promise<string> {
  const at = (p: string): string => p.slice('Game/'.length);
  const pak = writePak([
    { name: at(EVENT_BANK), data: loadWwise('Bullet_Impact.bnk') },
    { name: at(EVENT_BANK).replace(/\.bnk$/, '.json'), data: loadWwise('Bullet_Impact.json') },
    { name: at(MEDIA_IMPACT_4), data: loadWwise('115002319.wem') },
    { name: at(MEDIA_RICOCHET_2), data: loadWwise('156526235.wem') },
    { name: at(MEDIA_FOOTSTEP), data: loadWwise('156526235.wem') },
    { name: at(MEDIA_ASSET), data: mediaAsset() },
    { name: at(FOOTSTEPS_EVENT), data: playFootstepsAsset() },
    { name: at(IMPACT_EVENT), data: bulletImpactAsset() },
  ], { version: 11, mountPoint: '../../../Game/' });
  const path = join(dir, 'WwiseEvents-Windows.pak');
  await writeFile(path, pak.bytes);
  return path;
}

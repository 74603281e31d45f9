import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { writePak } from '../fixtures/pak-writer.js';
import { loadWwise } from './wwise-corpus.js';

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

/**
 * An install for the game data views: the cue58 Pak (DefaultGame.ini, en and de .locres,
 * AssetRegistry.bin) beside the IoStore Tagged containers that hold the registry's packages
 * (symbolic links, the corpus read in place), and a pak written here with a French .locres that
 * translates only two of the fixture keys and a Spanish one whose namespace count runs past its
 * end (bad input: the other cultures still show), and a French file of another target ("Game")
 * translating DA_AllProperties' Text (its key read from the package's bytes: namespace "",
 * key 20FFFBF24214E8B5B3E2C0871BFC6523).
 */
import { mkdtempSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { writePak } from '../fixtures/pak-writer.js';
import { corpus } from './corpus.js';

export const LOCRES_NS = 'CUE4ParseFixtures.Tests';
/** What fr.locres holds: two of the five keys. */
export const FRENCH: Record<string, string> = { CityGreeting: 'Salutations de Francfort', SharedFirst: 'Traduction partagée' };
export const LOCALIZATION = 'CUE4ParseFixtures/Content/Localization/CUE4ParseFixtures';
/** DA_AllProperties' Text in French, by its key. */
export const FRENCH_TEXT = 'Texte presque localisé Ω';
export const DA_TEXT_KEY = '20FFFBF24214E8B5B3E2C0871BFC6523';

/** A legacy .locres (no magic): u32 namespace count; FString namespace, u32 key count; FString key, u32 source hash, FString text. */
export function legacyLocres(namespaces: Record<string, Record<string, string>>): Uint8Array {
  const out: number[] = [];
  const u32 = (v: number): void => { for (let i = 0; i < 4; i++) out.push((v >>> (8 * i)) & 255); };
  const fstring = (s: string): void => {
    u32(-(s.length + 1));
    for (let i = 0; i < s.length; i++) out.push(s.charCodeAt(i) & 255, s.charCodeAt(i) >> 8);
    out.push(0, 0);
  };
  u32(Object.keys(namespaces).length);
  for (const [namespace, entries] of Object.entries(namespaces)) {
    fstring(namespace);
    u32(Object.keys(entries).length);
    for (const [k, v] of Object.entries(entries)) {
      fstring(k);
      u32(0x1234);
      fstring(v);
    }
  }
  return new Uint8Array(out);
}

/** Makes the folder (in the system's temp folder) and returns its path. */
export function makeGameDataInstall(): string {
  const dir = mkdtempSync(join(tmpdir(), 'pakscope-gamedata-'));
  const link = (rel: string, name: string): void => symlinkSync(corpus(rel), join(dir, name));
  link('cue58/Pak/Uncompressed/CUE4ParseFixtures-Minimal-Uncompressed.pak', 'CUE4ParseFixtures-Minimal-Uncompressed.pak');
  for (const ext of ['utoc', 'ucas']) {
    link(`cue58/IoStore/Tagged/Uncompressed/CUE4ParseFixtures-Minimal-Uncompressed-Windows.${ext}`, `CUE4ParseFixtures-Minimal-Uncompressed-Windows.${ext}`);
    link(`cue58/IoStore/Tagged/global.${ext}`, `global.${ext}`);
  }
  const extra = writePak([
    { name: 'Content/Localization/CUE4ParseFixtures/fr/CUE4ParseFixtures.locres', data: legacyLocres({ [LOCRES_NS]: FRENCH }) },
    { name: 'Content/Localization/Game/fr/Game.locres', data: legacyLocres({ '': { [DA_TEXT_KEY]: FRENCH_TEXT } }) },
    { name: 'Content/Localization/CUE4ParseFixtures/es/CUE4ParseFixtures.locres', data: new Uint8Array([0xff, 0xff, 0xff, 0x0f, 1, 2, 3]) },
  ], { version: 11, mountPoint: '../../../CUE4ParseFixtures/' });
  writeFileSync(join(dir, 'Extra.pak'), extra.bytes);
  return dir;
}

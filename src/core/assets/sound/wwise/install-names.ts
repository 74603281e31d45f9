/**
 * Names for a bank's ids from the install it is in: every SoundbanksInfo.json/.xml (and the
 * per-bank .json/.xml Wwise writes beside a bank of the same name) is read; events still unnamed
 * are matched against the names of the install's files, since an AkAudioEvent asset is named
 * after its event and Wwise ids are the hash of the name (names.ts).
 */
import type { Install } from '../../../install/install.js';
import { nameEventsByHash, readSoundbanksInfo, type WwiseNames, emptyNames } from './names.js';

/** Metadata files bigger than this are skipped (the largest real ones are a few MiB). */
const MAX_METADATA = 64 * 1024 * 1024;

export async function installWwiseNames(install: Install, bankPath: string, eventIds: Iterable<number>): Promise<WwiseNames> {
  const names = emptyNames();
  const slash = bankPath.lastIndexOf('/');
  const bankStem = bankPath.slice(slash + 1).replace(/\.bnk$/i, '').toLowerCase();
  const metadata: { archive: Install['archives'][number]; ref: number }[] = [];
  const stems: string[] = [];
  install.visitFiles((f) => {
    const lower = f.name.toLowerCase();
    const dot = lower.lastIndexOf('.');
    const stem = dot > 0 ? f.name.slice(0, dot) : f.name;
    const ext = dot > 0 ? lower.slice(dot + 1) : '';
    if ((ext === 'json' || ext === 'xml') && (lower.startsWith('soundbanksinfo.') || stem.toLowerCase() === bankStem)) metadata.push({ archive: f.archive, ref: f.ref });
    if (ext === 'uasset' || ext === 'umap' || ext === '') stems.push(stem);
  });
  for (const m of metadata) {
    try {
      const bytes = await m.archive.read(m.ref);
      if (bytes.length <= MAX_METADATA) readSoundbanksInfo(new TextDecoder().decode(bytes), names);
    } catch {
      // A metadata file that does not read names nothing; the bank still lists.
    }
  }
  nameEventsByHash(eventIds, stems, names);
  return names;
}

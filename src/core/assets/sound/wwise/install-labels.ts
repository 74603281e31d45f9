/**
 * What to call the Wwise media of an install that are named by their id ("Media/115002319.wem",
 * and the AkMediaAsset packages of the 2019.2-2021 integrations, "Media/47342949.uasset"): the
 * events that play each and its original file, as the install's metadata says
 * ("Bullet_Impact · Bullet_Impact_4.wav"). Two sources, read once:
 *  - every SoundbanksInfo.json/.xml, and each bank's own .json/.xml beside it (Event/X.bnk + X.json);
 *  - the AkAudioEvent assets under a Wwise Events folder, whose media lists (2021) or cooked data
 *    (2022+) name the media each event plays; the event is named by its asset.
 */
import type { Install } from '../../../install/install.js';
import type { Usmap } from '../../../usmap/types.js';
import type { InstallPackages } from '../../../package/open-package.js';
import { readWwiseAssets } from './audio-asset.js';
import { emptyNames, readSoundbanksInfo, type WwiseNames } from './names.js';

/** Metadata files bigger than this are skipped (the largest real ones are a few MiB). */
const MAX_METADATA = 64 * 1024 * 1024;
/** Event assets read at most: an install with more names the rest by metadata alone. */
const MAX_EVENT_ASSETS = 5000;

/**
 * A medium named by its id: "<id>.wem" anywhere, or "<id>.uasset" in a Media folder (an AkMediaAsset).
 * Asked of every path of a listing (`ls` of 250,000 files): the name is looked at before any pattern.
 */
export function mediumIdOfPath(path: string): number | undefined {
  const slash = path.lastIndexOf('/');
  const dot = path.lastIndexOf('.');
  if (dot <= slash + 1 || dot - slash - 1 > 10) return undefined;
  for (let i = slash + 1; i < dot; i++) {
    const c = path.charCodeAt(i);
    if (c < 48 || c > 57) return undefined;
  }
  const ext = path.slice(dot + 1).toLowerCase();
  if (ext === 'uasset' ? !/(?:^|\/)media\//i.test(path.slice(0, slash + 1)) : ext !== 'wem') return undefined;
  const id = Number(path.slice(slash + 1, dot));
  return id <= 0xffffffff ? id : undefined;
}

/**
 * Whether any file of the install is a medium named by id. Most installs have none: the tree's own
 * arrays and a look at each name's first character tell (tens of ms for 250,000 files, where
 * visiting every path in order took hundreds).
 */
export function hasMediaNamedById(install: Install): boolean {
  const tree = install.treeArrays();
  for (let id = 0; id < tree.fileCount; id++) {
    const name = tree.fileName(id);
    const c = name.charCodeAt(0);
    if (c < 48 || c > 57) continue;
    const folder = tree.folderPath(tree.fileFolder[id]!);
    if (mediumIdOfPath(folder ? `${folder}/${name}` : name) !== undefined) return true;
  }
  return false;
}

/**
 * What the install names of its Wwise media: events, the media each plays and original files,
 * from all its metadata and event assets. Empty (nothing read) when no medium is named by id.
 */
export async function installMediaNames(packages: InstallPackages, opts: { mappings?: Usmap; signal?: AbortSignal } = {}): Promise<WwiseNames> {
  const install = packages.install;
  const names = emptyNames();
  if (!hasMediaNamedById(install)) return names;

  const bankStems = new Set<string>();
  const files: { path: string; lower: string; archive: (typeof install.archives)[number]; ref: number }[] = [];
  install.visitFiles((f) => {
    const path = f.folder ? `${f.folder}/${f.name}` : f.name;
    const lower = path.toLowerCase();
    if (lower.endsWith('.bnk')) bankStems.add(lower.slice(0, -4));
    if (/\.(json|xml)$/.test(lower) || (lower.includes('wwise') && lower.includes('/events/') && lower.endsWith('.uasset'))) files.push({ path, lower, archive: f.archive, ref: f.ref });
  });

  let events = 0;
  for (const f of files) {
    opts.signal?.throwIfAborted();
    if (f.lower.endsWith('.uasset')) {
      if (events++ >= MAX_EVENT_ASSETS) continue;
      try {
        const { assets } = await readWwiseAssets({ packages, ref: f.path }, opts.mappings ? { mappings: opts.mappings } : {});
        for (const a of assets) {
          if (a.kind !== 'event') continue;
          const eventName = a.wwiseName ?? a.name;
          if (a.shortId !== null) names.events.set(a.shortId, eventName);
          for (const m of a.media) {
            const list = names.mediaEvents.get(m.id) ?? [];
            if (!list.includes(eventName)) list.push(eventName);
            names.mediaEvents.set(m.id, list);
          }
        }
      } catch {
        // An event asset that does not read names nothing; the metadata still may.
      }
      continue;
    }
    const name = f.lower.slice(f.lower.lastIndexOf('/') + 1);
    if (!name.startsWith('soundbanksinfo.') && !bankStems.has(f.lower.replace(/\.(json|xml)$/, ''))) continue;
    try {
      const bytes = await f.archive.read(f.ref);
      if (bytes.length <= MAX_METADATA) readSoundbanksInfo(new TextDecoder().decode(bytes), names);
    } catch {
      // Metadata that does not read names nothing.
    }
  }

  return names;
}

/** What the tree shows for medium `id`: the events that play it and its original file ("Bullet_Impact · Bullet_Impact_4.wav"). */
export function mediumLabel(names: WwiseNames, id: number): string | undefined {
  const events = names.mediaEvents.get(id) ?? [];
  const original = names.media.get(id)?.name.split(/[\\/]/).pop();
  const shown = events.length > 3 ? `${events.slice(0, 3).join(', ')} +${events.length - 3}` : events.join(', ');
  return [shown, original].filter((x) => x).join(' · ') || undefined;
}

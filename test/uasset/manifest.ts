// Reads corpus/MANIFEST.tsv: what each corpus file is, with the header fields its collector
// read (an independent reading the tests compare against).
import { readFileSync } from 'node:fs';
import { corpus } from '../support/corpus.js';

export interface ManifestEntry {
  path: string;
  /** The engine_game column: "UE5.4 (cooked, unversioned)", "UE4.27 NanosWorld", ... */
  engine: string;
  notes: string;
  /** key=value pairs after "||" (LegacyFileVersion=-7 ...), values as written. */
  fields: Map<string, string>;
}

let cache: Map<string, ManifestEntry> | undefined;

export function manifest(): Map<string, ManifestEntry> {
  if (cache) return cache;
  cache = new Map();
  const lines = readFileSync(corpus('MANIFEST.tsv'), 'utf8').split('\n').slice(1);
  for (const line of lines) {
    const cols = line.split('\t');
    if (cols.length < 9) continue;
    const path = cols[0]!, engine = cols[7]!, notes = cols[8]!;
    const fields = new Map<string, string>();
    const tail = notes.split('||')[1] ?? '';
    for (const m of tail.matchAll(/(\w+)(?:=|@)(\S+)/g)) fields.set(m[1]!, m[2]!);
    // "ThumbnailTable@5249 count=2 first=Blueprint:TestActorBP": keep the table's own fields apart.
    const thumb = /ThumbnailTable@(\d+) count=(\d+) first=(\S+)/.exec(tail);
    if (thumb) {
      fields.set('ThumbnailTable', thumb[1]!);
      fields.set('ThumbnailCount', thumb[2]!);
      fields.set('ThumbnailFirst', thumb[3]!);
    }
    cache.set(path, { path, engine, notes, fields });
  }
  return cache;
}

/** The leading integer of a manifest value ("522(4.27)" → 522, "0x00040000" → 0x40000). */
export function intField(e: ManifestEntry, key: string): number | undefined {
  const v = e.fields.get(key);
  if (v === undefined) return undefined;
  const m = /^(-?0x[0-9a-f]+|-?\d+)/i.exec(v);
  return m ? Number(m[1]) : undefined;
}

/**
 * Names for Wwise ids. Wwise makes an object's id from its name: the 32-bit FNV-1 hash of the
 * lowercased name (UTF-8), so an event id is named by any string that hashes to it, such as the
 * AkAudioEvent asset a game ships for it ("Play_Footstep.uasset"). The SoundbanksInfo metadata
 * (.json, or .xml before 2021) the Wwise project writes beside its banks, and that some games
 * ship, names events and their media's original files outright.
 */

/** Wwise's id of a name: FNV-1 (32-bit) of its lowercased UTF-8 bytes. */
export function wwiseId(name: string): number {
  let h = 0x811c9dc5;
  for (const byte of new TextEncoder().encode(name.toLowerCase())) h = (Math.imul(h, 0x01000193) ^ byte) >>> 0;
  return h;
}

export interface WwiseNames {
  /** Event id -> event name. */
  events: Map<number, string>;
  /** Medium id -> its original file's name ("Hit_01.wav") and where Wwise put it ("SFX\\Hit_01_3F75BDB9.wem"). */
  media: Map<number, { name: string; path?: string }>;
  /** Medium id -> the names of the events that play it, as the metadata lists them. */
  mediaEvents: Map<number, string[]>;
}

export const emptyNames = (): WwiseNames => ({ events: new Map(), media: new Map(), mediaEvents: new Map() });

/** Adds what a SoundbanksInfo.json or .xml names to `into`; text that is neither is ignored. */
export function readSoundbanksInfo(text: string, into: WwiseNames = emptyNames()): WwiseNames {
  const trimmed = text.replace(/^\uFEFF/, '').trimStart();
  if (trimmed.startsWith('{')) {
    let json: unknown;
    try { json = JSON.parse(trimmed); } catch { return into; }
    walkJson(json, into);
  } else if (trimmed.startsWith('<')) {
    readXml(trimmed, into);
  }
  return into;
}

const idOf = (v: unknown): number | undefined => {
  const n = typeof v === 'string' ? Number(v) : typeof v === 'number' ? v : NaN;
  return Number.isInteger(n) && n >= 0 && n <= 0xffffffff ? n : undefined;
};

/**
 * Events are objects with an Id, a Name and an ObjectPath under \Events\, their media listed by id
 * (IncludedMemoryFiles up to 2021, ExcludedMemoryFiles when the media are assets of their own,
 * MediaRefs from 2022); media have an Id and a ShortName.
 */
function walkJson(node: unknown, into: WwiseNames, depth = 0): void {
  if (depth > 64 || node === null || typeof node !== 'object') return;
  if (Array.isArray(node)) { for (const x of node) walkJson(x, into, depth + 1); return; }
  const o = node as Record<string, unknown>;
  const id = idOf(o['Id']);
  if (id !== undefined) {
    const objectPath = typeof o['ObjectPath'] === 'string' ? o['ObjectPath'] : '';
    if (typeof o['Name'] === 'string' && (/^\\Events\\/i.test(objectPath) || 'IncludedMemoryFiles' in o || 'ReferencedStreamedFiles' in o || 'DurationType' in o)) {
      into.events.set(id, o['Name']);
      for (const key of ['IncludedMemoryFiles', 'ExcludedMemoryFiles', 'ReferencedStreamedFiles', 'IncludedMedia', 'Media', 'MediaRefs']) {
        const files = o[key];
        if (!Array.isArray(files)) continue;
        for (const f of files) {
          const mediaId = idOf((f as Record<string, unknown> | null)?.['Id']);
          if (mediaId === undefined) continue;
          const list = into.mediaEvents.get(mediaId) ?? [];
          if (!list.includes(o['Name'])) list.push(o['Name']);
          into.mediaEvents.set(mediaId, list);
        }
      }
    } else if (typeof o['ShortName'] === 'string' && ('Path' in o || 'Language' in o) && !('IncludedEvents' in o) && !/\.bnk$/i.test(String(o['Path'] ?? ''))) {
      into.media.set(id, { name: o['ShortName'], ...(typeof o['Path'] === 'string' ? { path: o['Path'] } : {}) });
    }
  }
  for (const v of Object.values(o)) if (v && typeof v === 'object') walkJson(v, into, depth + 1);
}

const unescapeXml = (s: string): string => s.replace(/&lt;/g, '<').replace(/&gt;/g, '>').replace(/&quot;/g, '"').replace(/&apos;/g, "'").replace(/&amp;/g, '&');

function readXml(text: string, into: WwiseNames): void {
  for (const m of text.matchAll(/<Event\b[^>]*?\bId="(\d+)"[^>]*?\bName="([^"]*)"/g)) into.events.set(Number(m[1]), unescapeXml(m[2]!));
  for (const m of text.matchAll(/<Event\b[^>]*?\bName="([^"]*)"[^>]*?\bId="(\d+)"/g)) into.events.set(Number(m[2]), unescapeXml(m[1]!));
  for (const m of text.matchAll(/<File\b[^>]*?\bId="(\d+)"[^>]*>([\s\S]*?)<\/File>/g)) {
    const short = /<ShortName>([^<]*)<\/ShortName>/.exec(m[2]!)?.[1];
    const path = /<Path>([^<]*)<\/Path>/.exec(m[2]!)?.[1];
    if (short !== undefined && !/\.bnk$/i.test(path ?? '')) into.media.set(Number(m[1]), { name: unescapeXml(short), ...(path !== undefined ? { path: unescapeXml(path) } : {}) });
  }
}

/** Names events whose ids are the hash of one of `candidates` (asset names: "Play_Test"). */
export function nameEventsByHash(eventIds: Iterable<number>, candidates: Iterable<string>, into: WwiseNames): number {
  const wanted = new Set<number>();
  for (const id of eventIds) if (!into.events.has(id)) wanted.add(id);
  let named = 0;
  if (wanted.size === 0) return 0;
  for (const c of candidates) {
    const id = wwiseId(c);
    if (wanted.has(id)) { into.events.set(id, c); wanted.delete(id); named++; }
  }
  return named;
}

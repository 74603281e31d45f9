/**
 * A sequence's channel keys as CSV: one row per key, with the binding (empty for tracks of no
 * binding), track, section, channel, the key's tick (empty before UE4.20, which keys in
 * seconds), display-rate frame, seconds and value. Lines end with \r\n (RFC 4180).
 */
import { csvCell } from '../../export/file-list.js';
import type { SequenceAsset, SequenceTrack, SequenceTime } from './types.js';

export const SEQUENCE_CSV_HEADER = ['binding', 'track', 'section', 'channel', 'tick', 'frame', 'seconds', 'value'] as const;

/** A number as CSV text: up to 9 significant digits, no exponent noise for whole numbers. */
const numText = (v: number | null): string => (v === null ? '' : Number.isInteger(v) ? String(v) : String(Number(v.toPrecision(9))));

export function sequenceCsv(seq: SequenceAsset): string {
  const lines = [SEQUENCE_CSV_HEADER.join(',')];
  const add = (binding: string, track: SequenceTrack): void => {
    for (const s of track.sections) {
      for (const c of s.channels) {
        for (const k of c.keys) {
          const t: SequenceTime = k.time;
          const value = k.value === null ? '' : typeof k.value === 'number' ? numText(k.value) : String(k.value);
          lines.push([binding, track.displayName, s.name, c.name, numText(t.tick), numText(t.frame), numText(t.seconds), value].map(csvCell).join(','));
        }
      }
    }
  };
  for (const t of seq.tracks) add('', t);
  for (const b of seq.bindings) for (const t of b.tracks) add(b.name || b.guid, t);
  return `${lines.join('\r\n')}\r\n`;
}

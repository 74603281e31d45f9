/**
 * How the sequence view lays out its timeline: the span it shows (the playback range and every
 * bounded section), where a moment falls in it, the ruler's marks, and the rows (the tracks of
 * no binding, then each binding and its tracks).
 */
import type { SequenceAsset, SequenceBinding, SequenceRange, SequenceSection, SequenceTime, SequenceTrack } from '../../../shared/api.js';

export interface Span {
  /** Seconds at the left and right edges. */
  start: number;
  end: number;
}

/** The playback range and every section's bounded ends, in seconds (1 s when nothing is bounded). */
export function timelineSpan(s: SequenceAsset): Span {
  const times: number[] = [];
  const add = (r: SequenceRange): void => {
    if (r.start) times.push(r.start.seconds);
    if (r.end) times.push(r.end.seconds);
  };
  add(s.playbackRange);
  for (const t of allTracks(s)) for (const sec of t.sections) add(sec.range);
  if (times.length === 0) return { start: 0, end: 1 };
  // reduce, not Math.min(...): a sequence may have more bounds than a call has arguments.
  const start = times.reduce((a, b) => Math.min(a, b)), end = times.reduce((a, b) => Math.max(a, b));
  return end > start ? { start, end } : { start, end: start + 1 };
}

export const allTracks = (s: SequenceAsset): SequenceTrack[] => [...s.tracks, ...s.bindings.flatMap((b) => b.tracks)];

/** Where `seconds` falls in the span, 0..100 (clamped). */
export const percentAt = (span: Span, seconds: number): number => Math.min(100, Math.max(0, ((seconds - span.start) / (span.end - span.start)) * 100));

/** A section's bar: its left edge and width in percent of the span; an open bound reaches the span's edge. */
export function barOf(span: Span, r: SequenceRange): { left: number; width: number } {
  const left = percentAt(span, r.start ? r.start.seconds : span.start);
  const right = percentAt(span, r.end ? r.end.seconds : span.end);
  return { left, width: Math.max(0.4, right - left) };
}

/** Distinct key times of a section (seconds), at most `max` of them (a dense channel draws as a band of ticks anyway). */
export function keyTimes(sec: SequenceSection, max = 400): number[] {
  const set = new Set<number>();
  for (const c of sec.channels) for (const k of c.keys) if (set.size < max) set.add(k.time.seconds);
  return [...set].sort((a, b) => a - b);
}

/** Ruler marks: a round step in seconds giving about `target` marks over the span. */
export function rulerMarks(span: Span, target = 8): number[] {
  const raw = (span.end - span.start) / target;
  const pow = 10 ** Math.floor(Math.log10(raw));
  const step = [1, 2, 5, 10].map((m) => m * pow).find((x) => x >= raw) ?? raw;
  const out: number[] = [];
  for (let t = Math.ceil(span.start / step) * step; t <= span.end + 1e-9 && out.length < 100; t += step) out.push(Number(t.toPrecision(12)));
  return out;
}

const num = (v: number, digits = 3): string => String(Math.round(v * 10 ** digits) / 10 ** digits);

/** "frame 12 · 0.5 s"; "open" for an open bound. */
export function timeText(t: SequenceTime | null): string {
  if (!t) return 'open';
  return `${t.frame !== null ? `frame ${num(t.frame)} · ` : ''}${num(t.seconds)} s`;
}

/** "24000/s" or "30000/1001". */
export const rateText = (r: { numerator: number; denominator: number } | null): string =>
  (r ? (r.denominator === 1 ? `${r.numerator}` : `${r.numerator}/${r.denominator}`) : '—');

export type TimelineRow =
  | { kind: 'group'; id: string; label: string; binding?: SequenceBinding }
  | { kind: 'track'; id: string; track: SequenceTrack; indent: boolean };

/** The rows the timeline draws: the tracks of no binding, then each binding's header and tracks. */
export function timelineRows(s: SequenceAsset): TimelineRow[] {
  const rows: TimelineRow[] = [];
  for (const t of s.tracks) rows.push({ kind: 'track', id: t.path, track: t, indent: false });
  for (const b of s.bindings) {
    rows.push({ kind: 'group', id: `binding:${b.guid}`, label: b.name || b.guid, binding: b });
    for (const t of b.tracks) rows.push({ kind: 'track', id: t.path, track: t, indent: true });
  }
  return rows;
}

/** A section's label on its bar: the sequence it plays, the camera it cuts to, its parameters, else its class. */
export function sectionLabel(sec: SequenceSection): string {
  if (sec.subSequence) return sec.subSequence.slice(sec.subSequence.lastIndexOf('.') + 1);
  if (sec.cameraName ?? sec.cameraBinding) return sec.cameraName ?? sec.cameraBinding!;
  if (sec.parameters?.length) return sec.parameters.join(', ');
  return sec.class.replace(/^MovieScene/, '').replace(/Section$/, '');
}

/** Rows a track's bars stack on (its highest RowIndex + 1, at most 8 drawn apart). */
export const laneRows = (t: SequenceTrack): number => Math.min(8, Math.max(1, ...t.sections.map((x) => x.row + 1)));

/** "/Game/Maps/M.M:PersistentLevel.Cam" -> "M" (the package, which is what a link opens). */
export const packageLabel = (path: string): string => path.slice(path.lastIndexOf('/') + 1).split(/[.:]/)[0] ?? path;
/** "/Game/Maps/M.M:PersistentLevel.Cam" -> "Cam". */
export const objectLabel = (path: string): string => path.slice(Math.max(path.lastIndexOf('.'), path.lastIndexOf(':')) + 1);

/** Words and numbers of the Export dialog: what is selected, rates and durations. */
import type { TreeEntry } from '../../../shared/api.js';
import { formatSize, plural } from './format.js';

/** "AC_Fixture.uasset", "Animations/ and 2 more", "everything in view" (+ the filter). */
export function selectionLabel(entries: readonly TreeEntry[], filter: string | undefined): string {
  const matching = filter ? ` matching “${filter}”` : '';
  if (entries.length === 0) return filter ? `all files${matching}` : 'the whole install';
  const first = entries[0]!;
  const name = first.isDir ? `${first.name}/` : first.name;
  if (entries.length === 1) return `${name}${first.isDir ? matching : ''}`;
  const folders = entries.filter((e) => e.isDir).length;
  const files = entries.length - folders;
  const parts = [folders ? plural(folders, 'folder') : '', files ? plural(files, 'file') : ''].filter(Boolean);
  return `${parts.join(' and ')} selected${folders ? matching : ''}`;
}

export function formatRate(bytesPerSecond: number): string {
  if (!(bytesPerSecond > 0)) return '— /s';
  return `${formatSize(Math.round(bytesPerSecond))}/s`;
}

/** 0.4 s, 12 s, 3 min 05 s, 1 h 02 min. */
export function formatDuration(seconds: number): string {
  if (!Number.isFinite(seconds) || seconds < 0) return '—';
  if (seconds < 10) return `${seconds.toFixed(1)} s`;
  const s = Math.round(seconds);
  if (s < 60) return `${s} s`;
  if (s < 3600) return `${Math.floor(s / 60)} min ${String(s % 60).padStart(2, '0')} s`;
  return `${Math.floor(s / 3600)} h ${String(Math.floor((s % 3600) / 60)).padStart(2, '0')} min`;
}

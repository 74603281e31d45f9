/**
 * The selected files as a list: CSV (RFC 4180, one header row) or JSON (the shape of
 * `pakscope ls --json`). Columns: path, size, container, chunkId, chunkType.
 */
import { basename } from 'node:path';
import type { Install } from '../install/install.js';
import { selectFiles } from './selection.js';
import type { ExportSelection } from './types.js';

export type FileListFormat = 'csv' | 'json';

interface FileListRow { path: string; size: number; container: string; chunkId: string | null; chunkType: string | null }

/** The list as text; `selection` as for extractFiles (a plain list of paths is `{paths}`). */
export function exportFileList(install: Install, selection: ExportSelection | readonly string[], format: FileListFormat): string {
  const sel: ExportSelection = Array.isArray(selection) ? { paths: selection as readonly string[] } : selection as ExportSelection;
  const rows: FileListRow[] = selectFiles(install, sel).files.map((f) => {
    const { archive, file } = f.providers[0]!;
    return { path: f.path, size: f.size, container: basename(archive.path), chunkId: file.chunkId ?? null, chunkType: file.chunkType ?? null };
  });
  // One file per line, as `ls --json` prints it.
  if (format === 'json') return rows.length === 0 ? '{"files":[]}\n' : `{"files":[\n${rows.map((r) => JSON.stringify(r)).join(',\n')}\n]}\n`;
  if (format !== 'csv') throw new TypeError(`format must be 'csv' or 'json', not ${String(format)}`);
  const lines = ['path,size,container,chunkId,chunkType'];
  for (const r of rows) lines.push([r.path, String(r.size), r.container, r.chunkId ?? '', r.chunkType ?? ''].map(csvCell).join(','));
  return `${lines.join('\r\n')}\r\n`;
}

/**
 * One CSV cell: quoted when it holds a comma, quote or line break. A text cell a spreadsheet
 * would run as a formula (=, +, -, @ first) gets a leading apostrophe: archive names are input.
 */
export function csvCell(v: string): string {
  let s = v;
  if (/^[=+\-@\t\r]/.test(s) && !/^-?\d+(\.\d+)?$/.test(s)) s = `'${s}`;
  return /[",\r\n]/.test(s) ? `"${s.replace(/"/g, '""')}"` : s;
}

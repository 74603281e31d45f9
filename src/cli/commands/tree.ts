/** `pakscope tree <path>`: the merged folder tree with file counts and sizes per folder. */
import type { DirListingEntry, Install } from '../../core/install/install.js';
import { JSON_OPTION, type Command } from '../command.js';
import { largestEntries, SizeMap } from '../../core/install/size-map.js';
import { formatSize, plural } from '../../shared/format.js';
import type { Output } from '../output.js';
import { UsageError } from '../usage-error.js';

export const treeCommand: Command = {
  name: 'tree',
  args: '<path...>',
  summary: 'Draw the folder tree with file counts and total sizes per folder',
  description: [
    'Draws the merged mount-point tree: every folder with the number and total size of the',
    'files below it, and every file with its size. --depth N stops after N levels; the folders',
    'at the last level still show the totals of everything below them.',
    '--top N prints instead the N largest files and the N largest folders, each with its size and',
    'what it takes stored in its container (compressed); --json prints them as',
    '{"files":[{"path","size","stored"}],"folders":[{"path","size","stored","fileCount"}]}.',
  ].join('\n'),
  examples: ['pakscope tree Game/Content/Paks --depth 2', 'pakscope tree Game/Content/Paks --top 20'],
  options: {
    depth: { type: 'string', usage: '--depth N', help: 'Show N levels (1 = the top level only).' },
    top: { type: 'string', usage: '--top N', help: 'Print the N largest files and folders instead.' },
    json: JSON_OPTION,
  },
  positionals: { min: 1, max: Infinity },

  async run(session, paths, values) {
    const depth = parseDepth(values['depth']);
    const top = values['top'] === undefined ? undefined : parseCount(values['top']);
    if (top === undefined && session.json) throw new UsageError('--json goes with --top N', 'tree');
    const install = await session.open(paths);
    if (!install) return;
    try {
      const out = session.out;
      if (top !== undefined) {
        const largest = largestEntries(new SizeMap(install.treeArrays()), top);
        if (session.json) {
          await out.line(JSON.stringify(largest));
          return;
        }
        await out.line(`Largest files of ${paths.join(' ')}:`);
        for (const f of largest.files) await out.line(`  ${sizeColumn(f.size)}  ${sizeColumn(f.stored)} stored  ${f.path}`);
        await out.line('Largest folders:');
        for (const f of largest.folders) await out.line(`  ${sizeColumn(f.size)}  ${sizeColumn(f.stored)} stored  ${f.path}/ (${plural(f.fileCount, 'file')})`);
        return;
      }
      await out.line(`${paths.join(' ')} (${totals(install.fileCount, install.totalSize)})`);
      await drawFolder(out, install, '', '', 1, depth);
    } finally {
      await install.close();
    }
  },
};

function parseDepth(v: unknown): number {
  if (v === undefined) return Infinity;
  const s = String(v);
  if (!/^\d+$/.test(s) || Number(s) < 1) throw new UsageError(`--depth takes a whole number of levels, 1 or more, not "${s}"`, 'tree');
  return Number(s);
}

function parseCount(v: unknown): number {
  const s = String(v);
  if (!/^\d+$/.test(s) || Number(s) < 1) throw new UsageError(`--top takes a whole number, 1 or more, not "${s}"`, 'tree');
  return Number(s);
}

function sizeColumn(n: number): string {
  return formatSize(n).padStart(10);
}

function totals(files: number, size: number): string {
  return `${plural(files, 'file')}, ${formatSize(size)}`;
}

async function drawFolder(out: Output, install: Install, path: string, indent: string, level: number, depth: number): Promise<void> {
  const entries: DirListingEntry[] = install.listDir(path);
  for (const [i, e] of entries.entries()) {
    const last = i === entries.length - 1;
    const label = e.isDir ? `${e.name}/ (${totals(e.fileCount, e.size)})` : `${e.name} (${formatSize(e.size)})`;
    await out.line(`${indent}${last ? '└── ' : '├── '}${label}`);
    if (e.isDir && level < depth) await drawFolder(out, install, e.path, `${indent}${last ? '    ' : '│   '}`, level + 1, depth);
  }
}

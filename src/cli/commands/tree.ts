/** `pakscope tree <path>`: the merged folder tree with file counts and sizes per folder. */
import type { DirListingEntry, Install } from '../../core/install/install.js';
import type { Command } from '../command.js';
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
  ].join('\n'),
  examples: ['pakscope tree Game/Content/Paks --depth 2'],
  options: {
    depth: { type: 'string', usage: '--depth N', help: 'Show N levels (1 = the top level only).' },
  },
  positionals: { min: 1, max: Infinity },

  async run(session, paths, values) {
    const depth = parseDepth(values['depth']);
    const install = await session.open(paths);
    if (!install) return;
    try {
      const out = session.out;
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

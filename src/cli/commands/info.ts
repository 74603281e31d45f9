/**
 * `pakscope info <container>`: what a container is, from Archive.describe(). A second argument
 * names a package inside the path (`info <path> <package>`), answered by the package view.
 */
import type { Archive } from '../../core/archive.js';
import { JSON_OPTION, type Command } from '../command.js';
import type { Session } from '../session.js';
import { UsageError } from '../usage-error.js';

export const infoCommand: Command = {
  name: 'info',
  args: '<container>',
  summary: 'Describe a container: TOC version, flags, codecs, mount point, encryption',
  description: [
    'Describes one container (.utoc or .pak): format version, flags, entry and file counts,',
    'block size, the codecs its blocks use with their counts, mount point, encryption key GUID',
    'and method, and partitions. An encrypted container is described without its key.',
    '',
    '--json prints {"kind","path","status","fields":{...}} with the same facts.',
  ].join('\n'),
  examples: ['pakscope info pakchunk0-Windows.utoc', 'pakscope info pakchunk0-Windows.pak --json'],
  options: { json: JSON_OPTION },
  positionals: { min: 1, max: 2 },

  async run(session, args) {
    if (args.length === 2) return infoPackage(session, args[0]!, args[1]!);
    const [path] = args as [string];
    await session.requireFile(path, 'info');
    const install = await session.open([path], { lockedIs: 'warning' });
    if (!install) return;
    try {
      for (const archive of install.archives) await printDescription(session, archive);
    } finally {
      await install.close();
    }
  },
};

async function printDescription(session: Session, archive: Archive): Promise<void> {
  const d = archive.describe();
  const out = session.out;
  if (session.json) {
    await out.line(JSON.stringify({ kind: d.kind, path: d.path, status: archive.status, fields: d.fields }, null, 2));
    return;
  }
  const rows: [string, string][] = [['Kind', d.kind], ['Status', statusText(archive)]];
  for (const [label, value] of Object.entries(d.fields)) rows.push([label, value === null ? '-' : String(value)]);
  const width = Math.max(...rows.map(([l]) => l.length));
  await out.line(d.path);
  for (const [label, value] of rows) await out.line(`  ${label.padEnd(width)}  ${value}`);
}

function statusText(a: Archive): string {
  return a.status.state === 'ok' ? 'ok' : `${a.status.state}: ${a.status.message}`;
}

/** `info <path> <package>`: the package view (summary, names, imports, exports) is not written yet. */
async function infoPackage(_session: Session, _path: string, pkg: string): Promise<void> {
  throw new UsageError(`package view not supported yet (info ${pkg})`, 'info');
}

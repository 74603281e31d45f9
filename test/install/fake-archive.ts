// A fake Archive for install tests: files with paths and sizes, no bytes behind them.
import type { Archive, ArchiveFile, ArchiveStatus } from '../../src/core/archive.js';

export function fakeArchive(path: string, files: [string, number][], status: ArchiveStatus = { state: 'ok' }): Archive & { closed: boolean } {
  const list: ArchiveFile[] = files.map(([p, size], ref) => ({ path: p, size, ref }));
  const name = path.replace(/^.*\//, '').replace(/\.[^.]*$/, '');
  return {
    kind: path.endsWith('.pak') ? 'pak' : 'iostore',
    path,
    name,
    mountPoint: '',
    status,
    closed: false,
    files: () => list,
    read: async (ref) => new TextEncoder().encode(`${name}:${list[ref]!.path}`),
    storage: (ref) => ({ offset: 0, size: list[ref]!.size, compressedSize: list[ref]!.size, codecs: { None: 1 }, encrypted: false }),
    verify: async () => null,
    describe: () => ({ kind: 'iostore', path, fields: {} }),
    async close() { this.closed = true; },
  };
}

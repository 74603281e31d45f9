/**
 * `pakscope cat <path> <file>`: one file's bytes on stdout, decrypted and decompressed, exactly as
 * the container holds them (a Zen package is its ExportBundleData chunk, unconverted).
 */
import type { Archive } from '../../core/archive.js';
import { IoStoreContainer } from '../../core/iostore/container.js';
import { PakArchive } from '../../core/pak/pak-archive.js';
import { createWorkerPool } from '../../core/workers/pool.js';
import type { Command } from '../command.js';
import type { Output } from '../output.js';
import { EXIT_BAD_INPUT } from '../session.js';

/** Big chunks are read and written in pieces of this size, so memory stays flat. */
const PIECE = 16 * 1024 * 1024;

export const catCommand: Command = {
  name: 'cat',
  args: '<path> <file>',
  summary: 'Write one file\'s bytes to stdout, decompressed and decrypted',
  description: [
    'Writes the bytes of <file> (a path as ls prints it, case-insensitive) to stdout, decrypted',
    'and decompressed, exactly as the container stores them: an IoStore package is its',
    'ExportBundleData chunk, not converted to .uasset/.uexp.',
  ].join('\n'),
  examples: ['pakscope cat pakchunk0-Windows.utoc Game/Config/DefaultGame.ini', 'pakscope cat Paks Game/Content/Maps/Level.umap > Level.umap'],
  options: {},
  positionals: { min: 2, max: 2 },

  async run(session, args) {
    const [root, path] = args as [string, string];
    const pool = createWorkerPool();
    try {
      const install = await session.open([root], { decoder: pool });
      if (!install) return;
      try {
        const file = install.file(path);
        if (!file) {
          session.out.error(`${path}: no such file in ${root} (pakscope ls ${root} lists them)`);
          session.fail(EXIT_BAD_INPUT);
          return;
        }
        const { archive, file: entry } = file.providers[0]!;
        await writeFile(session.out, archive, entry.ref, entry.size);
      } finally {
        await install.close();
      }
    } finally {
      await pool.destroy();
    }
  },
};

async function writeFile(out: Output, archive: Archive, ref: number, size: number): Promise<void> {
  // A pak entry over 2 GiB cannot be one read (PakArchive.read refuses it): read both kinds in pieces.
  const readRange = archive instanceof IoStoreContainer ? archive.readChunkRange.bind(archive)
    : archive instanceof PakArchive ? archive.readRange.bind(archive) : undefined;
  if (readRange && size > PIECE) {
    const readPiece = (at: number): Promise<Uint8Array> => {
      const p = readRange(ref, at, PIECE);
      p.catch(() => undefined); // awaited below; this only keeps a failure during a write from going unhandled
      return p;
    };
    // Read ahead one piece while the last one is written.
    let next = readPiece(0);
    for (let at = 0; at < size; at += PIECE) {
      const piece = await next;
      if (at + PIECE < size) next = readPiece(at + PIECE);
      await out.bytes(piece);
    }
    return;
  }
  await out.bytes(await archive.read(ref));
}

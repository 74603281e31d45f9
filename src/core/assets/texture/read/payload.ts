/**
 * The files a texture's bytes can be in, read by byte range so that a mip is read only when it is
 * wanted: the export's own data (already in memory), a .ubulk/.uptnl/.m.ubulk of a classic
 * package (in a pak, a loose folder or on disk) or a Zen package's BulkData chunks.
 */
import { open } from 'node:fs/promises';
import type { VfsFile } from '../../../install/install.js';
import { LooseFolderArchive } from '../../../install/loose-folder.js';
import { IoStoreContainer } from '../../../iostore/container.js';
import { PakArchive } from '../../../pak/pak-archive.js';

export interface PayloadFile {
  /** For messages: the path as `ls` prints it, or the file on disk. */
  readonly name: string;
  readonly size: number;
  /** `length` bytes from `offset` (fewer when the file ends first). */
  read(offset: number, length: number, signal?: AbortSignal): Promise<Uint8Array>;
}

/** Bytes already in memory (the export data of a package read whole). */
export function memoryPayload(name: string, bytes: Uint8Array): PayloadFile {
  return {
    name, size: bytes.length,
    read: async (offset, length) => bytes.subarray(Math.min(offset, bytes.length), Math.min(bytes.length, offset + length)),
  };
}

/** A file on disk, read by range. */
export function diskPayload(path: string, size: number, name = path): PayloadFile {
  return {
    name, size,
    read: async (offset, length, signal) => {
      signal?.throwIfAborted();
      const n = Math.max(0, Math.min(length, size - offset));
      const out = new Uint8Array(n);
      if (n === 0) return out;
      const fh = await open(path, 'r');
      try {
        let done = 0;
        while (done < n) {
          const { bytesRead } = await fh.read(out, done, n - done, offset + done);
          if (bytesRead === 0) break;
          done += bytesRead;
        }
        return done === n ? out : out.subarray(0, done);
      } finally {
        await fh.close();
      }
    },
  };
}

/** A file of an install: pak entries and IoStore chunks decode only the blocks a range covers. */
export function installPayload(file: VfsFile): PayloadFile {
  const { archive, file: entry } = file.providers[0]!;
  if (archive instanceof IoStoreContainer) {
    return { name: file.path, size: file.size, read: (o, l, s) => archive.readChunkRange(entry.ref, o, l, s) };
  }
  if (archive instanceof PakArchive) {
    return { name: file.path, size: file.size, read: (o, l, s) => archive.readRange(entry.ref, o, l, s) };
  }
  if (archive instanceof LooseFolderArchive) return diskPayload(archive.diskPath(entry.ref), file.size, file.path);
  let whole: Promise<Uint8Array> | undefined;
  return {
    name: file.path, size: file.size,
    read: async (o, l, s) => {
      whole ??= archive.read(entry.ref, s);
      const b = await whole;
      return b.subarray(Math.min(o, b.length), Math.min(b.length, o + l));
    },
  };
}

/** An IoStore chunk by its entry. */
export function chunkPayload(container: IoStoreContainer, entry: number, name: string): PayloadFile {
  return { name, size: container.chunkSize(entry), read: (o, l, s) => container.readChunkRange(entry, o, l, s) };
}

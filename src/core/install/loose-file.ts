/**
 * A file on disk given as an install path by itself (a .uasset, .umap, .uexp, ...): an archive
 * holding that one file under its own name, so `ls`, `cat` and the app treat it like any other.
 * Below a Content folder the name keeps the folders from the one above Content, as a loose
 * folder's files do ("MyProject/Content/Maps/A.umap").
 */
import { readFile, stat } from 'node:fs/promises';
import { basename, dirname, extname } from 'node:path';
import type { Archive, ArchiveDescription, ArchiveFile, FileStorage, HashCheck } from '../archive.js';
import { contentFolderMountPath } from './loose-folder.js';

export class LooseFileArchive implements Archive {
  readonly kind = 'loose' as const;
  readonly name: string;
  readonly mountPoint = '';
  readonly status = { state: 'ok' } as const;
  private readonly list: readonly ArchiveFile[];

  private constructor(readonly path: string, private readonly size: number) {
    const file = basename(path);
    this.name = file.slice(0, file.length - extname(file).length);
    const folder = contentFolderMountPath(dirname(path));
    this.list = [{ path: folder ? `${folder}/${file}` : file, size, ref: 0 }];
  }

  static async open(path: string): Promise<LooseFileArchive> {
    const s = await stat(path);
    if (!s.isFile()) throw Object.assign(new Error(`${path}: not a file`), { code: 'EISDIR' });
    return new LooseFileArchive(path, s.size);
  }

  files(): readonly ArchiveFile[] { return this.list; }

  /** Where the file is on disk. */
  diskPath(ref: number): string {
    this.check(ref);
    return this.path;
  }

  async read(ref: number, signal?: AbortSignal): Promise<Uint8Array> {
    this.check(ref);
    return new Uint8Array(await readFile(this.path, { signal }));
  }

  storage(ref: number): FileStorage {
    this.check(ref);
    return { offset: 0, size: this.size, compressedSize: this.size, codecs: {}, encrypted: false };
  }

  /** A loose file stores no hash to check against. */
  async verify(ref: number): Promise<HashCheck | null> {
    this.check(ref);
    return null;
  }

  describe(): ArchiveDescription {
    return { kind: 'loose', path: this.path, fields: { Size: this.size } };
  }

  async close(): Promise<void> {}

  private check(ref: number): void {
    if (ref !== 0) throw new RangeError(`${this.path}: a loose file has only entry 0, not ${ref}`);
  }
}

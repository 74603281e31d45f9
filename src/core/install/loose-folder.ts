/**
 * The loose package files a folder scan found below one root folder (a project's Content folder,
 * a UT99 install's Maps/ Textures/ System/): one archive holding them all, so they show in the
 * tree next to the containers and `ls`, `cat`, `info` treat them like any other file.
 *
 * Where they show: a file below a Content folder keeps the folder above it, as the engine's paths
 * do ("MyProject/Content/Maps/A.umap", which names the package /Game/Maps/A); anything else sits
 * at its path relative to the root ("Maps/DM-Deck16.unr").
 */
import { readFile, stat } from 'node:fs/promises';
import { basename, relative, resolve } from 'node:path';
import type { Archive, ArchiveDescription, ArchiveFile, FileStorage, HashCheck } from '../archive.js';

/** Files stat'ed at once while opening: a Content folder may hold tens of thousands. */
const STAT_CONCURRENCY = 16;

function segments(path: string): string[] {
  return resolve(path).split(/[\\/]+/).filter((s) => s !== '');
}

/**
 * The tree path of the folder itself when it is, or lies below, a Content folder:
 * "/p/MyProject/Content/Maps" → "MyProject/Content/Maps"; '' otherwise.
 */
export function contentFolderMountPath(folder: string): string {
  const parts = segments(folder);
  const content = parts.map((p) => p.toLowerCase()).lastIndexOf('content');
  return content >= 1 ? parts.slice(content - 1).join('/') : '';
}

/** The tree path of a file found below `root` (see the module comment). */
export function looseMountPath(root: string, file: string): string {
  const rel = relative(resolve(root), resolve(file)).split(/[\\/]+/).join('/');
  const base = contentFolderMountPath(root);
  if (base) return `${base}/${rel}`;
  // The root holds a Content folder (a project folder): keep the root's name above it.
  if (/^content\//i.test(rel)) return `${basename(resolve(root))}/${rel}`;
  return rel;
}

export class LooseFolderArchive implements Archive {
  readonly kind = 'loose' as const;
  readonly name: string;
  readonly mountPoint: string;
  readonly status = { state: 'ok' } as const;
  private readonly totalSize: number;

  private constructor(
    /** The root folder. */
    readonly path: string,
    private readonly list: readonly ArchiveFile[],
    /** Absolute paths on disk, by ref. */
    private readonly diskPaths: readonly string[],
  ) {
    this.name = basename(resolve(path));
    this.mountPoint = contentFolderMountPath(path);
    this.totalSize = list.reduce((s, f) => s + f.size, 0);
  }

  /** @param files the loose files below `root`, as the scan found them (each once). */
  static async open(root: string, files: readonly string[]): Promise<LooseFolderArchive> {
    const sizes = new Array<number>(files.length);
    let next = 0;
    const worker = async (): Promise<void> => {
      while (next < files.length) {
        const i = next++;
        sizes[i] = (await stat(files[i]!)).size;
      }
    };
    await Promise.all(Array.from({ length: Math.min(STAT_CONCURRENCY, files.length) }, worker));
    const list = files.map((f, ref) => ({ path: looseMountPath(root, f), size: sizes[ref]!, ref }));
    return new LooseFolderArchive(root, list, [...files]);
  }

  files(): readonly ArchiveFile[] { return this.list; }

  /** Where a file of this archive is on disk. */
  diskPath(ref: number): string {
    this.check(ref);
    return this.diskPaths[ref]!;
  }

  async read(ref: number, signal?: AbortSignal): Promise<Uint8Array> {
    return new Uint8Array(await readFile(this.diskPath(ref), { signal }));
  }

  storage(ref: number): FileStorage {
    this.check(ref);
    const size = this.list[ref]!.size;
    return { offset: 0, size, compressedSize: size, codecs: {}, encrypted: false };
  }

  /** Loose files store no hash to check against. */
  async verify(ref: number): Promise<HashCheck | null> {
    this.check(ref);
    return null;
  }

  describe(): ArchiveDescription {
    return {
      kind: 'loose',
      path: this.path,
      fields: { Files: this.list.length, Size: this.totalSize, 'Mount path': this.mountPoint || null },
    };
  }

  async close(): Promise<void> {}

  private check(ref: number): void {
    if (!Number.isInteger(ref) || ref < 0 || ref >= this.list.length) {
      throw new RangeError(`${this.path}: no loose file ${ref} (the folder has ${this.list.length})`);
    }
  }
}

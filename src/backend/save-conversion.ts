/**
 * Saves one asset converted (a texture as .png, .dds or .hdr) to a file the user named. The
 * destination is held to export's rules (export.ts): an absolute path without control
 * characters, outside the folders the install was opened from and those holding its containers,
 * and in Electron only a path picked in the save dialog. An existing file is replaced only when
 * asked (the save dialog asked already), through a temporary file and a rename.
 */
import { randomUUID } from 'node:crypto';
import { open, rename, stat, unlink } from 'node:fs/promises';
import { basename, dirname, isAbsolute, join, resolve } from 'node:path';
import { isInside } from '../core/export/safe-path.js';
import type { Install } from '../core/install/install.js';
import type { SaveConversionRequest, SavedConversion } from '../shared/asset-api.js';
import { containerFolders, DestinationError } from './export.js';

export class SaveService {
  private readonly picked = new Set<string>();

  /** pickedOnly: Electron, where a destination must come from the save dialog. */
  constructor(private readonly pickedOnly: boolean) {}

  /** A file the user chose in the save dialog: a conversion may be written there. */
  notePicked(path: string | null): string | null {
    if (path) this.picked.add(resolve(path));
    return path;
  }

  /** Checks the destination (see the file comment) and answers it absolute and normalized. */
  async destination(install: Install, req: Pick<SaveConversionRequest, 'destination' | 'format'>): Promise<string> {
    const text = req.destination.trim();
    if (text === '') throw new DestinationError('choose a file to save to');
    if (/[\u0000-\u001f\u007f]/.test(text)) throw new DestinationError('the file name has a control character in it');
    if (!isAbsolute(text)) throw new DestinationError(`the file must be an absolute path (like ${process.platform === 'win32' ? 'C:\\Export\\T_Rock.png' : '/home/you/T_Rock.png'}), not "${text}"`);
    const file = resolve(text);
    if (this.pickedOnly && !this.picked.has(file)) throw new DestinationError(`${file} was not chosen in the save dialog`);
    if (!basename(file).toLowerCase().endsWith(`.${req.format}`)) throw new DestinationError(`${basename(file)}: a ${req.format.toUpperCase()} file's name ends in .${req.format}`);
    const dir = dirname(file);
    for (const root of install.roots.map((r) => resolve(r))) {
      const isFolder = await stat(root).then((s) => s.isDirectory(), () => false);
      if ((isFolder && isInside(root, file)) || root === file) throw new DestinationError(`${file} is inside the install (${root}): choose a folder outside it`);
    }
    for (const container of containerFolders(install)) {
      if (isInside(container, file) || container === dir) throw new DestinationError(`${dir} holds containers of this install: choose another folder`);
    }
    const parent = await stat(dir).catch(() => null);
    if (!parent?.isDirectory()) throw new DestinationError(`${dir} is not a folder`);
    return file;
  }

  /** Writes `bytes` to the checked `file`; an existing file only with conflict 'overwrite'. */
  async write(file: string, bytes: Uint8Array, conflict: SaveConversionRequest['conflict']): Promise<SavedConversion> {
    const existing = await stat(file).catch(() => null);
    if (existing?.isDirectory()) throw new DestinationError(`${file} is a folder`);
    if (existing && conflict !== 'overwrite') throw new DestinationError(`${file} exists already: choose another name, or overwrite it`);
    // Written beside it first, then renamed: a failed save leaves no half file.
    const tmp = join(dirname(file), `.${basename(file)}.${randomUUID()}.partial`);
    const h = await open(tmp, 'wx', 0o644);
    try {
      await h.writeFile(bytes);
    } catch (e) {
      await h.close().catch(() => undefined);
      await unlink(tmp).catch(() => undefined);
      throw e;
    }
    await h.close();
    try {
      await rename(tmp, file);
    } catch (e) {
      await unlink(tmp).catch(() => undefined);
      throw e;
    }
    return { path: file, bytes: bytes.length };
  }
}

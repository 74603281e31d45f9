/**
 * Which paths the page may have the backend open. The page shows strings from game files, so a
 * script that should not run there must still not read the user's files through the API: only
 * paths the user gave are opened. The user gives a path by picking it in a native dialog,
 * dropping it on the window, passing it on the command line (or a second launch, a file
 * association), having it in the recent list, or, where there is no dialog (the browser host),
 * by typing it in the page's own path field and confirming. A path asked for otherwise is refused
 * with the same answer whether it exists or not, before the disk is asked anything.
 */
import { stat } from 'node:fs/promises';
import { resolve } from 'node:path';
import { RequestError } from './request-error.js';

/** The page asked for a path the user did not give: it may ask again with `confirmed` once the user agreed (browser host). */
export class NeedsConfirmation extends RequestError {
  constructor(message: string) {
    super(message, 403);
    this.name = 'NeedsConfirmation';
  }
}

/** What a path is for, in messages and confirmations. */
export type PathUse = 'install' | 'mappings';

export interface PathGrantOptions {
  /** Electron: a native question the page cannot answer for the user; true when they agreed. */
  confirm?: (path: string, use: PathUse) => Promise<boolean>;
  /** Tests: every path counts as given by the user. */
  anyPath?: boolean;
}

export class PathGrants {
  private readonly granted = new Set<string>();

  constructor(private readonly opts: PathGrantOptions = {}) {}

  /** A path the user gave (a dialog's answer, a drop, the command line); null and "" are ignored. Answers `path`. */
  grant<T extends string | null>(path: T): T {
    if (path) this.granted.add(resolve(path));
    return path;
  }

  has(path: string): boolean {
    return this.opts.anyPath === true || this.granted.has(resolve(path));
  }

  /**
   * Resolves when `path` may be opened: given already (or one of `known`, such as the recent
   * list), confirmed in the native question (Electron), or confirmed in the page where there is
   * no native question (`confirmed`, the browser host). Otherwise throws NeedsConfirmation.
   */
  async permit(path: string, use: PathUse, confirmed: boolean, known: () => Promise<readonly string[]>): Promise<void> {
    const abs = resolve(path);
    if (this.has(abs) || (await known()).some((k) => resolve(k) === abs)) return;
    if (this.opts.confirm) {
      if (await this.opts.confirm(abs, use)) {
        this.grant(abs);
        return;
      }
    } else if (confirmed) {
      this.grant(abs);
      return;
    }
    const what = use === 'install' ? 'a game folder or container' : 'a mappings file';
    throw new NeedsConfirmation(`${abs} was not chosen by you: PakScope opens ${what} only when you pick it, drop it on the window, ` +
      `pass it on the command line or confirm the path you typed`);
  }
}

/**
 * Refuses what is missing (404) or neither a folder nor a regular file (a device such as
 * /dev/zero, a pipe, a socket: 400) before anything reads it.
 */
export async function checkOpenable(path: string): Promise<void> {
  const s = await stat(path).catch(() => null);
  if (!s) throw new RequestError(`cannot open ${path}: no such file or folder`, 404);
  if (!s.isDirectory() && !s.isFile()) {
    throw new RequestError(`${path} is not a folder or a regular file (a device, a pipe or a socket cannot be opened)`);
  }
}

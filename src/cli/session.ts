/**
 * What every command shares: the parsed common options, the output, the AES keys, and the exit
 * code the run has earned so far. Opening an install here reports its problems the same way for
 * every command: warnings for containers that list but cannot be read, errors for those that
 * cannot be read at all.
 */
import { stat } from 'node:fs/promises';
import { basename } from 'node:path';
import type { KeyRing } from '../core/crypto/keys.js';
import type { BlockDecoder } from '../core/workers/block-job.js';
import { openInstall, type Install, type InstallProblem, type VfsFile } from '../core/install/install.js';
import type { Output } from './output.js';
import { UsageError } from './usage-error.js';

export const EXIT_OK = 0;
/** PakScope's own failure or the system's (a bug, out of disk). */
export const EXIT_INTERNAL = 1;
/** Bad input of any kind. */
export const EXIT_BAD_INPUT = 2;

export interface OpenOptions {
  decoder?: BlockDecoder;
  /** Whether a locked container is an error (the command needs its files) or only a warning. */
  lockedIs?: 'error' | 'warning';
}

export class Session {
  private code = EXIT_OK;

  constructor(
    readonly out: Output,
    readonly keys: KeyRing,
    readonly json: boolean,
    readonly debug: boolean,
  ) {}

  get exitCode(): number { return this.code; }

  /** Records a failure; PakScope's own failures (1) outrank bad input (2). */
  fail(code: typeof EXIT_INTERNAL | typeof EXIT_BAD_INPUT): void {
    if (this.code !== EXIT_INTERNAL) this.code = code;
  }

  /**
   * Opens the install and reports its problems. Returns undefined when nothing could be opened
   * (the errors are reported, and under --json the first one is also printed as {"error"}).
   */
  async open(paths: string[], opts: OpenOptions = {}): Promise<Install | undefined> {
    const install = await openInstall(paths, { keys: this.keys, decoder: opts.decoder });
    const errors: InstallProblem[] = [];
    for (const p of install.problems) {
      const locked = install.archives.find((a) => a.path === p.path)?.status.state === 'locked';
      if (!p.fatal || (locked && opts.lockedIs === 'warning')) {
        this.out.warn(problemText(p));
      } else {
        this.out.error(problemText(p));
        this.fail(p.internal ? EXIT_INTERNAL : EXIT_BAD_INPUT);
        errors.push(p);
      }
    }
    this.warnCaseCopies(install);
    // Nothing readable (every container failed or is locked): the command has nothing to work on.
    const failed = new Set(errors.map((p) => p.path));
    if (errors.length > 0 && install.archives.every((a) => failed.has(a.path))) {
      if (this.json) await this.out.line(JSON.stringify({ error: problemText(errors[0]!) }));
      await install.close();
      return undefined;
    }
    return install;
  }

  /** Paths a container lists several times in spellings that differ only by case: one wins, as in the engine; say so. */
  private warnCaseCopies(install: Install): void {
    const copies = install.caseCopies();
    for (const f of copies.slice(0, MAX_CASE_WARNINGS)) this.out.warn(caseCopiesText(f));
    if (copies.length > MAX_CASE_WARNINGS) {
      this.out.warn(`${copies.length - MAX_CASE_WARNINGS} more paths have copies whose paths differ only by case (ls notes each)`);
    }
  }

  /** Refuses a folder where the command takes one container file. */
  async requireFile(path: string, command: string): Promise<void> {
    const s = await stat(path); // ENOENT: bad input, reported as such
    if (s.isDirectory()) {
      throw new UsageError(`takes one container file (.utoc or .pak), not a folder: ${path}`, command);
    }
  }
}

/** "file: structure at byte N: detail" already names the file; other messages get it in front. */
export function problemText(p: Pick<InstallProblem, 'path' | 'message'>): string {
  return p.message.includes(p.path) ? p.message : `${p.path}: ${p.message}`;
}

/** Case-only copies warned about one by one; beyond, one line counts the rest. */
const MAX_CASE_WARNINGS = 10;

/** The warning for a file whose container lists it in several spellings. */
export function caseCopiesText(f: VfsFile): string {
  const [winner, ...rest] = f.providers;
  const same = rest.filter((p) => p.archive === winner!.archive).map((p) => p.file.path.replace(/^\/+/, ''));
  return `${basename(winner!.archive.path)} lists ${same.length + 1} paths that differ only by case: ${f.path} wins (the engine's lookup ignores case; ` +
    `the last in its index wins); ${same.join(', ')} ${same.length === 1 ? 'is an overridden copy' : 'are overridden copies'}`;
}

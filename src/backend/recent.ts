/**
 * The "Recent installs" list: a small JSON file in the config folder the host passes in, most
 * recent first, at most 10 paths. A missing or damaged file reads as an empty list.
 */
import { mkdir, readFile, rename, writeFile } from 'node:fs/promises';
import { join } from 'node:path';

export const MAX_RECENT = 10;

export class RecentList {
  private readonly file: string;
  /** Writes are chained so two quick opens cannot interleave their read-modify-write. */
  private pending: Promise<unknown> = Promise.resolve();

  constructor(readonly configDir: string) {
    this.file = join(configDir, 'recent.json');
  }

  async list(): Promise<string[]> {
    await this.pending.catch(() => undefined);
    return this.read();
  }

  /** Moves `path` to the front; returns the new list. */
  add(path: string): Promise<string[]> {
    const next = this.pending.catch(() => undefined).then(async () => {
      const list = [path, ...(await this.read()).filter((p) => p !== path)].slice(0, MAX_RECENT);
      await mkdir(this.configDir, { recursive: true });
      // Write then rename, so a crash never leaves half a file behind.
      const tmp = `${this.file}.${process.pid}.tmp`;
      await writeFile(tmp, JSON.stringify({ recent: list }, null, 2));
      await rename(tmp, this.file);
      return list;
    });
    this.pending = next;
    return next;
  }

  private async read(): Promise<string[]> {
    try {
      const data = JSON.parse(await readFile(this.file, 'utf8')) as { recent?: unknown };
      if (!Array.isArray(data.recent)) return [];
      return data.recent.filter((p): p is string => typeof p === 'string' && p.length > 0).slice(0, MAX_RECENT);
    } catch {
      return [];
    }
  }
}

/**
 * The search index kept on disk, so that opening the same install again needs no second build:
 * one file per install in a folder the app chooses (beside its settings), named by a key made of
 * every container's (and loose file's) path, size and modification time, which containers are
 * unlocked, and whether strings were indexed. A changed file gives another key; an unreadable or
 * foreign file is ignored and built again.
 */
import { createHash } from 'node:crypto';
import { mkdir, readdir, readFile, rename, stat, unlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { deserialize, serialize } from 'node:v8';
import type { Install } from '../install/install.js';
import { IoStoreContainer } from '../iostore/container.js';
import { LooseFolderArchive } from '../install/loose-folder.js';
import { SearchIndex, type SearchIndexData } from './search-index.js';

/** Bumped when what the index holds changes. */
const FORMAT = 1;
const PREFIX = 'search-index-';
/** Index files kept; the least recently written go first. */
const KEEP_FILES = 4;

/** The key of an install's index: sha1 of its files' paths, sizes and times. */
export async function searchIndexKey(install: Install, strings: boolean): Promise<string> {
  const parts: string[] = [`format ${FORMAT}`, `strings ${strings}`];
  for (const a of install.archives) {
    const files = a instanceof IoStoreContainer ? [a.path, ...a.partitionPaths]
      : a instanceof LooseFolderArchive ? a.files().map((f) => a.diskPath(f.ref)) : [a.path];
    parts.push(`${a.kind} ${a.status.state}`);
    for (const f of files) {
      const s = await stat(f).catch(() => undefined);
      parts.push(`${f}\t${s?.size ?? -1}\t${s?.mtimeMs ?? -1}`);
    }
  }
  return createHash('sha1').update(parts.join('\n')).digest('hex');
}

export async function loadSearchIndex(dir: string, key: string): Promise<SearchIndex | undefined> {
  try {
    const data = deserialize(await readFile(join(dir, `${PREFIX}${key}.bin`))) as { key?: string; index?: SearchIndexData };
    if (data.key !== key || !data.index || !(data.index.hitFile instanceof Int32Array)) return undefined;
    if (!validNonAsciiIds(data.index)) return undefined;
    return new SearchIndex(data.index);
  } catch {
    return undefined;
  }
}

/** The kept non-ASCII text ids (absent in an older file) are ids of its texts: a query indexes by them. */
function validNonAsciiIds(index: SearchIndexData): boolean {
  const ids = index.nonAsciiTexts;
  if (ids === undefined) return true;
  if (!(ids instanceof Int32Array) || !Array.isArray(index.texts)) return false;
  for (const id of ids) if (id < 0 || id >= index.texts.length) return false;
  return true;
}

export async function saveSearchIndex(dir: string, key: string, index: SearchIndex): Promise<void> {
  await mkdir(dir, { recursive: true });
  const file = join(dir, `${PREFIX}${key}.bin`);
  const tmp = `${file}.${process.pid}.tmp`;
  await writeFile(tmp, serialize({ key, index: index.data }));
  await rename(tmp, file);
  // Older indexes of other installs (or of this one before it changed) beyond the few kept.
  const old = (await readdir(dir)).filter((n) => n.startsWith(PREFIX) && n.endsWith('.bin'));
  if (old.length <= KEEP_FILES) return;
  const dated = await Promise.all(old.map(async (n) => ({ n, t: (await stat(join(dir, n)).catch(() => undefined))?.mtimeMs ?? 0 })));
  dated.sort((a, b) => b.t - a.t);
  await Promise.all(dated.slice(KEEP_FILES).map((d) => unlink(join(dir, d.n)).catch(() => undefined)));
}

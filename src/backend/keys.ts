/**
 * AES keys in the app: the Keys dialog adds keys to an open install, each is checked against the
 * locked containers (those it opens join the tree at once, without reopening the install), and
 * working keys are remembered per install in a KeyStore, to be applied when it is opened again.
 *
 * - IoStore containers cannot take a key after opening: the .utoc is reopened with the key and
 *   swapped into the install (Install.updateArchives).
 * - A locked .pak is unlocked in place (PakArchive.unlock), which also proves the key: the
 *   engine hashes the decrypted index, or a sane mount point stands in for a zeroed hash.
 *
 * Stores: FileKeyStore (browser host: keys.json in the config folder, readable only by the user)
 * and SafeStorageKeyStore (Electron: the same map encrypted with the OS key store).
 */
import { RequestError } from './request-error.js';
import { createHash } from 'node:crypto';
import { chmod, mkdir, open, readFile, rename, unlink } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import type { Archive } from '../core/archive.js';
import { KeyRing, parseAesKeyArg, ZERO_GUID, type AesKey } from '../core/crypto/keys.js';
import type { Install } from '../core/install/install.js';
import { IoStoreContainer, openIoStoreContainer } from '../core/iostore/container.js';
import { bytesToHex } from '../core/io/hex.js';
import { PakArchive } from '../core/pak/pak-archive.js';
import type { BlockDecoder } from '../core/workers/block-job.js';
import type { KeyCheck, KeyStatus, LockedContainer, RememberedKey } from '../shared/api.js';

/** Keys remembered per install, as `KEY` or `GUID:KEY` texts (what --aes-key takes). */
export interface KeyStore {
  /** Where the keys are kept, in words, for the Keys dialog. */
  readonly description: string;
  /** The keys remembered for the install opened at `root`, oldest first; none when nothing is stored. */
  load(root: string): Promise<string[]>;
  /** Replaces the keys remembered for `root` (an empty list forgets them). */
  save(root: string, keys: readonly string[]): Promise<void>;
}

/** At most this many keys per install and installs per store: a damaged file cannot grow without bound. */
const MAX_KEYS_PER_INSTALL = 64;
const MAX_INSTALLS = 1000;
/** A stored file larger than this is damaged, not read. */
const MAX_STORE_BYTES = 4 * 1024 * 1024;

type KeyMap = Record<string, string[]>;

/**
 * The map root -> keys in one file, replaced whole on every save (write to a temporary file
 * created with mode 0600, then rename). Subclasses choose how the JSON is kept on disk.
 */
abstract class KeyFileStore implements KeyStore {
  abstract readonly description: string;
  /** Saves are chained, so two quick saves cannot interleave their read-modify-write. */
  private pending: Promise<unknown> = Promise.resolve();

  protected constructor(private readonly configDir: string, private readonly file: string) {}

  protected abstract encode(json: string): Uint8Array;
  /** Throws when the bytes cannot be read back (damaged, or encrypted for another user). */
  protected abstract decode(bytes: Uint8Array): string;

  async load(root: string): Promise<string[]> {
    await this.pending.catch(() => undefined);
    return (await this.readMap())[keyOf(root)] ?? [];
  }

  save(root: string, keys: readonly string[]): Promise<void> {
    const next = this.pending.catch(() => undefined).then(async () => {
      const map = await this.readMap();
      const k = keyOf(root);
      if (keys.length === 0) delete map[k];
      else map[k] = keys.slice(0, MAX_KEYS_PER_INSTALL);
      await this.writeMap(map);
    });
    this.pending = next;
    return next;
  }

  private async readMap(): Promise<KeyMap> {
    let bytes: Uint8Array;
    try {
      bytes = await readFile(this.file);
    } catch {
      return {}; // nothing stored yet
    }
    try {
      if (bytes.length > MAX_STORE_BYTES) return {};
      const data = JSON.parse(this.decode(bytes)) as { installs?: unknown };
      const out: KeyMap = {};
      if (data.installs && typeof data.installs === 'object' && !Array.isArray(data.installs)) {
        for (const [root, keys] of Object.entries(data.installs).slice(0, MAX_INSTALLS)) {
          if (Array.isArray(keys)) out[root] = keys.filter((k): k is string => typeof k === 'string' && k.length <= 256).slice(0, MAX_KEYS_PER_INSTALL);
        }
      }
      return out;
    } catch {
      return {}; // damaged: read as empty; the next save writes a good file
    }
  }

  private async writeMap(map: KeyMap): Promise<void> {
    await mkdir(this.configDir, { recursive: true, mode: 0o700 });
    const tmp = `${this.file}.${process.pid}.${Date.now()}.tmp`;
    // Created 0600 (not chmod-ed after), so the keys are never readable by others, not even briefly.
    const handle = await open(tmp, 'wx', 0o600);
    try {
      await handle.writeFile(this.encode(JSON.stringify({ version: 1, installs: map }, null, 1)));
      await handle.sync();
    } catch (e) {
      await handle.close();
      await unlink(tmp).catch(() => undefined);
      throw e;
    }
    await handle.close();
    await rename(tmp, this.file);
    // A file an older version (or the user) made with wider permissions is narrowed too.
    await chmod(this.file, 0o600).catch(() => undefined);
  }
}

/** Browser host: keys.json in the config folder (~/.config/pakscope), mode 0600, the folder 0700. */
export class FileKeyStore extends KeyFileStore {
  readonly description: string;

  constructor(configDir: string) {
    const file = join(configDir, 'keys.json');
    super(configDir, file);
    this.description = `${file} (readable only by you)`;
  }

  protected encode(json: string): Uint8Array {
    return new TextEncoder().encode(json);
  }

  protected decode(bytes: Uint8Array): string {
    return new TextDecoder().decode(bytes);
  }
}

/** What Electron's safeStorage offers; the main process passes it in (ElectronShell.safeStorage). */
export interface StringCipher {
  isEncryptionAvailable(): boolean;
  encryptString(plain: string): Uint8Array;
  decryptString(encrypted: Uint8Array): string;
}

/**
 * Electron: keys.bin in the user-data folder, the JSON encrypted with safeStorage (Keychain,
 * DPAPI, libsecret/kwallet), also mode 0600. Without OS encryption nothing is written: keys work
 * for the session and the dialog says they are not remembered.
 */
export class SafeStorageKeyStore extends KeyFileStore {
  constructor(configDir: string, private readonly cipher: StringCipher) {
    super(configDir, join(configDir, 'keys.bin'));
  }

  get description(): string {
    return this.cipher.isEncryptionAvailable()
      ? 'the OS key store (encrypted with Electron safeStorage)'
      : 'nowhere: this system offers no encrypted storage, so keys are kept until the app closes';
  }

  override async save(root: string, keys: readonly string[]): Promise<void> {
    if (!this.cipher.isEncryptionAvailable()) throw new Error('keys are not remembered: this system offers no encrypted storage (Electron safeStorage)');
    return super.save(root, keys);
  }

  protected encode(json: string): Uint8Array {
    return this.cipher.encryptString(json);
  }

  protected decode(bytes: Uint8Array): string {
    if (!this.cipher.isEncryptionAvailable()) throw new Error('no OS encryption');
    return this.cipher.decryptString(bytes);
  }
}

/** Keys are remembered per install: the folder or file opened, as an absolute path. */
function keyOf(root: string): string {
  return resolve(root);
}

// ---- checking and applying keys ----

/** `KEY` or `GUID:KEY` in one spelling: upper-case GUID, 0x and lower-case hex. */
export function canonicalKey(k: AesKey): string {
  const hex = `0x${bytesToHex(k.key)}`;
  return k.guid ? `${k.guid}:${hex}` : hex;
}

/** A stable name for a key that does not reveal it: its GUID and a hash prefix. */
export function keyId(k: AesKey): string {
  return `${k.guid ?? 'any'}-${createHash('sha256').update(k.key).digest('hex').slice(0, 16)}`;
}

/** 0x4355…3839: enough to tell keys apart in a list. */
export function keyLabel(k: AesKey): string {
  const hex = bytesToHex(k.key);
  return `0x${hex.slice(0, 4)}…${hex.slice(-4)}`;
}

/** Typed input shortened the same way, for messages about keys that did not parse. */
function shorten(text: string): string {
  const s = text.trim();
  return s.length > 14 ? `${s.slice(0, 8)}…${s.slice(-4)}` : s;
}

/** The key GUID an encrypted container names; null for kinds that take no key. */
function keyGuidOf(a: Archive): string | null {
  if (a instanceof IoStoreContainer) return a.toc.header.encryptionKeyGuid.toUpperCase();
  if (a instanceof PakArchive) return a.keyGuid.toUpperCase();
  return null;
}

function guidText(guid: string): string {
  return guid === ZERO_GUID ? 'the main key (zero GUID)' : `key GUID ${guid}`;
}

export class KeyService {
  /** One add at a time per install: two could otherwise reopen the same container. */
  private readonly queues = new WeakMap<Install, Promise<unknown>>();

  constructor(readonly store: KeyStore, private readonly decoder?: BlockDecoder) {}

  /** Adds the keys remembered for `root` to `ring` (before the install is opened); bad entries are skipped. */
  async addRemembered(root: string, ring: KeyRing): Promise<void> {
    for (const text of await this.store.load(root).catch(() => [])) {
      try {
        ring.add(parseAesKeyArg(text));
      } catch {
        // a damaged entry: the others still apply
      }
    }
  }

  async status(install: Install, root: string): Promise<KeyStatus> {
    const locked: LockedContainer[] = [];
    for (const a of install.archives) {
      if (a.status.state !== 'locked') continue;
      locked.push({ name: a.name, path: a.path, kind: a.kind, keyGuid: keyGuidOf(a) ?? ZERO_GUID, reason: a.status.message });
    }
    const keys: RememberedKey[] = [];
    for (const text of await this.store.load(root).catch(() => [])) {
      try {
        const k = parseAesKeyArg(text);
        keys.push({ id: keyId(k), guid: k.guid, label: keyLabel(k) });
      } catch {
        // skipped, as when applied
      }
    }
    return { locked, keys, storage: this.store.description };
  }

  /**
   * Checks each key against the containers still locked, in order; a key that opens one is
   * applied (the install's tree is merged again once, at the end) and remembered for `root`.
   * A key that opens nothing is refused with the reason. Resolves `saveError` when the keys
   * work but could not be stored.
   */
  add(install: Install, root: string, texts: readonly string[]): Promise<{ checks: KeyCheck[]; saveError?: string }> {
    const run = (this.queues.get(install) ?? Promise.resolve()).catch(() => undefined).then(() => this.addNow(install, root, texts));
    this.queues.set(install, run);
    return run;
  }

  private async addNow(install: Install, root: string, texts: readonly string[]): Promise<{ checks: KeyCheck[]; saveError?: string }> {
    const checks: KeyCheck[] = [];
    /** IoStore containers reopened with a key: old -> new, swapped into the install at the end. */
    const reopened = new Map<Archive, Archive>();
    const current = (): Archive[] => install.archives.map((a) => reopened.get(a) ?? a);
    const accepted: string[] = [];
    let unlockedInPlace = false;
    const entries = texts.map((t) => t.trim()).filter((t) => t !== '');
    if (entries.length === 0) throw new RequestError('no key given: type a key as 64 hex digits (0x optional) or base64, or GUID:KEY');

    for (const text of entries) {
      let key: AesKey;
      try {
        key = parseAesKeyArg(text);
      } catch (e) {
        checks.push({ input: shorten(text), ok: false, unlocked: [], message: e instanceof Error ? e.message : String(e) });
        continue;
      }
      const input = key.guid ? `${key.guid}:${keyLabel(key)}` : keyLabel(key);
      const locked = current().filter((a) => a.status.state === 'locked' && keyGuidOf(a) !== null);
      if (locked.length === 0) {
        checks.push({ input, ok: false, unlocked: [], message: 'not needed: no container of this install is locked' });
        continue;
      }
      // A key bound to a GUID is only tried on containers that name that GUID.
      const fitting = key.guid ? locked.filter((a) => keyGuidOf(a) === key.guid) : locked;
      if (fitting.length === 0) {
        checks.push({ input, ok: false, unlocked: [], message: `no locked container uses ${guidText(key.guid!)} (they use ${[...new Set(locked.map((a) => keyGuidOf(a)!))].map(guidText).join(', ')})` });
        continue;
      }
      const ring = new KeyRing([key]);
      const unlocked: string[] = [];
      for (const a of fitting) {
        if (a instanceof PakArchive) {
          if ((await a.unlock(ring)).state !== 'locked') {
            unlocked.push(a.name);
            unlockedInPlace = true;
          }
        } else if (a instanceof IoStoreContainer) {
          let next: IoStoreContainer;
          try {
            next = await openIoStoreContainer(a.path, this.decoder ? { keys: ring, decoder: this.decoder } : { keys: ring });
          } catch {
            continue; // it opened before; if it cannot be read now (moved, deleted) it stays locked
          }
          if (next.status.state === 'locked') {
            await next.close();
            continue;
          }
          reopened.set(a, next);
          unlocked.push(next.name);
        }
      }
      if (unlocked.length === 0) {
        const n = fitting.length;
        checks.push({ input, ok: false, unlocked, message: `wrong key: it opens none of the ${n} locked container${n === 1 ? '' : 's'} (${fitting.map((a) => a.name).join(', ')})` });
      } else {
        checks.push({ input, ok: true, unlocked, message: `opens ${unlocked.join(', ')}` });
        accepted.push(canonicalKey(key));
      }
    }

    if (reopened.size > 0 || unlockedInPlace) {
      install.updateArchives([...reopened]);
      await Promise.allSettled([...reopened.keys()].map((old) => old.close()));
    }
    if (accepted.length === 0) return { checks };
    try {
      const known = await this.store.load(root);
      const have = new Set(known.map(normalizedOrSelf));
      await this.store.save(root, [...known, ...accepted.filter((k) => !have.has(k))]);
      return { checks };
    } catch (e) {
      return { checks, saveError: e instanceof Error ? e.message : String(e) };
    }
  }

  /** Forgets one remembered key of `root`; unknown ids are ignored. */
  async forget(root: string, id: string): Promise<void> {
    const known = await this.store.load(root);
    const left = known.filter((text) => {
      try {
        return keyId(parseAesKeyArg(text)) !== id;
      } catch {
        return false; // damaged entries go too
      }
    });
    if (left.length !== known.length) await this.store.save(root, left);
  }
}

function normalizedOrSelf(text: string): string {
  try {
    return canonicalKey(parseAesKeyArg(text));
  } catch {
    return text;
  }
}

/**
 * AES-256 keys as users give them: `KEY` or `GUID:KEY`, KEY as 64 hex digits (0x optional) or
 * base64 of 32 bytes, GUID as 32 hex digits (dashes allowed). A KeyRing holds them all and
 * answers which keys to try for a container's encryption-key GUID.
 */
import { KeyError } from '../errors.js';

export interface AesKey {
  /** 32 uppercase hex digits, or null for "try on every container". */
  guid: string | null;
  key: Uint8Array;
}

export const ZERO_GUID = '0'.repeat(32);

export function parseAesKey(text: string): Uint8Array {
  const s = text.trim();
  const hex = s.replace(/^0x/i, '');
  if (/^[0-9a-fA-F]{64}$/.test(hex)) return Uint8Array.from(Buffer.from(hex, 'hex'));
  if (/^[A-Za-z0-9+/]{43}=?$/.test(s)) {
    const b = Buffer.from(s, 'base64');
    if (b.length === 32) return Uint8Array.from(b);
  }
  throw new KeyError(`AES key "${redact(s)}" is not 32 bytes as 64 hex digits or base64`);
}

export function parseGuid(text: string): string {
  const g = text.trim().replace(/[-{}]/g, '').replace(/^0x/i, '');
  if (!/^[0-9a-fA-F]{32}$/.test(g)) throw new KeyError(`key GUID "${text}" is not 32 hex digits`);
  return g.toUpperCase();
}

/** Parses `KEY` or `GUID:KEY` (the --aes-key argument). */
export function parseAesKeyArg(arg: string): AesKey {
  const s = arg.trim();
  const colon = s.indexOf(':');
  if (colon > 0) return { guid: parseGuid(s.slice(0, colon)), key: parseAesKey(s.slice(colon + 1)) };
  return { guid: null, key: parseAesKey(s) };
}

function redact(s: string): string {
  return s.length > 12 ? `${s.slice(0, 6)}…${s.slice(-4)}` : s;
}

export class KeyRing {
  private readonly keys: AesKey[] = [];

  constructor(keys: Iterable<AesKey> = []) {
    for (const k of keys) this.add(k);
  }

  static fromArgs(args: readonly string[]): KeyRing {
    return new KeyRing(args.map(parseAesKeyArg));
  }

  add(k: AesKey): void {
    if (!this.keys.some((x) => x.guid === k.guid && Buffer.compare(x.key, k.key) === 0)) this.keys.push(k);
  }

  get size(): number { return this.keys.length; }

  /**
   * Keys to try for a container, best first: those bound to its GUID, then unbound ones. A zero
   * GUID is the main key, so unbound keys are all it gets.
   */
  candidates(guid: string): Uint8Array[] {
    const g = guid.toUpperCase();
    const bound = this.keys.filter((k) => k.guid !== null && k.guid === g).map((k) => k.key);
    const free = this.keys.filter((k) => k.guid === null).map((k) => k.key);
    return [...bound, ...free];
  }
}

/**
 * Codecs by the names containers give them (pak footers, .utoc method tables), any case.
 * "" and "None" are stored blocks.
 */
import { UnsupportedCodecError } from '../errors.js';
import type { Codec } from './codec.js';
import { gzipCodec } from './gzip.js';
import { lz4Codec } from './lz4.js';
import { noneCodec } from './none.js';
import { oodleCodec, oodleReady } from './oodle.js';
import { zlibCodec } from './zlib.js';
import { zstdCodec } from './zstd.js';

const CODECS: readonly Codec[] = [noneCodec, zlibCodec, gzipCodec, lz4Codec, oodleCodec, zstdCodec];
const BY_NAME = new Map(CODECS.map((c) => [c.name.toLowerCase(), c]));
/** The spellings met so far ("Zlib", "zlib", ...). */
const BY_GIVEN_NAME = new Map<string, Codec>();

export function getCodec(name: string): Codec {
  // Looked up per block: the name as given is looked up first, with no lowercased copy to hash.
  const known = BY_GIVEN_NAME.get(name);
  if (known) return known;
  if (name === '') return noneCodec;
  const codec = BY_NAME.get(name.toLowerCase());
  if (!codec) throw new UnsupportedCodecError(name);
  // Only names of registered codecs are kept: a handful of spellings at most.
  BY_GIVEN_NAME.set(name, codec);
  return codec;
}

/** Canonical names of every registered codec (Zstd included even where it cannot decode). */
export function codecNames(): string[] {
  return CODECS.map((c) => c.name);
}

/** Resolves when every codec can decode synchronously (Oodle replaces a crashed decoder async). */
export function whenCodecsReady(): Promise<void> {
  return oodleReady();
}

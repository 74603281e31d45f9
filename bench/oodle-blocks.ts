/**
 * Real Oodle blocks for the synthetic install: no Oodle encoder exists here, so blocks are copied
 * out of the corpus. Their decoded bytes are whatever the sources hold; the generator hashes those.
 *
 * - Kraken blocks of games' IoStore containers, found through their .utoc block tables: whole
 *   64 KiB blocks, and the short last blocks of chunks (349 bytes to 62 KiB), which end .ubulk
 *   files as a game's do. Those containers have Kraken only.
 * - Kraken, Mermaid, Selkie and Leviathan from the corpus's Oodle test vectors (oodle/: whole
 *   files compressed as one stream of 256 KiB blocks). Only a stream's first 256 KiB block
 *   decodes alone: the later ones copy matches from the blocks before them (each fails alone).
 *   So each stream gives its first block (256 KiB decoded), and a 128 KiB block composed from
 *   that block's first sub-chunk: the same block header, a quantum header of the sub-chunk's
 *   size, the sub-chunk's bytes unchanged (a sub-chunk only refers back to bytes of the stream
 *   before it, and before the first there are none). Every block is checked against the
 *   stream's own decoded bytes.
 */
import { createHash } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { getCodec, whenCodecsReady } from '../src/core/codecs/registry.js';
import { oodleCompressor } from '../src/core/codecs/oodle.js';
import { partitionPath } from '../src/core/iostore/container-blocks.js';
import { parseToc } from '../src/core/iostore/toc.js';
import { ContainerFlags } from '../src/core/iostore/toc-version.js';

export const CORPUS = join(import.meta.dirname, '..', '..', 'shared', 'corpus');

/** Unencrypted corpus containers with Oodle blocks (their .ucas files are in the corpus). */
const SOURCES = [
  'cue58/IoStore/Tagged/Oodle/CUE4ParseFixtures-Minimal-Oodle-Windows.utoc',
  'cue58/IoStore/Tagged/OodlePartitioned/CUE4ParseFixtures-Minimal-OodlePartitioned-Windows.utoc',
  'iostore/isle_pakchunk333-Windows.utoc',
  'iostore/isle_pakchunk334-Windows.utoc',
  'iostore/isle_pakchunk55-Windows_P.utoc',
];

/** The test vectors: <source>.<compressor>, each a size prefix and one Oodle stream. */
const STREAM_SOURCES = ['xml', 'reymont'];
const STREAM_COMPRESSORS = ['kraken', 'mermaid', 'selkie', 'leviathan'] as const;

export const OODLE_BLOCK_SIZE = 65536;
/** An Oodle stream's block: the unit a stream's first block header covers. */
export const OODLE_STREAM_BLOCK = 262144;

export interface OodleBlock {
  /** The stored Oodle stream. */
  compressed: Uint8Array;
  /** Its decoded bytes. */
  plain: Uint8Array;
  /** Kraken, Mermaid, Selkie or Leviathan (the test vectors' names: Mermaid and Selkie share a header). */
  compressor: string;
  source: string;
}

/** Every distinct Kraken block of the corpus's game containers, decoded: `full` picks 64 KiB ones, else the short ones. */
export async function harvestOodleBlocks(corpusDir = CORPUS, full = true): Promise<OodleBlock[]> {
  await whenCodecsReady();
  const oodle = getCodec('Oodle');
  const seen = new Set<string>();
  const out: OodleBlock[] = [];
  for (const rel of SOURCES) {
    const utoc = join(corpusDir, rel);
    if (!existsSync(utoc)) continue;
    const toc = parseToc(new Uint8Array(readFileSync(utoc)), utoc);
    if (toc.header.containerFlags & ContainerFlags.Encrypted) continue;
    const partitions = new Map<number, Uint8Array>();
    const partition = (p: number): Uint8Array | undefined => {
      if (!partitions.has(p)) {
        const path = partitionPath(utoc, p);
        partitions.set(p, existsSync(path) ? new Uint8Array(readFileSync(path)) : new Uint8Array(0));
      }
      return partitions.get(p);
    };
    const ps = toc.header.partitionSize;
    for (let b = 0; b < toc.blockMethods.length; b++) {
      const plainSize = toc.blockUncompressedSizes[b]!;
      if (toc.methodNames[toc.blockMethods[b]!] !== 'Oodle' || (plainSize === OODLE_BLOCK_SIZE) !== full || plainSize === 0) continue;
      const p = Number.isFinite(ps) ? Math.floor(toc.blockOffsets[b]! / ps) : 0;
      const at = toc.blockOffsets[b]! - (p === 0 ? 0 : p * ps);
      const file = partition(p)!;
      const size = toc.blockCompressedSizes[b]!;
      if (at + size > file.length) continue;
      const compressed = file.slice(at, at + size);
      if (oodleCompressor(compressed) !== 'Kraken') continue;
      const key = createHash('sha1').update(compressed).digest('hex');
      if (seen.has(key)) continue;
      seen.add(key);
      out.push({ compressed, plain: oodle.decode(compressed, plainSize), compressor: 'Kraken', source: `${rel} block ${b}` });
    }
  }
  if (out.length === 0) throw new Error(`no ${full ? '64 KiB' : 'short'} Kraken blocks found in ${corpusDir}`);
  return out;
}

/**
 * From each test vector stream: its first 256 KiB block and the 128 KiB block composed from that
 * block's first sub-chunk, both checked against the whole stream's decoded bytes. Empty when the
 * test vectors are missing.
 */
export async function harvestOodleStreamBlocks(corpusDir = CORPUS): Promise<OodleBlock[]> {
  await whenCodecsReady();
  const oodle = getCodec('Oodle');
  const out: OodleBlock[] = [];
  for (const source of STREAM_SOURCES) {
    for (const c of STREAM_COMPRESSORS) {
      const path = join(corpusDir, 'oodle', `${source}.${c}`);
      if (!existsSync(path)) continue;
      const file = new Uint8Array(readFileSync(path));
      // The size prefix: 8 bytes before Leviathan's stream, 4 before the others'.
      const prefix = c === 'leviathan' ? 8 : 4;
      const size = new DataView(file.buffer, file.byteOffset).getUint32(0, true);
      const stream = file.subarray(prefix);
      const whole = oodle.decode(stream, size);
      const compressor = c[0]!.toUpperCase() + c.slice(1);
      const check = (compressed: Uint8Array, n: number, what: string): void => {
        const plain = oodle.decode(compressed, n);
        if (Buffer.compare(plain, whole.subarray(0, n)) !== 0) throw new Error(`${path}: ${what} does not decode to the stream's first ${n} bytes`);
        out.push({ compressed, plain, compressor, source: `oodle/${source}.${c} ${what}` });
      };
      // Block header (2 bytes), quantum header (3 bytes: compressed size - 1 in the low 18 bits).
      const quantum = ((stream[2]! << 16) | (stream[3]! << 8) | stream[4]!) & 0x3ffff;
      check(stream.slice(0, 5 + quantum + 1), OODLE_STREAM_BLOCK, 'first block');
      // The first sub-chunk: a 3-byte header (bit 23: LZ, low 19 bits: its size), then its bytes.
      const sub = (stream[5]! << 16) | (stream[6]! << 8) | stream[7]!;
      if (!(sub & 0x800000)) continue;
      const subSize = 3 + (sub & 0x7ffff);
      const composed = new Uint8Array(5 + subSize);
      composed.set(stream.subarray(0, 2));
      composed[2] = ((subSize - 1) >> 16) & 0x03; composed[3] = ((subSize - 1) >> 8) & 0xff; composed[4] = (subSize - 1) & 0xff;
      composed.set(stream.subarray(5, 5 + subSize), 5);
      check(composed, OODLE_STREAM_BLOCK / 2, 'first sub-chunk');
    }
  }
  return out;
}

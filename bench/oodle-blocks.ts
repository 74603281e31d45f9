/**
 * Real Oodle (Kraken) blocks for the synthetic install: no Oodle encoder exists here, so whole
 * 64 KiB blocks are copied out of the corpus's Oodle containers, found through their .utoc block
 * tables. Their decoded bytes are whatever game data they hold; the generator hashes those.
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
  'iostore/isle_pakchunk334-Windows.utoc',
  'iostore/isle_pakchunk55-Windows_P.utoc',
];

export const OODLE_BLOCK_SIZE = 65536;

export interface OodleBlock {
  /** The stored Kraken stream. */
  compressed: Uint8Array;
  /** Its 65,536 decoded bytes. */
  plain: Uint8Array;
  source: string;
}

/** Every distinct Kraken block of 65,536 decoded bytes in the corpus sources, decoded. */
export async function harvestOodleBlocks(corpusDir = CORPUS): Promise<OodleBlock[]> {
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
      if (toc.methodNames[toc.blockMethods[b]!] !== 'Oodle' || toc.blockUncompressedSizes[b] !== OODLE_BLOCK_SIZE) continue;
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
      out.push({ compressed, plain: oodle.decode(compressed, OODLE_BLOCK_SIZE), source: `${rel} block ${b}` });
    }
  }
  if (out.length === 0) throw new Error(`no 64 KiB Kraken blocks found in ${corpusDir}`);
  return out;
}

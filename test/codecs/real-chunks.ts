// Block jobs for the chunks of a real, single-partition IoStore container of the corpus: the TOC
// is parsed by the project's parser (src/core/iostore/toc.ts), the blocks are cut from the .ucas
// here, so the codec, AES, hash and pool tests run on real stored bytes.
import { readFileSync } from 'node:fs';
import { parseToc, blockRange, chunkMetaHash, type Toc } from '../../src/core/iostore/toc.js';
import type { BlockJob } from '../../src/core/workers/block-job.js';

export interface RealContainer {
  toc: Toc;
  ucas: Uint8Array;
  key?: Uint8Array;
}

export function loadContainer(utocPath: string, key?: Uint8Array): RealContainer {
  const toc = parseToc(readFileSync(utocPath), utocPath);
  const ucas = readFileSync(utocPath.replace(/\.utoc$/, '.ucas'));
  return { toc, ucas, ...(key ? { key } : {}) };
}

/** The jobs of the blocks a chunk covers, and where the chunk starts in the first block. */
export function chunkJobs(c: RealContainer, entry: number): { jobs: BlockJob[]; start: number } {
  const { toc } = c;
  const offset = toc.chunkOffsets[entry]!;
  const [b0, b1] = blockRange(toc, offset, toc.chunkLengths[entry]!);
  const jobs: BlockJob[] = [];
  for (let b = b0; b < b1; b++) {
    const compressedSize = toc.blockCompressedSizes[b]!;
    const stored = c.key ? Math.ceil(compressedSize / 16) * 16 : compressedSize;
    const at = toc.blockOffsets[b]!;
    jobs.push({
      data: c.ucas.subarray(at, at + stored),
      codec: toc.methodNames[toc.blockMethods[b]!]!,
      compressedSize,
      uncompressedSize: toc.blockUncompressedSizes[b]!,
      ...(c.key ? { aes: { mode: 'ecb' as const, key: c.key } } : {}),
    });
  }
  return { jobs, start: offset % toc.header.compressionBlockSize };
}

/** The chunk's bytes from its decoded blocks. */
export function assembleChunk(c: RealContainer, entry: number, blocks: Uint8Array[], start: number): Uint8Array {
  const length = c.toc.chunkLengths[entry]!;
  const all = Buffer.concat(blocks);
  return new Uint8Array(all.buffer, all.byteOffset + start, length);
}

export function storedHash(c: RealContainer, entry: number): Uint8Array {
  return chunkMetaHash(c.toc, entry);
}

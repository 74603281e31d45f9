// A deliberately small .utoc reader for the Zen tests: header, chunk ids, offsets/lengths and
// compression blocks, and chunk reads from uncompressed, unencrypted, single-partition containers.
// The real container reader is src/core/iostore (another module); this only finds test inputs.
import { readFileSync, openSync, readSync, closeSync } from 'node:fs';

export interface MiniChunk {
  id: bigint;
  index: number;
  type: number;
  offset: number;
  length: number;
}

export interface MiniToc {
  version: number;
  containerId: bigint;
  blockSize: number;
  chunks: MiniChunk[];
  blocks: { offset: number; compressedSize: number; size: number; method: number }[];
}

const be = (b: Uint8Array, at: number, n: number): number => {
  let v = 0;
  for (let i = 0; i < n; i++) v = v * 256 + b[at + i]!;
  return v;
};
const le = (b: Uint8Array, at: number, n: number): number => {
  let v = 0;
  for (let i = n - 1; i >= 0; i--) v = v * 256 + b[at + i]!;
  return v;
};

export function readMiniToc(path: string): MiniToc {
  const b = readFileSync(path);
  const dv = new DataView(b.buffer, b.byteOffset, b.byteLength);
  const version = b[16]!;
  const headerSize = dv.getUint32(20, true);
  const entryCount = dv.getUint32(24, true);
  const blockCount = dv.getUint32(28, true);
  const blockSize = dv.getUint32(44, true);
  const containerId = dv.getBigUint64(56, true);
  const chunks: MiniChunk[] = [];
  let at = headerSize;
  for (let i = 0; i < entryCount; i++, at += 12) {
    chunks.push({
      id: dv.getBigUint64(at, true),
      index: be(b, at + 8, 2),
      type: b[at + 11]!,
      offset: 0,
      length: 0,
    });
  }
  for (let i = 0; i < entryCount; i++, at += 10) {
    chunks[i]!.offset = be(b, at, 5);
    chunks[i]!.length = be(b, at + 5, 5);
  }
  const seeds = version >= 4 ? dv.getUint32(84, true) : 0;
  at += seeds * 4;
  const noHash = version >= 5 ? dv.getUint32(96, true) : 0;
  at += noHash * 4;
  const blocks: MiniToc['blocks'] = [];
  for (let i = 0; i < blockCount; i++, at += 12) {
    blocks.push({ offset: le(b, at, 5), compressedSize: le(b, at + 5, 3), size: le(b, at + 8, 3), method: b[at + 11]! });
  }
  return { version, containerId, blockSize, chunks, blocks };
}

/** The chunk's bytes, assembled from its uncompressed blocks in the .ucas. */
export function readMiniChunk(toc: MiniToc, ucasPath: string, chunk: MiniChunk): Uint8Array {
  const out = new Uint8Array(chunk.length);
  const fd = openSync(ucasPath, 'r');
  try {
    let done = 0;
    while (done < chunk.length) {
      const pos = chunk.offset + done;
      const block = toc.blocks[Math.floor(pos / toc.blockSize)]!;
      if (block.method !== 0 || block.compressedSize !== block.size) throw new Error('mini-utoc reads uncompressed blocks only');
      const within = pos % toc.blockSize;
      const n = Math.min(block.size - within, chunk.length - done);
      readSync(fd, out, done, n, block.offset + within);
      done += n;
    }
  } finally {
    closeSync(fd);
  }
  return out;
}

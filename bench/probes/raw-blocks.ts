/**
 * The raw-decoder side of a comparison: the stored blocks of some chunks read straight from their
 * .ucas files into memory, shared out over T plain worker_threads (raw-decode-worker.ts), and
 * timed passes over them.
 */
import { open } from 'node:fs/promises';
import { Worker } from 'node:worker_threads';
import { partitionPath } from '../../src/core/iostore/container-blocks.js';
import { aesDecrypt } from '../../src/core/crypto/aes.js';
import { aesParamsFor } from '../../src/core/iostore/container-key.js';
import { EncryptionMethod } from '../../src/core/iostore/toc-version.js';
import { blockRange, type Toc } from '../../src/core/iostore/toc.js';
import type { RawCodec, RawLoad, RawReply } from './raw-decode-worker.js';

/** One chunk of a container: its TOC entry and uncompressed size. */
export interface ChunkRef { utocPath: string; ref: number; size: number }

/**
 * The stored blocks of the picked chunks, read straight from the .ucas files. Blocks of an
 * encrypted container (`keyOf` gives its key) are decrypted here, untimed: the raw side decodes,
 * the app pays for the AES too.
 */
export async function loadBlocks(codec: RawCodec, picks: readonly ChunkRef[], tocOf: (utocPath: string) => Toc,
  keyOf: (utocPath: string) => Uint8Array | undefined = () => undefined):
  Promise<{ input: Uint8Array; blocks: number[][]; chunkStarts: number[] }> {
  const blocks: number[][] = []; // [offset in input, compressed, uncompressed]
  const chunkStarts: number[] = []; // index of each chunk's first block
  const parts: Uint8Array[] = [];
  let at = 0;
  for (const p of picks) {
    chunkStarts.push(blocks.length);
    const toc = tocOf(p.utocPath);
    const [b0, b1] = blockRange(toc, toc.chunkOffsets[p.ref]!, toc.chunkLengths[p.ref]!);
    const key = keyOf(p.utocPath);
    const fh = await open(partitionPath(p.utocPath, 0), 'r');
    try {
      for (let b = b0; b < b1; b++) {
        if (toc.methodNames[toc.blockMethods[b]!] !== codec) throw new Error(`${p.utocPath} block ${b} is not ${codec}`);
        const size = toc.blockCompressedSizes[b]!;
        // ECB blocks are stored padded to the AES block.
        const stored = key && toc.header.encryptionMethod !== EncryptionMethod.AesCtr ? Math.ceil(size / 16) * 16 : size;
        const buf = new Uint8Array(stored);
        await fh.read(buf, 0, stored, toc.blockOffsets[b]!);
        parts.push(key ? aesDecrypt(buf, aesParamsFor(toc, key, b)).subarray(0, size) : buf);
        blocks.push([at, size, toc.blockUncompressedSizes[b]!]);
        at += size;
      }
    } finally {
      await fh.close();
    }
  }
  return { input: Buffer.concat(parts), blocks, chunkStarts };
}

/** T raw workers, each holding an equal share (by decoded bytes) of the blocks. */
export async function startRawWorkers(workerFile: string, codec: RawCodec, input: Uint8Array, blocks: number[][], threads: number): Promise<Worker[]> {
  const total = blocks.reduce((n, b) => n + b[2]!, 0);
  const shares: number[][][] = Array.from({ length: threads }, () => []);
  let done = 0;
  for (const b of blocks) {
    shares[Math.min(threads - 1, Math.floor((done * threads) / total))]!.push(b);
    done += b[2]!;
  }
  return Promise.all(shares.map(async (share) => {
    const w = new Worker(workerFile);
    const parts = share.map(([at, size]) => input.subarray(at!, at! + size!));
    const own = new Uint8Array(Buffer.concat(parts));
    const desc: number[] = [];
    let pos = 0;
    for (const [, size, plain] of share) { desc.push(pos, size!, plain!); pos += size!; }
    const msg: RawLoad = { type: 'load', codec, input: own, blocks: Float64Array.from(desc) };
    const reply = once(w);
    w.postMessage(msg, [own.buffer as ArrayBuffer]);
    const r = await reply;
    if (r.type !== 'loaded') throw new Error(`raw worker: ${JSON.stringify(r)}`);
    return w;
  }));
}

function once(w: Worker): Promise<RawReply> {
  return new Promise((resolve, reject) => {
    const onError = (e: Error): void => { w.off('message', onMessage); reject(e); };
    const onMessage = (m: RawReply): void => { w.off('error', onError); resolve(m); };
    w.once('message', onMessage);
    w.once('error', onError);
  });
}

export async function rawPass(workers: Worker[], expectBytes: number): Promise<number> {
  const t0 = performance.now();
  const replies = await Promise.all(workers.map((w) => { const r = once(w); w.postMessage({ type: 'run' }); return r; }));
  const seconds = (performance.now() - t0) / 1000;
  let bytes = 0;
  for (const r of replies) {
    if (r.type !== 'done') throw new Error(`raw worker: ${JSON.stringify(r)}`);
    bytes += r.bytes;
  }
  if (bytes !== expectBytes) throw new Error(`raw pass decoded ${bytes} bytes, expected ${expectBytes}`);
  return seconds;
}


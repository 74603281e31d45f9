/**
 * A plain worker_threads worker running a raw decoder over blocks held in memory: the baseline the
 * app's decoding is compared with. Zlib: node:zlib inflateSync; Oodle: ooz-wasm's decompress;
 * LZ4: the project's LZ4 decoder called directly. Messages: {type:'load'} keeps its share of the
 * blocks, {type:'run'} decodes them all once and answers the time taken.
 */
import { parentPort } from 'node:worker_threads';
import { inflateSync } from 'node:zlib';
import { decompress } from 'ooz-wasm';
import { lz4Codec } from '../../src/core/codecs/lz4.js';

export type RawCodec = 'Zlib' | 'Oodle' | 'LZ4';

export interface RawLoad {
  type: 'load';
  codec: RawCodec;
  input: Uint8Array;
  /** Per block: offset in input, compressed size, uncompressed size. */
  blocks: Float64Array;
}

export type RawReply = { type: 'loaded' } | { type: 'done'; ms: number; bytes: number } | { type: 'error'; message: string };

const decoders: Record<RawCodec, (input: Uint8Array, size: number) => Uint8Array> = {
  Zlib: (input) => inflateSync(input),
  Oodle: (input, size) => decompress(input, size),
  LZ4: (input, size) => lz4Codec.decode(input, size),
};

let load: RawLoad | undefined;

parentPort!.on('message', (m: RawLoad | { type: 'run' }) => {
  try {
    if (m.type === 'load') {
      load = m;
      parentPort!.postMessage({ type: 'loaded' } satisfies RawReply);
      return;
    }
    const { codec, input, blocks } = load!;
    const decode = decoders[codec];
    let bytes = 0;
    const t0 = performance.now();
    for (let i = 0; i < blocks.length; i += 3) {
      const at = blocks[i]!;
      const out = decode(input.subarray(at, at + blocks[i + 1]!), blocks[i + 2]!);
      if (out.length !== blocks[i + 2]) throw new Error(`${codec} block decoded to ${out.length} bytes, not ${blocks[i + 2]}`);
      bytes += out.length;
    }
    parentPort!.postMessage({ type: 'done', ms: performance.now() - t0, bytes } satisfies RawReply);
  } catch (e) {
    parentPort!.postMessage({ type: 'error', message: (e as Error).message } satisfies RawReply);
  }
});

/**
 * A plain worker_threads worker running a raw decoder (raw-decoders.ts) over blocks held in
 * memory: the baseline the app's decoding and export are compared with. Messages: {type:'load'} keeps its share of the
 * blocks, {type:'run'} decodes them all once and answers the time taken.
 */
import { parentPort } from 'node:worker_threads';
import { rawDecoder, type RawCodec, type RawDecoder } from './raw-decoders.js';

export type { RawCodec } from './raw-decoders.js';

export interface RawLoad {
  type: 'load';
  codec: RawCodec;
  input: Uint8Array;
  /** Per block: offset in input, compressed size, uncompressed size. */
  blocks: Float64Array;
}

export type RawReply = { type: 'loaded' } | { type: 'done'; ms: number; bytes: number } | { type: 'error'; message: string };

let load: RawLoad | undefined;
let decode: RawDecoder | undefined;
/** One output buffer for every block, as big as the biggest. */
let out = new Uint8Array(0);

parentPort!.on('message', async (m: RawLoad | { type: 'run' }) => {
  try {
    if (m.type === 'load') {
      load = m;
      decode = await rawDecoder(m.codec);
      let biggest = 0;
      for (let i = 2; i < m.blocks.length; i += 3) biggest = Math.max(biggest, m.blocks[i]!);
      out = new Uint8Array(biggest);
      parentPort!.postMessage({ type: 'loaded' } satisfies RawReply);
      return;
    }
    const { codec, input, blocks } = load!;
    let bytes = 0;
    const t0 = performance.now();
    for (let i = 0; i < blocks.length; i += 3) {
      const at = blocks[i]!;
      const size = blocks[i + 2]!;
      const got = decode!(input.subarray(at, at + blocks[i + 1]!), out, size);
      if (got !== size) throw new Error(`${codec} block decoded to ${got} bytes, not ${size}`);
      bytes += got;
    }
    parentPort!.postMessage({ type: 'done', ms: performance.now() - t0, bytes } satisfies RawReply);
  } catch (e) {
    parentPort!.postMessage({ type: 'error', message: (e as Error).message } satisfies RawReply);
  }
});

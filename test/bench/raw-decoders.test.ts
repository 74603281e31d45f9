/**
 * The bench's raw baselines (bench/probes/raw-decoders.ts) decode real data right, block after
 * block through their reused streams and buffers: zlib against node:zlib's own deflate, Oodle
 * against ooz-wasm's own decompress on the corpus's Kraken blocks.
 */
import { randomBytes } from 'node:crypto';
import { deflateSync } from 'node:zlib';
import { decompress } from 'ooz-wasm';
import { describe, expect, it } from 'vitest';
import { harvestOodleBlocks } from '../../bench/oodle-blocks.js';
import { rawDecoder } from '../../bench/probes/raw-decoders.js';

describe('raw baselines', () => {
  it('zlib: blocks of different sizes through one reused stream and buffer, a wrong size told', async () => {
    const decode = await rawDecoder('Zlib');
    const out = new Uint8Array(65536);
    for (const size of [65536, 1000, 40000, 65536]) {
      const plain = new Uint8Array(size);
      plain.set(randomBytes(size >> 2)); // part random, part zeros: a realistic mix
      expect(decode(deflateSync(plain), out, size)).toBe(size);
      expect(Buffer.compare(out.subarray(0, size), plain)).toBe(0);
    }
    const packed = deflateSync(new Uint8Array(3000).fill(7));
    expect(decode(packed, out, 2999)).not.toBe(2999);
  });

  it('Oodle: the corpus Kraken blocks decode as ooz-wasm\'s own decompress does them', async () => {
    const blocks = (await harvestOodleBlocks()).slice(0, 6);
    expect(blocks.length).toBeGreaterThan(0);
    const decode = await rawDecoder('Oodle');
    const out = new Uint8Array(65536);
    for (const b of blocks) {
      expect(decode(b.compressed, out, 65536)).toBe(65536);
      expect(Buffer.compare(out, decompress(b.compressed, 65536))).toBe(0);
    }
  });
});

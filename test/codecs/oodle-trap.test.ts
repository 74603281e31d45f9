/**
 * A corrupt block can make ooz read outside its WebAssembly memory: the instance traps ("memory
 * access out of bounds") and is broken afterwards. The codec must turn that into a DecodeError
 * and carry on with a fresh instance.
 *
 * Whether a given corrupt block traps depends on where the decoder's buffers sit in memory, so
 * this file runs alone (vitest gives each file a fresh module graph) and feeds the block to a
 * fresh decoder, where it always traps: before anything else, and after each trap, which swaps in
 * a fresh decoder.
 */
import { describe, expect, it } from 'vitest';
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { corpus } from '../support/corpus.js';
import { getCodec, whenCodecsReady } from '../../src/core/codecs/registry.js';
import { DecodeError } from '../../src/core/errors.js';
import { oodleTrapBlock } from './oodle-trap-block.js';

const oodle = getCodec('Oodle');

describe('Oodle decoder crash', () => {
  it('turns a WebAssembly trap into a DecodeError, every time, and then decodes valid blocks', async () => {
    const { block, size } = oodleTrapBlock();
    const good = readFileSync(corpus('oodle', 'xml.kraken'));
    for (let round = 0; round < 20; round++) {
      let err: unknown;
      try { oodle.decode(block, size); } catch (e) { err = e; }
      expect(err).toBeInstanceOf(DecodeError);
      expect((err as Error).message).toBe(
        'Oodle (Leviathan): block crashed the decoder (memory access out of bounds): corrupt data or wrong key');
      if (round === 0) {
        // The replacement is made asynchronously; a synchronous caller is told to wait for it.
        expect(() => oodle.decode(good.subarray(4), good.readUInt32LE(0))).toThrow(/restarting after a crash; await oodleReady/);
      }
      await whenCodecsReady();
    }
    const out = oodle.decode(good.subarray(4), good.readUInt32LE(0));
    expect(createHash('sha256').update(out).digest('hex')).toBe('0e82e54e695c1938e4193448022543845b33020c8be6bf3bf3ead2224903e08c');
  });
});

import { describe, expect, it } from 'vitest';
import { deflateSync, gzipSync } from 'node:zlib';
import { randomBytes } from 'node:crypto';
import { getCodec } from '../../src/core/codecs/registry.js';
import { DecodeError, isInputError } from '../../src/core/errors.js';

const text = new TextEncoder().encode('<Package Name="/Game/Maps/Isle">'.repeat(3000));
const noise = new Uint8Array(randomBytes(70_000));

describe.each([
  ['Zlib', (d: Uint8Array) => deflateSync(d)],
  ['Gzip', (d: Uint8Array) => gzipSync(d)],
])('%s', (name, compress) => {
  const codec = getCodec(name);

  it('round-trips text, noise and a 1-byte block', () => {
    for (const data of [text, noise, new Uint8Array([42])]) {
      const out = codec.decode(compress(data), data.length);
      expect(out.length).toBe(data.length);
      expect(Buffer.from(out).equals(data)).toBe(true);
    }
  });

  it('rejects a declared size that is too small or too large', () => {
    const packed = compress(text);
    expect(() => codec.decode(packed, text.length - 1)).toThrow(/more than the declared 95999 bytes/);
    expect(() => codec.decode(packed, text.length + 1)).toThrow(/decodes to 96000 bytes but 96001 are declared/);
    expect(() => codec.decode(packed, -1)).toThrow(DecodeError);
    // Beyond deflate's best ratio (1032:1) the size is corrupt: refused before allocating it.
    expect(() => codec.decode(packed, 2 ** 31)).toThrow(/declared size 2147483648 is more than \d+ compressed bytes can hold/);
  });

  it('rejects corrupt and truncated data with a DecodeError naming the codec', () => {
    const packed = Uint8Array.from(compress(text));
    const truncated = packed.subarray(0, packed.length >> 1);
    for (const bad of [truncated, new Uint8Array(40).fill(0x5a)]) {
      let err: unknown;
      try { codec.decode(bad, text.length); } catch (e) { err = e; }
      expect(err).toBeInstanceOf(DecodeError);
      expect((err as DecodeError).method).toBe(name);
      expect(isInputError(err)).toBe(true);
    }
  });
});

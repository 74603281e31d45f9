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

  // Into a given buffer: one zlib stream reused per thread.
  it('decodes in place without touching the bytes around, also after a corrupt block', () => {
    expect(typeof codec.decodeInto).toBe('function');
    const packed = compress(text);
    const around = new Uint8Array(text.length + 8).fill(0xee);
    for (let round = 0; round < 3; round++) {
      expect(() => codec.decodeInto!(new Uint8Array(40).fill(0x5a), around.subarray(4, 4 + text.length))).toThrow(DecodeError);
      around.fill(0xee);
      codec.decodeInto!(packed, around.subarray(4, 4 + text.length));
      expect(Buffer.from(around.subarray(4, 4 + text.length)).equals(text)).toBe(true);
      expect([...around.subarray(0, 4), ...around.subarray(4 + text.length)]).toEqual(Array(8).fill(0xee));
    }
  });

  it('tells a buffer too small or too large, and a stream cut short', () => {
    const packed = compress(noise);
    expect(() => codec.decodeInto!(packed, new Uint8Array(noise.length - 1))).toThrow(`block decodes to more than the declared ${noise.length - 1} bytes`);
    expect(() => codec.decodeInto!(packed, new Uint8Array(noise.length + 1))).toThrow(`block decodes to ${noise.length} bytes but ${noise.length + 1} are declared`);
    expect(() => codec.decodeInto!(packed.subarray(0, packed.length - 5), new Uint8Array(noise.length))).toThrow(/does not decode \(unexpected end of file\)/);
    // Bytes after the stream's end are ignored, as inflateSync ignores them.
    const trailed = Buffer.concat([packed, Buffer.alloc(7)]);
    expect(Buffer.from(codec.decode(trailed, noise.length)).equals(noise)).toBe(true);
  });

  // Into a buffer with room after it (a scratch buffer).
  it('tells too small and too large a size in one call, touching only the byte after', () => {
    const packed = compress(noise);
    const buf = new Uint8Array(noise.length + 2).fill(0xee);
    codec.decodeInto!(packed, buf.subarray(0, noise.length), true);
    expect(Buffer.from(buf.subarray(0, noise.length)).equals(noise)).toBe(true);
    expect(buf[noise.length + 1]).toBe(0xee);
    expect(() => codec.decodeInto!(packed, buf.subarray(0, noise.length - 1), true)).toThrow(`block decodes to more than the declared ${noise.length - 1} bytes`);
    expect(() => codec.decodeInto!(packed, buf.subarray(0, noise.length + 1), true)).toThrow(`block decodes to ${noise.length} bytes but ${noise.length + 1} are declared`);
    // At the very end of its buffer there is no room after it, whatever the caller says.
    const exact = new Uint8Array(noise.length);
    codec.decodeInto!(packed, exact, true);
    expect(Buffer.from(exact).equals(noise)).toBe(true);
    expect(() => codec.decodeInto!(packed, new Uint8Array(noise.length - 1), true)).toThrow(/more than the declared/);
  });
});

describe('the reused inflater', () => {
  it('is not used where node:zlib has no handle to drive (the codec keeps inflateSync)', async () => {
    const { ReusedInflater } = await import('../../src/core/codecs/reused-inflater.js');
    const { Inflate } = await import('node:zlib');
    expect(ReusedInflater.create(() => new Inflate(), 'zlib')).not.toBeNull();
    expect(ReusedInflater.create(() => ({}) as InstanceType<typeof Inflate>, 'zlib')).toBeNull();
    // A handle that decodes wrongly fails the check on the known block.
    const broken = () => {
      type Write = (flush: number, input: Uint8Array, inOff: number, inLen: number, out: Uint8Array, outOff: number, outLen: number) => void;
      const s = new Inflate() as unknown as { _handle: { writeSync: Write } };
      const write = s._handle.writeSync.bind(s._handle);
      s._handle.writeSync = (flush, input, inOff, inLen, out, outOff, outLen) => {
        write(flush, input, inOff, inLen, out, outOff, outLen);
        out[0] = out[0]! ^ 1;
      };
      return s as unknown as InstanceType<typeof Inflate>;
    };
    expect(ReusedInflater.create(broken, 'zlib')).toBeNull();
  });
});

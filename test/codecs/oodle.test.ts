/**
 * corpus/oodle: Kraken, Mermaid, Selkie and Leviathan streams of two Silesia files (from
 * powzix/ooz testdata) and the sha256 of their decoded bytes (MANIFEST.tsv there).
 */
import { describe, expect, it } from 'vitest';
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { corpus } from '../support/corpus.js';
import { getCodec, whenCodecsReady } from '../../src/core/codecs/registry.js';
import { oodleCompressor } from '../../src/core/codecs/oodle.js';
import { DecodeError, isInputError } from '../../src/core/errors.js';

const oodle = getCodec('Oodle');
const sha256 = (b: Uint8Array): string => createHash('sha256').update(b).digest('hex');
const XML_SHA256 = '0e82e54e695c1938e4193448022543845b33020c8be6bf3bf3ead2224903e08c';
const REYMONT_SHA256 = '0eac0114a3dfe6e2ee1f345a0f79d653cb26c3bc9f0ed79238af4933422b7578';

/**
 * The uncompressed size and the raw stream. The README says "4-byte size, then the stream", but
 * the two .leviathan files carry an 8-byte (u64) size: their bytes 4..7 are zero and the stream
 * header (0x8C) follows at 8.
 */
function readVector(name: string): { size: number; stream: Uint8Array } {
  const file = readFileSync(corpus('oodle', name));
  const wide = file.readUInt32LE(4) === 0 && file[8] === 0x8c;
  return { size: file.readUInt32LE(0), stream: file.subarray(wide ? 8 : 4) };
}

describe('Oodle (ooz-wasm)', () => {
  it.each([
    ['xml.kraken', 5345280, XML_SHA256, 'Kraken'],
    ['xml.mermaid', 5345280, XML_SHA256, 'Mermaid/Selkie'],
    ['xml.selkie', 5345280, XML_SHA256, 'Mermaid/Selkie'],
    ['xml.leviathan', 5345280, XML_SHA256, 'Leviathan'],
    ['reymont.kraken', 6627202, REYMONT_SHA256, 'Kraken'],
    ['reymont.mermaid', 6627202, REYMONT_SHA256, 'Mermaid/Selkie'],
    ['reymont.selkie', 6627202, REYMONT_SHA256, 'Mermaid/Selkie'],
    ['reymont.leviathan', 6627202, REYMONT_SHA256, 'Leviathan'],
  ])('%s decodes to the sha256 in MANIFEST.tsv', (name, size, hash, compressor) => {
    const v = readVector(name);
    expect(v.size).toBe(size);
    expect(oodleCompressor(v.stream)).toBe(compressor);
    const out = oodle.decode(v.stream, v.size);
    expect(out.length).toBe(size);
    expect(sha256(out)).toBe(hash);
  });

  it('names the compressor of a block header, or says it is unknown', () => {
    expect(oodleCompressor(Uint8Array.of(0x8c, 0x06))).toBe('Kraken');
    expect(oodleCompressor(Uint8Array.of(0xcc, 0x86))).toBe('Kraken'); // uncompressed quantum, checksums
    expect(oodleCompressor(Uint8Array.of(0x8c, 0x0c))).toBe('Leviathan');
    expect(oodleCompressor(Uint8Array.of(0x8c, 0x05))).toBe('LZNA');
    expect(oodleCompressor(Uint8Array.of(0x8c, 0x0b))).toBe('BitKnit');
    expect(oodleCompressor(Uint8Array.of(0x8c, 0x09))).toBe('unknown decoder type 9');
    expect(oodleCompressor(Uint8Array.of(0x00, 0x00))).toBe('unknown header 0x0000');
    expect(oodleCompressor(new Uint8Array(0))).toBe('empty block');
  });

  it('decodes into a place in a bigger buffer (decodeInto), leaving the bytes around it alone, with the same checks', () => {
    const v = readVector('reymont.leviathan');
    const around = new Uint8Array(v.size + 10).fill(0xee);
    oodle.decodeInto!(v.stream, around.subarray(3, 3 + v.size));
    expect(sha256(around.subarray(3, 3 + v.size))).toBe(REYMONT_SHA256);
    expect([...around.subarray(0, 3), ...around.subarray(3 + v.size)]).toEqual(new Array(10).fill(0xee));
    const k = readVector('xml.kraken');
    expect(() => oodle.decodeInto!(k.stream, new Uint8Array(k.size - 1))).toThrow(/^Oodle \(Kraken\): block does not decode/);
    expect(() => oodle.decodeInto!(v.stream.subarray(0, 4000), new Uint8Array(v.size))).toThrow(DecodeError);
  });

  it('rejects wrong declared sizes, naming the compressor', () => {
    const v = readVector('xml.kraken');
    expect(() => oodle.decode(v.stream, v.size - 1)).toThrow(/^Oodle \(Kraken\): block does not decode/);
    expect(() => oodle.decode(v.stream, v.size + 1)).toThrow(/^Oodle \(Kraken\): block does not decode/);
    expect(() => oodle.decode(v.stream, -5)).toThrow(/declared size -5 is not a byte count/);
    // Sizes no block could reach are refused before the WebAssembly memory grows for them.
    expect(() => oodle.decode(v.stream.subarray(0, 100), 2 ** 30)).toThrow(/is more than 100 compressed bytes can hold/);
    expect(() => oodle.decode(v.stream, 2 ** 30)).toThrow(/over the 268435456-byte limit for one block/);
  });

  it('rejects corrupt and foreign data with a DecodeError naming the compressor', () => {
    const v = readVector('reymont.mermaid');
    const cases: [Uint8Array, RegExp][] = [
      [v.stream.subarray(0, 5000), /^Oodle \(Mermaid\/Selkie\): block does not decode/],
      [new TextEncoder().encode('PK\x03\x04 not an Oodle stream'), /^Oodle \(unknown header 0x504b\)/],
      [new Uint8Array(0), /^Oodle \(empty block\)/],
    ];
    for (const [bad, message] of cases) {
      let err: unknown;
      try { oodle.decode(bad, v.size); } catch (e) { err = e; }
      expect(err).toBeInstanceOf(DecodeError);
      expect((err as Error).message).toMatch(message);
      expect(isInputError(err)).toBe(true);
    }
  });
});

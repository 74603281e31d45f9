import { describe, expect, it } from 'vitest';
import { codecNames, getCodec } from '../../src/core/codecs/registry.js';
import { DecodeError, UnsupportedCodecError, isInputError } from '../../src/core/errors.js';

describe('codec registry', () => {
  it('lists every codec by its engine name', () => {
    expect(codecNames()).toEqual(['None', 'Zlib', 'Gzip', 'LZ4', 'Oodle', 'Zstd']);
  });

  it('finds codecs in any case; "" and None are stored blocks', () => {
    expect(getCodec('zlib').name).toBe('Zlib');
    expect(getCodec('OODLE').name).toBe('Oodle');
    expect(getCodec('lz4').name).toBe('LZ4');
    expect(getCodec('').name).toBe('None');
    expect(getCodec('none').name).toBe('None');
  });

  it('names an unknown codec in an UnsupportedCodecError', () => {
    expect(() => getCodec('Brotli')).toThrow(UnsupportedCodecError);
    expect(() => getCodec('Brotli')).toThrow('"Brotli"');
  });

  it('returns stored blocks as they are and checks their size', () => {
    const data = new Uint8Array([1, 2, 3]);
    expect(getCodec('None').decode(data, 3)).toBe(data);
    expect(() => getCodec('None').decode(data, 4)).toThrow(DecodeError);
  });

  // A frame made by the zstd tool (`zstd -19` of 'PakScope zstd test. ' x 40), with its content size.
  const ZSTD_FRAME = Buffer.from('28b52ffd642002dd0000a050616b53636f7065207a73746420746573742e200100125e3599a7c8b1b6', 'hex');
  // The codec uses node:zlib's zstd where it has it (Node 22.15+, Electron 38) and fzstd elsewhere:
  // this frame exercises whichever one runs, so nothing here skips on either.
  it('decodes a real Zstd frame on every Node.js (node:zlib or fzstd)', () => {
    const out = getCodec('Zstd').decode(new Uint8Array(ZSTD_FRAME), 800);
    expect(Buffer.from(out).toString('latin1')).toBe('PakScope zstd test. '.repeat(40));
  });
  it('refuses a Zstd frame whose size is not the declared one', () => {
    let err: unknown;
    try { getCodec('Zstd').decode(new Uint8Array(ZSTD_FRAME), 795); } catch (e) { err = e; }
    expect(err).toBeInstanceOf(DecodeError);
    expect(isInputError(err)).toBe(true);
    expect(() => getCodec('Zstd').decode(new Uint8Array(8), 8)).toThrow(DecodeError);
  });
});

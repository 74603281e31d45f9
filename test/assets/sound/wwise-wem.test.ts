/**
 * Wwise media (.wem): real files from public repositories (test/corpus/wwise, SOURCES.tsv) read
 * and decoded, checked against ffmpeg's figures recorded once in expected.json: PCM byte for
 * byte, Vorbis (rebuilt to Ogg, decoded by libvorbis) within one LSB of libavcodec's decode of
 * the same stream, sample counts exact. Bad input: truncated RIFF, an unknown codec id, a Vorbis
 * setup naming a codebook that does not exist.
 */
import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { convertSound } from '../../../src/core/assets/sound/kind.js';
import { parseWem } from '../../../src/core/assets/sound/wwise/riff.js';
import { wemSound } from '../../../src/core/assets/sound/wwise/wem.js';
import { wemVorbisInfo } from '../../../src/core/assets/sound/wwise/vorbis.js';
import { FormatError } from '../../../src/core/errors.js';
import { formatError } from '../../support/format-error.js';
import { bankMedia, loadWwise, wwiseExpected } from '../../support/wwise-corpus.js';

const expected = wwiseExpected();

function mediaOf(key: string): Uint8Array {
  const [file, id] = key.split('#') as [string, string | undefined];
  return id === undefined ? loadWwise(file) : bankMedia(loadWwise(file)).get(Number(id))!;
}

function rms(samples: Int16Array, channels: number): number[] {
  const frames = samples.length / channels;
  return Array.from({ length: channels }, (_, c) => {
    let sum = 0;
    for (let i = c; i < samples.length; i += channels) sum += samples[i]! * samples[i]!;
    return Math.sqrt(sum / frames);
  });
}

describe('Wwise .wem against ffmpeg', () => {
  for (const [key, want] of Object.entries(expected)) {
    it(`${key}: ${want.codec}, ${want.rate} Hz, ${want.channels} ch, ${want.frames} frames`, async () => {
      const sound = wemSound(mediaOf(key), key);
      expect(sound.format).toBe('WEM');
      expect(sound.codec).toBe(want.codec);
      expect([sound.sampleRate, sound.channels, sound.samples]).toEqual([want.rate, want.channels, want.frames]);
      const pcm = await sound.decode!();
      expect([pcm.sampleRate, pcm.channels, pcm.samples.length / pcm.channels]).toEqual([want.rate, want.channels, want.frames]);
      const bytes = new Uint8Array(pcm.samples.buffer, pcm.samples.byteOffset, pcm.samples.byteLength);
      if (want.codec === 'PCM') {
        expect(createHash('sha256').update(bytes).digest('hex')).toBe(want.sha256);
      } else {
        // libvorbis and libavcodec round floats to 16 bits apart by at most one step.
        rms(pcm.samples, pcm.channels).forEach((r, c) => expect(Math.abs(r - want.rms[c]!)).toBeLessThan(1));
        let peak = 0;
        for (const s of pcm.samples) peak = Math.max(peak, Math.abs(s));
        expect(Math.abs(peak - want.peak)).toBeLessThanOrEqual(1);
      }
    });
  }

  it('converts a .wem to a 16-bit PCM WAV of its frames, and as stored to itself', async () => {
    const bytes = loadWwise('surface_hits_medium_hard_01_3F75BDB9.wem');
    const sound = wemSound(bytes, 'surface_hits_medium_hard_01');
    const wav = await convertSound(sound, undefined);
    expect(wav.extension).toBe('wav');
    const v = new DataView(wav.data.buffer, wav.data.byteOffset);
    expect([v.getUint16(20, true), v.getUint16(22, true), v.getUint32(24, true), v.getUint32(40, true)]).toEqual([1, 2, 22050, 16639 * 4]);
    const stored = await convertSound(sound, 'wem');
    expect(stored.data).toBe(bytes);
  });

  it('reads the vorb data of the 0x42-byte fmt: stripped packets, 2-byte headers', () => {
    const wem = parseWem(loadWwise('apcr_armor_not_pierce_small_01_3F75BDB9.wem'), 'apcr');
    expect(wem.fmt.length).toBe(0x42);
    const info = wemVorbisInfo(wem, 'apcr');
    expect(info).toMatchObject({ sampleCount: 21716, shortHeaders: true, modPackets: true, blocksize0Pow: 8, blocksize1Pow: 11 });
  });
});

describe('Wwise .wem bad input', () => {
  const good = loadWwise('apcr_armor_not_pierce_small_01_3F75BDB9.wem');

  it('a truncated RIFF names the header and its size', () => {
    const e = formatError(() => wemSound(good.subarray(0, 3000), 'cut.wem'));
    expect(e.structure).toBe('RIFF header');
    expect(e.offset).toBe(4);
    expect(e.message).toContain('truncated');
    expect(formatError(() => wemSound(good.subarray(0, 8), 'tiny.wem')).message).toContain('at least 12 bytes');
  });

  it('a chunk past the RIFF end names the chunk', () => {
    const b = good.slice();
    new DataView(b.buffer).setUint32(16, 0x10000, true); // the fmt chunk's size
    const e = formatError(() => wemSound(b, 'fmt.wem'));
    expect(e.structure).toBe('fmt chunk');
    expect(e.offset).toBe(12);
  });

  it('an unknown codec id reads, is not decodable, and fails to decode with a clear error', async () => {
    const b = good.slice();
    new DataView(b.buffer).setUint16(20, 0x1234, true);
    const sound = wemSound(b, 'odd.wem');
    expect(sound.codec).toBe('0x1234');
    expect(sound.decodable).toBe(false);
    const e = await sound.decode!().catch((x: unknown) => x);
    expect(e).toBeInstanceOf(FormatError);
    expect((e as FormatError).message).toContain('codec id 0x1234 is not a Wwise codec PakScope knows');
    expect((e as FormatError).offset).toBe(20);
  });

  it('a Vorbis setup naming a codebook the libraries do not have', async () => {
    const b = good.slice();
    const wem = parseWem(b, 'x');
    const info = wemVorbisInfo(wem, 'x');
    // The setup packet: 2-byte size, then 8 bits of codebook count and the first 10-bit book id.
    const at = wem.dataOffset + info.setupOffset + 2;
    const bits = b[at + 1]! | (b[at + 2]! << 8);
    const patched = (bits & ~0x3ff) | 0x3ff; // book 1023
    b[at + 1] = patched & 0xff;
    b[at + 2] = patched >> 8;
    const e = await wemSound(b, 'books.wem').decode!().catch((x: unknown) => x);
    expect(e).toBeInstanceOf(FormatError);
    expect((e as FormatError).message).toMatch(/names book 1023, which packed_codebooks_aoTuV_603.bin \(books 0 to \d+\) does not have/);
    expect((e as FormatError).structure).toBe('Vorbis setup packet');
  });

  it('a Vorbis packet running past the data chunk is a FormatError, not a hang', async () => {
    const wem = parseWem(good, 'x');
    const info = wemVorbisInfo(wem, 'x');
    const b = good.slice();
    new DataView(b.buffer).setUint16(wem.dataOffset + info.firstAudioOffset, 0xffff, true);
    const e = await wemSound(b, 'packet.wem').decode!().catch((x: unknown) => x);
    expect(e).toBeInstanceOf(FormatError);
    expect((e as FormatError).message).toContain('runs past the data chunk');
  });
});

/**
 * Wwise Opus (.wem codecs 0x3039 OPUSNX, 0x3040 Ogg Opus, 0x3041 OPUS_WEM). SYNTHETIC fixtures:
 * no real Wwise Opus file with a licence to redistribute was found in a public repository, so
 * test/corpus/wwise/make-opus-fixtures.mts laid ffmpeg-libopus packets out in each Wwise layout
 * (SOURCES.tsv). The reference figures (synthetic.json) are ffmpeg's own Opus decoder (libavcodec,
 * not libopus) on the same packets in their Ogg file: frames exact, each channel's RMS within
 * 0.1 %, and samples in the middle of each channel within a few LSB, which also pins the channel
 * order (5.1 in WAVE order, each channel its own level) and the skip.
 */
import { describe, expect, it } from 'vitest';
import { convertSound } from '../../../src/core/assets/sound/kind.js';
import { parseWem } from '../../../src/core/assets/sound/wwise/riff.js';
import { wemSound } from '../../../src/core/assets/sound/wwise/wem.js';
import { formatError } from '../../support/format-error.js';
import { loadWwise, wwiseFile } from '../../support/wwise-corpus.js';
import { readFileSync } from 'node:fs';

interface Synthetic {
  codecId: string;
  layout: string;
  rate: number;
  channels: number;
  skip: number;
  frames: number;
  rms: number[];
  peak: number;
  excerptAt: number;
  excerpt: number[][];
}
const { fixtures } = JSON.parse(readFileSync(wwiseFile('synthetic.json'), 'utf8')) as { fixtures: Record<string, Synthetic> };

describe('Wwise Opus .wem against ffmpeg (synthetic fixtures)', () => {
  it('has the five fixtures', () => {
    expect(Object.keys(fixtures).sort()).toEqual(['synthetic-ogg-opus-mono.wem', 'synthetic-opus-wem-5.1.wem', 'synthetic-opus-wem-6ch-family255.wem', 'synthetic-opus-wem-stereo.wem', 'synthetic-opusnx-stereo.wem']);
  });
  for (const [file, want] of Object.entries(fixtures)) {
    it(`${file}: ${want.layout} ${want.codecId}, ${want.channels} ch, ${want.frames} frames`, async () => {
      const bytes = loadWwise(file);
      expect(parseWem(bytes, file).codecId).toBe(Number(want.codecId));
      const sound = wemSound(bytes, file);
      expect([sound.codec, sound.decodable, sound.sampleRate, sound.channels, sound.samples]).toEqual(['OPUS', true, want.rate, want.channels, want.frames]);
      const pcm = await sound.decode!();
      expect(pcm.errors).toBeUndefined();
      const ch = pcm.channels;
      expect([pcm.sampleRate, ch, pcm.samples.length / ch]).toEqual([want.rate, want.channels, want.frames]);
      for (let c = 0; c < ch; c++) {
        let sum = 0;
        for (let i = c; i < pcm.samples.length; i += ch) sum += pcm.samples[i]! * pcm.samples[i]!;
        const rms = Math.sqrt(sum / want.frames);
        expect(Math.abs(rms - want.rms[c]!) / want.rms[c]!).toBeLessThan(0.001);
        const got = want.excerpt[c]!.map((_, i) => pcm.samples[(want.excerptAt + i) * ch + c]!);
        got.forEach((s, i) => expect(Math.abs(s - want.excerpt[c]![i]!)).toBeLessThanOrEqual(8));
      }
      let peak = 0;
      for (const s of pcm.samples) peak = Math.max(peak, Math.abs(s));
      expect(Math.abs(peak - want.peak)).toBeLessThanOrEqual(8);
    });
  }

  it('0x3040 with a "meta" chunk: the bytes it names at the data\'s start are passed over', async () => {
    const src = loadWwise('synthetic-ogg-opus-mono.wem');
    const wem = parseWem(src, 'x');
    const skip = 24;
    const meta = new Uint8Array(16);
    meta.set([0x6d, 0x65, 0x74, 0x61, 8, 0, 0, 0, 0, 0, 0, 0, skip, 0, 0, 0]);
    // RIFF header and fmt as they are, then meta, then the data chunk with 24 bytes of metadata in front.
    const head = src.subarray(0, wem.dataOffset - 8);
    const data = new Uint8Array(8 + skip + wem.data.length);
    data.set([0x64, 0x61, 0x74, 0x61], 0);
    new DataView(data.buffer).setUint32(4, skip + wem.data.length, true);
    data.fill(0x5a, 8, 8 + skip);
    data.set(wem.data, 8 + skip);
    const b = new Uint8Array(head.length + meta.length + data.length);
    b.set(head, 0);
    b.set(meta, head.length);
    b.set(data, head.length + meta.length);
    new DataView(b.buffer).setUint32(4, b.length - 8, true);
    const [plain, withMeta] = await Promise.all([wemSound(src, 'a').decode!(), wemSound(b, 'b').decode!()]);
    expect(withMeta.samples).toEqual(plain.samples);
  });

  it('0x3039 whose fmt keeps a rate Opus has not (44.1 kHz): decoded at 48 kHz, its length from the packets', () => {
    const b = loadWwise('synthetic-opusnx-stereo.wem').slice();
    new DataView(b.buffer).setUint32(parseWem(b, 'x').fmtOffset + 4, 44100, true);
    const s = wemSound(b, 'nx44.wem');
    // 35 packets of 20 ms and one of 40 ms (the last) at 48 kHz, less the 120-frame delay.
    expect([s.sampleRate, s.samples]).toEqual([48000, fixtures['synthetic-opus-wem-stereo.wem']!.frames + 312 + 648 - 120]);
  });

  it('converts to a 16-bit WAV of its frames at 48 kHz', async () => {
    const wav = await convertSound(wemSound(loadWwise('synthetic-opus-wem-stereo.wem'), 'x'), undefined);
    const v = new DataView(wav.data.buffer, wav.data.byteOffset);
    expect(wav.extension).toBe('wav');
    expect([v.getUint16(20, true), v.getUint16(22, true), v.getUint32(24, true), v.getUint32(40, true)]).toEqual([1, 2, 48000, 33600 * 4]);
  });
});

/** `b` with its last `n` bytes cut off, the RIFF and data sizes told (data is the last chunk). */
function cut(b: Uint8Array, n: number): Uint8Array {
  const wem = parseWem(b, 'x');
  const out = b.slice(0, b.length - n);
  const v = new DataView(out.buffer);
  v.setUint32(4, v.getUint32(4, true) - n, true);
  v.setUint32(wem.dataOffset - 4, wem.data.length - n, true);
  return out;
}

function patch(b: Uint8Array, edit: (v: DataView, fmt: number) => void): Uint8Array {
  const out = b.slice();
  edit(new DataView(out.buffer), parseWem(b, 'x').fmtOffset);
  return out;
}

describe('Wwise Opus bad input', () => {
  const ww = loadWwise('synthetic-opus-wem-stereo.wem');
  const surround = loadWwise('synthetic-opus-wem-5.1.wem');
  const nx = loadWwise('synthetic-opusnx-stereo.wem');
  const ogg = loadWwise('synthetic-ogg-opus-mono.wem');

  it('0x3041 cut short: the packet that runs past the data chunk', () => {
    const e = formatError(() => wemSound(cut(ww, 500), 'cut.wem'));
    expect(e.structure).toBe('seek chunk');
    expect(e.message).toMatch(/packet 34 of 36 .* runs past the data chunk's \d+ bytes/);
  });

  it('0x3041 packet count past the seek chunk', () => {
    const e = formatError(() => wemSound(patch(ww, (v, f) => v.setUint32(f + 0x1c, 100000, true)), 'count.wem'));
    expect(e.structure).toBe('seek chunk');
    expect(e.message).toContain('100000 packet sizes need 200000 bytes, the chunk has 72');
  });

  it('0x3041 without its seek chunk', () => {
    const b = ww.slice();
    const at = parseWem(b, 'x').chunks.find((c) => c.id === 'seek')!.offset - 8;
    b.set([0x4a, 0x55, 0x4e, 0x4b], at); // "JUNK"
    expect(formatError(() => wemSound(b, 'noseek.wem')).message).toContain('without the seek chunk');
  });

  it('0x3041 unknown channel mappings', () => {
    const e = formatError(() => wemSound(patch(ww, (v, f) => v.setUint8(f + 0x23, 2)), 'family2.wem'));
    expect(e.message).toContain('unknown Wwise Opus channel mapping: family 2, 2 channels');
    expect(e.offset).toBe(parseWem(ww, 'x').fmtOffset + 0x23);
    // Six channels with family 0 (which holds 1 or 2) and family 1 without a standard layout.
    expect(formatError(() => wemSound(patch(surround, (v, f) => v.setUint8(f + 0x23, 0)), 'f0.wem')).message).toContain('family 0, 6 channels');
    expect(formatError(() => wemSound(patch(surround, (v, f) => v.setUint32(f + 0x14, 0x60f, true)), 'mask.wem')).message).toContain('family 1, 6 channels, layout 0x60f');
    expect(formatError(() => wemSound(patch(ww, (v, f) => v.setUint8(f + 0x22, 2)), 'v2.wem')).message).toContain('codec version 2');
  });

  it('0x3039 cut short, and a seek table past the data', () => {
    expect(formatError(() => wemSound(cut(nx, 300), 'nx.wem')).message).toMatch(/OPUSNX packet at byte \d+: packet 35 claims \d+ bytes, \d+ are left \(truncated\)/);
    const e = formatError(() => wemSound(patch(nx, (v, f) => v.setUint32(f + 0x24, 0x7fffffff, true)), 'nxseek.wem'));
    expect(e.structure).toBe('OPUSNX seek table');
  });

  it('0x3040 cut short: the Ogg page that runs past the data', () => {
    const e = formatError(() => wemSound(cut(ogg, 700), 'ogg.wem'));
    expect(e.structure).toBe('Ogg page');
    expect(e.message).toContain('run past the stream\'s end');
  });

  it('0x3041 packet sizes shifted (packets cut out of the wrong bytes): libopus\'s damaged memory is a FormatError, not a crash', async () => {
    // Packet 10 made 1 byte and packet 11 empty: every later packet starts in the wrong place, and
    // one of them damages the wasm decoder's memory (found by the mutation test).
    const b = ww.slice();
    b.set([1, 0, 0, 0], parseWem(ww, 'x').chunks.find((c) => c.id === 'seek')!.offset + 20);
    const e = await wemSound(b, 'shifted.wem').decode!().catch((x: unknown) => x);
    const err = formatError(() => { throw e; });
    expect(err.structure).toBe('Opus packets');
    expect(err.message).toContain('memory was damaged');
  });

  it('a 0x3041 fmt too short for its fields', () => {
    const b = ww.slice();
    const wem = parseWem(b, 'x');
    // Shrink the fmt to 0x18 bytes by making the rest a JUNK chunk of its own.
    const v = new DataView(b.buffer);
    v.setUint32(wem.fmtOffset - 4, 0x18, true);
    b.set([0x4a, 0x55, 0x4e, 0x4b], wem.fmtOffset + 0x18);
    v.setUint32(wem.fmtOffset + 0x1c, 0x24 - 0x18 - 8, true);
    expect(formatError(() => wemSound(b, 'short.wem')).message).toContain("OPUS_WEM's fmt has 36 bytes, this one 24");
  });
});

/**
 * Run once (needs ffmpeg): `npx tsx test/corpus/wwise/make-ima-fixtures.mts`.
 *
 * SYNTHETIC fixtures. No real Wwise IMA ADPCM .wem (codec 0x0002), RIFF or RIFX, could be found
 * in a public repository with a licence to redistribute it, so this script builds them: ffmpeg
 * encodes a generated stereo signal as Microsoft IMA ADPCM (adpcm_ima_wav), and this script
 * re-lays each block as Wwise stores it: each channel's part whole (its 4-byte header, then its
 * nibbles) instead of Microsoft's 4-byte groups taking turns; the nibbles and headers are the
 * same numbers, so ffmpeg's decode of its own .wav is the exact reference. The RIFX copy has
 * every header number big-endian, the block headers' first samples too (as vgmstream reads Wwise
 * IMA on big-endian platforms).
 *
 * The REAL file (41-19_Diesel_Trains_..., SOURCES.tsv) goes the other way: its Wwise blocks are
 * re-laid as Microsoft's into a standard IMA ADPCM .wav, which ffmpeg decodes. ima.json records
 * ffmpeg's figures for all three.
 */
import { createHash } from 'node:crypto';
import { execFileSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const dir = fileURLToPath(new URL('.', import.meta.url));
const wavPath = '/tmp/pakscope-wwise-ima.wav';
const channels = 2;
const rate = 32000;
const block = 256;
execFileSync('ffmpeg', ['-v', 'error', '-y', '-f', 'lavfi', '-i', `aevalsrc=0.5*sin(2*PI*440*t)+0.2*sin(2*PI*(100+3000*t)*t)|0.3*sin(2*PI*1200*t):s=${rate}:d=0.5`, '-c:a', 'adpcm_ima_wav', '-block_size', String(block), wavPath]);
const wav = readFileSync(wavPath);

// The .wav's chunks: its data, and its block align as written.
let data: Buffer | undefined;
for (let at = 12; at + 8 <= wav.length; at += 8 + wav.readUInt32LE(at + 4) + (wav.readUInt32LE(at + 4) & 1)) {
  const id = wav.toString('latin1', at, at + 4);
  if (id === 'fmt ' && (wav.readUInt16LE(at + 8) !== 0x11 || wav.readUInt16LE(at + 20) !== block)) throw new Error('not IMA ADPCM of the block size asked for');
  if (id === 'data') data = wav.subarray(at + 8, at + 8 + wav.readUInt32LE(at + 4));
}
if (!data) throw new Error('no data chunk');
const blocks = Math.floor(data.length / block);
const part = block / channels;

/** Microsoft's block (headers, then 4-byte groups a channel in turn) as Wwise's (each channel's part whole). */
function wwiseBlocks(bigEndian: boolean): Buffer {
  const out = Buffer.alloc(blocks * block);
  for (let b = 0; b < blocks; b++) {
    const src = data!.subarray(b * block, (b + 1) * block);
    for (let c = 0; c < channels; c++) {
      const dst = b * block + c * part;
      const sample = src.readInt16LE(c * 4);
      if (bigEndian) out.writeInt16BE(sample, dst); else out.writeInt16LE(sample, dst);
      out[dst + 2] = src[c * 4 + 2]!;
      out[dst + 3] = 0;
      for (let g = 0; g < (part - 4) / 4; g++) src.copy(out, dst + 4 + g * 4, channels * 4 + (g * channels + c) * 4, channels * 4 + (g * channels + c) * 4 + 4);
    }
  }
  return out;
}

function wem(bigEndian: boolean): Buffer {
  const u16 = (b: Buffer, v: number, at: number) => (bigEndian ? b.writeUInt16BE(v, at) : b.writeUInt16LE(v, at));
  const u32 = (b: Buffer, v: number, at: number) => (bigEndian ? b.writeUInt32BE(v, at) : b.writeUInt32LE(v, at));
  const fmt = Buffer.alloc(0x18);
  u16(fmt, 0x0002, 0);
  u16(fmt, channels, 2);
  u32(fmt, rate, 4);
  u32(fmt, (rate * block) / (1 + (part - 4) * 2), 8);
  u16(fmt, block, 0x0c);
  u16(fmt, 4, 0x0e);
  u16(fmt, 6, 0x10);
  u16(fmt, 1 + (part - 4) * 2, 0x12);
  u32(fmt, (channels | (1 << 8) | (0x3 << 12)) >>> 0, 0x14);
  const body = wwiseBlocks(bigEndian);
  const chunk = (id: string, b: Buffer) => { const h = Buffer.alloc(8); h.write(id, 0, 'latin1'); u32(h, b.length, 4); return Buffer.concat([h, b]); };
  const inner = Buffer.concat([Buffer.from('WAVE', 'latin1'), chunk('fmt ', fmt), chunk('data', body)]);
  const head = Buffer.alloc(8);
  head.write(bigEndian ? 'RIFX' : 'RIFF', 0, 'latin1');
  u32(head, inner.length, 4);
  return Buffer.concat([head, inner]);
}

writeFileSync(dir + 'synthetic-ima-stereo.wem', wem(false));
writeFileSync(dir + 'synthetic-ima-stereo-rifx.wem', wem(true));

// ffmpeg decodes every whole block; the Wwise file holds the same whole blocks.
const pcm = execFileSync('ffmpeg', ['-v', 'error', '-i', wavPath, '-f', 's16le', '-'], { maxBuffer: 1 << 28 });
const frames = blocks * (1 + (part - 4) * 2);
const s16 = pcm.subarray(0, frames * channels * 2);
if (s16.length !== frames * channels * 2) throw new Error(`ffmpeg gave ${pcm.length / 4} frames, ${frames} expected`);
const figures = {
  codec: 'IMA_ADPCM', rate, channels, frames, blockAlign: block, ffmpegFrames: pcm.length / 2 / channels,
  decoder: 'ffmpeg (libavcodec adpcm_ima_wav) on the Microsoft IMA .wav ffmpeg wrote, its first `frames` frames',
  sha256: createHash('sha256').update(s16).digest('hex'),
  ffmpeg: execFileSync('ffmpeg', ['-version']).toString().split('\n')[0],
};

/** A real Wwise IMA .wem (RIFF, 16-byte-or-more fmt) as a Microsoft IMA ADPCM .wav for ffmpeg. */
function wwiseToMsWav(wem: Buffer): { wav: Buffer; rate: number; channels: number; frames: number; block: number } {
  let fmt = -1;
  let body: Buffer | undefined;
  for (let at = 12; at + 8 <= wem.length; at += 8 + wem.readUInt32LE(at + 4)) {
    const id = wem.toString('latin1', at, at + 4);
    if (id === 'fmt ') fmt = at + 8;
    if (id === 'data') body = wem.subarray(at + 8, at + 8 + wem.readUInt32LE(at + 4));
  }
  const ch = wem.readUInt16LE(fmt + 2);
  const r = wem.readUInt32LE(fmt + 4);
  const blk = wem.readUInt16LE(fmt + 12);
  const per = blk / ch;
  const n = Math.floor(body!.length / blk);
  const ms = Buffer.alloc(n * blk);
  for (let b = 0; b < n; b++) {
    for (let c = 0; c < ch; c++) {
      const src = b * blk + c * per;
      body!.copy(ms, b * blk + c * 4, src, src + 4);
      ms[b * blk + c * 4 + 3] = 0;
      for (let g = 0; g < (per - 4) / 4; g++) body!.copy(ms, b * blk + ch * 4 + (g * ch + c) * 4, src + 4 + g * 4, src + 8 + g * 4);
    }
  }
  const spb = 1 + (per - 4) * 2;
  const f = Buffer.alloc(20);
  f.writeUInt16LE(0x11, 0); f.writeUInt16LE(ch, 2); f.writeUInt32LE(r, 4); f.writeUInt32LE(Math.round((r * blk) / spb), 8);
  f.writeUInt16LE(blk, 12); f.writeUInt16LE(4, 14); f.writeUInt16LE(2, 16); f.writeUInt16LE(spb, 18);
  const chunk = (id: string, x: Buffer) => { const h = Buffer.alloc(8); h.write(id, 0, 'latin1'); h.writeUInt32LE(x.length, 4); return Buffer.concat([h, x]); };
  const inner = Buffer.concat([Buffer.from('WAVE', 'latin1'), chunk('fmt ', f), chunk('data', ms)]);
  const head = Buffer.alloc(8); head.write('RIFF', 0, 'latin1'); head.writeUInt32LE(inner.length, 4);
  return { wav: Buffer.concat([head, inner]), rate: r, channels: ch, frames: n * spb, block: blk };
}

const REAL = '41-19_Diesel_Trains_Enigne_horn_-_on_87089399.wem';
const real = wwiseToMsWav(readFileSync(dir + REAL));
writeFileSync('/tmp/pakscope-wwise-ima-real.wav', real.wav);
const realPcm = execFileSync('ffmpeg', ['-v', 'error', '-i', '/tmp/pakscope-wwise-ima-real.wav', '-f', 's16le', '-'], { maxBuffer: 1 << 28 });
if (realPcm.length !== real.frames * real.channels * 2) throw new Error(`ffmpeg gave ${realPcm.length / 2 / real.channels} frames of the real file, ${real.frames} expected`);
const realFigures = {
  codec: 'IMA_ADPCM', rate: real.rate, channels: real.channels, frames: real.frames, blockAlign: real.block, ffmpegFrames: real.frames,
  decoder: 'ffmpeg (libavcodec adpcm_ima_wav) on the Wwise blocks re-laid as a Microsoft IMA ADPCM .wav',
  sha256: createHash('sha256').update(realPcm).digest('hex'), ffmpeg: figures.ffmpeg,
};
writeFileSync(dir + 'ima.json', JSON.stringify({ 'synthetic-ima-stereo.wem': figures, 'synthetic-ima-stereo-rifx.wem': figures, [REAL]: realFigures }, null, 1) + '\n');
console.log(figures, realFigures);

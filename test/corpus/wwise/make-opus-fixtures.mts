/**
 * Run once (needs ffmpeg with libopus): `npx tsx test/corpus/wwise/make-opus-fixtures.mts`.
 *
 * SYNTHETIC fixtures. No real Wwise Opus .wem (codecs 0x3039, 0x3040, 0x3041) could be found in a
 * public repository with a licence to redistribute it, so this script builds them: ffmpeg's
 * libopus encodes a generated signal to Ogg Opus, this script (its own Ogg reader, not
 * PakScope's) takes the packets out and lays them out as each Wwise layout stores them (as
 * vgmstream's src/meta/wwise.c documents the layouts), and writes the .wem files beside it.
 *
 * The reference is ffmpeg's own Opus decoder (libavcodec "opus", not libopus) run on the Ogg
 * file with -flags2 +skip_manual, so it decodes every packet and drops nothing; each fixture's
 * figures are taken over the frames the Wwise header says to play: [skip, skip + samples).
 * synthetic.json records them.
 */
import { execFileSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const dir = fileURLToPath(new URL('.', import.meta.url));
const tmp = '/tmp/pakscope-wwise-opus';

function ffmpeg(args: string[]): Buffer {
  return execFileSync('ffmpeg', ['-v', 'error', '-y', ...args], { maxBuffer: 1 << 28 });
}

/** The packets of an Ogg file (one logical stream), and its OpusHead fields. */
function oggPackets(b: Buffer) {
  const packets: Buffer[] = [];
  let part: Buffer[] = [];
  for (let at = 0; at < b.length;) {
    if (b.toString('latin1', at, at + 4) !== 'OggS') throw new Error(`no page at ${at}`);
    const n = b[at + 26]!;
    let body = at + 27 + n;
    for (let i = 0; i < n; i++) {
      const lace = b[at + 27 + i]!;
      part.push(b.subarray(body, body + lace));
      body += lace;
      if (lace < 255) { packets.push(Buffer.concat(part)); part = []; }
    }
    at = body;
  }
  const head = packets[0]!;
  if (head.toString('latin1', 0, 8) !== 'OpusHead') throw new Error('no OpusHead');
  return {
    packets: packets.slice(2), channels: head[9]!, preSkip: head.readUInt16LE(10), family: head[18]!,
    streams: head[18] ? [head[19]!, head[20]!, ...head.subarray(21, 21 + head[9]!)] : [],
  };
}

function chunk(id: string, body: Buffer): Buffer {
  const h = Buffer.alloc(8);
  h.write(id, 0, 'latin1');
  h.writeUInt32LE(body.length, 4);
  return Buffer.concat([h, body]);
}

function riff(chunks: Buffer[]): Buffer {
  const body = Buffer.concat([Buffer.from('WAVE', 'latin1'), ...chunks]);
  const h = Buffer.alloc(8);
  h.write('RIFF', 0, 'latin1');
  h.writeUInt32LE(body.length, 4);
  return Buffer.concat([h, body]);
}

/** The fmt's first 0x18 bytes: WAVEFORMATEX and Wwise's channel layout word. */
function fmtHead(size: number, codec: number, channels: number, rate: number, block: number, bits: number, layout: number): Buffer {
  const f = Buffer.alloc(size);
  f.writeUInt16LE(codec, 0);
  f.writeUInt16LE(channels, 2);
  f.writeUInt32LE(rate, 4);
  f.writeUInt32LE(12000 * channels, 8);
  f.writeUInt16LE(block, 0x0c);
  f.writeUInt16LE(bits, 0x0e);
  f.writeUInt16LE(size - 0x12, 0x10);
  f.writeUInt32LE(layout >>> 0, 0x14);
  return f;
}

/** Wwise's layout word: channel count, config type 1 (standard), speaker mask. */
const layoutWord = (channels: number, mask: number): number => (channels | (1 << 8) | (mask << 12)) >>> 0;

function figures(s16: Buffer, channels: number, from: number, count: number) {
  const all = new Int16Array(s16.buffer, s16.byteOffset, s16.length / 2);
  const samples = all.subarray(from * channels, (from + count) * channels);
  const rms: number[] = [];
  let peak = 0;
  for (let c = 0; c < channels; c++) {
    let sum = 0;
    for (let i = c; i < samples.length; i += channels) { sum += samples[i]! * samples[i]!; peak = Math.max(peak, Math.abs(samples[i]!)); }
    rms.push(Number(Math.sqrt(sum / count).toFixed(3)));
  }
  // A few samples in the middle of each channel, to check the order of the channels and the alignment.
  const mid = Math.floor(count / 2);
  const excerpt = Array.from({ length: channels }, (_, c) => Array.from({ length: 8 }, (_, i) => samples[(mid + i) * channels + c]!));
  return { frames: count, rms, peak, excerptAt: mid, excerpt };
}

interface Source { name: string; channels: number; expr: string; layout?: string; family255?: boolean }
const SOURCES: Source[] = [
  { name: 'stereo', channels: 2, expr: '0.5*sin(2*PI*440*t)+0.1*sin(2*PI*(200+4000*t)*t)|0.25*sin(2*PI*660*t)' },
  { name: 'mono', channels: 1, expr: '0.4*sin(2*PI*330*t)*(1+sin(2*PI*3*t))/2' },
  // 5.1 in ffmpeg's (WAVE) order, each channel its own level: FL FR FC LFE BL BR.
  { name: '5.1', channels: 6, layout: '5.1', expr: '0.5*sin(2*PI*300*t)|0.4*sin(2*PI*500*t)|0.3*sin(2*PI*700*t)|0.2*sin(2*PI*60*t)|0.15*sin(2*PI*900*t)|0.1*sin(2*PI*1100*t)' },
  // Six channels as six mono streams (mapping family 255), stored in order: no reordering anywhere.
  { name: '6ch-family255', channels: 6, layout: '5.1', family255: true, expr: '0.5*sin(2*PI*300*t)|0.4*sin(2*PI*500*t)|0.3*sin(2*PI*700*t)|0.2*sin(2*PI*60*t)|0.15*sin(2*PI*900*t)|0.1*sin(2*PI*1100*t)' },
];

const out: Record<string, unknown> = {};
execFileSync('mkdir', ['-p', tmp]);
for (const src of SOURCES) {
  const ogg = `${tmp}/${src.name}.opus`;
  ffmpeg(['-f', 'lavfi', '-i', `aevalsrc=${src.expr}:s=48000:d=0.7${src.layout ? `:c=${src.layout}` : ''}`, '-c:a', 'libopus', ...(src.family255 ? ['-mapping_family', '255'] : []), '-b:a', `${(src.family255 ? 96 : 48) * src.channels}k`, '-frame_duration', '20', ogg]);
  const oggBytes = readFileSync(ogg);
  const o = oggPackets(oggBytes);
  if (o.channels !== src.channels) throw new Error(`${src.name}: ${o.channels} channels`);
  const pcm = ffmpeg(['-flags2', '+skip_manual', '-i', ogg, '-f', 's16le', '-']);
  const total = pcm.length / 2 / src.channels;
  const samples = 33600; // 0.7 s at 48 kHz, as ffmpeg trims the Ogg stream
  const sizes = o.packets.map((p) => p.length);
  const record = (file: string, codec: string, layout: string, skip: number, bytes: Buffer) => {
    writeFileSync(dir + file, bytes);
    out[file] = {
      codec: 'OPUS', codecId: codec, layout, rate: 48000, channels: src.channels, skip, decodedByFfmpeg: total,
      decoder: 'ffmpeg (libavcodec opus, -flags2 +skip_manual) on the Ogg Opus libopus wrote', ...figures(pcm, src.channels, skip, samples),
    };
  };

  if (src.name === 'stereo' || src.name === '5.1' || src.family255) {
    // 0x3041: sizes in "seek", packets back to back in "data".
    const family = src.family255 ? 255 : src.channels > 2 ? 1 : 0;
    if (family === 1 && JSON.stringify(o.streams.slice(0, 2)) !== JSON.stringify([4, 2])) throw new Error(`5.1 streams ${o.streams}`);
    if (family === 255 && JSON.stringify(o.streams) !== JSON.stringify([6, 0, 0, 1, 2, 3, 4, 5])) throw new Error(`family 255 streams ${o.streams}`);
    const fmt = fmtHead(0x24, 0x3041, src.channels, 48000, 0, 0, src.channels === 6 ? layoutWord(6, 0x60f) : layoutWord(2, 0x3));
    fmt.writeUInt16LE(960, 0x12);
    fmt.writeInt32LE(samples, 0x18);
    fmt.writeUInt32LE(sizes.length, 0x1c);
    fmt.writeUInt16LE(o.preSkip, 0x20);
    fmt[0x22] = 1;
    fmt[0x23] = family;
    const seek = Buffer.alloc(sizes.length * 2);
    sizes.forEach((s, i) => seek.writeUInt16LE(s, i * 2));
    record(`synthetic-opus-wem-${src.name}.wem`, '0x3041', 'OPUS_WEM', o.preSkip, riff([chunk('fmt ', fmt), chunk('seek', seek), chunk('data', Buffer.concat(o.packets))]));
  }
  if (src.name === 'stereo') {
    // 0x3039: a seek table, then each packet behind a u32be size and a u32 of encoder state.
    const seekTable = Buffer.alloc(16, 0);
    const frames = Buffer.concat(o.packets.map((p) => { const h = Buffer.alloc(8); h.writeUInt32BE(p.length, 0); return Buffer.concat([h, p]); }));
    const fmt = fmtHead(0x28, 0x3039, 2, 48000, 4, 16, layoutWord(2, 0x3));
    fmt.writeInt32LE(samples, 0x18);
    fmt.writeUInt32LE(frames.length, 0x20);
    fmt.writeUInt32LE(seekTable.length, 0x24);
    record('synthetic-opusnx-stereo.wem', '0x3039', 'OPUSNX', 960 / 8, riff([chunk('fmt ', fmt), chunk('data', Buffer.concat([seekTable, frames]))]));
  }
  if (src.name === 'mono') {
    // 0x3040: the Ogg Opus file itself in "data".
    const fmt = fmtHead(0x24, 0x3040, 1, 48000, 0, 0, layoutWord(1, 0x4));
    fmt.writeInt32LE(samples, 0x18);
    fmt.writeUInt32LE(oggBytes.length, 0x1c);
    fmt.writeInt32LE(samples, 0x20);
    record('synthetic-ogg-opus-mono.wem', '0x3040', 'OGG_OPUS', o.preSkip, riff([chunk('fmt ', fmt), chunk('data', oggBytes)]));
  }
}
const version = execFileSync('ffmpeg', ['-version']).toString().split('\n')[0];
writeFileSync(dir + 'synthetic.json', JSON.stringify({ ffmpeg: version, fixtures: out }, null, 1) + '\n');
console.log(JSON.stringify(out, (k, v) => (k === 'excerpt' ? undefined : v), 1));

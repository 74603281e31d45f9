/**
 * Run once (needs ffmpeg): `npx tsx test/corpus/wwise/make-expected.mts` writes expected.json,
 * the figures of an independent decoder for each sound of this folder. Media in a bank are cut
 * out here by the bank's DIDX table (read by this script, not by PakScope's bank reader).
 * PCM: ffmpeg reads the data chunk as raw 16-bit samples. Vorbis: ffmpeg decodes the Ogg Vorbis
 * stream PakScope rebuilds (ffmpeg cannot read Wwise Vorbis itself), so the figures check the
 * rebuild and PakScope's own decoder against libavcodec's Vorbis decoder.
 */
import { createHash } from 'node:crypto';
import { execFileSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { parseWem } from '../../../src/core/assets/sound/wwise/riff.ts';
import { VORBIS_CODEBOOK_LIBRARIES, wemVorbisToOgg } from '../../../src/core/assets/sound/wwise/vorbis.ts';

const dir = fileURLToPath(new URL('.', import.meta.url));

function media(bank: Buffer): Map<number, Buffer> {
  const out = new Map<number, Buffer>();
  let didx: [number, number, number][] = [];
  let data = -1;
  for (let at = 0; at + 8 <= bank.length; at += 8 + bank.readUInt32LE(at + 4)) {
    const tag = bank.toString('latin1', at, at + 4);
    const size = bank.readUInt32LE(at + 4);
    if (tag === 'DIDX') for (let i = 0; i < size / 12; i++) didx.push([bank.readUInt32LE(at + 8 + i * 12), bank.readUInt32LE(at + 12 + i * 12), bank.readUInt32LE(at + 16 + i * 12)]);
    if (tag === 'DATA') data = at + 8;
  }
  for (const [id, off, size] of didx) out.set(id, bank.subarray(data + off, data + off + size));
  return out;
}

function figures(s16: Buffer, rate: number, channels: number) {
  const samples = new Int16Array(s16.buffer, s16.byteOffset, s16.length / 2);
  const frames = samples.length / channels;
  const rms: number[] = [];
  let peak = 0;
  for (let c = 0; c < channels; c++) {
    let sum = 0;
    for (let i = c; i < samples.length; i += channels) { sum += samples[i]! * samples[i]!; peak = Math.max(peak, Math.abs(samples[i]!)); }
    rms.push(Number(Math.sqrt(sum / frames).toFixed(3)));
  }
  return { rate, channels, frames, rms, peak, sha256: createHash('sha256').update(s16).digest('hex') };
}

function decode(bytes: Buffer, name: string) {
  const wem = parseWem(new Uint8Array(bytes), name);
  const args = (input: string[]): Buffer => execFileSync('ffmpeg', ['-v', 'error', ...input, '-f', 's16le', '-'], { input: undefined, maxBuffer: 1 << 28 });
  if (wem.codecId === 0xfffe || wem.codecId === 1) {
    const raw = execFileSync('ffmpeg', ['-v', 'error', '-f', 's16le', '-ar', String(wem.sampleRate), '-ac', String(wem.channels), '-i', '-', '-f', 's16le', '-'], { input: Buffer.from(wem.data), maxBuffer: 1 << 28 });
    return { codec: 'PCM', decoder: 'ffmpeg (the data chunk as s16le)', ...figures(raw, wem.sampleRate, wem.channels) };
  }
  if (wem.codecId === 0xffff) {
    // ffmpeg decodes a rebuild with either codebook library without complaint (libvorbis does
    // not): the library is named here per file, ME3's bank (bank version 56, Wwise 2011) being
    // the one of the standard books.
    const books = VORBIS_CODEBOOK_LIBRARIES().find((b) => b.name === (name.startsWith('ME3_') ? 'packed_codebooks.bin' : 'packed_codebooks_aoTuV_603.bin'))!;
    writeFileSync('/tmp/wwise-expected.ogg', wemVorbisToOgg(wem, name, books));
    const raw = args(['-i', '/tmp/wwise-expected.ogg']);
    return { codec: 'VORBIS', codebooks: books.name, decoder: 'ffmpeg (libavcodec vorbis) on the rebuilt Ogg', ...figures(raw, wem.sampleRate, wem.channels) };
  }
  throw new Error(`${name}: no reference decoder for codec 0x${wem.codecId.toString(16)}`);
}

const out: Record<string, unknown> = {};
for (const f of ['apcr_armor_not_pierce_small_01_3F75BDB9.wem', 'surface_hits_medium_hard_01_3F75BDB9.wem']) out[f] = decode(readFileSync(dir + f), f);
for (const [bank, ids] of [['Test.bnk', [799259675]], ['LE3_v134_1.bnk', [6098048, 1013911137]], ['ME3_v56_1.bnk', [395795462, 1010285609]]] as const) {
  const m = media(readFileSync(dir + bank));
  for (const id of ids) out[`${bank}#${id}`] = decode(m.get(id)!, `${bank}#${id}`);
}
writeFileSync(dir + 'expected.json', JSON.stringify(out, null, 1) + '\n');
console.log(JSON.stringify(out, null, 1));

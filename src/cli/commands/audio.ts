/**
 * `pakscope audio <path> [package]`: a sound's facts, and the sound written as a 16-bit PCM WAV
 * or its payload as stored (-o). The package's sound export is found through the converter
 * registry (core/assets), read by the SoundWave reader and written by the sound kind, as
 * `extract --format convert` does.
 */
import { readdir, readFile, writeFile } from 'node:fs/promises';
import { basename, dirname, extname, join } from 'node:path';
import { parseBank } from '../../core/assets/sound/wwise/bank.js';
import { installWwiseNames } from '../../core/assets/sound/wwise/install-names.js';
import { emptyNames, nameEventsByHash, readSoundbanksInfo, type WwiseNames } from '../../core/assets/sound/wwise/names.js';
import { bankListing, bankMediaSound, wemIdOfPath, withWwiseNames, type BankListing } from '../../core/assets/sound/wwise/soundbank.js';
import { convertibleExports, type ConvertibleExport, type ConvertOptions } from '../../core/assets/index.js';
import { baseName, convertSound, readSound, SOUND_CONVERSIONS } from '../../core/assets/sound/kind.js';
import { wemSound } from '../../core/assets/sound/wwise/wem.js';
import { installMediaNames, mediumIdOfPath } from '../../core/assets/sound/wwise/install-labels.js';
import { isWwiseAssetClass, readWwiseAssets, type WwiseAsset } from '../../core/assets/sound/wwise/audio-asset.js';
import type { Sound, SoundInfo } from '../../core/assets/sound/types.js';
import type { PackageModel } from '../../core/package-model.js';
import { JSON_OPTION, type Command, USMAP_OPTION } from '../command.js';
import type { Session } from '../session.js';
import { withAssetPackage, withPlainFile } from '../asset-package.js';
import { UsageError } from '../usage-error.js';
import { ENGINE_OPTION, packageOptions } from './info.js';
import { loadMappings } from './props.js';

/** What `--json` prints: the sound's facts as SoundInfo names them (issue 19's shape). */
export type AudioJson = Pick<SoundInfo, 'class' | 'format' | 'codec' | 'sampleRate' | 'channels' | 'samples' | 'durationS' | 'looping' | 'streaming' | 'chunks'>;

export const audioCommand: Command = {
  name: 'audio',
  args: '<path> [package]',
  summary: 'Describe a sound, or write it as .wav or as stored (-o)',
  description: [
    'Reads the SoundWave of a package file (<path> alone: .uasset with its .uexp and .ubulk beside',
    'it) or of a package inside the containers and folders of <path> (named as info names it):',
    'its format (PCM, ADPCM, OPUS, OGG, BINKA, RADA), sample rate, channels, length, loop flag and',
    'streamed chunks, every chunk read in order. Unversioned packages need --usmap FILE.',
    '',
    '-o FILE.wav writes the sound decoded as a 16-bit PCM WAV (format tag 1, the source rate and',
    'channels): PCM and ADPCM (MS-ADPCM, IMA). -o with the stored format\'s own extension (.ogg,',
    '.opus, .binka, .rada; .wav for PCM and ADPCM) writes the payload as stored. Opus, Vorbis,',
    'Bink Audio and RAD Audio are not decoded: save them as stored.',
    '',
    '--json prints {"class","format","sampleRate","channels","samples","durationS","looping",',
    '"streaming","chunks"}: samples per channel, durationS in seconds.',
    '',
    'Wwise media: a .wem file (on disk, or [package] naming a .wem of the install) reads as format',
    'WEM with its "codec" (PCM, IMA_ADPCM, VORBIS, OPUS, PTADPCM, ...) in --json; -o FILE.wav',
    'decodes PCM, IMA ADPCM and Vorbis (rebuilt to Ogg Vorbis as ww2ogg does, decoded by',
    'libvorbis), -o FILE.wem writes it as stored.',
    '',
    'A Wwise sound bank (.bnk) lists its events, each with the media its play actions reach, and',
    'its embedded media; events are named from the SoundbanksInfo.json/.xml beside the bank (in',
    'the install or on disk) or by the asset of the same name (Wwise ids hash names). --json',
    'prints {"events":[{"id","name","media":[id]}],"media":[{"id","bytes","codec"}]}, name null',
    'where none is known. --media ID describes one medium; with -o FILE.wav it is decoded.',
    '',
    'A Wwise event or bank asset (AkAudioEvent, AkAudioBank) prints its Wwise id, the banks it is',
    'in and the media it lists (AkMediaAsset objects up to Wwise 2021, the cooked EventCookedData',
    'from 2022); --json prints {"wwise":[{"kind","name","class","wwiseName","shortId","banks",',
    '"media":[{"id","path"}],"events"}]}.',
  ].join('\n'),
  examples: [
    'pakscope audio Paks /Game/Audio/SW_Hit -o SW_Hit.wav',
    'pakscope audio Paks /Game/Audio/SW_Music -o SW_Music.ogg --usmap Game.usmap',
    'pakscope audio Content/Audio/SW_Hit.uasset --json',
    'pakscope audio Paks Game/Content/WwiseAudio/Media/123456.wem -o 123456.wav',
    'pakscope audio Paks Game/Content/WwiseAudio/Weapons.bnk --json',
    'pakscope audio Weapons.bnk --media 799259675 -o shot.wav',
  ],
  options: {
    out: { type: 'string', short: 'o', usage: '-o, --out FILE', help: 'Write the sound to FILE: .wav (decoded) or the stored format\'s extension.' },
    usmap: USMAP_OPTION,
    engine: ENGINE_OPTION,
    media: { type: 'string', usage: '--media ID', help: 'A sound bank (.bnk): the embedded medium to describe or write (-o).' },
    json: JSON_OPTION,
  },
  positionals: { min: 1, max: 2 },

  async run(session, args, values) {
    const out = values['out'];
    let target: { path: string; extension: string } | undefined;
    if (out !== undefined) {
      if (typeof out !== 'string' || out === '' || out === '-') throw new UsageError('-o FILE names the .wav (or stored format) file to write', 'audio');
      const extension = extname(out).slice(1).toLowerCase();
      if (!(SOUND_CONVERSIONS as readonly string[]).includes(extension)) {
        throw new UsageError(`-o names a ${SOUND_CONVERSIONS.map((x) => `.${x}`).join(', ')} file, not "${out}"`, 'audio');
      }
      target = { path: out, extension };
    }
    const mediaArg = values['media'];
    let mediaId: number | undefined;
    if (mediaArg !== undefined) {
      mediaId = Number(mediaArg);
      if (typeof mediaArg !== 'string' || !/^\d+$/.test(mediaArg) || mediaId > 0xffffffff) throw new UsageError(`--media takes a medium id (a number), not "${String(mediaArg)}"`, 'audio');
    }
    const bank = await withPlainFile(session, args, 'soundbank', 'audio', async (file, _asset, install) => {
      const parsed = parseBank(file.bytes, file.path);
      const names = install ? await installWwiseNames(install, file.path, parsed.events.map((e) => e.id)) : await diskWwiseNames(file.path, parsed.events.map((e) => e.id));
      if (mediaId === undefined) {
        if (target) throw new UsageError('-o writes one medium of a bank: name it with --media ID', 'audio');
        return { listing: bankListing(file.bytes, file.path, names), sound: undefined };
      }
      const s = bankMediaSound(file.bytes, file.path, mediaId, names);
      if (target) await write(session, s, target);
      return { listing: undefined, sound: s };
    });
    if (bank) {
      if (bank.value?.listing) await printBank(session, bank.value.listing);
      else if (bank.value?.sound) await reportSound(session, bank.value.sound, target);
      return;
    }
    if (mediaId !== undefined) throw new UsageError('--media names a medium of a sound bank (.bnk)', 'audio');
    const opts: ConvertOptions = { ...packageOptions(values), ...(await loadMappings(values, 'audio')) };
    const plain = await withPlainFile(session, args, 'sound', 'audio', async (file, _asset, install) => {
      const id = wemIdOfPath(file.path);
      const named = id === undefined ? undefined : install ? await installWwiseNames(install, file.path, []) : await diskWwiseNames(file.path, []);
      const s = named ? withWwiseNames(wemSound(file.bytes, baseName(file.path), file.path), id!, named) : wemSound(file.bytes, baseName(file.path), file.path);
      if (target) await write(session, s, target);
      return s;
    });
    const sound = plain ? plain.value : await withAssetPackage(session, args, opts, 'audio', async ({ source, model, path }) => {
      if (model.exports.some((e) => isWwiseAssetClass(e.class))) {
        if (target) throw new UsageError(`${path} is a Wwise ${model.exports.find((e) => isWwiseAssetClass(e.class))!.class}: it names media, it holds no sound to write`, 'audio');
        const read = await readWwiseAssets(source, opts);
        for (const w of read.warnings) session.out.warn(`${path}: ${w}`);
        return read.assets;
      }
      let s = await readSound(source, soundExport(model, path).index, opts);
      // A Wwise media asset of an install (Media/<id>.uasset) is named by the events that play it, as the app names it.
      const id = s.format === 'WEM' && 'packages' in source ? mediumIdOfPath(path) : undefined;
      if (id !== undefined && 'packages' in source) s = withWwiseNames(s, id, await installMediaNames(source.packages, opts.mappings ? { mappings: opts.mappings } : {}));
      if (target) await write(session, s, target);
      return s;
    });
    if (!sound) return;
    if (Array.isArray(sound)) await printWwiseAssets(session, sound);
    else await reportSound(session, sound, target);
  },
};

async function reportSound(session: Session, sound: Sound, target: { path: string } | undefined): Promise<void> {
  if (sound.wwiseEvents?.length) session.out.note(`note: played by event${sound.wwiseEvents.length === 1 ? '' : 's'} ${sound.wwiseEvents.join(', ')}`);
  if (sound.originalFile) session.out.note(`note: original file: ${sound.originalFile}`);
  for (const n of sound.notes) session.out.note(`note: ${n}`);
  if (session.json) await session.out.line(JSON.stringify(audioJson(sound)));
  else if (!target) await printFacts(session, sound);
}

/** What `--json` prints for a sound bank. */
export interface BankJson {
  events: { id: number; name: string | null; media: number[] }[];
  media: { id: number; bytes: number; codec: string }[];
}

async function printBank(session: Session, b: BankListing): Promise<void> {
  for (const n of b.notes) session.out.note(`note: ${n}`);
  if (session.json) {
    const json: BankJson = { events: b.events.map((e) => ({ id: e.id, name: e.name, media: e.media })), media: b.media.map((m) => ({ id: m.id, bytes: m.bytes, codec: m.codec })) };
    await session.out.line(JSON.stringify(json));
    return;
  }
  const out = session.out;
  await out.line(`sound bank ${b.bankId} (bank version ${b.version}): ${b.events.length} event${b.events.length === 1 ? '' : 's'}, ${b.media.length} embedded medi${b.media.length === 1 ? 'um' : 'a'}`);
  for (const e of b.events) await out.line(`  event ${e.name ?? e.id}${e.name ? ` (${e.id})` : ''}: ${e.media.length > 0 ? e.media.join(', ') : 'no media'}`);
  for (const m of b.media) {
    const length = m.sampleRate > 0 ? `, ${(m.samples / m.sampleRate).toFixed(3)} s` : '';
    await out.line(`  medium ${m.id}${m.name ? ` ${m.name}` : ''}: ${m.codec}${m.sampleRate > 0 ? `, ${m.sampleRate} Hz, ${m.channels} ch` : ''}${length}, ${m.bytes} bytes`);
  }
}

async function printWwiseAssets(session: Session, assets: WwiseAsset[]): Promise<void> {
  for (const a of assets) for (const n of a.notes) session.out.note(`note: ${a.name}: ${n}`);
  if (session.json) {
    await session.out.line(JSON.stringify({ wwise: assets.map(({ notes: _notes, ...a }) => a) }));
    return;
  }
  for (const a of assets) {
    await session.out.line(`Wwise ${a.kind} ${a.wwiseName ?? a.name} (${a.class}): id ${a.shortId ?? 'unknown'}`);
    if (a.banks.length > 0) await session.out.line(`  in bank${a.banks.length === 1 ? '' : 's'} ${a.banks.map((b) => (b.id !== null ? `${b.name} (${b.id})` : b.name)).join(', ')}`);
    if (a.events.length > 0) await session.out.line(`  events: ${a.events.join(', ')}`);
    await session.out.line(a.media.length > 0 ? `  ${a.media.length} medi${a.media.length === 1 ? 'um' : 'a'}: ${a.media.map((m) => m.id).join(', ')}` : '  no media listed in the asset');
  }
}

/** Names for a bank on disk: the SoundbanksInfo.json/.xml and <bank>.json/.xml beside it. */
async function diskWwiseNames(path: string, eventIds: number[]): Promise<WwiseNames> {
  const names = emptyNames();
  const dir = dirname(path);
  const stem = basename(path).replace(/\.bnk$/i, '').toLowerCase();
  let entries: string[] = [];
  try { entries = await readdir(dir); } catch { return names; }
  for (const e of entries) {
    const lower = e.toLowerCase();
    if (!/\.(json|xml)$/.test(lower) || !(lower.startsWith('soundbanksinfo.') || lower.replace(/\.(json|xml)$/, '') === stem)) continue;
    try { readSoundbanksInfo(await readFile(join(dir, e), 'utf8'), names); } catch { /* unreadable metadata names nothing */ }
  }
  nameEventsByHash(eventIds, entries.map((e) => e.replace(/\.[^.]*$/, '')), names);
  return names;
}

export function audioJson(s: SoundInfo): AudioJson {
  return {
    class: s.class, format: s.format, ...(s.codec !== undefined ? { codec: s.codec } : {}), sampleRate: s.sampleRate, channels: s.channels, samples: s.samples,
    durationS: s.durationS, looping: s.looping, streaming: s.streaming, chunks: s.chunks,
  };
}

function soundExport(model: PackageModel, path: string): ConvertibleExport {
  const found = convertibleExports(model).find((e) => e.kind.kind === 'sound');
  if (found) return found;
  const classes = [...new Set(model.exports.map((e) => e.class))].join(', ');
  throw new UsageError(`${path} holds no sound (its exports are ${classes || 'none'})`, 'audio');
}

async function write(session: Session, sound: Sound, target: { path: string; extension: string }): Promise<void> {
  let file;
  try {
    file = await convertSound(sound, target.extension);
  } catch (e) {
    if (e instanceof RangeError) throw new UsageError(e.message, 'audio');
    throw e;
  }
  await writeFile(target.path, file.data);
  const what = file.extension === 'wav' && sound.decodable ? `WAV 16-bit PCM, ${sound.sampleRate} Hz, ${sound.channels} ch` : `${sound.format}${sound.codec ? ` ${sound.codec}` : ''} as stored`;
  session.out.note(`wrote ${target.path}: ${what}, ${file.data.length} bytes (${sound.name})`);
}

async function printFacts(session: Session, s: Sound): Promise<void> {
  const out = session.out;
  await out.line(`${s.name} (${s.class})`);
  await out.line(`  ${s.format}${s.codec ? ` ${s.codec}` : ''}, ${s.sampleRate} Hz, ${s.channels} channel${s.channels === 1 ? '' : 's'}, ${s.samples} samples (${s.durationS.toFixed(3)} s)${s.looping ? ', looping' : ''}`);
  await out.line(`  ${s.streaming ? 'streamed' : 'format container'}, ${s.chunks} chunk${s.chunks === 1 ? '' : 's'}${s.decodable ? '' : `, saved as stored (.${s.storedExtension})`}`);
  if (s.cuePoints.length > 0) await out.line(`  cue points: ${s.cuePoints.map((c) => `${c.label}${c.framePosition !== undefined ? ` @${c.framePosition}` : ''}`).join(', ')}`);
  if (s.soundClass) await out.line(`  sound class ${s.soundClass}`);
  if (s.attenuation) await out.line(`  attenuation ${s.attenuation}`);
}

/**
 * The sound kind in the converter registry: USoundWave, the app's sound view, a 16-bit PCM WAV
 * of the decodable formats and the payload as stored (.wav, .ogg, .opus, .binka, .rada) of all.
 */
import { readFile } from 'node:fs/promises';
import { detectClassicPackage } from '../../package-model.js';
import { isUe12FileName } from '../../package/package-files.js';
import { registerAssetKind, type AssetKind, type AssetSource, type ConvertedFile, type ConvertOptions } from '../registry.js';
import { decodeSoundPayload } from './decode.js';
import { SOUND_CLASSES, soundOf } from './read.js';
import { fileTextureSource, installTextureSource, type TextureSource } from '../texture/read/package-source.js';
import { mediaAssetSound, WWISE_MEDIA_CLASSES } from './wwise/media-asset.js';
import type { WorkerPool } from '../../workers/pool.js';
import type { Pcm, Sound } from './types.js';
import { readUe12Sound, UE12_SOUND_CLASSES } from './ue12.js';
import { writeWav } from './wav.js';
import { wemSound } from './wwise/wem.js';

export const SOUND_CONVERSIONS = ['wav', 'ogg', 'opus', 'binka', 'rada', 'wem'] as const;

/** Export `exportIndex` of `source` read as a sound. */
export async function readSound(source: AssetSource, exportIndex: number | undefined, opts: ConvertOptions = {}): Promise<Sound> {
  const o = {
    ...(exportIndex !== undefined ? { exportIndex } : {}),
    ...(opts.mappings ? { mappings: opts.mappings } : {}),
    ...(opts.engine !== undefined ? { engine: opts.engine } : {}),
    ...(opts.signal ? { signal: opts.signal } : {}),
  };
  if ('file' in source) {
    if (isUe12FileName(source.file)) {
      const bytes = new Uint8Array(await readFile(source.file, opts.signal ? { signal: opts.signal } : {}));
      if (detectClassicPackage(bytes).kind === 'ue12') return readUe12Sound(bytes, source.file, exportIndex);
    }
    return soundOfPackage(await fileTextureSource(source.file, o), exportIndex, o);
  }
  const loc = source.packages.locate(source.ref);
  if (loc.kind === 'ue12') return readUe12Sound(await loc.archive.read(loc.ref, opts.signal), loc.path, exportIndex);
  return soundOfPackage(await installTextureSource(source.packages, source.ref, o), exportIndex, o);
}

/** A package's SoundWave, or its Wwise media asset (the one asked for, or the first when it has no SoundWave). */
function soundOfPackage(source: TextureSource, exportIndex: number | undefined, o: { signal?: AbortSignal }): Promise<Sound> | Sound {
  const isMedia = (e: { class: string }): boolean => WWISE_MEDIA_CLASSES.includes(e.class);
  const media = exportIndex !== undefined
    ? (source.exports[exportIndex] && isMedia(source.exports[exportIndex]!) ? source.exports[exportIndex] : undefined)
    : (source.exports.some((e) => SOUND_CLASSES.includes(e.class)) ? undefined : source.exports.find(isMedia));
  return media ? mediaAssetSound(source, media, o.signal) : soundOf(source, o);
}

/** The sound decoded to 16-bit PCM (decodable formats only: Sound.decodable), in `pool`'s workers when given. */
export async function decodeSound(sound: Sound, signal?: AbortSignal, pool?: WorkerPool): Promise<Pcm> {
  // A sound that decodes itself (Wwise media: its codec and container are its own).
  if (sound.decode) return sound.decode(signal);
  const payload = await sound.readPayload(signal);
  if (!pool) return decodeSoundPayload(sound, payload);
  // The pool moves the buffer it is given: only one this view spans alone.
  const own = payload.byteOffset === 0 && payload.byteLength === payload.buffer.byteLength;
  const { name, format, sampleRate, channels, samples } = sound;
  return pool.decodeSound({ name, format, sampleRate, channels, samples }, own ? payload : payload.slice(), signal);
}

/**
 * The file of a sound: `extension` "wav" decodes (the decodable formats), the stored format's
 * own extension writes the payload as stored; undefined: WAV where it decodes, else as stored.
 */
export async function convertSound(sound: Sound, extension: string | undefined, signal?: AbortSignal, pool?: WorkerPool): Promise<ConvertedFile> {
  const ext = extension ?? (sound.decodable ? 'wav' : sound.storedExtension);
  if (ext === 'wav' && sound.decodable) {
    const pcm = await decodeSound(sound, signal, pool);
    return { suffix: '', extension: 'wav', data: writeWav(pcm), ...(pcm.errors?.length ? { note: decodeErrorsNote(pcm.errors) } : {}) };
  }
  if (ext === sound.storedExtension) {
    return {
      suffix: '', extension: ext, data: await sound.readPayload(signal),
      ...(sound.decodable ? {} : { note: `${sound.format} cannot be decoded by PakScope: written as stored (.${ext})` }),
    };
  }
  if (ext === 'wav') throw new RangeError(`${sound.format} cannot be decoded to .wav: it saves as stored (.${sound.storedExtension})`);
  const to = sound.decodable ? `.wav or .${sound.storedExtension}` : `.${sound.storedExtension}`;
  throw new RangeError(`a ${sound.format} sound converts to ${to}, not .${ext}`);
}

/** What the user reads about the parts of a sound that did not decode. */
export function decodeErrorsNote(errors: readonly string[]): string {
  const more = errors.length > 3 ? ` (and ${errors.length - 3} more)` : '';
  return `parts did not decode and are silent or missing: ${errors.slice(0, 3).join('; ')}${more}`;
}

export const soundKind: AssetKind = {
  kind: 'sound',
  view: 'sound',
  classes: [...SOUND_CLASSES, ...UE12_SOUND_CLASSES, ...WWISE_MEDIA_CLASSES],
  converts: SOUND_CONVERSIONS,
  ue12: true,
  async convert(source, exportIndex, extension, opts) {
    return [await convertSound(await readSound(source, exportIndex, opts), extension, opts.signal, opts.pool)];
  },
  fileExtensions: ['wem'],
  async convertFile(file, extension, opts) {
    return [await convertSound(wemSound(file.bytes, baseName(file.path), file.path), extension, opts.signal, opts.pool)];
  },
};

/** A file's name without its folder and extension. */
export function baseName(path: string): string {
  const name = path.slice(Math.max(path.lastIndexOf('/'), path.lastIndexOf('\\')) + 1);
  const dot = name.lastIndexOf('.');
  return dot > 0 ? name.slice(0, dot) : name;
}

registerAssetKind(soundKind);

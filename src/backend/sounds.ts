/**
 * A sound's facts for the app's sound view, with its decoded WAV (what "Save as WAV" writes):
 * the sound kind's reader and decoder, a decode error or a sound too long to preview kept as a
 * note beside the facts rather than failing the view (it still saves as stored).
 */
import { decodeErrorsNote, decodeSound } from '../core/assets/sound/kind.js';
import { decodeSoundStart } from '../core/assets/sound/progressive.js';
import type { Sound } from '../core/assets/sound/types.js';
import { writeWav } from '../core/assets/sound/wav.js';
import type { WorkerPool } from '../core/workers/pool.js';
import { MAX_SOUND_WAV, SOUND_CONVERSION_FORMATS, type SoundConversionFormat, type SoundView } from '../shared/asset-api.js';

/** What a sound saves as: a WAV where it decodes, and its payload as stored. */
export function soundConversions(sound: Sound): SoundConversionFormat[] {
  const stored = SOUND_CONVERSION_FORMATS.find((f) => f === sound.storedExtension);
  return [...(sound.decodable ? ['wav' as const] : []), ...(stored && stored !== 'wav' ? [stored] : [])];
}

/** Streamed sounds longer than this preview their first seconds at once, the whole after (soundWav). */
export const LONG_SOUND_S = 30;
/** What the first preview of a long sound holds. */
const START_S = 10;

export async function soundView(sound: Sound, path: string, signal?: AbortSignal, pool?: WorkerPool, opts: { whole?: boolean } = {}): Promise<SoundView> {
  const { readPayload: _payload, readChunk: _chunk, decode: _decode, ...facts } = sound;
  const view: SoundView = { ...facts, cuePoints: [...sound.cuePoints], notes: [...sound.notes], path, converts: soundConversions(sound) };
  if (!sound.decodable) return view;
  // 16-bit frames: past the cap the preview is skipped before decoding anything.
  const expected = 44 + sound.samples * sound.channels * 2;
  if (!opts.whole && sound.streaming && sound.chunks > 2 && sound.durationS > LONG_SOUND_S) {
    // Playback starts on the first chunks while the rest decodes (the view asks soundWav next).
    try {
      const start = await decodeSoundStart(sound, { seconds: START_S, ...(signal ? { signal } : {}), ...(pool ? { pool } : {}) });
      if (!start.complete) {
        const wav = writeWav(start.pcm);
        if (expected > MAX_SOUND_WAV) return { ...view, wav, notes: [...view.notes, `only the first ${(start.pcm.samples.length / start.pcm.channels / start.pcm.sampleRate).toFixed(1)} s preview here (the whole is over ${MAX_SOUND_WAV / 1024 / 1024} MiB of PCM): save it as WAV`] };
        return { ...view, wav, partial: true };
      }
    } catch {
      // The start alone did not decode: the whole decode below says why.
    }
  }
  if (expected > MAX_SOUND_WAV) return { ...view, decodeError: `${sound.durationS.toFixed(1)} s is too long to preview here (over ${MAX_SOUND_WAV / 1024 / 1024} MiB of PCM): save it as WAV` };
  try {
    const pcm = await decodeSound(sound, signal, pool);
    const wav = writeWav(pcm);
    if (wav.length > MAX_SOUND_WAV) return { ...view, decodeError: `too long to preview here (${wav.length} bytes of PCM): save it as WAV` };
    return { ...view, wav, ...(pcm.errors?.length ? { notes: [...view.notes, decodeErrorsNote(pcm.errors)] } : {}) };
  } catch (e) {
    return { ...view, decodeError: e instanceof Error ? e.message : String(e) };
  }
}

/**
 * The start of a long streamed sound, decoded alone so playback can begin while the rest
 * decodes: the engine streams a sound in chunks (FStreamedAudioChunk): the first holds the
 * format's header, the next ones its first seconds. Reads only the chunks that cover `seconds`, decodes
 * them as a partial payload (its cut end expected), in the worker pool when given.
 */
import type { WorkerPool } from '../../workers/pool.js';
import { decodeSoundPayload } from './decode.js';
import { decodeSound } from './kind.js';
import type { Pcm, Sound } from './types.js';

export interface SoundStart {
  pcm: Pcm;
  /** The whole sound was decoded (it is short, or has one chunk). */
  complete: boolean;
  /** Chunks read for it. */
  chunks: number;
}

export async function decodeSoundStart(sound: Sound, opts: { seconds?: number; signal?: AbortSignal; pool?: WorkerPool } = {}): Promise<SoundStart> {
  const seconds = opts.seconds ?? 10;
  // The cook puts the format's header alone in the first chunk (the "zeroth chunk"): it and the
  // audio chunks that cover `seconds`.
  const audio = sound.chunks - 1;
  const need = 1 + (sound.durationS > 0 ? Math.max(1, Math.ceil((audio * seconds) / sound.durationS)) : 1);
  if (!sound.readChunk || sound.decode || sound.chunks <= 1 || need >= sound.chunks) {
    return { pcm: await decodeSound(sound, opts.signal, opts.pool), complete: true, chunks: sound.chunks };
  }
  const parts: Uint8Array[] = [];
  for (let i = 0; i < need; i++) parts.push(await sound.readChunk(i, opts.signal));
  const payload = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const p of parts) { payload.set(p, at); at += p.length; }
  const { name, format, sampleRate, channels, samples } = sound;
  const pcm = opts.pool
    ? await opts.pool.decodeSound({ name, format, sampleRate, channels, samples, partial: true, maxSeconds: seconds }, payload, opts.signal)
    : await decodeSoundPayload(sound, payload, { partial: true, maxSeconds: seconds });
  return { pcm, complete: false, chunks: need };
}

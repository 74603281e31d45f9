/** A sound as the sound kind reads it: its facts at once, its stored payload and PCM on demand. */

/** 16-bit PCM, channels interleaved. */
export interface Pcm {
  sampleRate: number;
  channels: number;
  /** Interleaved samples: frames x channels. */
  samples: Int16Array;
  /** Parts that did not decode (a corrupt packet, a chunk cut short): silence or nothing in their place. */
  errors?: string[];
}

export interface SoundCuePoint {
  label: string;
  /** In frames from the start, where the engine stores it. */
  framePosition?: number;
}

export interface SoundInfo {
  class: string;
  name: string;
  /** The engine's name of the stored payload's format: PCM, ADPCM, OPUS, OGG, BINKA, RADA, ...; WEM for Wwise media. */
  format: string;
  /** Wwise media: the codec inside the .wem (PCM, IMA_ADPCM, VORBIS, OPUS, PTADPCM, ...). */
  codec?: string;
  sampleRate: number;
  channels: number;
  /** Frames (samples per channel); 0 when the package does not say. */
  samples: number;
  durationS: number;
  looping: boolean;
  /** Stored as streamed platform data (FStreamedAudioPlatformData) rather than a format container. */
  streaming: boolean;
  /** Chunks of the streamed data (1 for a format container's payload). */
  chunks: number;
  cuePoints: SoundCuePoint[];
  /** The SoundClass and attenuation settings the sound names, where it does. */
  soundClass?: string;
  attenuation?: string;
  /** Wwise media: the events that play it, as the install's metadata or event assets name them. */
  wwiseEvents?: string[];
  /** Wwise media: the file it was made from ("Hit_01.wav"), and where Wwise put it, as the metadata says. */
  originalFile?: string;
  /** Whether PakScope decodes the format to PCM. */
  decodable: boolean;
  /** The stored payload's own file extension ("wav", "ogg", "opus", "binka", "rada"). */
  storedExtension: string;
  notes: string[];
}

export interface Sound extends SoundInfo {
  /** The stored payload: every chunk's audio bytes, in order. */
  readPayload(signal?: AbortSignal): Promise<Uint8Array>;
  /** A sound that decodes itself (Wwise media); others decode through decodeSoundPayload. */
  decode?(signal?: AbortSignal): Promise<Pcm>;
  /** Chunk `index`'s audio bytes alone (0 to chunks - 1; the payload is these end to end), where chunks are read apart. */
  readChunk?(index: number, signal?: AbortSignal): Promise<Uint8Array>;
}

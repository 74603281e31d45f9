// Placeholder; the codecs work fills in every codec (None, Zlib, Gzip, LZ4, Oodle, ...).
import type { Codec } from './codec.js';
import { UnsupportedCodecError } from '../errors.js';
const none: Codec = { name: 'None', decode: (i) => i };
export function getCodec(name: string): Codec {
  if (name.toLowerCase() === 'none' || name === '') return none;
  throw new UnsupportedCodecError(name);
}

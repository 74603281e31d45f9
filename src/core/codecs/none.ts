import { DecodeError } from '../errors.js';
import type { Codec } from './codec.js';

/** Stored blocks: the bytes are the data (returned as a view, not copied). */
export const noneCodec: Codec = {
  name: 'None',
  decode(input, uncompressedSize) {
    if (input.length !== uncompressedSize) {
      throw new DecodeError('None', `stored block holds ${input.length} bytes but ${uncompressedSize} are declared`);
    }
    return input;
  },
};

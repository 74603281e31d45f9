import * as zlib from 'node:zlib';
import { UnsupportedCodecError } from '../errors.js';
import type { Codec } from './codec.js';
import { nodeZlibCodec } from './node-zlib.js';

// node:zlib gained zstd in Node 22.15 / 23.8: Electron 38 has it, Node 20 does not.
const zstdDecompressSync = (zlib as { zstdDecompressSync?: (input: Uint8Array, options: zlib.ZlibOptions) => Buffer })
  .zstdDecompressSync;

/** An RLE block: 3 header bytes and 1 byte repeated up to 128 KiB. */
const ZSTD_MAX_RATIO = 32768;

/** "Zstd", which some games register as a custom method. */
export const zstdCodec: Codec = zstdDecompressSync
  ? nodeZlibCodec('Zstd', zstdDecompressSync, ZSTD_MAX_RATIO)
  : {
      name: 'Zstd',
      decode() {
        throw new UnsupportedCodecError('Zstd', `node:zlib of Node.js ${process.version} has no zstd decoder (it needs 22.15 or later)`);
      },
    };

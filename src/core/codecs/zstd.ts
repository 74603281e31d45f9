import * as zlib from 'node:zlib';
import { decompress as fzstdDecompress } from 'fzstd';
import { checkDecodedSize, checkDeclaredSize, type Codec } from './codec.js';
import { DecodeError } from '../errors.js';
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
      // Node 20's zlib has no zstd: fzstd (pure JS, by fflate's author) decodes into a buffer of
      // exactly the declared size, so a hostile frame cannot make it allocate more.
      name: 'Zstd',
      decode(input, size) {
        checkDeclaredSize('Zstd', size, input.length, ZSTD_MAX_RATIO);
        // fzstd fills the buffer it is given without saying how much it wrote, so the frame's own
        // content size is what tells a wrong declared size.
        const stated = frameContentSize(input);
        if (stated !== null && stated !== size) {
          throw new DecodeError('Zstd', `frame holds ${stated} bytes but ${size} are declared`);
        }
        const out = new Uint8Array(size);
        let got: Uint8Array;
        try {
          got = fzstdDecompress(input, out);
        } catch (e) {
          throw new DecodeError('Zstd', (e as Error).message);
        }
        return checkDecodedSize('Zstd', got, size);
      },
    };

/** Frame_Content_Size from a zstd frame header, or null when the frame does not state it. */
function frameContentSize(b: Uint8Array): number | null {
  if (b.length < 6 || b[0] !== 0x28 || b[1] !== 0xb5 || b[2] !== 0x2f || b[3] !== 0xfd) {
    throw new DecodeError('Zstd', 'no zstd frame magic');
  }
  const fhd = b[4]!;
  const fcsFlag = fhd >> 6;
  const singleSegment = (fhd >> 5) & 1;
  let at = 5 + (singleSegment ? 0 : 1) + [0, 1, 2, 4][fhd & 3]!;
  const width = [singleSegment ? 1 : 0, 2, 4, 8][fcsFlag]!;
  if (width === 0) return null;
  if (at + width > b.length) throw new DecodeError('Zstd', 'frame header is cut short');
  let v = 0;
  for (let i = width - 1; i >= 0; i--) v = v * 256 + b[at + i]!;
  return width === 2 ? v + 256 : v;
}

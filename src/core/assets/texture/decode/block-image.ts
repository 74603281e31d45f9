/**
 * The one loop every block-compressed format shares: walk the blocks of one 2D image in storage
 * order (rows of blocks, left to right) and let a block decoder write each block's pixels straight
 * into the output image at a stride, as bcdec's functions do. Blocks that stick out past the right
 * or bottom edge (a 1x1 or 2x2 mip stored as a whole 4x4 block, a 100-pixel-wide ASTC 12x12 image)
 * are decoded into a scratch block and only their inside pixels copied.
 *
 * Pixels are packed RGBA in one 32-bit word, R in the low byte: on a little-endian machine (every
 * machine Node and Electron run on) a Uint32Array over the output bytes is then R, G, B, A in
 * memory order, which is what DecodedImage.rgba holds.
 */

/** Decodes one block at src[srcOffset] into dst (packed RGBA words) at dstOffset, rows dstPitch words apart. */
export type BlockDecoder = (src: Uint8Array, srcOffset: number, dst: Uint32Array, dstOffset: number, dstPitch: number) => void;

/** The same for HDR formats: RGBA floats, dstOffset and dstPitch counted in floats. */
export type FloatBlockDecoder = (src: Uint8Array, srcOffset: number, dst: Float32Array, dstOffset: number, dstPitch: number) => void;

if (new Uint8Array(new Uint32Array([0x01020304]).buffer)[0] !== 4) {
  throw new Error('PakScope texture decoders need a little-endian machine');
}

/**
 * Decodes every block of a width x height image into RGBA bytes: `into` (at least width x height
 * x 4 bytes, at a 4-byte aligned offset) or new ones. The caller has checked the data's size.
 */
export function decodeBlockImage(
  data: Uint8Array, width: number, height: number,
  blockWidth: number, blockHeight: number, blockBytes: number, decodeBlock: BlockDecoder, into?: Uint8Array,
): Uint8Array {
  const rgba = into ?? new Uint8Array(width * height * 4);
  const out = wordsOf(rgba, width * height);
  const blocksX = Math.ceil(width / blockWidth);
  const blocksY = Math.ceil(height / blockHeight);
  const fullX = Math.floor(width / blockWidth);
  const scratch = new Uint32Array(blockWidth * blockHeight);
  let src = 0;
  for (let by = 0; by < blocksY; by++) {
    const y0 = by * blockHeight;
    const rows = Math.min(blockHeight, height - y0);
    const rowStart = y0 * width;
    if (rows === blockHeight) {
      for (let bx = 0; bx < fullX; bx++) {
        decodeBlock(data, src, out, rowStart + bx * blockWidth, width);
        src += blockBytes;
      }
    } else {
      for (let bx = 0; bx < fullX; bx++) {
        decodeBlock(data, src, scratch, 0, blockWidth);
        copyPart(scratch, blockWidth, out, rowStart + bx * blockWidth, width, blockWidth, rows);
        src += blockBytes;
      }
    }
    if (fullX < blocksX) {
      decodeBlock(data, src, scratch, 0, blockWidth);
      copyPart(scratch, blockWidth, out, rowStart + fullX * blockWidth, width, width - fullX * blockWidth, rows);
      src += blockBytes;
    }
  }
  return rgba;
}

/** The first `pixels` packed RGBA words of `rgba` (whose byte offset is a multiple of 4). */
export function wordsOf(rgba: Uint8Array, pixels: number): Uint32Array {
  return new Uint32Array(rgba.buffer, rgba.byteOffset, pixels);
}

function copyPart(from: Uint32Array, fromPitch: number, to: Uint32Array, at: number, pitch: number, cols: number, rows: number): void {
  for (let y = 0; y < rows; y++) {
    for (let x = 0; x < cols; x++) to[at + y * pitch + x] = from[y * fromPitch + x]!;
  }
}

/** decodeBlockImage for HDR formats: RGBA floats (4 per pixel), into `into` or new ones. */
export function decodeFloatBlockImage(
  data: Uint8Array, width: number, height: number,
  blockWidth: number, blockHeight: number, blockBytes: number, decodeBlock: FloatBlockDecoder, into?: Float32Array,
): Float32Array {
  const out = into ?? new Float32Array(width * height * 4);
  const blocksX = Math.ceil(width / blockWidth);
  const blocksY = Math.ceil(height / blockHeight);
  const scratch = new Float32Array(blockWidth * blockHeight * 4);
  const pitch = width * 4;
  let src = 0;
  for (let by = 0; by < blocksY; by++) {
    const y0 = by * blockHeight;
    const rows = Math.min(blockHeight, height - y0);
    for (let bx = 0; bx < blocksX; bx++) {
      const x0 = bx * blockWidth;
      const cols = Math.min(blockWidth, width - x0);
      const at = y0 * pitch + x0 * 4;
      if (rows === blockHeight && cols === blockWidth) {
        decodeBlock(data, src, out, at, pitch);
      } else {
        decodeBlock(data, src, scratch, 0, blockWidth * 4);
        for (let y = 0; y < rows; y++) {
          for (let x = 0; x < cols * 4; x++) out[at + y * pitch + x] = scratch[y * blockWidth * 4 + x]!;
        }
      }
      src += blockBytes;
    }
  }
  return out;
}

/** The 8-bit image of float RGBA (into `into` or new bytes): each channel clamped to [0, 1], times 255, truncated (the HDR rule). */
export function floatToRgba8(float: Float32Array, into?: Uint8Array): Uint8Array {
  const rgba = into ?? new Uint8Array(float.length);
  for (let i = 0; i < float.length; i++) {
    const v = float[i]!;
    // Math.fround: the product rounded to single precision first, as a float32 decoder computes it.
    rgba[i] = v > 0 ? (v >= 1 ? 255 : Math.fround(v * 255)) : 0;
  }
  return rgba;
}

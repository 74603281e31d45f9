/**
 * Radiance .hdr writer: the floats of an HDR texture as RGBE (a shared 8-bit exponent), with
 * the run-length encoding of the "new" Radiance format for rows 8 to 32767 pixels wide (other
 * rows flat, which readers accept). Alpha is not kept: Radiance has none.
 */

export interface FloatImage {
  width: number;
  height: number;
  /** width x height x 4 floats, RGBA. */
  float: Float32Array;
}

export function encodeHdr(image: FloatImage): Uint8Array {
  const { width, height, float } = image;
  if (!Number.isInteger(width) || !Number.isInteger(height) || width < 1 || height < 1) throw new RangeError(`an image is at least 1x1, not ${width}x${height}`);
  if (float.length < width * height * 4) throw new RangeError(`${width}x${height} RGBA floats need ${width * height * 4} values, not ${float.length}`);
  const header = new TextEncoder().encode(`#?RADIANCE\nFORMAT=32-bit_rle_rgbe\n\n-Y ${height} +X ${width}\n`);
  const rle = width >= 8 && width <= 0x7fff;
  const parts: Uint8Array[] = [header];
  const rgbe = new Uint8Array(width * 4);
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      const i = (y * width + x) * 4;
      toRgbe(float[i]!, float[i + 1]!, float[i + 2]!, rgbe, x * 4);
    }
    parts.push(rle ? rleRow(rgbe, width) : rgbe.slice());
  }
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const p of parts) {
    out.set(p, at);
    at += p.length;
  }
  return out;
}

/** Negative values and NaN are written as 0; what is too big for RGBE as its largest. */
function toRgbe(r: number, g: number, b: number, out: Uint8Array, at: number): void {
  r = r > 0 ? r : 0;
  g = g > 0 ? g : 0;
  b = b > 0 ? b : 0;
  const m = Math.max(r, g, b);
  if (m < 1e-32) {
    out[at] = out[at + 1] = out[at + 2] = out[at + 3] = 0;
    return;
  }
  // m = f * 2^e with f in [0.5, 1); each channel scaled by 256 / 2^e.
  let e = Math.ceil(Math.log2(m));
  if (m / 2 ** e >= 1) e++;
  if (e > 127) {
    out[at] = out[at + 1] = out[at + 2] = 255;
    out[at + 3] = 255;
    return;
  }
  const scale = 256 / 2 ** e;
  out[at] = Math.min(255, Math.floor(r * scale));
  out[at + 1] = Math.min(255, Math.floor(g * scale));
  out[at + 2] = Math.min(255, Math.floor(b * scale));
  out[at + 3] = e + 128;
}

/** One row: 2, 2, width (16 bits), then each of the four channels run-length encoded. */
function rleRow(rgbe: Uint8Array, width: number): Uint8Array {
  const out: number[] = [2, 2, width >> 8, width & 255];
  const channel = new Uint8Array(width);
  for (let c = 0; c < 4; c++) {
    for (let x = 0; x < width; x++) channel[x] = rgbe[x * 4 + c]!;
    let x = 0;
    while (x < width) {
      // A run of at least 3 equal bytes goes as a run; the bytes before it as a literal dump.
      let run = 1;
      while (x + run < width && run < 127 && channel[x + run] === channel[x]) run++;
      if (run >= 3) {
        out.push(128 + run, channel[x]!);
        x += run;
        continue;
      }
      let end = x;
      while (end < width && end - x < 128) {
        if (end + 2 < width && channel[end] === channel[end + 1] && channel[end] === channel[end + 2]) break;
        end++;
      }
      out.push(end - x);
      for (let i = x; i < end; i++) out.push(channel[i]!);
      x = end;
    }
  }
  return Uint8Array.from(out);
}

/**
 * The type-III DCT (the inverse of the type-II) of a power-of-two length through one complex FFT
 * of the same length (Makhoul's reordering): what Bink Audio's frames are transformed with.
 *
 *   out[k] = in[0] + 2 * sum_{n=1}^{N-1} in[n] * cos(pi * n * (2k + 1) / (2N))
 */
export class Dct3 {
  private readonly n: number;
  private readonly cos: Float64Array;
  private readonly sin: Float64Array;
  private readonly twCos: Float64Array;
  private readonly twSin: Float64Array;
  private readonly rev: Uint32Array;
  private readonly re: Float64Array;
  private readonly im: Float64Array;

  constructor(n: number) {
    if (n < 2 || (n & (n - 1)) !== 0) throw new RangeError(`DCT length ${n} is not a power of two`);
    this.n = n;
    this.cos = new Float64Array(n);
    this.sin = new Float64Array(n);
    for (let i = 0; i < n; i++) {
      this.cos[i] = Math.cos((Math.PI * i) / (2 * n));
      this.sin[i] = Math.sin((Math.PI * i) / (2 * n));
    }
    this.twCos = new Float64Array(n / 2);
    this.twSin = new Float64Array(n / 2);
    for (let i = 0; i < n / 2; i++) {
      this.twCos[i] = Math.cos((2 * Math.PI * i) / n);
      this.twSin[i] = Math.sin((2 * Math.PI * i) / n);
    }
    const bits = Math.log2(n);
    this.rev = new Uint32Array(n);
    for (let i = 0; i < n; i++) {
      let r = 0;
      for (let b = 0; b < bits; b++) r |= ((i >> b) & 1) << (bits - 1 - b);
      this.rev[i] = r;
    }
    this.re = new Float64Array(n);
    this.im = new Float64Array(n);
  }

  /** Transforms `data` (length N) in place. */
  run(data: Float32Array): void {
    const { n, re, im, rev } = this;
    // W[k] = e^{i pi k / 2N} (X[k] - i X[N-k]), X[N] = 0; stored bit-reversed for the FFT.
    for (let k = 0; k < n; k++) {
      const a = data[k]!;
      const b = k === 0 ? 0 : -data[n - k]!;
      const c = this.cos[k]!;
      const s = this.sin[k]!;
      const j = rev[k]!;
      re[j] = a * c - b * s;
      im[j] = a * s + b * c;
    }
    // Radix-2 FFT with e^{+i} twiddles (an unnormalized inverse DFT).
    for (let size = 2; size <= n; size <<= 1) {
      const half = size >> 1;
      const step = n / size;
      for (let start = 0; start < n; start += size) {
        for (let k = 0; k < half; k++) {
          const wr = this.twCos[k * step]!;
          const wi = this.twSin[k * step]!;
          const p = start + k;
          const q = p + half;
          const xr = re[q]! * wr - im[q]! * wi;
          const xi = re[q]! * wi + im[q]! * wr;
          re[q] = re[p]! - xr;
          im[q] = im[p]! - xi;
          re[p] = re[p]! + xr;
          im[p] = im[p]! + xi;
        }
      }
    }
    for (let m = 0; m < n / 2; m++) {
      data[2 * m] = re[m]!;
      data[2 * m + 1] = re[n - 1 - m]!;
    }
  }
}

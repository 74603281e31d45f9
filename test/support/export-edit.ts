/**
 * Bad-input tests made from real exports: find a run of u32 words in an export's bytes, and give a
 * package source whose export has a changed copy of its bytes.
 */
import type { TextureSource } from '../../src/core/assets/texture/read/package-source.js';

/** Offset of the first occurrence of `words` (u32 little-endian) in `bytes`. */
export function findWords(bytes: Uint8Array, words: number[]): number {
  const pattern = new Uint8Array(new Uint32Array(words).buffer);
  outer: for (let i = 0; i + pattern.length <= bytes.length; i++) {
    for (let j = 0; j < pattern.length; j++) if (bytes[i + j] !== pattern[j]) continue outer;
    return i;
  }
  throw new Error('pattern not found');
}

/** The source with export `name`'s bytes replaced by a changed copy. */
export function editExport(s: TextureSource, name: string, change: (b: Uint8Array, v: DataView) => Uint8Array | void): TextureSource {
  const exp = s.exports.find((e) => e.name === name);
  if (!exp) throw new Error(`no export ${name}`);
  const b = exp.bytes.slice();
  exp.bytes = change(b, new DataView(b.buffer)) ?? b;
  return s;
}

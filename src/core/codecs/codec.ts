/**
 * One decompressor. Each codec lives in its own file in this folder and is listed in registry.ts.
 * `decode` gets exactly the compressed bytes and the uncompressed size the container declares and
 * must return exactly that many bytes, or throw.
 */
export interface Codec {
  /** Canonical name as the engine writes it in method tables: None, Zlib, Gzip, LZ4, Oodle, Zstd. */
  readonly name: string;
  decode(input: Uint8Array, uncompressedSize: number): Uint8Array;
}

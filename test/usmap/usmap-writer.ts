/**
 * Test helper: rewrites a compressed .usmap as a stored one (method None) so tests can read
 * Zstd-compressed mappings on a Node without a zstd decoder. The block is decompressed with
 * node:zlib when it has zstd, else with the zstd command-line tool; undefined when neither exists.
 */
import { spawnSync } from 'node:child_process';
import * as zlib from 'node:zlib';

const COMPRESSION_ZSTD = 3;

/** Where the compression method byte sits: after magic, version and (from version 1) the versioning flag. */
function header(bytes: Uint8Array): { methodAt: number; versioned: boolean } {
  const v = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const version = bytes[2]!;
  if (version >= 1 && v.getUint32(3, true) !== 0) return { methodAt: -1, versioned: true };
  return { methodAt: version >= 1 ? 7 : 3, versioned: false };
}

function zstdDecompress(block: Uint8Array): Uint8Array | undefined {
  const native = (zlib as { zstdDecompressSync?: (b: Uint8Array) => Buffer }).zstdDecompressSync;
  if (native) return new Uint8Array(native(block));
  const cli = spawnSync('zstd', ['-d', '-c', '-q'], { input: block, maxBuffer: 256 * 1024 * 1024 });
  return cli.status === 0 ? new Uint8Array(cli.stdout) : undefined;
}

/** The same mappings, stored uncompressed; undefined when no zstd decoder is at hand. */
export function storedUsmap(bytes: Uint8Array): Uint8Array | undefined {
  const { methodAt, versioned } = header(bytes);
  if (versioned) throw new Error('storedUsmap: versioned .usmap headers are not handled by this helper');
  const v = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  if (bytes[methodAt] !== COMPRESSION_ZSTD) return bytes;
  const compressedSize = v.getUint32(methodAt + 1, true);
  const block = bytes.subarray(methodAt + 9, methodAt + 9 + compressedSize);
  const schema = zstdDecompress(block);
  if (!schema) return undefined;
  const out = new Uint8Array(methodAt + 9 + schema.length);
  out.set(bytes.subarray(0, methodAt));
  const w = new DataView(out.buffer);
  out[methodAt] = 0;
  w.setUint32(methodAt + 1, schema.length, true);
  w.setUint32(methodAt + 5, schema.length, true);
  out.set(schema, methodAt + 9);
  return out;
}

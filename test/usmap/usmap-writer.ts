/**
 * Test helper: rewrites a Zstd-compressed .usmap as a stored one (method None), so tests can pass
 * both forms. The block is decompressed with the project's Zstd codec.
 */
import { getCodec } from '../../src/core/codecs/registry.js';

const COMPRESSION_ZSTD = 3;

/** Where the compression method byte sits: after magic, version and (from version 1) the versioning flag. */
function header(bytes: Uint8Array): { methodAt: number; versioned: boolean } {
  const v = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const version = bytes[2]!;
  if (version >= 1 && v.getUint32(3, true) !== 0) return { methodAt: -1, versioned: true };
  return { methodAt: version >= 1 ? 7 : 3, versioned: false };
}

function zstdDecompress(block: Uint8Array, size: number): Uint8Array {
  return getCodec('Zstd').decode(block, size);
}

/** The same mappings, stored uncompressed (decompressed with the project's Zstd codec, always at hand). */
export function storedUsmap(bytes: Uint8Array): Uint8Array {
  const { methodAt, versioned } = header(bytes);
  if (versioned) throw new Error('storedUsmap: versioned .usmap headers are not handled by this helper');
  const v = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  if (bytes[methodAt] !== COMPRESSION_ZSTD) return bytes;
  const compressedSize = v.getUint32(methodAt + 1, true);
  const block = bytes.subarray(methodAt + 9, methodAt + 9 + compressedSize);
  const schema = zstdDecompress(block, v.getUint32(methodAt + 5, true));
  const out = new Uint8Array(methodAt + 9 + schema.length);
  out.set(bytes.subarray(0, methodAt));
  const w = new DataView(out.buffer);
  out[methodAt] = 0;
  w.setUint32(methodAt + 1, schema.length, true);
  w.setUint32(methodAt + 5, schema.length, true);
  out.set(schema, methodAt + 9);
  return out;
}

/**
 * A small mappings file of an old version (0: u8 name lengths and enum counts; 1: the same with
 * package versioning), stored uncompressed: one enum and one struct.
 */
export function smallUsmap(version: 0 | 1): Uint8Array {
  const names = ['EColor', 'Red', 'Green', 'Thing', 'Count', 'Tint', 'Values'];
  const s: number[] = [];
  const u8 = (v: number): void => { s.push(v & 0xff); };
  const u16 = (v: number): void => { u8(v); u8(v >> 8); };
  const i32 = (v: number): void => { u16(v & 0xffff); u16((v >>> 16) & 0xffff); };
  i32(names.length);
  for (const n of names) { u8(n.length); for (const c of n) u8(c.charCodeAt(0)); }
  i32(1); i32(0); u8(2); i32(1); i32(2); // EColor { Red, Green }
  i32(1); i32(3); i32(-1); u16(3); u16(3); // Thing, no super, 3 slots
  u16(0); u8(1); i32(4); u8(2); // Count: IntProperty
  u16(1); u8(1); i32(5); u8(26); u8(0); i32(0); // Tint: EnumProperty(ByteProperty, EColor)
  u16(2); u8(1); i32(6); u8(8); u8(3); // Values: ArrayProperty(FloatProperty)
  const head: number[] = [0xc4, 0x30, version];
  const h32 = (v: number): void => { head.push(v & 0xff, (v >> 8) & 0xff, (v >> 16) & 0xff, (v >>> 24) & 0xff); };
  if (version === 1) {
    h32(1); h32(522); h32(1012); h32(1);
    for (let i = 0; i < 16; i++) head.push(i);
    h32(7); h32(123456);
  }
  head.push(0);
  h32(s.length); h32(s.length);
  return new Uint8Array([...head, ...s]);
}

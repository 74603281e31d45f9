/**
 * The two 16-bit hashes stored with each name map entry (UE4 NAME_HASHES_SERIALIZED on):
 * the low halves of FCrc::Strihash_DEPRECATED (case-insensitive) and FCrc::StrCrc32
 * (case-preserving). Checked on every versioned package in corpus/; tools that rewrite
 * packages (UAssetAPI, retoc) may store zeros instead.
 */

/** CRC-32 table, reflected (StrCrc32). */
const CRC_TABLE = new Uint32Array(256);
/** The MSB-first table the deprecated hash indexes like a reflected one (its historical quirk). */
const CRC_TABLE_DEPRECATED = new Uint32Array(256);
for (let i = 0; i < 256; i++) {
  let c = i;
  for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
  CRC_TABLE[i] = c >>> 0;
  let m = i << 24;
  for (let k = 0; k < 8; k++) m = m & 0x80000000 ? (m << 1) ^ 0x04c11db7 : m << 1;
  CRC_TABLE_DEPRECATED[i] = m >>> 0;
}

// eslint-disable-next-line no-control-regex
const NON_ASCII = /[^\x00-\x7f]/;

/** FCrc::Strihash_DEPRECATED: upper-cased characters, one byte each (two for a wide name). */
export function strihashDeprecated(name: string): number {
  const wide = NON_ASCII.test(name);
  const upper = name.toUpperCase();
  let h = 0;
  for (let i = 0; i < upper.length; i++) {
    const c = upper.charCodeAt(i);
    h = ((h >>> 8) & 0x00ffffff) ^ CRC_TABLE_DEPRECATED[(h ^ c) & 0xff]!;
    if (wide) h = ((h >>> 8) & 0x00ffffff) ^ CRC_TABLE_DEPRECATED[(h ^ (c >>> 8)) & 0xff]!;
  }
  return h >>> 0;
}

/** FCrc::StrCrc32: each character as four little-endian bytes. */
export function strCrc32(name: string): number {
  let c = 0xffffffff;
  for (let i = 0; i < name.length; i++) {
    let ch = name.charCodeAt(i);
    for (let k = 0; k < 4; k++) {
      c = (c >>> 8) ^ CRC_TABLE[(c ^ ch) & 0xff]!;
      ch >>>= 8;
    }
  }
  return (~c) >>> 0;
}

/** Whether stored name hashes are those of the name (null when none or zeros are stored). */
export function nameHashesMatch(name: string, nonCasePreserving: number | null, casePreserving: number | null): boolean | null {
  if (nonCasePreserving === null || casePreserving === null) return null;
  if (nonCasePreserving === 0 && casePreserving === 0) return null;
  return (strihashDeprecated(name) & 0xffff) === nonCasePreserving && (strCrc32(name) & 0xffff) === casePreserving;
}

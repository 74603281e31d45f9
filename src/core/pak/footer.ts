/**
 * The pak footer (FPakInfo), found from the end of the file. Fields were added in front of the
 * magic (key GUID, index-encrypted byte) and behind the index hash (frozen byte, method names,
 * pakchunk index, encryption method and IVs), so the footer's size depends on the version and
 * the magic is looked for at each size a real pak can have.
 */
import { FormatError } from '../errors.js';
import { BinaryReader } from '../io/binary-reader.js';
import type { ByteSource } from '../io/byte-source.js';
import { LATEST_PAK_VERSION, PAK_MAGIC, PakVersion } from './version.js';

export { PakVersion, PAK_MAGIC, pakVersionName } from './version.js';

const METHOD_NAME_LENGTH = 32;
const IV_LENGTH = 12;

export type PakEncryptionMethod = 'None' | 'AES-ECB' | 'AES-CTR';

export interface PakFooter {
  version: PakVersion;
  /** "8A" / "8B" for version 8 (four or five method slots), else the version number. */
  label: string;
  /** Offset of the footer's first byte (the GUID from v7, the encrypted byte in v4-6). */
  offset: number;
  size: number;
  /** 32 uppercase hex digits (from v7), else null. */
  encryptionKeyGuid: string | null;
  indexEncrypted: boolean;
  indexOffset: number;
  indexSize: number;
  /** SHA1 of the (decrypted, padded) primary index. */
  indexHash: Uint8Array;
  /** v9 only: the index is a frozen memory image. */
  frozenIndex: boolean;
  /**
   * Compression method per slot: entries store 0 for none, n for slot n-1. From v8 these are the
   * footer's names ("" for an empty slot); before v8 entries store flags instead (see entry.ts).
   */
  compressionMethods: string[];
  /** v14+: the pakchunk this pak belongs to, or null. */
  pakchunkIndex: number | null;
  /** v15+ says it; older paks are AES-ECB by definition. */
  encryptionMethod: PakEncryptionMethod;
  /** v15+ AES-CTR: 12-byte IVs of the primary index, the path-hash index and the full directory index. */
  indexIv: Uint8Array | null;
  pathHashIndexIv: Uint8Array | null;
  fullDirectoryIndexIv: Uint8Array | null;
}

/** One footer size a pak can have: what follows the index hash, and which versions use it. */
interface FooterLayout {
  methodSlots: number;
  frozenByte: boolean;
  pakchunkIndex: boolean;
  encryptionMethod: boolean;
  accepts(version: number): boolean;
}

const LAYOUTS: readonly FooterLayout[] = [
  // UE5.x/6: pakchunk index, then the encryption method and three IVs.
  { methodSlots: 5, frozenByte: false, pakchunkIndex: true, encryptionMethod: true, accepts: (v) => v >= PakVersion.EncryptionMethod },
  { methodSlots: 5, frozenByte: false, pakchunkIndex: true, encryptionMethod: false, accepts: (v) => v >= PakVersion.PakchunkIndex },
  // UE4.25 (v9) has the frozen byte.
  { methodSlots: 5, frozenByte: true, pakchunkIndex: false, encryptionMethod: false, accepts: (v) => v === PakVersion.FrozenIndex },
  // UE4.23 "8B" and every later version that adds nothing behind the names (10-13, and 14/15 written without their fields).
  { methodSlots: 5, frozenByte: false, pakchunkIndex: false, encryptionMethod: false, accepts: (v) => v === PakVersion.FNameBasedCompressionMethod || v >= PakVersion.PathHashIndex },
  // UE4.22 "8A": four method slots.
  { methodSlots: 4, frozenByte: false, pakchunkIndex: false, encryptionMethod: false, accepts: (v) => v === PakVersion.FNameBasedCompressionMethod },
  { methodSlots: 0, frozenByte: false, pakchunkIndex: false, encryptionMethod: false, accepts: (v) => v >= 1 && v < PakVersion.FNameBasedCompressionMethod },
];

/** Bytes from the magic to the end of the footer. */
function magicToEnd(l: FooterLayout): number {
  return 4 + 4 + 8 + 8 + 20 + (l.frozenByte ? 1 : 0) + l.methodSlots * METHOD_NAME_LENGTH +
    (l.pakchunkIndex ? 4 : 0) + (l.encryptionMethod ? 1 + 3 * IV_LENGTH : 0);
}

/** Bytes in front of the magic. */
function beforeMagic(version: number): number {
  return (version >= PakVersion.EncryptionKeyGuid ? 16 : 0) + (version >= PakVersion.IndexEncryption ? 1 : 0);
}

const MAX_FOOTER = Math.max(...LAYOUTS.map(magicToEnd)) + 17;
const MIN_FOOTER = Math.min(...LAYOUTS.map(magicToEnd));

export async function readPakFooter(src: ByteSource): Promise<PakFooter> {
  if (src.size < MIN_FOOTER) {
    throw new FormatError(src.name, 'pak footer', 0, `file is ${src.size} bytes, smaller than the smallest pak footer (${MIN_FOOTER})`);
  }
  const tailLength = Math.min(src.size, MAX_FOOTER);
  const tailStart = src.size - tailLength;
  const tail = new BinaryReader(await src.read(tailStart, tailLength, 'pak footer'), src.name, tailStart).struct('pak footer');

  let foundVersion: number | null = null;
  for (const layout of LAYOUTS) {
    const magicAt = tailLength - magicToEnd(layout);
    if (magicAt < 0) continue;
    tail.seek(magicAt);
    if (tail.u32() !== PAK_MAGIC) continue;
    const version = tail.i32();
    foundVersion ??= version;
    if (version > LATEST_PAK_VERSION || !layout.accepts(version)) continue;
    if (magicAt - beforeMagic(version) < 0) continue;
    return readFooterAt(tail, magicAt, version, layout);
  }
  if (foundVersion !== null) {
    throw new FormatError(src.name, 'pak footer', src.size - MIN_FOOTER, `pak version ${foundVersion} is not supported (known: 1 to ${LATEST_PAK_VERSION})`);
  }
  throw new FormatError(src.name, 'pak footer', src.size - MIN_FOOTER, `no pak footer magic 0x${PAK_MAGIC.toString(16).toUpperCase()} at any known footer size: not a .pak file, or truncated`);
}

function readFooterAt(r: BinaryReader, magicAt: number, version: PakVersion, layout: FooterLayout): PakFooter {
  const start = magicAt - beforeMagic(version);
  r.seek(start);
  const encryptionKeyGuid = version >= PakVersion.EncryptionKeyGuid ? r.guid() : null;
  // Any non-zero byte means encrypted: the engine tests it that way, and some games store other values.
  const indexEncrypted = version >= PakVersion.IndexEncryption ? r.u8() !== 0 : false;
  r.skip(8); // magic and version, read already
  const indexOffsetAt = r.pos;
  const indexOffset = r.i64n('index offset');
  const indexSize = r.i64n('index size');
  const indexHash = r.bytesView(20).slice();
  const frozenIndex = layout.frozenByte ? r.u8() !== 0 : false;
  const compressionMethods: string[] = [];
  for (let i = 0; i < layout.methodSlots; i++) compressionMethods.push(r.fixedAscii(METHOD_NAME_LENGTH).trim());
  const pakchunkIndex = layout.pakchunkIndex ? r.i32() : null;
  let encryptionMethod: PakEncryptionMethod = 'AES-ECB';
  let indexIv: Uint8Array | null = null, pathHashIndexIv: Uint8Array | null = null, fullDirectoryIndexIv: Uint8Array | null = null;
  if (layout.encryptionMethod) {
    const at = r.pos;
    const method = r.u8();
    if (method === 0) encryptionMethod = 'None';
    else if (method === 1) encryptionMethod = 'AES-ECB';
    else if (method === 2) encryptionMethod = 'AES-CTR';
    else throw r.error(`encryption method ${method} is not None (0), AES (1) or AES-CTR (2)`, at);
    indexIv = r.bytesView(IV_LENGTH).slice();
    pathHashIndexIv = r.bytesView(IV_LENGTH).slice();
    fullDirectoryIndexIv = r.bytesView(IV_LENGTH).slice();
  }
  const offset = r.base + start;
  if (indexOffset < 0 || indexSize < 0 || indexOffset + indexSize > offset) {
    throw r.error(`index at ${indexOffset} of ${indexSize} bytes does not lie before the footer at ${offset}`, indexOffsetAt);
  }
  if (indexEncrypted && encryptionMethod === 'AES-ECB' && indexSize % 16 !== 0) {
    throw r.error(`encrypted index size ${indexSize} is not a multiple of the AES block (16)`, indexOffsetAt + 8);
  }
  const label = version === PakVersion.FNameBasedCompressionMethod ? (layout.methodSlots === 4 ? '8A' : '8B') : String(version);
  return {
    version, label, offset, size: r.length - start, encryptionKeyGuid, indexEncrypted, indexOffset, indexSize, indexHash,
    frozenIndex, compressionMethods, pakchunkIndex, encryptionMethod, indexIv, pathHashIndexIv, fullDirectoryIndexIv,
  };
}

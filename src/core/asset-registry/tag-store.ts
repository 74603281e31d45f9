/**
 * The tag store of FixedTags registries (UE4.27 on): every asset's tag values, deduplicated and
 * typed, and every asset's key-value pairs in one contiguous array; an asset names its range.
 *
 * Layout: u32 begin magic (0x12345678: texts after the export paths; 0x12345679: texts first,
 * after a u32 byte size), 11 i32 counts, then the arrays: numberless names (u32 name index),
 * names (FName), numberless export paths (u32 class [package and object from ClassPaths on],
 * object, package), export paths (class, object and package as FNames), texts (FString, UTF-8
 * from MarshalledTextAsUTF8String), ANSI string offsets, wide string offsets, ANSI string bytes,
 * wide string units, numberless pairs (u32 key name index, u32 value id), pairs (FName key, u32
 * value id), u32 end magic 0x87654321. From MemoryMappedTagDataStore on the store and (with texts
 * first) each array starts at a multiple of 16 bytes of the file.
 * A value id: low 3 bits the value type, the rest the index into that type's array.
 */
import type { RegistryArchive } from './archive.js';
import { AssetRegistryVersion as V } from './version.js';

const OLD_BEGIN_MAGIC = 0x12345678;
const BEGIN_MAGIC = 0x12345679;
const END_MAGIC = 0x87654321;

enum ValueType { AnsiString, WideString, NumberlessName, Name, NumberlessExportPath, ExportPath, LocalizedText }

interface ExportPath { classPath: string; object: string; pkg: string }

const utf8 = new TextDecoder('utf-8');
const latin1 = new TextDecoder('latin1');
const utf16 = new TextDecoder('utf-16le');

/** "/Script/Engine.Texture2D'/Game/T.T'" as the engine prints an export path; without a class just the path. */
function exportPathText(p: ExportPath): string {
  const path = p.object === 'None' ? p.pkg : `${p.pkg}.${p.object}`;
  return p.classPath === '' || p.classPath === 'None' ? path : `${p.classPath}'${path}'`;
}

export class TagStore {
  private numberlessNames: number[] = [];
  private names: string[] = [];
  private numberlessExportPaths: ExportPath[] = [];
  private exportPaths: ExportPath[] = [];
  private texts: string[] = [];
  private ansiOffsets!: Uint32Array;
  private wideOffsets!: Uint32Array;
  private ansiStrings!: Uint8Array;
  private wideStrings!: Uint8Array;
  /** Numberless pairs: key name index, value id. */
  private numberlessPairs!: Uint32Array;
  private pairKeys: string[] = [];
  private pairValues!: Uint32Array;

  constructor(private readonly ar: RegistryArchive) {
    const r = ar.r;
    const mapped = ar.version >= V.MemoryMappedTagDataStore;
    if (mapped) ar.align(16);
    r.struct('asset registry tag store');
    const magicAt = r.pos;
    const magic = r.u32();
    if (magic !== OLD_BEGIN_MAGIC && magic !== BEGIN_MAGIC) throw r.error(`the tag store's magic is 0x${magic.toString(16)}, not 0x12345678 or 0x12345679`, magicAt);
    const countsAt = r.pos;
    const counts: number[] = [];
    for (let i = 0; i < 11; i++) counts.push(r.i32());
    const [nNumberlessNames, nNames, nNumberlessPaths, nPaths, nTexts, nAnsiOffsets, nWideOffsets, nAnsiBytes, nWideUnits, nNumberlessPairs, nPairs] = counts as [number, number, number, number, number, number, number, number, number, number, number];
    // Every array's smallest element, so no count can ask for more than the file holds.
    const mins = [4, 4, 12, 12, 4, 4, 4, 1, 2, 8, 8];
    counts.forEach((n, i) => r.checkCount(n, mins[i]!, 'tag store count', countsAt + 4 * i));
    const alignIfMapped = (): void => { if (mapped && magic === BEGIN_MAGIC) ar.align(16); };
    const readTexts = (): void => {
      r.struct('asset registry tag store texts');
      this.texts = new Array(nTexts);
      for (let i = 0; i < nTexts; i++) this.texts[i] = this.text();
    };
    if (magic === BEGIN_MAGIC) {
      r.u32(); // the texts' size in bytes, for loading them on their own
      alignIfMapped();
      readTexts();
    }
    alignIfMapped();
    r.struct('asset registry tag store names');
    this.numberlessNames = Array.from({ length: nNumberlessNames }, () => r.u32());
    alignIfMapped();
    this.names = Array.from({ length: nNames }, () => ar.name());
    alignIfMapped();
    r.struct('asset registry tag store export paths');
    this.numberlessExportPaths = Array.from({ length: nNumberlessPaths }, () => this.numberlessExportPath());
    alignIfMapped();
    this.exportPaths = Array.from({ length: nPaths }, () => ({ classPath: ar.className(), object: ar.name(), pkg: ar.name() }));
    if (magic === OLD_BEGIN_MAGIC) readTexts();
    alignIfMapped();
    r.struct('asset registry tag store strings');
    this.ansiOffsets = this.u32s(nAnsiOffsets);
    alignIfMapped();
    this.wideOffsets = this.u32s(nWideOffsets);
    alignIfMapped();
    this.ansiStrings = r.bytesView(nAnsiBytes);
    alignIfMapped();
    this.wideStrings = r.bytesView(r.need(nWideUnits * 2));
    alignIfMapped();
    r.struct('asset registry tag store pairs');
    this.numberlessPairs = this.u32s(nNumberlessPairs * 2);
    alignIfMapped();
    this.pairValues = new Uint32Array(nPairs);
    for (let i = 0; i < nPairs; i++) {
      this.pairKeys.push(ar.name());
      this.pairValues[i] = r.u32();
    }
    const endAt = r.pos;
    const end = r.u32();
    if (end !== END_MAGIC) throw r.error(`the tag store ends in 0x${end.toString(16)}, not 0x87654321`, endAt);
  }

  /**
   * The tags of one asset from its u64 map handle: bit 63 says the keys are numberless, bits
   * 32-47 hold the number of pairs, the low 32 bits the first pair.
   */
  tags(handle: bigint, at: number): Record<string, string> {
    const numberless = (handle >> 63n) === 1n;
    const num = Number((handle >> 32n) & 0xffffn);
    const begin = Number(handle & 0xffffffffn);
    const total = numberless ? this.numberlessPairs.length / 2 : this.pairKeys.length;
    if (begin + num > total) throw this.ar.r.error(`the asset's ${num} tags from pair ${begin} run past the store's ${total} pairs`, at);
    const out: Record<string, string> = {};
    for (let i = begin; i < begin + num; i++) {
      if (numberless) out[this.ar.numberlessName(this.numberlessPairs[2 * i]!, at)] = this.value(this.numberlessPairs[2 * i + 1]!, at);
      else out[this.pairKeys[i]!] = this.value(this.pairValues[i]!, at);
    }
    return out;
  }

  private value(id: number, at: number): string {
    const type = id & 7;
    const index = id >>> 3;
    const missing = (n: number): never => { throw this.ar.r.error(`tag value ${index} of type ${ValueType[type] ?? type} is outside the store's ${n}`, at); };
    switch (type) {
      case ValueType.AnsiString: {
        const start = this.ansiOffsets[index] ?? missing(this.ansiOffsets.length);
        const end = this.ansiStrings.indexOf(0, start);
        if (start > this.ansiStrings.length || end < 0) missing(this.ansiStrings.length);
        return latin1.decode(this.ansiStrings.subarray(start, end));
      }
      case ValueType.WideString: {
        const start = (this.wideOffsets[index] ?? missing(this.wideOffsets.length)) * 2;
        let end = start;
        while (end + 1 < this.wideStrings.length && (this.wideStrings[end] !== 0 || this.wideStrings[end + 1] !== 0)) end += 2;
        if (end + 1 >= this.wideStrings.length) missing(this.wideStrings.length / 2);
        return utf16.decode(this.wideStrings.subarray(start, end));
      }
      case ValueType.NumberlessName: return this.ar.numberlessName(this.numberlessNames[index] ?? missing(this.numberlessNames.length), at);
      case ValueType.Name: return this.names[index] ?? missing(this.names.length);
      case ValueType.NumberlessExportPath: return exportPathText(this.numberlessExportPaths[index] ?? missing(this.numberlessExportPaths.length));
      case ValueType.ExportPath: return exportPathText(this.exportPaths[index] ?? missing(this.exportPaths.length));
      case ValueType.LocalizedText: return this.texts[index] ?? missing(this.texts.length);
      default: throw this.ar.r.error(`tag value type ${type} is not one the engine writes`, at);
    }
  }

  private numberlessExportPath(): ExportPath {
    const r = this.ar.r;
    const at = r.pos;
    const name = (i: number): string => this.ar.numberlessName(i, at);
    let classPath: string;
    if (this.ar.version >= V.ClassPaths) {
      const pkg = name(r.u32()), cls = name(r.u32());
      classPath = pkg === 'None' ? (cls === 'None' ? '' : cls) : `${pkg}.${cls}`;
    } else {
      classPath = name(r.u32());
    }
    return { classPath, object: name(r.u32()), pkg: name(r.u32()) };
  }

  /** A localized text as exported (NSLOCTEXT(...)): an FString, or UTF-8 bytes from MarshalledTextAsUTF8String. */
  private text(): string {
    const r = this.ar.r;
    if (this.ar.version < V.MarshalledTextAsUTF8String) return r.fstring();
    const n = r.count(1, 'text length');
    const s = utf8.decode(r.bytesView(n));
    return s.endsWith('\0') ? s.slice(0, -1) : s;
  }

  private u32s(n: number): Uint32Array {
    const r = this.ar.r;
    const bytes = r.bytesView(r.need(n * 4));
    const out = new Uint32Array(n);
    const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
    for (let i = 0; i < n; i++) out[i] = view.getUint32(4 * i, true);
    return out;
  }
}

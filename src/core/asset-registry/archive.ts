/**
 * How an AssetRegistry.bin stores names, by version: as FStrings (before AddAssetRegistryState),
 * as i32 index + i32 number into a name table stated at an offset (until FixedTags), or as a u32
 * index into the name batch whose top bit says a u32 number follows (FixedTags on).
 */
import type { BinaryReader } from '../io/binary-reader.js';
import { displayName, readNameBatch } from '../zen/name-batch.js';
import { AssetRegistryVersion as V } from './version.js';

const NUMBERED_NAME_BIT = 0x80000000;

export class RegistryArchive {
  /** The name table or name batch (empty where names are FStrings). */
  names: string[] = [];
  /** Where the data ends: the name table's offset where it follows the data, else the file's end. */
  dataEnd: number;

  constructor(readonly r: BinaryReader, readonly version: V) {
    this.dataEnd = r.length;
  }

  /**
   * Reads the names: for name-table versions the table at the i64 offset read here (the reader
   * comes back after it), for name-batch versions the batch that starts here.
   */
  readNames(): void {
    const r = this.r;
    if (this.version < V.AddAssetRegistryState) return;
    if (this.version >= V.FixedTags) {
      r.struct('asset registry name batch');
      // The engine hashes the names as it writes them; a wrong hash is no reason to lose the registry.
      this.names = readNameBatch(r, { verifyHashes: false });
      return;
    }
    const at = r.pos;
    const offset = r.i64n('name table offset');
    if (offset === 0) return;
    if (offset < r.pos || offset > r.length - 4) throw r.error(`the name table offset ${offset} is outside the file (${r.length} bytes)`, at);
    const back = r.pos;
    this.dataEnd = offset;
    r.seek(offset).struct('asset registry name table');
    // FNameEntrySerialized: FString and two u16 hashes.
    const n = r.count(5, 'name count');
    for (let i = 0; i < n; i++) {
      this.names.push(r.fstring());
      r.skip(4);
    }
    r.seek(back);
  }

  /** One FName as the engine prints it ("Name_2" for number 3). */
  name(): string {
    const r = this.r;
    if (this.version < V.AddAssetRegistryState) return r.fstring();
    const at = r.pos;
    let index: number;
    let number = 0;
    if (this.version >= V.FixedTags) {
      index = r.u32();
      if (index & NUMBERED_NAME_BIT) {
        index -= NUMBERED_NAME_BIT;
        number = r.u32();
      }
    } else {
      index = r.i32();
      number = r.i32();
    }
    const base = this.names[index];
    if (base === undefined) throw r.error(`name index ${index} is outside the ${this.names.length} names`, at);
    return displayName(base, number);
  }

  /** A name stored without a number (a u32 index into the names). */
  numberlessName(index: number, at = this.r.pos): string {
    const base = this.names[index];
    if (base === undefined) throw this.r.error(`name index ${index} is outside the ${this.names.length} names`, at);
    return base;
  }

  /** FTopLevelAssetPath: package name and asset name, printed "/Script/Engine.Texture2D". */
  topLevelPath(): string {
    const pkg = this.name();
    const asset = this.name();
    if (pkg === 'None') return asset === 'None' ? '' : asset;
    return asset === 'None' ? pkg : `${pkg}.${asset}`;
  }

  /** A class: its path from ClassPaths on, else its short name. */
  className(): string {
    return this.version >= V.ClassPaths ? this.topLevelPath() : this.name();
  }

  /** An i32-counted array, the count checked against the bytes left first. */
  array<T>(minElementSize: number, what: string, read: () => T): T[] {
    const n = this.r.count(minElementSize, what);
    const out: T[] = new Array(n);
    for (let i = 0; i < n; i++) out[i] = read();
    return out;
  }

  /** An i32-counted array of i32. */
  i32s(what: string): number[] {
    return this.array(4, what, () => this.r.i32());
  }

  /** Aligns the read position to `n` bytes of the file. */
  align(n: number): void {
    const pad = (n - (this.r.pos % n)) % n;
    if (pad) this.r.skip(pad);
  }
}

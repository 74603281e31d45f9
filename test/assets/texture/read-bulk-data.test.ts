// FByteBulkData in the forms the cue58 fixtures do not use: end of file, zlib-compressed
// (FArchive::SerializeCompressed), 64-bit sizes, the duplicate header of an optional payload,
// the data version word, offsets fixed up by BulkDataStartOffset (before UE4.26), and the UE5.2+
// map index. Headers are built here as the engine writes them (Bulkdata.cpp, SerializeBulkData).
import { deflateSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { BulkDataFlags, type BulkFiles, readBulkData, readBulkPayload } from '../../../src/core/assets/texture/read/bulk-data.js';
import { memoryPayload } from '../../../src/core/assets/texture/read/payload.js';
import { FormatError } from '../../../src/core/errors.js';
import { BinaryReader } from '../../../src/core/io/binary-reader.js';

const F = BulkDataFlags;

class Writer {
  private parts: Buffer[] = [];
  u32(v: number): this { const b = Buffer.alloc(4); b.writeUInt32LE(v >>> 0); this.parts.push(b); return this; }
  i32(v: number): this { const b = Buffer.alloc(4); b.writeInt32LE(v); this.parts.push(b); return this; }
  i64(v: number | bigint): this { const b = Buffer.alloc(8); b.writeBigInt64LE(BigInt(v)); this.parts.push(b); return this; }
  u16(v: number): this { const b = Buffer.alloc(2); b.writeUInt16LE(v); this.parts.push(b); return this; }
  bytes(b: Uint8Array): this { this.parts.push(Buffer.from(b)); return this; }
  done(): Uint8Array { return new Uint8Array(Buffer.concat(this.parts)); }
}

const pattern = (n: number, seed = 1): Uint8Array => Uint8Array.from({ length: n }, (_, i) => (i * 31 + seed * 7 + (i >> 8)) & 0xff);
const ctx = { largeOffsets: true, bulkDataStartOffset: 0 };

describe('FByteBulkData headers and payloads', () => {
  it('inline: the payload follows its header and the reader steps over it', async () => {
    const data = pattern(100);
    const bytes = new Writer().u32(0).i32(100).u32(100).i64(0).bytes(data).u32(0xabcdef).done();
    const r = new BinaryReader(bytes, 'x.uexp');
    const ref = readBulkData(r, ctx);
    expect(r.u32()).toBe(0xabcdef);
    expect(ref.location).toBe('inline');
    expect(await readBulkPayload(ref, { inline: memoryPayload('x.uexp', bytes), separate: () => undefined }, 'mip 0')).toEqual(data);
  });

  it('end of file: the offset counts in the .uasset + .uexp stream (with BulkDataStartOffset before UE4.26)', async () => {
    const data = pattern(64, 2);
    const uexp = new Uint8Array(500);
    uexp.set(data, 300);
    const headerSize = 1000;
    // Before UE4.26 the stored offset is relative to BulkDataStartOffset (here 1200 = 1000 + 200).
    const header = new Writer().u32(F.PayloadAtEndOfFile).i32(64).u32(64).i64(100).done();
    const ref = readBulkData(new BinaryReader(header, 'x.uexp'), { largeOffsets: true, bulkDataStartOffset: 1200 });
    expect(ref).toMatchObject({ location: 'end of file', offset: 1300, storedOffset: 100 });
    const files: BulkFiles = { inline: memoryPayload('x.uexp', header), endOfFile: { file: memoryPayload('x.uexp', uexp), base: headerSize }, separate: () => undefined };
    expect(await readBulkPayload(ref, files, 'mip 0')).toEqual(data);
    // From UE4.26 BULKDATA_NoOffsetFixUp says the offset is as stored.
    const fixed = readBulkData(new BinaryReader(new Writer().u32(F.PayloadAtEndOfFile | F.NoOffsetFixUp).i32(64).u32(64).i64(1300).done(), 'x'), { largeOffsets: true, bulkDataStartOffset: 1200 });
    expect(fixed.offset).toBe(1300);
  });

  it('zlib-compressed: FArchive::SerializeCompressed blocks decompressed to the element count', async () => {
    const data = pattern(200000, 3);
    const blockSize = 131072;
    const blocks = [data.subarray(0, blockSize), data.subarray(blockSize)].map((b) => ({ raw: b, z: deflateSync(b) }));
    const stored = new Writer().i64(0x9e2a83c1).i64(blockSize)
      .i64(blocks.reduce((s, b) => s + b.z.length, 0)).i64(data.length);
    for (const b of blocks) stored.i64(b.z.length).i64(b.raw.length);
    for (const b of blocks) stored.bytes(b.z);
    const payload = stored.done();
    const ubulk = new Uint8Array(50 + payload.length);
    ubulk.set(payload, 50);
    const header = new Writer().u32(F.PayloadAtEndOfFile | F.PayloadInSeperateFile | F.NoOffsetFixUp | F.SerializeCompressedZLIB)
      .i32(data.length).u32(payload.length).i64(50).done();
    const ref = readBulkData(new BinaryReader(header, 'x.uexp'), ctx);
    expect(ref.location).toBe('.ubulk');
    const files: BulkFiles = { inline: memoryPayload('x.uexp', header), separate: (loc) => (loc === '.ubulk' ? memoryPayload('x.ubulk', ubulk) : undefined) };
    expect(Buffer.from(await readBulkPayload(ref, files, 'mip 0')).equals(Buffer.from(data))).toBe(true);
    // A corrupt block is a FormatError naming the file and the block's offset.
    const bad = ubulk.slice();
    bad[116] = bad[116]! ^ 0xff; // 50 + 64 + 2: inside the first zlib block, after the 64-byte header and block table
    const badFiles: BulkFiles = { ...files, separate: () => memoryPayload('x.ubulk', bad) };
    await expect(readBulkPayload(ref, badFiles, 'mip 0')).rejects.toThrow(FormatError);
    await expect(readBulkPayload(ref, badFiles, 'mip 0')).rejects.toThrow(/x\.ubulk: mip 0 compressed bulk data at byte 114: /);
  });

  it('64-bit sizes, the data version word and the duplicate header of an optional payload are read past', () => {
    const bytes = new Writer()
      .u32(F.PayloadAtEndOfFile | F.PayloadInSeperateFile | F.OptionalPayload | F.Size64Bit | F.BadDataVersion | F.DuplicateNonOptionalPayload | F.NoOffsetFixUp)
      .i64(1000).i64(1000).i64(4096).u16(7)
      .u32(F.PayloadAtEndOfFile | F.PayloadInSeperateFile).i64(1000).i64(8192) // the duplicate's flags, size, offset
      .u32(0x11223344).done();
    const r = new BinaryReader(bytes, 'x');
    const ref = readBulkData(r, ctx);
    expect(ref).toMatchObject({ location: '.uptnl', elementCount: 1000, sizeOnDisk: 1000, offset: 4096 });
    expect(ref.flags & F.BadDataVersion).toBe(0);
    expect(r.u32()).toBe(0x11223344);
  });

  it('.m.ubulk for memory-mapped payloads; nothing for unused or empty bulk data', () => {
    const mapped = readBulkData(new BinaryReader(new Writer().u32(F.PayloadAtEndOfFile | F.PayloadInSeperateFile | F.MemoryMappedPayload).i32(8).u32(8).i64(0).done(), 'x'), ctx);
    expect(mapped.location).toBe('.m.ubulk');
    expect(readBulkData(new BinaryReader(new Writer().u32(F.Unused).i32(0).u32(0).i64(0).done(), 'x'), ctx).location).toBe('none');
  });

  it('UE5.2+: an index into the bulk data map; one outside it is a FormatError', async () => {
    const map = [
      { serialOffset: 0, serialSize: 16, rawSize: 16, flags: F.ForceInlinePayload, cookedIndex: 0 },
      { serialOffset: 32, serialSize: 8, rawSize: 8, flags: F.PayloadAtEndOfFile | F.PayloadInSeperateFile | F.NoOffsetFixUp, cookedIndex: 0 },
    ];
    const data = pattern(16, 4);
    const bytes = new Writer().i32(0).bytes(data).i32(1).i32(2).done();
    const r = new BinaryReader(bytes, 'x.uexp');
    const inline = readBulkData(r, { ...ctx, map });
    expect(inline.location).toBe('inline');
    const separate = readBulkData(r, { ...ctx, map });
    expect(separate).toMatchObject({ location: '.ubulk', offset: 32, sizeOnDisk: 8 });
    expect(() => readBulkData(r, { ...ctx, map })).toThrow(/x\.uexp: .* at byte 24: bulk data index 2 is outside the bulk data map \(2 entries\)/);
    expect(await readBulkPayload(inline, { inline: memoryPayload('x.uexp', bytes), separate: () => undefined }, 'mip 0')).toEqual(data);
  });

  it('an inline payload longer than the data left, or an absurd size, is a FormatError', () => {
    expect(() => readBulkData(new BinaryReader(new Writer().u32(0).i32(100).u32(100).i64(0).bytes(pattern(10)).done(), 'x'), ctx))
      .toThrow(/the inline bulk data is 100 bytes but only 10 are left/);
    expect(() => readBulkData(new BinaryReader(new Writer().u32(F.Size64Bit).i64(2n ** 40n).i64(8).i64(0).done(), 'x'), ctx))
      .toThrow(FormatError);
  });
});

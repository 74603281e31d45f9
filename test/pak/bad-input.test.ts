/**
 * Bad input: truncated files, footers pointing past the end, huge counts, hostile names, entries
 * whose bytes are missing or corrupt, and random damage. Every case must end in a FormatError (or
 * another input error) that names the structure, quickly and without allocating for the claims.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { corpus, REPAK_AES_KEY } from '../support/corpus.js';
import { KeyRing } from '../../src/core/crypto/keys.js';
import { FormatError, isInputError } from '../../src/core/errors.js';
import { MemoryByteSource } from '../../src/core/io/byte-source.js';
import { openPakFromSource, type PakArchive } from '../../src/core/pak/pak-archive.js';
import { writePak, type PakWriterFile, type WrittenPak } from '../fixtures/pak-writer.js';
import { compressibleBytes, randomBytesSeeded } from '../fixtures/test-data.js';

const open = (bytes: Uint8Array, keys?: KeyRing): Promise<PakArchive> =>
  openPakFromSource(new MemoryByteSource('bad.pak', bytes), { keys });

function patched(bytes: Uint8Array, edit: (view: DataView, bytes: Uint8Array) => void): Uint8Array {
  const copy = bytes.slice();
  edit(new DataView(copy.buffer), copy);
  return copy;
}

/** Runs fn and checks it fails with a FormatError matching `message` (a hang fails by the test timeout). */
async function expectFormatError(fn: () => Promise<unknown>, message: RegExp): Promise<FormatError> {
  const e = await fn().then(() => null, (err: unknown) => err);
  expect(e).toBeInstanceOf(FormatError);
  expect((e as FormatError).message).toMatch(message);
  return e as FormatError;
}

const FILES: PakWriterFile[] = [
  { name: 'Config/DefaultGame.ini', data: compressibleBytes(500, 1) },
  { name: 'Content/Big.uasset', data: compressibleBytes(150_000, 2) },
  { name: 'Content/Noise.bin', data: randomBytesSeeded(3_000, 3) },
];

/** Offset of the legacy index's entry count: after the mount point FString. */
function legacyCountAt(w: WrittenPak): number {
  const view = new DataView(w.bytes.buffer, w.bytes.byteOffset);
  return w.indexOffset + 4 + view.getInt32(w.indexOffset, true);
}

describe('truncated and misplaced', () => {
  const v5 = new Uint8Array(readFileSync(corpus('pak/repak_pack_v5.pak')));
  const v11 = new Uint8Array(readFileSync(corpus('pak/repak_pack_v11_compress.pak')));

  it('too small to hold a footer, or cut anywhere: no footer is found', async () => {
    for (const bytes of [v5, v11]) {
      for (const n of [0, 1, 43, 44, 100, bytes.length >> 1, bytes.length - 1, bytes.length - 17, bytes.length - 200]) {
        await expectFormatError(() => open(bytes.subarray(0, n)), /pak footer at byte \d+: (file is|no pak footer magic)/);
      }
    }
  });

  it('data cut out before the footer: the index no longer lies before it', async () => {
    const footer = v11.subarray(v11.length - 221);
    const cut = new Uint8Array(8000 + footer.length);
    cut.set(v11.subarray(0, 8000));
    cut.set(footer, 8000);
    await expectFormatError(() => open(cut), /index at 9063 of 185 bytes does not lie before the footer at 8000/);
  });

  it('a footer whose index lies past the end, is negative or too large', async () => {
    const w = writePak(FILES, { version: 11 });
    const indexOffsetAt = w.footerOffset + 17 + 8;
    const e = await expectFormatError(
      () => open(patched(w.bytes, (v) => v.setBigUint64(indexOffsetAt, BigInt(w.bytes.length + 1000), true))),
      /does not lie before the footer/,
    );
    expect(e.structure).toBe('pak footer');
    expect(e.offset).toBe(indexOffsetAt);
    await expectFormatError(() => open(patched(w.bytes, (v) => v.setBigInt64(indexOffsetAt, -5n, true))), /does not lie before the footer/);
    await expectFormatError(() => open(patched(w.bytes, (v) => v.setBigUint64(indexOffsetAt + 8, 1n << 62n, true))), /index size \d+ is out of range/);
  });

  it('an unknown version with the magic in place', async () => {
    const w = writePak(FILES, { version: 11 });
    await expectFormatError(() => open(patched(w.bytes, (v) => v.setUint32(w.footerOffset + 21, 99, true))), /pak version 99 is not supported/);
  });

  it('the path-hash and directory indexes must lie before the footer too', async () => {
    const w = writePak(FILES, { version: 11 });
    // Primary index: mount point, count, seed, then the path-hash index's bool, offset, size, hash.
    const view = new DataView(w.bytes.buffer);
    const phiOffsetAt = w.indexOffset + 4 + view.getInt32(w.indexOffset, true) + 4 + 8 + 4;
    const fdiOffsetAt = phiOffsetAt + 36 + 4;
    expect(view.getBigUint64(fdiOffsetAt, true)).toBe(BigInt(w.fullDirectoryIndexOffset!));
    await expectFormatError(() => open(patched(w.bytes, (v) => v.setBigUint64(fdiOffsetAt, BigInt(w.bytes.length), true))),
      /full directory index at \d+ of \d+ bytes does not lie before the footer/);
  });
});

describe('huge counts are refused before anything is allocated', () => {
  it('legacy entry count', async () => {
    const w = writePak(FILES, { version: 5 });
    await expectFormatError(() => open(patched(w.bytes, (v) => v.setInt32(legacyCountAt(w), 0x7fffffff, true))),
      /pak index at byte \d+: entry count 2147483647 needs at least \d+ bytes/);
    await expectFormatError(() => open(patched(w.bytes, (v) => v.setInt32(legacyCountAt(w), -1, true))), /entry count -1 is negative/);
  });

  it('compression block count of a legacy record', async () => {
    const w = writePak(FILES, { version: 5, compress: true });
    // First record: count, name FString, then offset, sizes, method (u32), hash, block count.
    const view = new DataView(w.bytes.buffer);
    const nameAt = legacyCountAt(w) + 4;
    const blockCountAt = nameAt + 4 + view.getInt32(nameAt, true) + 24 + 4 + 20;
    expect(view.getUint32(blockCountAt, true)).toBe(1);
    await expectFormatError(() => open(patched(w.bytes, (v) => v.setInt32(blockCountAt, 0x10000000, true))),
      /compression block count 268435456 needs at least/);
  });

  it('directory and file counts of the full directory index', async () => {
    const w = writePak(FILES, { version: 11 });
    const fdi = w.fullDirectoryIndexOffset!;
    await expectFormatError(() => open(patched(w.bytes, (v) => v.setInt32(fdi, 0x7fffffff, true))),
      /full directory index at byte \d+: directory count 2147483647 needs at least/);
    const view = new DataView(w.bytes.buffer);
    const fileCountAt = fdi + 4 + 4 + view.getInt32(fdi + 4, true);
    await expectFormatError(() => open(patched(w.bytes, (v) => v.setInt32(fileCountAt, 0x40000000, true))), /file count 1073741824 needs at least/);
  });

  it('the flat directory index\'s counts', async () => {
    const w = writePak(FILES, { version: 13, flatDirectoryIndex: true });
    const fdi = w.fullDirectoryIndexOffset!;
    await expectFormatError(() => open(patched(w.bytes, (v) => v.setInt32(fdi + 8, 0x7fff0000, true))), /tables need \d+ bytes but only \d+ remain/);
    await expectFormatError(() => open(patched(w.bytes, (v) => v.setInt32(fdi + 12, 0, true))), /bad header .*restart interval 0/);
  });

  it('a string length claiming gigabytes', async () => {
    const w = writePak(FILES, { version: 11 });
    const fdi = w.fullDirectoryIndexOffset!;
    await expectFormatError(() => open(patched(w.bytes, (v) => v.setInt32(fdi + 4, 0x7ffffff0, true))), /string length 2147483632 is implausible/);
  });

  it('an entry location past the encoded entries', async () => {
    const w = writePak(FILES, { version: 11 });
    const fdi = w.fullDirectoryIndexOffset!;
    const view = new DataView(w.bytes.buffer);
    const dirLen = view.getInt32(fdi + 4, true);
    const nameAt = fdi + 4 + 4 + dirLen + 4;
    const locationAt = nameAt + 4 + view.getInt32(nameAt, true);
    await expectFormatError(() => open(patched(w.bytes, (v) => v.setInt32(locationAt, 0x100000, true))), /entry location 1048576 is past the \d+ bytes of encoded entries/);
    await expectFormatError(() => open(patched(w.bytes, (v) => v.setInt32(locationAt, -50, true))), /names non-encoded entry 49 of 0/);
  });
});

describe('hostile names', () => {
  const cases: Array<[string, RegExp]> = [
    ['../../../../../etc/passwd', /entry name: path ".*" has a "\.\." segment/],
    ['Content/../../Escape.txt', /has a "\.\." segment/],
    ['Content/./Dot.txt', /has a "\." segment/],
    ['Content/Nul\u0000.txt', /control character/],
    ['Content/Bell\u0007.txt', /control character/],
    [`Content/${'x'.repeat(5000)}.txt`, /string length 50\d\d is implausible|path is 50\d\d characters long/],
    // Short enough as a name, too long once the mount point is in front.
    [`Content/${'y'.repeat(4080)}.txt`, /characters long \(limit 4096\)/],
  ];
  for (const version of [5, 11, 13]) {
    for (const [name, message] of cases) {
      it(`v${version}: ${JSON.stringify(name.slice(0, 40))}`, async () => {
        const w = writePak([...FILES, { name, data: new Uint8Array(4) }], { version, flatDirectoryIndex: version === 13 });
        const e = await expectFormatError(() => open(w.bytes), message);
        expect(e.structure).toMatch(/pak index|directory index/);
      });
    }
  }

  it('a mount point with a control character', async () => {
    const w = writePak(FILES, { version: 11, mountPoint: '../../../Ga\u0001me/' });
    await expectFormatError(() => open(w.bytes), /mount point contains a control character/);
  });
});

describe('entries whose bytes are missing or damaged', () => {
  it('an entry offset past the end fails when it is read, naming the entry', async () => {
    const w = writePak(FILES, { version: 5 });
    const view = new DataView(w.bytes.buffer);
    const nameAt = legacyCountAt(w) + 4;
    const offsetAt = nameAt + 4 + view.getInt32(nameAt, true);
    const a = await open(patched(w.bytes, (v) => v.setBigUint64(offsetAt, 1n << 40n, true)));
    expect(a.files()).toHaveLength(3);
    const ini = a.files().find((f) => f.path.endsWith('DefaultGame.ini'))!;
    await expectFormatError(() => a.read(ini.ref), /entry "Game\/Config\/DefaultGame\.ini" at byte 1099511627776: its bytes 1099511627829\.\.1099511628329 lie past the end of the file/);
    await expectFormatError(() => a.verify(ini.ref), /past the end/);
  });

  it('block sizes that do not add up', async () => {
    const w = writePak(FILES, { version: 5, compress: true });
    const view = new DataView(w.bytes.buffer);
    const nameAt = legacyCountAt(w) + 4;
    const recordAt = nameAt + 4 + view.getInt32(nameAt, true);
    // Record: offset, compressed, uncompressed, method, hash, block count + 1 block, flags, block size.
    const blockSizeAt = recordAt + 24 + 4 + 20 + 4 + 16 + 1;
    expect(view.getUint32(blockSizeAt, true)).toBe(500);
    const a = await open(patched(w.bytes, (v) => v.setUint32(blockSizeAt, 100, true)));
    await expectFormatError(() => a.read(a.files()[0]!.ref), /500 bytes in blocks of 100 make 5 blocks, not 1/);
  });

  // Issue 25, finding 2: verify passed ("1 chunk, 1 ok") an entry that cat and extract refuse.
  it('verify checks what a read checks: a size that needs 32768 blocks over 4 is not ok', async () => {
    const w = writePak([{ name: 'Content/Four.bin', data: compressibleBytes(4 * 65536 - 100, 4) }], { version: 3, compress: true, blockSize: 65536 });
    expect(w.entries[0]!.blocks).toHaveLength(4);
    const view = new DataView(w.bytes.buffer);
    const nameAt = legacyCountAt(w) + 4;
    const recordAt = nameAt + 4 + view.getInt32(nameAt, true);
    // The uncompressed size (after offset and compressed size), in the index and in the in-data record alike.
    const lie = patched(w.bytes, (v) => {
      v.setBigUint64(recordAt + 16, 1n << 31n, true);
      v.setBigUint64(w.entries[0]!.offset + 16, 1n << 31n, true);
    });
    const a = await open(lie);
    const ref = a.files()[0]!.ref;
    await expectFormatError(() => a.read(ref), /2147483648 bytes in blocks of 65536 make 32768 blocks, not 4/);
    await expectFormatError(() => a.verify(ref), /2147483648 bytes in blocks of 65536 make 32768 blocks, not 4/);
    // The same with its hash zeroed: nothing to compare, but still not readable.
    const zeroed = await open(patched(lie, (_, b) => { b.fill(0, recordAt + 28, recordAt + 48); b.fill(0, w.entries[0]!.offset + 28, w.entries[0]!.offset + 48); }));
    await expectFormatError(() => zeroed.verify(zeroed.files()[0]!.ref), /make 32768 blocks, not 4/);
  });

  it('corrupt compressed bytes: read names the entry and block, verify reports the mismatch', async () => {
    const w = writePak(FILES, { version: 11, compress: true });
    const big = w.entries[1]!;
    const at = big.offset + big.recordSize + 10;
    const damaged = patched(w.bytes, (_, b) => { for (let i = at; i < at + 64; i++) b[i] = b[i]! ^ 0x5a; });
    const a = await open(damaged);
    const ref = a.files().find((f) => f.path.endsWith('Big.uasset'))!.ref;
    const e = await expectFormatError(() => a.read(ref), /Zlib/);
    expect(e.structure).toMatch(/^entry "Game\/Content\/Big\.uasset" block at \d+$/);
    expect(await a.verify(ref)).toMatchObject({ ok: false, algorithm: null });
  });

  it('an in-data record that disagrees with the index', async () => {
    const w = writePak(FILES, { version: 11 });
    const ini = w.entries[0]!;
    const a = await open(patched(w.bytes, (v) => v.setBigUint64(ini.offset + 16, 7n, true)));
    await expectFormatError(() => a.verify(a.files()[0]!.ref), /in-data record \(500\/7 bytes, None\) differs from the index \(500\/500 bytes, None\)/);
  });
});

describe('random damage', () => {
  /** xorshift: the same damage every run. */
  function rng(seed: number): () => number {
    let x = seed;
    return () => { x ^= x << 13; x ^= x >>> 17; x ^= x << 5; return (x >>> 0) / 2 ** 32; };
  }

  const sources: Array<[string, Uint8Array, KeyRing | undefined]> = [
    ['v5 written', writePak(FILES, { version: 5, compress: true }).bytes, undefined],
    ['v11 corpus encrypted', new Uint8Array(readFileSync(corpus('pak/repak_pack_v11_compress_encrypt_encryptindex.pak'))), KeyRing.fromArgs([REPAK_AES_KEY])],
    ['v13 written flat', writePak(FILES, { version: 13, compress: true, flatDirectoryIndex: true }).bytes, undefined],
  ];
  for (const [label, bytes, keys] of sources) {
    it(`${label}: 300 damaged copies fail only with input errors`, async () => {
      const next = rng(0x9e3779b9);
      let opened = 0;
      for (let round = 0; round < 300; round++) {
        // Damage the index, secondary indexes and footer (the last ~1 KiB) or, sometimes, anywhere.
        const copy = bytes.slice();
        const hits = 1 + Math.floor(next() * 4);
        for (let h = 0; h < hits; h++) {
          const tailOnly = next() < 0.8;
          const at = tailOnly ? copy.length - 1 - Math.floor(next() * Math.min(1024, copy.length)) : Math.floor(next() * copy.length);
          copy[at] = Math.floor(next() * 256);
        }
        try {
          const a = await open(copy, keys);
          opened++;
          for (const f of a.files()) {
            await a.read(f.ref).catch((e: unknown) => { if (!isInputError(e)) throw e; });
            await a.verify(f.ref).catch((e: unknown) => { if (!isInputError(e)) throw e; });
          }
        } catch (e) {
          if (!isInputError(e)) throw e;
        }
      }
      expect(opened).toBeGreaterThan(0);
    });
  }
});

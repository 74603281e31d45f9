// Bad input for the cooked texture reader: copies of real cooked textures (corpus/cooked),
// truncated, cut off from their bulk data or corrupted in a temp dir. Every failure is a
// FormatError naming the file, the structure and the byte offset; nothing else breaks.
import { copyFileSync, mkdtempSync, readFileSync, rmSync, truncateSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { MissingPayloadError, readTextureFile } from '../../../src/core/assets/texture/read/index.js';
import { FormatError, isInputError } from '../../../src/core/errors.js';
import { corpus } from '../../support/corpus.js';

let dir: string;
beforeEach(() => { dir = mkdtempSync(join(tmpdir(), 'pakscope-texread-')); });
afterEach(() => rmSync(dir, { recursive: true, force: true }));

/** Copies corpus/cooked/<stem>.<ext> for the given extensions into the temp dir as T.<ext>. */
function copy(stem: string, exts: string[]): string {
  for (const ext of exts) copyFileSync(corpus(`cooked/${stem}.${ext}`), join(dir, `T.${ext}`));
  return join(dir, 'T.uasset');
}

/** Replaces every occurrence of `from` by `to` (same length) in a file of the temp dir. */
function patch(file: string, from: string, to: string): void {
  const p = join(dir, file);
  const b = readFileSync(p);
  let at = b.indexOf(from, 0, 'latin1');
  expect(at).toBeGreaterThanOrEqual(0);
  while (at >= 0) {
    b.write(to, at, 'latin1');
    at = b.indexOf(from, at + 1, 'latin1');
  }
  writeFileSync(p, b);
}

const QUINN = 'retoc56_T_Quinn_01_D'; // UE5.6, unversioned, mips 0-3 in the .ubulk
const BODY = 'uapi55_T_pl01_001_body_D'; // UE5.4/5.5, versioned (tagged), no .ubulk in the corpus

describe('bulk data that is not there or runs short', () => {
  it('a missing .ubulk: the facts read, mips 0-3 fail with a FormatError naming the file, the structure and the offset, mip 4 reads', async () => {
    const t = await readTextureFile(copy(QUINN, ['uasset', 'uexp']));
    expect(t.mips).toHaveLength(11);
    expect(t.mips.slice(0, 5).map((m) => m.missing !== undefined)).toEqual([true, true, true, true, false]);
    const err = await t.readMip(0).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(MissingPayloadError);
    expect(err).toBeInstanceOf(FormatError);
    expect((err as FormatError).message).toMatch(/T\.uexp: Texture2D "T_Quinn_01_D" mip 0 at byte \d+: the package's \.ubulk that holds the bytes is not in the install/);
    expect((await t.readMip(4)).length).toBe(2048);
  });

  it('a .ubulk cut short: the mips past its end fail with a FormatError naming the .ubulk, the others read', async () => {
    const path = copy(QUINN, ['uasset', 'uexp', 'ubulk']);
    truncateSync(join(dir, 'T.ubulk'), 600000);
    const t = await readTextureFile(path);
    expect((await t.readMip(0)).length).toBe(524288);
    await expect(t.readMip(1)).rejects.toThrow(FormatError);
    await expect(t.readMip(1)).rejects.toThrow(/T\.ubulk: Texture2D "T_Quinn_01_D" mip 1 at byte \d+: the payload's 131072 bytes at \d+ run past the file's 600000 bytes/);
    expect((await t.readMip(5)).length).toBe(512);
  });

  it('a .uexp cut inside the texture data: a FormatError, no crash', async () => {
    const path = copy(BODY, ['uasset', 'uexp']);
    truncateSync(join(dir, 'T.uexp'), 300);
    await expect(readTextureFile(path)).rejects.toThrow(FormatError);
  });
});

describe('pixel formats and sizes that do not fit', () => {
  it('a mip whose bytes are fewer than its format needs at its size (DXT1 data called DXT5): the facts say so, readMip fails', async () => {
    const path = copy(QUINN, ['uasset', 'uexp', 'ubulk']);
    patch('T.uasset', 'PF_DXT1', 'PF_DXT5');
    patch('T.uexp', 'PF_DXT1', 'PF_DXT5');
    const t = await readTextureFile(path);
    expect(t.pixelFormat).toBe('PF_DXT5');
    expect(t.notes.join(' ')).toMatch(/mip 4 holds 2048 bytes; PF_DXT5 at 64x64 needs 4096/);
    await expect(t.readMip(4)).rejects.toThrow(/mip 4 at byte \d+: 2048 bytes where PF_DXT5 at 64x64 needs 4096/);
  });

  it('an unknown pixel format name: the facts read with a note, the mips come as stored (for a DDS)', async () => {
    const path = copy(QUINN, ['uasset', 'uexp', 'ubulk']);
    patch('T.uasset', 'PF_DXT1', 'PF_ZZZ9');
    patch('T.uexp', 'PF_DXT1', 'PF_ZZZ9');
    const t = await readTextureFile(path);
    expect(t.pixelFormat).toBe('PF_ZZZ9');
    expect(t.notes.join(' ')).toMatch(/PF_ZZZ9 is a pixel format PakScope does not know/);
    expect((await t.readMip(4)).length).toBe(2048);
  });

  it('a pixel format that is not a format name at all: a FormatError naming the .uexp, the platform data and the offset', async () => {
    const path = copy(BODY, ['uasset', 'uexp']);
    patch('T.uexp', 'PF_DXT5', 'XX_DXT5');
    await expect(readTextureFile(path)).rejects.toThrow(/T\.uexp: PF_DXT5 platform data at byte \d+: pixel format "XX_DXT5" is not an EPixelFormat name/);
  });
});

describe('corrupted texture data', () => {
  it('any one byte of the native data changed: the texture reads or fails with input errors only', async () => {
    const path = copy(BODY, ['uasset', 'uexp']);
    const original = readFileSync(join(dir, 'T.uexp'));
    // The property stream is the first ~250 bytes; the texture data follows to the end (package tag last).
    let failures = 0;
    for (let at = 200; at < original.length - 4; at += 29) {
      for (const value of [0xff, 0x00]) {
        const b = Buffer.from(original);
        b[at] = b[at] === value ? value ^ 1 : value;
        writeFileSync(join(dir, 'T.uexp'), b);
        try {
          const t = await readTextureFile(path);
          for (let i = 0; i < t.mips.length; i++) await t.readMip(i).catch((e: unknown) => { if (!isInputError(e)) throw e; });
        } catch (e) {
          if (!isInputError(e)) throw e;
          failures++;
        }
      }
    }
    expect(failures).toBeGreaterThan(0);
  });
});

// Bad input to the animation reader, made from cue58's AS_Fixture: a track count past the data,
// an offset table that does not fit the tracks, a key offset past the key bytes, a key count past
// the keys, the export cut short. Each a FormatError naming what is wrong, never a hang.
import { describe, expect, it } from 'vitest';
import { sequenceOf } from '../../../src/core/assets/anim/index.js';
import { installTextureSource, type TextureSource } from '../../../src/core/assets/texture/read/package-source.js';
import { FormatError } from '../../../src/core/errors.js';
import { editExport, findWords } from '../../support/export-edit.js';
import { openedPackages } from '../../support/opened-packages.js';

const find = findWords;
const edit = (s: TextureSource, change: (b: Uint8Array, v: DataView) => Uint8Array | void): TextureSource => editExport(s, 'AS_Fixture', change);

describe('AnimSequence bad input', () => {
  const packages = openedPackages('cue58/IoStore/Tagged/Uncompressed/CUE4ParseFixtures-Minimal-Uncompressed-Windows.utoc');
  const source = () => installTextureSource(packages(), '/Game/Fixtures/Animations/AS_Fixture', {});
  // The track -> bone table (3 tracks: bones 0, 1, 2) and the per-track offset table (translation and rotation of each track).
  const TRACKS = [3, 0, 1, 2];
  const OFFSETS = [12, 20, 56, 184, 228, 236];

  it('reads as it is (the edits below are what breaks it)', async () => {
    expect(sequenceOf(await source(), {}).tracks.length).toBe(3);
  });

  it('a track count of a million: refused before anything is allocated', async () => {
    const s = edit(await source(), (b, v) => { v.setInt32(find(b, TRACKS), 1e6, true); });
    expect(() => sequenceOf(s, {})).toThrow(FormatError);
    expect(() => sequenceOf(s, {})).toThrow(/tracks 1000000 needs at least 4000000 bytes/);
  });

  it('a track count past the offset table', async () => {
    // Two tracks (bones 0 and 1), and the bytes that named bone 2 read as the curve names' count (2): the names do not fit.
    const s = edit(await source(), (b, v) => { v.setInt32(find(b, TRACKS), 2, true); });
    expect(() => sequenceOf(s, {})).toThrow(FormatError);
  });

  it('a key offset past the key bytes', async () => {
    const s = edit(await source(), (b, v) => { v.setInt32(find(b, OFFSETS) + 4, 100000, true); });
    expect(() => sequenceOf(s, {})).toThrow(/track 0 rotation starts at key byte 100000, past the 260 key bytes/);
  });

  it('a key count past the sequence and past the key bytes', async () => {
    const keys = (b: Uint8Array): number => find(b, OFFSETS) + 9 * 4;
    // Track 0 translation's header word: Fixed48NoW, x only, 2 keys. Say 16 million keys.
    let s = edit(await source(), (b, v) => { v.setUint32(keys(b) + 12, 0x21ffffff, true); });
    expect(() => sequenceOf(s, {})).toThrow(/16777215 keys in a sequence of 31 keys/);
    // Track 2 rotation (the last channel): 5 keys with time markers; say 30, whose keys run past the bytes.
    s = edit(await source(), (b, v) => { v.setUint32(keys(b) + 236, 0x2c00001e, true); });
    expect(() => sequenceOf(s, {})).toThrow(/track 2 rotation keys at byte \d+: needs 60 bytes but only \d+ remain/);
  });

  it('an offset table whose sizes do not add up to the stream', async () => {
    // The header after the curves: 31 keys, per-track layout, then the key bytes' count (260).
    const s = edit(await source(), (b, v) => { v.setInt32(b.length - 16, 999, true); });
    expect(() => sequenceOf(s, {})).toThrow(/the header says 6 track offsets, 3 scale offsets and 999 key bytes \(1035 bytes\), the stream has 296/);
  });

  it('the export cut short inside the key bytes', async () => {
    const s = edit(await source(), (b) => b.subarray(0, find(b, OFFSETS) + 100));
    expect(() => sequenceOf(s, {})).toThrow(FormatError);
  });

  it('cut at any byte of its native data: a FormatError every time', async () => {
    const whole = await source();
    const exp = whole.exports.find((e) => e.name === 'AS_Fixture')!;
    const start = exp.properties.propertyStart + exp.properties.propertyBytes;
    for (let end = start; end < exp.bytes.length - 4; end++) {
      const s = edit(await source(), (b) => b.subarray(0, end));
      expect(() => sequenceOf(s, {}), `cut at ${end}`).toThrow(FormatError);
    }
  });

  it('any byte of the key stream changed: read or refused with a FormatError, never another error', async () => {
    const base = await source();
    const exp = base.exports.find((e) => e.name === 'AS_Fixture')!;
    const at = find(exp.bytes, OFFSETS);
    for (let i = at; i < at + 36 + 260; i++) {
      for (const value of [0x00, 0xff, 0x7f]) {
        const s = edit(await source(), (b) => { b[i] = value; });
        try {
          sequenceOf(s, {});
        } catch (e) {
          expect(e, `byte ${i} = ${value}`).toBeInstanceOf(FormatError);
        }
      }
    }
  });
});

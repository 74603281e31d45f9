/**
 * Sequences on bytes that are not what they should be. The float channel's native reader on
 * hand-made channels (a wrong key element size, counts past the bytes, times and values that do
 * not pair up, an unknown time warp type): FormatErrors naming the offset. LS_Fixture as a Zen
 * package file with bytes changed (a fixed seed): a sequence or a FormatError, at once, never
 * another exception. A package with no sequence, or an export that is none, is refused.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { readSequence } from '../../../src/core/assets/sequence/read.js';
import { FormatError } from '../../../src/core/errors.js';
import { BinaryReader } from '../../../src/core/io/binary-reader.js';
import { PropertyReader } from '../../../src/core/properties/reader.js';
import { withInstall } from '../../properties/helpers.js';
import { corpus } from '../../support/corpus.js';

const temp = mkdtempSync(join(tmpdir(), 'pakscope-sequence-bad-'));
afterAll(() => rmSync(temp, { recursive: true, force: true }));

// An unversioned UE5 package: every custom version is taken as the engine's latest.
const pr = new PropertyReader({ file: 'Bad.uasset', names: ['None'], objectPath: () => null, versions: { ue4: 522, ue5: 1010, custom: null, cooked: true }, unversioned: false });

/** A float channel's bytes: extrapolations, times (element size, count, ticks), values (element size, count, 28-byte keys), the tail. */
function channelBytes(opts: { timeSize?: number; times: number[]; valueSize?: number; valueCount?: number; values: number[] }): Uint8Array {
  const out: number[] = [4, 4];
  const i32 = (v: number) => out.push(...new Uint8Array(new Int32Array([v]).buffer));
  const f32 = (v: number) => out.push(...new Uint8Array(new Float32Array([v]).buffer));
  i32(opts.timeSize ?? 4);
  i32(opts.times.length);
  opts.times.forEach(i32);
  i32(opts.valueSize ?? 28);
  i32(opts.valueCount ?? opts.values.length);
  for (const v of opts.values) {
    f32(v);
    for (let k = 0; k < 24; k++) out.push(0);
  }
  f32(0); i32(0); i32(60000); i32(1); i32(0);
  return new Uint8Array(out);
}
const readChannel = (bytes: Uint8Array) => pr.struct(new BinaryReader(bytes, 'Bad.uasset'), 'MovieSceneFloatChannel');

describe('sequence channels, bad input', () => {
  it('a well-formed channel reads', () => {
    const v = readChannel(channelBytes({ times: [0, 100], values: [1.5, -2] })) as { Times: number[]; Values: { Value: number }[] };
    expect(v.Times).toEqual([0, 100]);
    expect(v.Values.map((x) => x.Value)).toEqual([1.5, -2]);
  });

  it('wrong element sizes, counts past the bytes and unpaired keys are FormatErrors with their offset', () => {
    expect(() => readChannel(channelBytes({ timeSize: 8, times: [0], values: [1] }))).toThrow(/at byte 2: channel key times are 8 bytes each, not 4/);
    expect(() => readChannel(channelBytes({ times: [0], valueSize: 12, values: [1] }))).toThrow(/channel key values are 12 bytes each/);
    expect(() => readChannel(channelBytes({ times: [0], valueSize: 4000, values: [1] }))).toThrow(FormatError);
    expect(() => readChannel(channelBytes({ times: [0, 1], values: [1] }))).toThrow(/2 key times but 1 values/);
    expect(() => readChannel(channelBytes({ times: [0], valueCount: 1_000_000, values: [1] }))).toThrow(/channel key value count 1000000 needs at least/);
    expect(() => readChannel(channelBytes({ times: [0], values: [1] }).slice(0, 30))).toThrow(FormatError);
  });

  it('a time warp of a type the engine does not have is a FormatError', () => {
    const r = new BinaryReader(new Uint8Array([0, 0, 0, 0, 9]), 'Bad.uasset');
    expect(() => pr.struct(r, 'MovieSceneTimeWarpVariant')).toThrow(/at byte 4: time warp type 9 is none of the 8 the engine has/);
  });
});

describe('sequences, bad input', () => {
  it('a package with no sequence, or an export that is not one, is refused with its exports named', async () => {
    await expect(readSequence({ file: corpus('cooked/uapi423_Items.uasset') }, undefined)).rejects.toThrow(/no Level Sequence \(its exports are/);
    await expect(readSequence({ file: corpus('cooked/uapi414_MP00_GateTutorial.uasset') }, 1)).rejects.toThrow(/export 1 "MovieScene_0".*a MovieScene, not a Level Sequence/);
    await expect(readSequence({ file: corpus('cooked/uapi414_MP00_GateTutorial.uasset') }, 60)).rejects.toThrow(/no export 60 \(the package has 6\)/);
  });

  it('LS_Fixture as a Zen package file, damaged 150 times: a sequence or a FormatError', async () => {
    const bytes = await withInstall(corpus('cue58/IoStore/Tagged/Zlib'), async (packages) => {
      const loc = packages.locate('/Game/Fixtures/Sequences/LS_Fixture');
      return loc.archive.read(loc.ref);
    });
    const whole = join(temp, 'LS_Fixture.uasset');
    writeFileSync(whole, bytes);
    const undamaged = await readSequence({ file: whole }, undefined);
    expect(undamaged.counts.keys).toBe(11);
    let x = 0x5eed;
    const rnd = (): number => ((x ^= x << 13, x >>>= 0, x ^= x >>> 17, x ^= x << 5, x >>>= 0), x / 0x100000000);
    let read = 0, refused = 0;
    const t0 = performance.now();
    for (let c = 0; c < 150; c++) {
      const b = bytes.slice();
      // Damage the export data (past the header), where the channels are.
      for (let k = 0; k < 1 + Math.floor(rnd() * 4); k++) b[24614 + Math.floor(rnd() * (b.length - 24614))] = Math.floor(rnd() * 256);
      const file = join(temp, `LS_${c}.uasset`);
      writeFileSync(file, b);
      try {
        await readSequence({ file }, undefined);
        read++;
      } catch (e) {
        if (!(e instanceof FormatError)) throw new Error(`case ${c}: ${e instanceof Error ? `${e.name}: ${e.message}` : String(e)}`);
        refused++;
      }
    }
    expect(read + refused).toBe(150);
    expect(read).toBeGreaterThan(0);
    expect(performance.now() - t0).toBeLessThan(30_000);
  });
});

/**
 * Wwise media assets ("Media/<id>.uasset", AkMediaAsset + AkMediaAssetData): the .wem in their
 * bulk data plays and converts through the sound kind. No media asset with a licence to
 * redistribute was found, so both layouts are written around a real .wem (Test.bnk's PCM medium,
 * whose ffmpeg figures are expected.json's): the editor asset of the Wwise 2021.1 integration in
 * UE 5.0 (the platform map MediaAssetDataPerPlatform, the payload at the end of the file; written
 * by test/support/wwise-event-assets.ts with the uasset writer, as a public project's asset has
 * it), and the cooked layout (the native CurrentMediaAssetData index, a prefetch chunk before the
 * whole file, payloads inline), built here as CUE4Parse's UAkMediaAsset/UAkMediaAssetData read it.
 */
import { createHash } from 'node:crypto';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import '../../../src/core/assets/index.js';
import { assetKindOf } from '../../../src/core/assets/registry.js';
import { convertSound, readSound } from '../../../src/core/assets/sound/kind.js';
import { mediaAssetSound } from '../../../src/core/assets/sound/wwise/media-asset.js';
import type { SourceExport, TextureSource } from '../../../src/core/assets/texture/read/package-source.js';
import { FormatError } from '../../../src/core/errors.js';
import type { PropertyEntry } from '../../../src/core/properties/types.js';
import { bankMedia, loadWwise, wwiseExpected } from '../../support/wwise-corpus.js';
import { MEDIA_ASSET_WEM, mediaAsset } from '../../support/wwise-pak.js';
import { Bytes } from '../texture/bytes.js';

const expected = wwiseExpected();
const sha = (s: Int16Array): string => createHash('sha256').update(new Uint8Array(s.buffer, s.byteOffset, s.byteLength)).digest('hex');

describe('a media asset as the Wwise 2021.1 integration saves it (editor asset: the platform map, the payload at the end of the file)', () => {
  const want = expected[MEDIA_ASSET_WEM]!;
  let file: string;
  beforeAll(async () => {
    file = join(await mkdtemp(join(tmpdir(), 'pakscope-akmedia-')), '290492006.uasset');
    await writeFile(file, mediaAsset());
  });
  afterAll(() => rm(dirname(file), { recursive: true, force: true }));

  it('plays: ffmpeg\'s codec, rate, channels and frames, the decoded samples byte for byte; its MediaName is its original file', async () => {
    const sound = await readSound({ file }, undefined);
    expect([sound.class, sound.format, sound.codec, sound.sampleRate, sound.channels, sound.samples]).toEqual(['AkMediaAsset', 'WEM', want.codec, want.rate, want.channels, want.frames]);
    expect(sound.originalFile).toBe('sx_character_WORLD_footsteps_asphalt_2');
    // The stored payload is the .wem the package holds, byte for byte.
    expect(Buffer.from(await sound.readPayload()).equals(Buffer.from(bankMedia(loadWwise('Test.bnk')).get(799259675)!))).toBe(true);
    const pcm = await sound.decode!();
    expect([pcm.sampleRate, pcm.channels, pcm.samples.length / pcm.channels, sha(pcm.samples)]).toEqual([want.rate, want.channels, want.frames, want.sha256]);
  });

  it('converts to a 16-bit WAV of its frames (the sound kind, as --format convert and the app do), and to the .wem as stored', async () => {
    const sound = await readSound({ file }, 0);
    const wav = await convertSound(sound, undefined);
    const v = new DataView(wav.data.buffer, wav.data.byteOffset);
    expect([wav.extension, v.getUint16(22, true), v.getUint32(24, true), v.getUint32(40, true)]).toEqual(['wav', want.channels, want.rate, want.frames * want.channels * 2]);
    expect(createHash('sha256').update(wav.data.subarray(44)).digest('hex')).toBe(want.sha256);
    expect((await convertSound(sound, 'wem')).extension).toBe('wem');
  });

  it('the registry gives media assets the sound view; the data object alone is no asset', () => {
    expect(assetKindOf('AkMediaAsset')).toMatchObject({ kind: 'sound', view: 'sound' });
    expect(assetKindOf('AkLocalizedMediaAsset')?.kind).toBe('sound');
    expect(assetKindOf('AkMediaAssetData')).toBeUndefined();
  });
});

/** A cooked media package: AkMediaAsset (Id, MediaName; native CurrentMediaAssetData) and AkMediaAssetData (chunks inline). */
function cookedSource(wem: Uint8Array, opts: { prefetch?: number; index?: number; chunks?: (b: Bytes) => void } = {}): TextureSource {
  const exp = (index: number, name: string, cls: string, properties: PropertyEntry[], native: Bytes): SourceExport => {
    const bytes = Uint8Array.from(native.parts);
    return {
      index, name, class: cls, bytes, base: 0, file: '799259675.uexp', streamOffset: 0,
      properties: { index, name, class: cls, properties, propertyBytes: 0, propertyStart: 0, serialSize: bytes.length, encoding: 'tagged', error: null },
    };
  };
  // FByteBulkData inline (flags 0: the payload follows its header): flags, element count, size on disk, offset (i64).
  const inline = (b: Bytes, data: Uint8Array): void => {
    b.u32(0).u32(data.length).u32(data.length).i64(0);
    for (const x of data) b.u8(x);
  };
  const data = new Bytes().u32(0);
  if (opts.chunks) opts.chunks(data);
  else {
    const prefetch = opts.prefetch ?? 0;
    data.u32(prefetch > 0 ? 2 : 1);
    if (prefetch > 0) { data.u32(1); inline(data, wem.subarray(0, prefetch)); }
    data.u32(0); inline(data, wem);
  }
  return {
    path: 'Media/799259675.uasset', packageName: '/Game/WwiseAudio/Media/799259675', names: ['None'], ue4: 522, ue5: 0,
    exports: [
      exp(0, '799259675', 'AkMediaAsset', [{ name: 'Id', type: 'UInt32Property', value: 799259675 }, { name: 'MediaName', type: 'StrProperty', value: 'Play_Test_medium' }], new Bytes().u32(0).u32(opts.index ?? 2)),
      exp(1, 'AkMediaAssetData_0', 'AkMediaAssetData', [{ name: 'IsStreamed', type: 'BoolProperty', value: (opts.prefetch ?? 0) > 0 }], data),
    ],
    bulk: { largeOffsets: true, bulkDataStartOffset: 0 }, files: { separate: () => undefined }, warnings: [],
  };
}

describe('the cooked layout (built around Test.bnk\'s real PCM medium)', () => {
  const wem = bankMedia(loadWwise('Test.bnk')).get(799259675)!;
  const want = expected['Test.bnk#799259675']!;

  it('CurrentMediaAssetData names the data; a streamed medium\'s prefetch chunk is left out: ffmpeg\'s figures byte for byte', async () => {
    for (const prefetch of [0, 2048]) {
      const src = cookedSource(wem, { prefetch });
      const sound = await mediaAssetSound(src, src.exports[0]!);
      expect([sound.codec, sound.sampleRate, sound.channels, sound.samples]).toEqual([want.codec, want.rate, want.channels, want.frames]);
      const pcm = await sound.decode!();
      expect([pcm.samples.length / pcm.channels, sha(pcm.samples)]).toEqual([want.frames, want.sha256]);
    }
  });

  it('unversioned properties read without mappings: the chunks are found by reading to the export\'s end', async () => {
    const src = cookedSource(wem, { prefetch: 1024 });
    const data = src.exports[1]!;
    // Three bytes of an unversioned header the reader could not interpret, before the GUID flag.
    data.bytes = Uint8Array.from([0x02, 0x00, 0x01, ...data.bytes]);
    data.properties = { ...data.properties, encoding: 'unversioned', properties: [] };
    const sound = await mediaAssetSound(src, src.exports[0]!);
    expect([sound.codec, sound.samples, sha((await sound.decode!()).samples)]).toEqual([want.codec, want.frames, want.sha256]);
    // Bytes in which no chunks read: a FormatError asking for the mappings.
    data.bytes = new Uint8Array(64).fill(7);
    await expect(mediaAssetSound(src, src.exports[0]!)).rejects.toThrow(/not found without the game's mappings/);
  });

  it('bad input: a chunk count past the data, an IsPrefetch that is no bool, a payload past the export, no data export: FormatErrors naming the place', async () => {
    const count = cookedSource(wem, { chunks: (b) => b.u32(100000) });
    await expect(mediaAssetSound(count, count.exports[0]!)).rejects.toThrow(/AkMediaAssetData "AkMediaAssetData_0" data chunks at byte 4: .*data chunks/);
    const flag = cookedSource(wem, { chunks: (b) => b.u32(1).u32(7).fill(20) });
    await expect(mediaAssetSound(flag, flag.exports[0]!)).rejects.toThrow(/at byte 8: chunk 0: IsPrefetch is 7, not a bool/);
    const past = cookedSource(wem, { chunks: (b) => b.u32(1).u32(0).u32(0).u32(1 << 20).u32(1 << 20).i64(0) });
    await expect(mediaAssetSound(past, past.exports[0]!)).rejects.toThrow(FormatError);
    const alone = cookedSource(wem);
    alone.exports.pop();
    await expect(mediaAssetSound(alone, alone.exports[0]!)).rejects.toThrow(/no AkMediaAssetData export/);
  });
});

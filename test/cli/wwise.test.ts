// `pakscope audio` and `extract --format convert` on Wwise media: a .wem on disk and in a pak,
// --json with its codec, -o x.wav decoded (ffmpeg's figures), -o x.wem as stored, and a .wem
// written as .wav by --format convert.
import { createHash } from 'node:crypto';
import { mkdir, mkdtemp, readFile, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bankMedia, loadWwise, wwiseExpected, wwiseFile } from '../support/wwise-corpus.js';
import { bulletImpactAsset, playFootstepsAsset } from '../support/wwise-event-assets.js';
import { EVENT_BANK, LE3_BANK, MEDIA_ASSET, MEDIA_ASSET_WEM, MEDIA_FOOTSTEP, MEDIA_IMPACT_4, MEDIA_RICOCHET_2, mediaAsset, TEST_BANK, WEM_VORBIS, WEM_VORBIS_48K, writeWwiseEventsPak, writeWwisePak } from '../support/wwise-pak.js';
import { buildCli, pakscope } from './run-cli.js';

let temp: string;
let pak: string;
beforeAll(async () => {
  buildCli();
  temp = await mkdtemp(join(tmpdir(), 'pakscope-wwise-cli-'));
  pak = await writeWwisePak(temp);
});
afterAll(() => rm(temp, { recursive: true, force: true }));

const expected = wwiseExpected();

describe('pakscope audio on Wwise media', () => {
  it('--json of a .wem on disk and in a pak: format WEM, its codec, ffmpeg\'s length', async () => {
    const want = expected['surface_hits_medium_hard_01_3F75BDB9.wem']!;
    const [disk, packed] = await Promise.all([
      pakscope(['audio', wwiseFile('surface_hits_medium_hard_01_3F75BDB9.wem'), '--json']),
      pakscope(['audio', pak, WEM_VORBIS, '--json']),
    ]);
    expect([disk.code, packed.code]).toEqual([0, 0]);
    const json = { class: 'Wwise media', format: 'WEM', codec: 'VORBIS', sampleRate: want.rate, channels: want.channels, samples: want.frames, durationS: want.frames / want.rate, looping: false, streaming: false, chunks: 1 };
    expect(JSON.parse(disk.out)).toEqual(json);
    expect(JSON.parse(packed.out)).toEqual(json);
  });

  it('-o x.wav decodes it (16-bit PCM, ffmpeg\'s frames); -o x.wem writes it as stored', async () => {
    const want = expected['apcr_armor_not_pierce_small_01_3F75BDB9.wem']!;
    const wav = join(temp, 'apcr.wav');
    expect((await pakscope(['audio', pak, WEM_VORBIS_48K, '-o', wav])).code).toBe(0);
    const b = await readFile(wav);
    expect([b.readUInt16LE(20), b.readUInt16LE(22), b.readUInt32LE(24), b.readUInt32LE(40)]).toEqual([1, want.channels, want.rate, want.frames * want.channels * 2]);
    const wem = join(temp, 'apcr.wem');
    expect((await pakscope(['audio', pak, WEM_VORBIS_48K, '-o', wem])).code).toBe(0);
    expect(Buffer.from(await readFile(wem)).equals(Buffer.from(loadWwise('apcr_armor_not_pierce_small_01_3F75BDB9.wem')))).toBe(true);
  });

  it('extract --format convert writes each .wem as .wav beside the other files', async () => {
    const out = join(temp, 'convert');
    const r = await pakscope(['extract', pak, '--out', out, '--format', 'convert', '--filter', '*.wem', '--json']);
    expect(r.code).toBe(0);
    expect(JSON.parse(r.out)).toMatchObject({ files: 2, failed: [] });
    const media = join(out, 'Game/Content/WwiseAudio/Media');
    expect((await readdir(media)).sort()).toEqual(['apcr_armor_not_pierce_small_01.wav', 'surface_hits_medium_hard_01.wav']);
    const want = expected['surface_hits_medium_hard_01_3F75BDB9.wem']!;
    expect((await readFile(join(media, 'surface_hits_medium_hard_01.wav'))).readUInt32LE(40)).toBe(want.frames * want.channels * 2);
  });
});

describe('pakscope ls labels Wwise media named by id, as the app\'s tree does', () => {
  it('a last column and "label" in --json: the events that play each and its original file (the bank metadata, the event assets); other files none', async () => {
    const dir = join(temp, 'ls-events');
    await mkdir(dir, { recursive: true });
    const events = await writeWwiseEventsPak(dir);
    const table = await pakscope(['ls', events, '--filter', '*/Media/*']);
    expect(table.code).toBe(0);
    expect(table.out.split('\n').filter(Boolean).map((l) => l.split(/\s{2,}/))).toEqual([
      [MEDIA_IMPACT_4, '19296', 'WwiseEvents-Windows.pak', 'Bullet_Impact · Bullet_Impact_4.wav'],
      [MEDIA_RICOCHET_2, '19296', 'WwiseEvents-Windows.pak', 'Bullet_Impact · Ricochet_2.wav'],
      [MEDIA_ASSET, String(mediaAsset().length), 'WwiseEvents-Windows.pak', 'Play_Footsteps'],
      [MEDIA_FOOTSTEP, '19296', 'WwiseEvents-Windows.pak', 'Play_Footsteps'],
    ]);
    const json = JSON.parse((await pakscope(['ls', events, '--json'])).out) as { files: { path: string; label?: string }[] };
    expect(json.files.filter((f) => f.label).map((f) => [f.path, f.label])).toEqual([
      [MEDIA_IMPACT_4, 'Bullet_Impact · Bullet_Impact_4.wav'], [MEDIA_RICOCHET_2, 'Bullet_Impact · Ricochet_2.wav'], [MEDIA_ASSET, 'Play_Footsteps'], [MEDIA_FOOTSTEP, 'Play_Footsteps'],
    ]);
    expect(json.files.find((f) => f.path === EVENT_BANK)).not.toHaveProperty('label');
  });

  it('an install without media named by id: no label', async () => {
    const r = await pakscope(['ls', pak, '--json']);
    expect((JSON.parse(r.out) as { files: object[] }).files.every((f) => !('label' in f))).toBe(true);
  });
});

describe('Wwise media assets (Media/<id>.uasset: the .wem in an AkMediaAssetData\'s bulk data)', () => {
  it('audio --json gives the .wem\'s facts (ffmpeg\'s figures); -o x.wav and extract --format convert write it decoded', async () => {
    const want = expected[MEDIA_ASSET_WEM]!;
    const dir = join(temp, 'events');
    await mkdir(dir, { recursive: true });
    const events = await writeWwiseEventsPak(dir);
    const info = await pakscope(['audio', events, MEDIA_ASSET, '--json']);
    expect(info.code).toBe(0);
    expect(JSON.parse(info.out)).toEqual({ class: 'AkMediaAsset', format: 'WEM', codec: 'PCM', sampleRate: want.rate, channels: want.channels, samples: want.frames, durationS: want.frames / want.rate, looping: false, streaming: false, chunks: 1 });
    expect(info.stderr).toContain('note: original file: sx_character_WORLD_footsteps_asphalt_2');
    expect(info.stderr).toContain('note: played by event Play_Footsteps');
    const sha = (b: Buffer): string => createHash('sha256').update(b.subarray(44)).digest('hex');
    const wav = join(temp, 'asphalt_2.wav');
    expect((await pakscope(['audio', events, MEDIA_ASSET, '-o', wav])).code).toBe(0);
    expect(sha(await readFile(wav))).toBe(want.sha256);
    const out = join(temp, 'media-convert');
    const r = await pakscope(['extract', events, '--out', out, '--format', 'convert', '--filter', '*/Media/*.uasset', '--json']);
    expect(r.code).toBe(0);
    expect(sha(await readFile(join(out, 'Game/Content/WwiseAudio/Media/290492006.wav')))).toBe(want.sha256);
  });
});

describe('pakscope audio on Wwise sound banks', () => {
  it('extract --format convert writes each bank as a folder of its media as .wav, named by the metadata (else by id)', async () => {
    const out = join(temp, 'convert-banks');
    const r = await pakscope(['extract', pak, '--out', out, '--format', 'convert', '--filter', '*.bnk', '--json']);
    expect(r.code).toBe(0);
    expect(JSON.parse(r.out)).toMatchObject({ failed: [] });
    const dir = join(out, 'Game/Content/WwiseAudio');
    // Test.bnk: its one medium by its original file's name as SoundbanksInfo.json gives it (金币.wav).
    expect(await readdir(join(dir, 'Test'))).toEqual(['金币.wav']);
    const coin = await readFile(join(dir, 'Test', '金币.wav'));
    expect([coin.readUInt16LE(22), coin.readUInt32LE(24), coin.readUInt32LE(40)]).toEqual([2, 16000, 17920 * 2 * 2]);
    // LE3: no metadata, so each of the 35 media the DIDX table lists is named by its id.
    const ids = [...bankMedia(loadWwise('LE3_v134_1.bnk')).keys()];
    expect((await readdir(join(dir, 'LE3_v134_1'))).sort()).toEqual(ids.map((id) => `${id}.wav`).sort());
    for (const [key, want] of Object.entries(expected).filter(([k]) => k.startsWith('LE3_v134_1.bnk#'))) {
      const wav = await readFile(join(dir, 'LE3_v134_1', `${key.split('#')[1]}.wav`));
      expect([wav.readUInt16LE(22), wav.readUInt32LE(24), wav.readUInt32LE(40)]).toEqual([want.channels, want.rate, want.frames * want.channels * 2]);
    }
  });

  it('--json lists events (named from SoundbanksInfo.json beside the bank) and media, on disk and in a pak', async () => {
    const want = { events: [{ id: 3187507146, name: 'Play_Test', media: [799259675] }], media: [{ id: 799259675, bytes: 71744, codec: 'PCM' }] };
    const [disk, packed] = await Promise.all([
      pakscope(['audio', wwiseFile('Test.bnk'), '--json']),
      pakscope(['audio', pak, TEST_BANK, '--json']),
    ]);
    expect([disk.code, packed.code]).toEqual([0, 0]);
    expect(JSON.parse(disk.out)).toEqual(want);
    expect(JSON.parse(packed.out)).toEqual(want);
  });

  it('a bank without metadata: names null; --media ID -o x.wav decodes one medium (ffmpeg\'s figures)', async () => {
    const r = await pakscope(['audio', pak, LE3_BANK, '--json']);
    expect(r.code).toBe(0);
    const json = JSON.parse(r.out) as { events: { name: string | null }[]; media: { codec: string }[] };
    expect(json.events).toHaveLength(45);
    expect(json.events.every((e) => e.name === null)).toBe(true);
    expect(new Set(json.media.map((m) => m.codec))).toEqual(new Set(['VORBIS']));
    const want = expected['LE3_v134_1.bnk#6098048']!;
    const wav = join(temp, 'le3.wav');
    expect((await pakscope(['audio', pak, LE3_BANK, '--media', '6098048', '-o', wav])).code).toBe(0);
    const b = await readFile(wav);
    expect([b.readUInt16LE(22), b.readUInt32LE(24), b.readUInt32LE(40)]).toEqual([want.channels, want.rate, want.frames * want.channels * 2]);
  });

  it('refusals: -o without --media, a medium the bank lacks, --media of a .wem', async () => {
    const a = await pakscope(['audio', wwiseFile('Test.bnk'), '-o', join(temp, 'x.wav')]);
    expect(a.code).not.toBe(0);
    expect(a.stderr).toContain('--media ID');
    const b = await pakscope(['audio', wwiseFile('Test.bnk'), '--media', '5']);
    expect(b.code).toBe(2);
    expect(b.stderr).toContain('the bank has no medium 5');
    const c = await pakscope(['audio', wwiseFile('surface_hits_medium_hard_01_3F75BDB9.wem'), '--media', '5']);
    expect(c.code).not.toBe(0);
  });
});

describe('pakscope audio on Wwise event assets', () => {
  it('an AkAudioEvent prints its Wwise id and the media it lists (2021.1), or its EventInfo (2023.1); -o is refused', async () => {
    // The assets as the integrations save them (written with their projects' metadata values).
    const [footstepsAsset, impactAsset] = [join(temp, 'Play_Footsteps.uasset'), join(temp, 'Bullet_Impact.uasset')];
    await writeFile(footstepsAsset, playFootstepsAsset());
    await writeFile(impactAsset, bulletImpactAsset());
    const footsteps = await pakscope(['audio', footstepsAsset]);
    expect(footsteps.code).toBe(0);
    expect(footsteps.out).toContain('Wwise event Play_Footsteps (AkAudioEvent): id 3854155799');
    expect(footsteps.out).toContain('20 media: 47342949, 87617241,');
    const impact = await pakscope(['audio', impactAsset, '--json']);
    expect(JSON.parse(impact.out)).toEqual({ wwise: [{ kind: 'event', name: 'Bullet_Impact', class: 'AkAudioEvent', wwiseName: 'Bullet_Impact', shortId: 3921814510, banks: [], media: [], events: [] }] });
    const refused = await pakscope(['audio', impactAsset, '-o', join(temp, 'x.wav')]);
    expect(refused.code).not.toBe(0);
    expect(refused.stderr).toContain('is a Wwise AkAudioEvent: it names media, it holds no sound to write');
  });
});

describe('Wwise files loose in a game folder', () => {
  it('a folder scan takes .wem, .bnk and SoundbanksInfo.json as loose files: ls lists them, a bank is named by the metadata beside it', async () => {
    const dir = join(temp, 'Game', 'MyGame', 'Content', 'WwiseAudio', 'Windows');
    await mkdir(dir, { recursive: true });
    await writeFile(join(dir, 'Test.bnk'), loadWwise('Test.bnk'));
    await writeFile(join(dir, 'SoundbanksInfo.json'), loadWwise('SoundbanksInfo.json'));
    await writeFile(join(dir, '123.wem'), loadWwise('surface_hits_medium_hard_01_3F75BDB9.wem'));
    await writeFile(join(dir, 'notes.txt'), 'not an install file');
    const root = join(temp, 'Game');
    const ls = await pakscope(['ls', root]);
    expect(ls.code).toBe(0);
    expect(ls.out.split('\n').filter(Boolean).map((l) => l.split(/\s+/)[0])).toEqual([
      'MyGame/Content/WwiseAudio/Windows/123.wem', 'MyGame/Content/WwiseAudio/Windows/SoundbanksInfo.json', 'MyGame/Content/WwiseAudio/Windows/Test.bnk',
    ]);
    const bank = await pakscope(['audio', root, 'MyGame/Content/WwiseAudio/Windows/Test.bnk', '--json']);
    expect(JSON.parse(bank.out).events).toEqual([{ id: 3187507146, name: 'Play_Test', media: [799259675] }]);
  });

  it('a .wem named by its id is named by the metadata: the event that plays it and its original file', async () => {
    const dir = join(temp, 'Game', 'MyGame', 'Content', 'WwiseAudio', 'Windows');
    await writeFile(join(dir, '799259675.wem'), bankMedia(loadWwise('Test.bnk')).get(799259675)!);
    const r = await pakscope(['audio', join(temp, 'Game'), 'MyGame/Content/WwiseAudio/Windows/799259675.wem']);
    expect(r.code).toBe(0);
    expect(r.stderr).toContain('note: played by event Play_Test');
    expect(r.stderr).toContain('note: original file: 金币.wav (SFX\\金币_10C4C929.wem)');
    expect(r.out).toContain('WEM PCM, 16000 Hz, 2 channels, 17920 samples');
  });
});

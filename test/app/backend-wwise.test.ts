// The app's backend and Wwise media: a .wem in a container is a plain file the registry reads by
// its extension: its details name the sound view, soundInfo gives its facts and decoded WAV, and
// saveConversion writes it as a WAV or as stored.
import { mkdir, mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { Install } from '../../src/core/install/install.js';
import { corpus } from '../support/corpus.js';
import { Backend } from '../../src/backend/backend.js';
import { loadWwise, wwiseExpected } from '../support/wwise-corpus.js';
import { EVENT_BANK, MEDIA_ASSET, MEDIA_ASSET_WEM, MEDIA_FOOTSTEP, MEDIA_IMPACT_4, TEST_BANK, WEM_VORBIS, writeWwiseEventsPak, writeWwisePak } from '../support/wwise-pak.js';
import { validateRequest } from '../../src/shared/api.js';
import { createHash } from 'node:crypto';

const info = { name: 'PakScope', version: '0', electron: null, chrome: null, mode: 'web' as const };
let dir: string;
let out: string;
let backend: Backend;
let installId: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'pakscope-wwise-'));
  out = join(dir, 'out');
  await mkdir(join(dir, 'pak'));
  await mkdir(out);
  await writeWwisePak(join(dir, 'pak'));
  backend = new Backend({ configDir: dir, dialogs: { pickFolder: async () => null, pickFile: async () => null }, info, anyPath: true });
  installId = (await backend.openInstall({ path: join(dir, 'pak', 'WwiseAudio-Windows.pak') })).id;
});
afterAll(async () => {
  await backend.close();
  await rm(dir, { recursive: true, force: true });
});

describe('Wwise media in the backend', () => {
  const want = wwiseExpected()['surface_hits_medium_hard_01_3F75BDB9.wem']!;

  it('a .wem file\'s details name the sound view; other files none', async () => {
    expect((await backend.fileDetails({ installId, path: WEM_VORBIS })).view).toBe('sound');
    expect((await backend.fileDetails({ installId, path: 'Game/Content/WwiseAudio/SoundbanksInfo.json' })).view).toBeUndefined();
  });

  it('soundInfo gives the .wem\'s facts (ffmpeg\'s figures) and its decoded WAV', async () => {
    const v = await backend.soundInfo({ installId, path: WEM_VORBIS });
    expect([v.format, v.codec, v.sampleRate, v.channels, v.samples]).toEqual(['WEM', 'VORBIS', want.rate, want.channels, want.frames]);
    expect(v.converts).toEqual(['wav', 'wem']);
    expect(v.decodeError).toBeUndefined();
    const wav = Buffer.from(v.wav!);
    expect([wav.readUInt16LE(20), wav.readUInt16LE(22), wav.readUInt32LE(24), wav.readUInt32LE(40)]).toEqual([1, want.channels, want.rate, want.frames * want.channels * 2]);
  });

  it('saveConversion writes the .wem as a WAV and as stored', async () => {
    const wav = join(out, 'hit.wav');
    await backend.saveConversion({ installId, path: WEM_VORBIS, format: 'wav', destination: wav });
    expect((await readFile(wav)).readUInt32LE(40)).toBe(want.frames * want.channels * 2);
    const wem = join(out, 'hit.wem');
    await backend.saveConversion({ installId, path: WEM_VORBIS, format: 'wem', destination: wem });
    expect(Buffer.from(await readFile(wem)).equals(Buffer.from(loadWwise('surface_hits_medium_hard_01_3F75BDB9.wem')))).toBe(true);
  });
});

describe('Wwise sound banks in the backend', () => {
  it('a .bnk\'s details name the soundbank view; soundBank lists its event (named by the SoundbanksInfo.json of the install) and medium', async () => {
    expect((await backend.fileDetails({ installId, path: TEST_BANK })).view).toBe('soundbank');
    const v = await backend.soundBank({ installId, path: TEST_BANK });
    expect([v.version, v.bankId]).toEqual([140, 3157003241]);
    expect(v.events).toEqual([{ id: 3187507146, name: 'Play_Test', media: [799259675] }]);
    expect(v.media).toEqual([{ id: 799259675, bytes: 71744, codec: 'PCM', name: '金币.wav', samples: 17920, sampleRate: 16000, channels: 2 }]);
  });

  it('soundInfo and saveConversion of one medium (mediaId): PCM byte for byte as ffmpeg read it', async () => {
    const want = wwiseExpected()['Test.bnk#799259675']!;
    const v = await backend.soundInfo(validateRequest('soundInfo', { installId, path: TEST_BANK, mediaId: 799259675 }));
    expect([v.name, v.codec, v.samples]).toEqual(['金币', 'PCM', want.frames]);
    const wav = join(out, 'coin.wav');
    await backend.saveConversion(validateRequest('saveConversion', { installId, path: TEST_BANK, mediaId: 799259675, format: 'wav', destination: wav }));
    expect(createHash('sha256').update((await readFile(wav)).subarray(44)).digest('hex')).toBe(want.sha256);
    await expect(backend.soundInfo({ installId, path: TEST_BANK })).rejects.toThrow(/name one of its media/);
  });
});

describe('Wwise media named by the events that play them (the tree and the sound view)', () => {
  let eventsId: string;
  beforeAll(async () => {
    await mkdir(join(dir, 'events'));
    eventsId = (await backend.openInstall({ path: await writeWwiseEventsPak(join(dir, 'events')) })).id;
  });

  it('listDir labels media named by id: by the event bank\'s metadata (event and original file), or by an AkAudioEvent\'s media list', async () => {
    const media = await backend.listDir({ installId: eventsId, path: 'Game/Content/WwiseAudio/Media' });
    expect(media.map((e) => [e.name, e.label])).toEqual([
      ['115002319.wem', 'Bullet_Impact · Bullet_Impact_4.wav'],
      ['156526235.wem', 'Bullet_Impact · Ricochet_2.wav'],
      ['290492006.uasset', 'Play_Footsteps'],
      ['47342949.wem', 'Play_Footsteps'],
    ]);
    // Other folders and files keep their names alone.
    const root = await backend.listDir({ installId: eventsId, path: 'Game/Content/WwiseAudio/Event' });
    expect(root.map((e) => e.label)).toEqual([undefined, undefined]);
  });

  it('the tree filter finds media by the events and original files their labels show, once the names are read', async () => {
    await backend.listDir({ installId: eventsId, path: 'Game/Content/WwiseAudio/Media' });
    const byFile = await backend.listDir({ installId: eventsId, path: 'Game/Content/WwiseAudio/Media', filter: 'ricochet_2' });
    expect(byFile.map((e) => e.name)).toEqual(['156526235.wem']);
    const byEvent = await backend.listDir({ installId: eventsId, path: 'Game/Content/WwiseAudio/Media', filter: 'Play_Footsteps' });
    expect(byEvent.map((e) => e.name)).toEqual(['290492006.uasset', '47342949.wem']);
    // The folders above count what matches inside them: here the medium and the event asset (by its path).
    const audio = await backend.listDir({ installId: eventsId, path: 'Game/Content/WwiseAudio', filter: 'Play_Footsteps' });
    expect(audio.map((e) => [e.name, e.fileCount])).toEqual([['Events', 1], ['Media', 2]]);
  });

  it('an event bank without embedded media names the media its event plays (the metadata beside it)', async () => {
    const info = JSON.parse(new TextDecoder().decode(loadWwise('Bullet_Impact.json'))).SoundBanksInfo.SoundBanks[0] as { Media: { Id: string; ShortName: string }[] };
    const bank = await backend.soundBank({ installId: eventsId, path: EVENT_BANK });
    expect(bank.media).toEqual([]);
    expect(bank.events.map((e) => e.name)).toEqual(['Bullet_Impact']);
    const byId = (a: { id: number }, b: { id: number }) => a.id - b.id;
    expect([...bank.otherMedia].sort(byId)).toEqual(info.Media.map((m) => ({ id: Number(m.Id), name: m.ShortName })).sort(byId));
  });

  it('the sound view of a medium names its events and original file', async () => {
    const view = await backend.soundInfo({ installId: eventsId, path: MEDIA_IMPACT_4 });
    expect([view.codec, view.sampleRate, view.channels, view.samples]).toEqual(['PCM', 48000, 1, 9600]);
    expect([view.wwiseEvents, view.originalFile]).toEqual([['Bullet_Impact'], 'Bullet_Impact_4.wav (Media/115002319.wem)']);
    const footstep = await backend.soundInfo({ installId: eventsId, path: MEDIA_FOOTSTEP });
    expect([footstep.wwiseEvents, footstep.originalFile]).toEqual([['Play_Footsteps'], undefined]);
  });

  it('a media asset (Media/<id>.uasset) opens with the sound view, plays (ffmpeg\'s figures) named by its event, and saves as WAV', async () => {
    const want = wwiseExpected()[MEDIA_ASSET_WEM]!;
    const pkg = await backend.openPackage({ installId: eventsId, path: MEDIA_ASSET });
    expect(pkg.assets.map((a) => [a.name, a.class, a.view, a.converts.slice(0, 1)])).toEqual([['290492006', 'AkMediaAsset', 'sound', ['wav']]]);
    const v = await backend.soundInfo({ installId: eventsId, path: MEDIA_ASSET, exportIndex: 0 });
    expect([v.format, v.codec, v.sampleRate, v.channels, v.samples, v.wwiseEvents, v.originalFile]).toEqual(['WEM', 'PCM', want.rate, want.channels, want.frames, ['Play_Footsteps'], 'sx_character_WORLD_footsteps_asphalt_2']);
    expect(v.decodeError).toBeUndefined();
    expect(createHash('sha256').update(Buffer.from(v.wav!).subarray(44)).digest('hex')).toBe(want.sha256);
    const wav = join(out, 'asphalt_2.wav');
    await backend.saveConversion({ installId: eventsId, path: MEDIA_ASSET, exportIndex: 0, format: 'wav', destination: wav });
    expect(createHash('sha256').update((await readFile(wav)).subarray(44)).digest('hex')).toBe(want.sha256);
  });

  it('the filter finds media by their labels as soon as the install has opened: no folder of them need be listed first', async () => {
    const fresh = new Backend({ configDir: dir, dialogs: { pickFolder: async () => null, pickFile: async () => null }, info, anyPath: true });
    try {
      const ready = new Promise<unknown>((resolve) => { fresh.onEvent((e) => { if (e.type === 'wwise-names-ready') resolve(e); }); });
      const id = (await fresh.openInstall({ path: join(dir, 'events', 'WwiseEvents-Windows.pak') })).id;
      // The names are read in the background after the open: the page is told when they are known.
      expect(await Promise.race([ready, new Promise((r) => setTimeout(() => r('no wwise-names-ready in 10 s'), 10_000))])).toEqual({ type: 'wwise-names-ready', installId: id });
      // Only the root is listed, filtered: the media match by their labels (an event, an original file).
      const byEvent = await fresh.listDir({ installId: id, path: 'Game/Content/WwiseAudio', filter: 'Play_Footsteps' });
      expect(byEvent.map((e) => [e.name, e.fileCount])).toEqual([['Events', 1], ['Media', 2]]);
      const byFile = await fresh.listDir({ installId: id, path: '', filter: 'ricochet_2' });
      expect(byFile.map((e) => [e.name, e.fileCount])).toEqual([['Game', 1]]);
    } finally {
      await fresh.close();
    }
  });

  it('closing an install while its Wwise names are read stops the read: no file of the closed install is read after, no event for it, nothing unhandled', async () => {
    const quick = new Backend({ configDir: dir, dialogs: { pickFolder: async () => null, pickFile: async () => null }, info, anyPath: true, wwiseNamesWaitMs: 0, wwiseNamesAtOpen: false });
    const unhandled: unknown[] = [];
    const onUnhandled = (e: unknown): void => { unhandled.push(e); };
    process.on('unhandledRejection', onUnhandled);
    try {
      const id = (await quick.openInstall({ path: join(dir, 'events', 'WwiseEvents-Windows.pak') })).id;
      // The install's one archive, counted from the close on (private: the read is in the background).
      const install = (quick as unknown as { installs: Map<string, { install: { archives: { read: (...a: unknown[]) => Promise<Uint8Array> }[] } }> }).installs.get(id)!.install;
      let closed = false;
      let readsAfterClose = 0;
      for (const archive of install.archives) {
        const read = archive.read.bind(archive);
        archive.read = (...a: unknown[]) => { if (closed) readsAfterClose++; return read(...a); };
      }
      const events: unknown[] = [];
      quick.onEvent((e) => { if (e.type === 'wwise-names-ready') events.push(e); });
      // The listing starts the read and answers at once (it does not wait); the install closes meanwhile.
      expect((await quick.listDir({ installId: id, path: 'Game/Content/WwiseAudio/Media' })).map((e) => e.label)).toEqual([undefined, undefined, undefined, undefined]);
      closed = true;
      await quick.closeInstall({ installId: id });
      await new Promise((r) => setTimeout(r, 300));
      expect(readsAfterClose).toBe(0);
      expect(events).toEqual([]);
      expect(unhandled).toEqual([]);
    } finally {
      process.off('unhandledRejection', onUnhandled);
      await quick.close();
    }
  });

  it('an install without Wwise media reads nothing more at open: no mappings, no walk of its paths for filter labels, no event', async () => {
    const fresh = new Backend({ configDir: dir, dialogs: { pickFolder: async () => null, pickFile: async () => null }, info, anyPath: true });
    const walks = vi.spyOn(Install.prototype, 'setFilterLabels');
    try {
      const events: unknown[] = [];
      fresh.onEvent((e) => { if (e.type === 'wwise-names-ready') events.push(e); });
      const id = (await fresh.openInstall({ path: corpus('cue58/IoStore/Tagged/Zlib') })).id;
      await new Promise((r) => setTimeout(r, 300));
      expect(walks).not.toHaveBeenCalled();
      expect(events).toEqual([]);
      // The filter still works, by path alone.
      expect((await fresh.listDir({ installId: id, path: '', filter: 'sm_fixture' })).length).toBeGreaterThan(0);
    } finally {
      walks.mockRestore();
      await fresh.close();
    }
  });

  it('a listing that cannot wait for the names answers without labels, and wwise-names-ready follows; the next listing has them', async () => {
    const quick = new Backend({ configDir: dir, dialogs: { pickFolder: async () => null, pickFile: async () => null }, info, anyPath: true, wwiseNamesWaitMs: 0, wwiseNamesAtOpen: false });
    try {
      const id = (await quick.openInstall({ path: join(dir, 'events', 'WwiseEvents-Windows.pak') })).id;
      const ready = new Promise<unknown>((resolve) => { quick.onEvent((e) => { if (e.type === 'wwise-names-ready') resolve(e); }); });
      const first = await quick.listDir({ installId: id, path: 'Game/Content/WwiseAudio/Media' });
      expect(first.map((e) => e.label)).toEqual([undefined, undefined, undefined, undefined]);
      expect(await ready).toEqual({ type: 'wwise-names-ready', installId: id });
      const again = await quick.listDir({ installId: id, path: 'Game/Content/WwiseAudio/Media' });
      expect(again.map((e) => e.label)).toEqual(['Bullet_Impact · Bullet_Impact_4.wav', 'Bullet_Impact · Ricochet_2.wav', 'Play_Footsteps', 'Play_Footsteps']);
    } finally {
      await quick.close();
    }
  });
});

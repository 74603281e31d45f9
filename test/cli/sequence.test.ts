// `pakscope sequence`: cue58's LS_Fixture and LS_Nested (values from CUE4Parse's
// FixtureEngineAssetTests.cs) as text, JSON and CSV, tagged and unversioned; bad arguments.
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { corpus } from '../support/corpus.js';
import { makeTempDir, removeTempDirs } from '../fixtures/toc-writer.js';
import { buildCli, pakscope } from './run-cli.js';

const TAGGED = corpus('cue58/IoStore/Tagged/Zlib');
const UNVERSIONED = corpus('cue58/IoStore/Unversioned/Zlib');
const USMAP = corpus('cue58/Mappings/CUE4ParseFixtures-Uncompressed.usmap');

beforeAll(buildCli);
afterAll(removeTempDirs);

describe('pakscope sequence', () => {
  it('prints LS_Fixture\'s timing, its MPC track and the keys of FixtureScalar', async () => {
    const r = await pakscope(['sequence', TAGGED, '/Game/Fixtures/Sequences/LS_Fixture']);
    expect([r.code, r.stderr]).toEqual([0, '']);
    expect(r.out).toContain('tick resolution 24000/s  display rate 24 fps  playback frame 0 (0 s, tick 0) .. frame 24.001 (1 s, tick 24001)');
    expect(r.out).toContain('Material Parameter Collection (MovieSceneMaterialParameterCollectionTrack)  collection /Game/Fixtures/Materials/MPC_Fixture.MPC_Fixture');
    expect(r.out).toContain('FixtureScalar.ParameterCurve (float) 3 keys: 0=0.125 12=0.75 24=-0.25');
  });

  it('LS_Nested\'s subsequence sections, and --json the same tagged and unversioned', async () => {
    const text = await pakscope(['sequence', TAGGED, 'LS_Nested']);
    expect(text.out).toContain('plays /Game/Fixtures/Sequences/LS_Fixture.LS_Fixture  rate 1.5  start offset 0 ticks  bias 37');
    const tagged = await pakscope(['sequence', TAGGED, '/Game/Fixtures/Sequences/LS_Nested', '--json']);
    const unversioned = await pakscope(['sequence', UNVERSIONED, '/Game/Fixtures/Sequences/LS_Nested', '--json', '--usmap', USMAP]);
    expect([tagged.code, unversioned.code]).toEqual([0, 0]);
    const t = JSON.parse(tagged.out) as { tracks: { sections: { range: { start: { tick: number } }; timeScale: number; startFrameOffset: number }[] }[] };
    expect(t.tracks[0]!.sections.map((s) => [s.range.start.tick, s.timeScale, s.startFrameOffset])).toEqual([[6000, 0.5, 1200], [30001, 1.5, 0]]);
    expect(JSON.parse(unversioned.out)).toEqual(t);
  });

  it('-o writes the keys as CSV, or the whole as JSON', async () => {
    const dir = await makeTempDir();
    const csv = join(dir, 'keys.csv');
    const r = await pakscope(['sequence', UNVERSIONED, '/Game/Fixtures/Sequences/LS_Fixture', '--usmap', USMAP, '-o', csv]);
    expect(r.code).toBe(0);
    expect(r.stderr).toMatch(/wrote .*keys\.csv: 11 keys/);
    const lines = (await readFile(csv, 'utf8')).split('\r\n');
    expect(lines[0]).toBe('binding,track,section,channel,tick,frame,seconds,value');
    expect(lines).toContain(',Material Parameter Collection,MovieSceneParameterSection_0,FixtureColor.GreenCurve,24000,24,1,0.75');
    const json = join(dir, 'seq.json');
    expect((await pakscope(['sequence', TAGGED, 'LS_Fixture', '-o', json])).code).toBe(0);
    expect((JSON.parse(await readFile(json, 'utf8')) as { counts: { keys: number } }).counts.keys).toBe(11);
  });

  it('an unversioned sequence without mappings, a package that is none and a bad -o are clear errors', async () => {
    const r = await pakscope(['sequence', UNVERSIONED, '/Game/Fixtures/Sequences/LS_Fixture']);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/mappings \(\.usmap\) are needed to read its sequence/);
    const m = await pakscope(['sequence', TAGGED, '/Game/Fixtures/Materials/MI_Fixture']);
    expect(m.code).toBe(2);
    expect(m.stderr).toMatch(/holds no Level Sequence/);
    const o = await pakscope(['sequence', TAGGED, 'LS_Fixture', '-o', 'x.txt']);
    expect(o.code).toBe(2);
    expect(o.stderr).toMatch(/-o writes a \.json or \.csv, not x\.txt/);
  });
});

/**
 * The sequence view's API: LS_Nested and LS_Fixture of the cue58 IoStore fixtures offered as a
 * "sequence" preview, and sequenceInfo giving their timing and sections (values from CUE4Parse's
 * FixtureEngineAssetTests.cs) with the tree paths of the subsequence and the parameter
 * collection the install holds, and the JSON and key CSV Save writes. A package that holds no
 * sequence is refused.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { Backend } from '../../src/backend/backend.js';
import { useBackend } from '../support/backend-session.js';
import { corpus } from '../support/corpus.js';

const SEQUENCES = 'CUE4ParseFixtures/Content/Fixtures/Sequences';
const session = useBackend(corpus('cue58/IoStore/Tagged/Zlib'), 'pakscope-sequence-');
let backend: Backend, installId: string;
beforeAll(() => ({ backend, installId } = session));

describe('sequenceInfo', () => {
  it('offers LS_Nested as a sequence: its two subsequence sections, LS_Fixture a link', async () => {
    const path = `${SEQUENCES}/LS_Nested.uasset`;
    const view = await backend.openPackage({ installId, path });
    expect(view.assets.map((a) => [a.view, a.kind, a.class, a.converts])).toEqual([['sequence', 'sequence', 'LevelSequence', ['json', 'csv']]]);
    const s = await backend.sequenceInfo({ installId, path });
    expect(s.sequence.tracks[0]!.sections.map((x) => [x.range.start?.tick, x.range.end?.tick, x.timeScale, x.hierarchicalBias])).toEqual([[6000, 30001, 0.5, 100], [30001, 42001, 1.5, 37]]);
    expect(s.links['/Game/Fixtures/Sequences/LS_Fixture.LS_Fixture']).toBe(`${SEQUENCES}/LS_Fixture.uasset`);
    expect(JSON.parse(s.json).sequence).toBe('LS_Nested');
    expect(s.csv).toBe('binding,track,section,channel,tick,frame,seconds,value\r\n');
  });

  it('LS_Fixture: its collection a link, its 11 keys in the CSV', async () => {
    const s = await backend.sequenceInfo({ installId, path: `${SEQUENCES}/LS_Fixture.uasset` });
    expect(s.links['/Game/Fixtures/Materials/MPC_Fixture.MPC_Fixture']).toBe('CUE4ParseFixtures/Content/Fixtures/Materials/MPC_Fixture.uasset');
    expect(s.csv.split('\r\n').filter(Boolean)).toHaveLength(12);
  });

  it('a package with no sequence is refused', async () => {
    await expect(backend.sequenceInfo({ installId, path: 'CUE4ParseFixtures/Content/Fixtures/Materials/MPC_Fixture.uasset' })).rejects.toThrow(/no export of this package is a Level Sequence/);
  });
});

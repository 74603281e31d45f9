/**
 * The MetaSound and Niagara views' API on the cue58 IoStore fixtures: MS_Source and NS_Fixture
 * offered as "metasound" and "niagara" previews, metaSoundInfo giving the document (three nodes,
 * output Mono: CUE4Parse's FixtureEffectAssetTests) with its JSON and .dot, niagaraInfo the user
 * parameters (FixtureScale 3.25, the texture DI's T_BC3) with T_BC3's tree path; a package of
 * another kind is refused by name.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { Backend } from '../../src/backend/backend.js';
import { ApiValidationError, validateRequest } from '../../src/shared/api.js';
import { useBackend } from '../support/backend-session.js';
import { corpus } from '../support/corpus.js';

const EFFECTS = 'CUE4ParseFixtures/Content/Fixtures/Effects';
const session = useBackend(corpus('cue58/IoStore/Tagged/Zlib'), 'pakscope-effect-');
let backend: Backend, installId: string;
beforeAll(() => ({ backend, installId } = session));

describe('metaSoundInfo and niagaraInfo', () => {
  it('offers MS_Source as a MetaSound: its document, JSON and .dot', async () => {
    const path = `${EFFECTS}/MS_Source.uasset`;
    const view = await backend.openPackage({ installId, path });
    expect(view.assets.map((a) => [a.view, a.kind, a.class, a.converts])).toEqual([['metasound', 'metasound', 'MetaSoundSource', ['json', 'dot']]]);
    const m = await backend.metaSoundInfo({ installId, path });
    expect([m.document.outputFormat, m.document.graphs[0]!.nodes.map((n) => n.class?.name)]).toEqual(['Mono', ['Input.Trigger', 'Output.Trigger', 'Output.Audio']]);
    expect(JSON.parse(m.json)).toEqual(m.document);
    expect(m.dot.startsWith('digraph "MS_Source" {')).toBe(true);
  });

  it('offers NS_Fixture as a Niagara System with its parameters and the texture\'s tree path', async () => {
    const path = `${EFFECTS}/NS_Fixture.uasset`;
    const view = await backend.openPackage({ installId, path });
    expect(view.assets.map((a) => [a.view, a.class])).toEqual([['niagara', 'NiagaraSystem']]);
    const n = await backend.niagaraInfo({ installId, path });
    expect(n.system.userParameters.map((p) => [p.name, p.type])).toEqual([['FixtureScale', 'float'], ['FixtureTexture', 'NiagaraDataInterfaceTexture']]);
    expect(n.system.userParameters[0]!.value).toBe(3.25);
    expect(n.links).toEqual({ '/Game/Fixtures/Textures/T_BC3.T_BC3': 'CUE4ParseFixtures/Content/Fixtures/Textures/T_BC3.uasset' });
    await expect(backend.niagaraInfo({ installId, path: `${EFFECTS}/MS_Source.uasset` })).rejects.toThrow(/no export of this package is a Niagara System/);
    await expect(backend.metaSoundInfo({ installId, path, exportIndex: 0 })).rejects.toThrow(/export 0 is not a MetaSound/);
    expect(() => validateRequest('niagaraInfo', { installId, path: 3 })).toThrow(ApiValidationError);
  });
});

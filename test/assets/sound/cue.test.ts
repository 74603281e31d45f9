// SoundCue graphs on cue58's SC_Fixture, tagged and unversioned with the usmap alike, against
// CUE4Parse's FixtureAudioTests (volume 0.75, pitch 1.125, a mixer of two wave players: SW_Inline
// not looping, SW_Streaming looping); the graph as JSON through the registry.
import { describe, expect, it } from 'vitest';
import { convertExport, convertibleExports } from '../../../src/core/assets/index.js';
import { readSoundCue, soundCueGraph } from '../../../src/core/assets/sound/cue.js';
import { parseUsmap } from '../../../src/core/usmap/parse.js';
import { openedPackages } from '../../support/opened-packages.js';
import { loadCorpus } from '../../support/corpus.js';

const VARIANTS = {
  Tagged: { path: 'cue58/IoStore/Tagged/Uncompressed/CUE4ParseFixtures-Minimal-Uncompressed-Windows.utoc', mappings: false },
  'Unversioned with the usmap': { path: 'cue58/IoStore/Unversioned/Zlib/CUE4ParseFixtures-Minimal-Zlib-Windows.utoc', mappings: true },
};
const REF = '/Game/Fixtures/Audio/SC_Fixture';

for (const [variant, v] of Object.entries(VARIANTS)) {
  describe(`SC_Fixture, ${variant}`, () => {
    const packages = openedPackages(v.path);
    const opts = (): { mappings?: ReturnType<typeof parseUsmap> } => (v.mappings ? { mappings: parseUsmap(loadCorpus('cue58/Mappings/CUE4ParseFixtures-Uncompressed.usmap'), 'cue58.usmap') } : {});

    it('volume 0.75 (the class default, not stored), pitch 1.125, a mixer of two wave players', async () => {
      const g = await readSoundCue({ packages: packages(), ref: REF }, undefined, opts());
      expect([g.class, g.name, g.volume, g.pitch]).toEqual(['SoundCue', 'SC_Fixture', 0.75, 1.125]);
      const first = g.nodes.find((n) => n.id === g.firstNode)!;
      expect([first.class, first.kind, first.children.length]).toEqual(['SoundNodeMixer', 'mixer', 2]);
      expect(first.params).toEqual([{ name: 'InputVolume', value: '1, 1' }]);
      const players = first.children.map((id) => g.nodes.find((n) => n.id === id)!).sort((a, b) => a.sound!.localeCompare(b.sound!));
      expect(players.map((p) => [p.kind, p.soundPackage, p.params])).toEqual([
        ['wavePlayer', '/Game/Fixtures/Audio/SW_Inline', [{ name: 'bLooping', value: 'false' }]],
        ['wavePlayer', '/Game/Fixtures/Audio/SW_Streaming', [{ name: 'bLooping', value: 'true' }]],
      ]);
      expect(g.nodes).toHaveLength(3);
    });

    it('the registry: SC_Fixture is a soundcue on the soundcue view, converted to its graph as JSON', async () => {
      const { model } = await packages().open(REF);
      const [exp] = convertibleExports(model);
      expect([exp!.kind.kind, exp!.kind.view]).toEqual(['soundcue', 'soundcue']);
      const [file] = await convertExport({ packages: packages(), ref: REF }, exp!, undefined, opts());
      expect(file!.extension).toBe('json');
      expect(JSON.parse(new TextDecoder().decode(file!.data))).toMatchObject({ volume: 0.75, pitch: 1.125 });
    });
  });
}

describe('SoundCue graphs, odd input', () => {
  const cue = (props: { name: string; type: string; value: unknown }[]) => ({ index: 0, name: 'SC', class: 'SoundCue', properties: props, propertyBytes: 0, propertyStart: 0, encoding: 'tagged' as const });
  it('a first node that is not an export, a cycle, a node nothing leads to: named or shown, no hang', () => {
    const exports = [
      cue([{ name: 'FirstNode', type: 'ObjectProperty', value: '/Game/SC.SC:SoundNodeRandom_1' }]),
      { index: 1, name: 'SoundNodeRandom_1', class: 'SoundNodeRandom', properties: [{ name: 'ChildNodes', type: 'ArrayProperty<ObjectProperty>', value: ['/Game/SC.SC:SoundNodeRandom_1', '/Game/SC.SC:Gone', null] }], propertyBytes: 0, propertyStart: 0, encoding: 'tagged' as const },
      { index: 2, name: 'SoundNodeModulator_0', class: 'SoundNodeModulator', properties: [], propertyBytes: 0, propertyStart: 0, encoding: 'tagged' as const },
    ];
    const g = soundCueGraph('SC', exports as never);
    expect(g.firstNode).toBe('SoundNodeRandom_1');
    expect(g.nodes.map((n) => n.id)).toEqual(['SoundNodeRandom_1', 'SoundNodeModulator_0']);
    expect(g.nodes[0]!.children).toEqual(['SoundNodeRandom_1', 'Gone', null]);
    expect(g.nodes[0]!.params[0]).toEqual({ name: 'Weights', value: '1, 1, 1' });
    expect(g.nodes[1]!.params.map((p) => p.value)).toEqual(['0.95', '1.05', '0.95', '1.05']);
    expect(g.notes).toEqual(['node Gone is not an export of this package']);
    expect(() => soundCueGraph('SC', [exports[1]] as never)).toThrow(/holds no SoundCue/);
  });
});

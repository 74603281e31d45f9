/**
 * The channel walker on the shapes UE serializes channels in, beyond what the corpus holds: a
 * 3D transform section's static arrays of double channels (FMovieScene3DTransformSection's
 * Translation[3], Rotation[3], Scale[3], natively serialized), a bool channel read as tagged
 * properties (FMovieSceneBoolChannel's Times, Values, DefaultValue, bHasDefaultValue), an event
 * channel (FMovieSceneEventChannel's KeyTimes and KeyValues of FMovieSceneEvent, whose Ptrs name
 * the director's function) and a struct nested past the walker's depth limit.
 */
import { describe, expect, it } from 'vitest';
import { sectionChannels, type ChannelTimes } from '../../../src/core/assets/sequence/channels.js';
import type { PropertyEntry, PropertyValue } from '../../../src/core/properties/types.js';

// 24000 ticks per second at 24 fps, as cue58's fixtures.
const times: ChannelTimes = {
  tick: (t) => ({ tick: t, seconds: t / 24000, frame: t / 1000 }),
  seconds: (s) => ({ tick: null, seconds: s, frame: s * 24 }),
};
const entry = (name: string, type: string, value: PropertyValue, arrayIndex?: number): PropertyEntry => ({ name, type, value, ...(arrayIndex !== undefined ? { arrayIndex } : {}) });
const doubleChannel = (ticks: number[], values: number[]): PropertyValue => ({
  PreInfinityExtrap: 'RCCE_Constant', PostInfinityExtrap: 'RCCE_Constant', Times: ticks,
  Values: values.map((Value) => ({ Value, InterpMode: 'RCIM_Cubic' })), DefaultValue: 0, bHasDefaultValue: false,
  TickResolution: { Numerator: 24000, Denominator: 1 },
});

describe('sequence channels', () => {
  it('a transform section: Translation[0..2] and Scale[2] by their array index', () => {
    const props = [
      entry('Translation', 'StructProperty<MovieSceneDoubleChannel>', doubleChannel([0, 24000], [0, 100]), 0),
      entry('Translation', 'StructProperty<MovieSceneDoubleChannel>', doubleChannel([], []), 1),
      entry('Translation', 'StructProperty<MovieSceneDoubleChannel>', doubleChannel([12000], [-5.5]), 2),
      entry('Scale', 'StructProperty<MovieSceneDoubleChannel>', doubleChannel([0], [2]), 2),
    ];
    const { channels } = sectionChannels(props, times);
    expect(channels.map((c) => [c.name, c.type, c.keys.length])).toEqual([
      ['Translation[0]', 'double', 2], ['Translation[1]', 'double', 0], ['Translation[2]', 'double', 1], ['Scale[2]', 'double', 1],
    ]);
    expect(channels[0]!.keys.map((k) => [k.time.frame, k.value, k.interp])).toEqual([[0, 0, 'RCIM_Cubic'], [24, 100, 'RCIM_Cubic']]);
    expect(channels[2]!.keys[0]!.time.seconds).toBe(0.5);
    expect(channels[0]!.extrapolation).toEqual({ pre: 'RCCE_Constant', post: 'RCCE_Constant' });
  });

  it('a tagged bool channel with its default, and an event channel naming its functions', () => {
    const bool = [
      entry('Times', 'ArrayProperty<StructProperty<FrameNumber>>', [{ Value: 0 }, { Value: 6000 }]),
      entry('DefaultValue', 'BoolProperty', true),
      entry('bHasDefaultValue', 'BoolProperty', true),
      entry('Values', 'ArrayProperty<BoolProperty>', [false, true]),
    ];
    const event = [
      entry('KeyTimes', 'ArrayProperty<StructProperty<FrameNumber>>', [{ Value: 48000 }]),
      entry('KeyValues', 'ArrayProperty<StructProperty<MovieSceneEvent>>', [[
        entry('Ptrs', 'StructProperty<MovieSceneEventPtrs>', [entry('Function', 'ObjectProperty', '/Game/Seq.Seq_DirectorBP_C:SequenceEvent__ENTRYPOINTSeq_DirectorBP_0')]),
      ]]),
    ];
    const { channels } = sectionChannels([
      entry('BoolCurve', 'StructProperty<MovieSceneBoolChannel>', bool),
      entry('EventChannel', 'StructProperty<MovieSceneEventChannel>', event),
    ], times);
    expect(channels[0]).toMatchObject({ name: 'BoolCurve', type: 'bool', default: true });
    expect(channels[0]!.keys.map((k) => [k.time.tick, k.value])).toEqual([[0, false], [6000, true]]);
    expect(channels[1]).toMatchObject({ name: 'EventChannel', type: 'event' });
    expect(channels[1]!.keys.map((k) => [k.time.seconds, k.value])).toEqual([[2, 'SequenceEvent__ENTRYPOINTSeq_DirectorBP_0']]);
  });

  it('structs nested deeper than 8 are not walked', () => {
    let props: PropertyEntry[] = [entry('Deep', 'StructProperty<MovieSceneFloatChannel>', doubleChannel([0], [1]))];
    for (let i = 0; i < 12; i++) props = [entry(`S${i}`, 'StructProperty<Wrapper>', props)];
    expect(sectionChannels(props, times).channels).toEqual([]);
    let shallow: PropertyEntry[] = [entry('Deep', 'StructProperty<MovieSceneFloatChannel>', doubleChannel([0], [1]))];
    for (let i = 0; i < 3; i++) shallow = [entry(`S${i}`, 'StructProperty<Wrapper>', shallow)];
    expect(sectionChannels(shallow, times).channels.map((c) => c.name)).toEqual(['S2.S1.S0.Deep']);
  });
});

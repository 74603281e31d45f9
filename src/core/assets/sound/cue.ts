/**
 * A SoundCue's node graph (what the editor draws; cooked packages keep the nodes, not the graph
 * editor's layout): the cue's volume and pitch and its first node, each SoundNode export's
 * children and the settings that shape what plays (a wave player's sound and loop flag, a
 * mixer's input volumes, a random node's weights, a modulator's ranges, ...). Values the package
 * does not store are the engine's class defaults (tagged properties leave defaults out: a cue's
 * VolumeMultiplier of 0.75 is not written).
 */
import { FormatError } from '../../errors.js';
import type { ExportProperties, PropertyEntry, PropertyValue } from '../../properties/types.js';
import type { AssetSource, ConvertOptions } from '../registry.js';
import { sourceProperties } from '../source-properties.js';

export const SOUND_CUE_CLASSES: readonly string[] = ['SoundCue'];

export type SoundCueNodeKind = 'wavePlayer' | 'mixer' | 'random' | 'modulator' | 'looping' | 'delay' | 'attenuation' | 'concatenator' | 'other';

export interface SoundCueNode {
  /** The node's export name ("SoundNodeMixer_45"), unique in the package. */
  id: string;
  class: string;
  kind: SoundCueNodeKind;
  /** Child node ids in input order (null: an input left unconnected). */
  children: (string | null)[];
  /** What the node's settings are, in the engine's names, defaults filled in. */
  params: { name: string; value: string }[];
  /** A wave player's sound: the object ("/Game/A/SW_X.SW_X") and its package ("/Game/A/SW_X"). */
  sound?: string;
  soundPackage?: string;
}

export interface SoundCueGraph {
  class: string;
  name: string;
  volume: number;
  pitch: number;
  /** The node the cue plays first (the graph's root), null when it has none. */
  firstNode: string | null;
  nodes: SoundCueNode[];
  notes: string[];
}

/** Class defaults of what the graph shows (USoundCue and the USoundNode* constructors). */
const CUE_DEFAULTS = { VolumeMultiplier: 0.75, PitchMultiplier: 1 };
const MODULATOR_DEFAULTS: Record<string, number> = { PitchMin: 0.95, PitchMax: 1.05, VolumeMin: 0.95, VolumeMax: 1.05 };

const KIND_BY_CLASS: Record<string, SoundCueNodeKind> = {
  SoundNodeWavePlayer: 'wavePlayer', SoundNodeMixer: 'mixer', SoundNodeRandom: 'random', SoundNodeModulator: 'modulator',
  SoundNodeLooping: 'looping', SoundNodeDelay: 'delay', SoundNodeAttenuation: 'attenuation', SoundNodeConcatenator: 'concatenator',
};

const value = (list: readonly PropertyEntry[], name: string): PropertyValue | undefined => list.find((e) => e.name === name)?.value;
const num = (v: PropertyValue | undefined, fallback: number): number => (typeof v === 'number' ? v : fallback);
/** The export name an object reference ends in ("/Game/A.A:SoundNodeMixer_45" -> "SoundNodeMixer_45"). */
const objectName = (ref: string): string => ref.slice(Math.max(ref.lastIndexOf(':'), ref.lastIndexOf('.')) + 1);
const fmt = (n: number): string => String(Math.round(n * 10_000) / 10_000);

function refOf(v: PropertyValue | undefined): string | undefined {
  if (typeof v === 'string' && v !== '' && v !== 'None') return v;
  if (v && typeof v === 'object' && !Array.isArray(v)) {
    const path = (v as Record<string, PropertyValue>)['AssetPathName'] ?? (v as Record<string, PropertyValue>)['assetPath'];
    if (typeof path === 'string' && path !== 'None' && path !== '') return path;
  }
  return undefined;
}

/** A node's settings worth showing: the known ones with their defaults, else its plain values as stored. */
function paramsOf(cls: string, props: readonly PropertyEntry[], childCount: number): { name: string; value: string }[] {
  const list = (name: string, fallback: number): { name: string; value: string } => {
    const v = value(props, name);
    const values = Array.isArray(v) ? v.map((x) => num(x as PropertyValue, fallback)) : [];
    while (values.length < childCount) values.push(fallback);
    return { name, value: values.map(fmt).join(', ') };
  };
  switch (cls) {
    case 'SoundNodeWavePlayer':
      return [{ name: 'bLooping', value: String(value(props, 'bLooping') === true) }];
    case 'SoundNodeMixer':
      return [list('InputVolume', 1)];
    case 'SoundNodeRandom':
      return [list('Weights', 1), { name: 'bRandomizeWithoutReplacement', value: String(value(props, 'bRandomizeWithoutReplacement') !== false) }];
    case 'SoundNodeModulator':
      return Object.entries(MODULATOR_DEFAULTS).map(([name, d]) => ({ name, value: fmt(num(value(props, name), d)) }));
    default:
      return props
        .filter((p) => p.name !== 'ChildNodes' && (typeof p.value === 'number' || typeof p.value === 'boolean' || typeof p.value === 'string'))
        .map((p) => ({ name: p.name, value: String(p.value) }));
  }
}

/** The graph of a SoundCue export's properties and its package's other exports. */
export function soundCueGraph(path: string, exports: readonly ExportProperties[], cueIndex?: number): SoundCueGraph {
  const cue = cueIndex !== undefined ? exports[cueIndex] : exports.find((e) => SOUND_CUE_CLASSES.includes(e.class));
  if (!cue || !SOUND_CUE_CLASSES.includes(cue.class)) {
    throw new FormatError(path, 'export map', 0, cueIndex !== undefined ? `export ${cueIndex} is no SoundCue` : 'the package holds no SoundCue');
  }
  if (cue.errorData) throw FormatError.within(null, cue.errorData, `the property stream stops there, so the SoundCue cannot be read`);
  const notes = [...(cue.notes ?? [])];
  const byName = new Map(exports.map((e) => [e.name, e]));
  const nodes: SoundCueNode[] = [];
  const seen = new Set<string>();
  const visit = (id: string, depth: number): void => {
    if (seen.has(id) || depth > 256) return;
    seen.add(id);
    const e = byName.get(id);
    if (!e) {
      notes.push(`node ${id} is not an export of this package`);
      return;
    }
    if (e.error) notes.push(`${e.class} "${e.name}": its properties do not read (${e.error})`);
    const childRefs = value(e.properties, 'ChildNodes');
    const children = Array.isArray(childRefs) ? childRefs.map((c) => { const r = refOf(c as PropertyValue); return r ? objectName(r) : null; }) : [];
    const node: SoundCueNode = { id, class: e.class, kind: KIND_BY_CLASS[e.class] ?? 'other', children, params: paramsOf(e.class, e.properties, children.length) };
    if (e.class === 'SoundNodeWavePlayer') {
      const sound = refOf(value(e.properties, 'SoundWaveAssetPtr')) ?? refOf(value(e.properties, 'SoundWave'));
      if (sound) {
        node.sound = sound;
        node.soundPackage = sound.includes('.') ? sound.slice(0, sound.indexOf('.')) : sound;
      }
    }
    nodes.push(node);
    for (const c of children) if (c) visit(c, depth + 1);
  };
  const first = refOf(value(cue.properties, 'FirstNode'));
  const firstNode = first ? objectName(first) : null;
  if (firstNode) visit(firstNode, 0);
  // Nodes nothing leads to still belong to the cue (the editor keeps them): shown apart.
  for (const e of exports) if (e.class.startsWith('SoundNode') && !seen.has(e.name)) visit(e.name, 0);
  return {
    class: cue.class, name: cue.name,
    volume: num(value(cue.properties, 'VolumeMultiplier'), CUE_DEFAULTS.VolumeMultiplier),
    pitch: num(value(cue.properties, 'PitchMultiplier'), CUE_DEFAULTS.PitchMultiplier),
    firstNode: firstNode && seen.has(firstNode) && byName.has(firstNode) ? firstNode : null,
    nodes, notes,
  };
}

/** SoundCue export `exportIndex` (default: the first) of `source` read as its graph. */
export async function readSoundCue(source: AssetSource, exportIndex: number | undefined, opts: ConvertOptions = {}): Promise<SoundCueGraph> {
  const opened = await sourceProperties(source, opts);
  const graph = soundCueGraph(opened.path, opened.properties.exports, exportIndex);
  return { ...graph, notes: [...opened.warnings, ...graph.notes] };
}

/**
 * AnimMontage, AnimComposite and BlendSpace facts, from their properties alone (tagged, or
 * unversioned with the game's mappings): the segments of sequences they are made of, a montage's
 * sections, a blend space's samples. Their poses are their sequences'.
 */
import { FormatError } from '../../../errors.js';
import type { PropertyEntry, PropertyValue } from '../../../properties/types.js';
import { scriptImportIndex } from '../../../zen/object-index.js';
import { entriesOf, num, prop, str, vec3 } from '../../mesh/read/properties.js';
import type { AssetSource, ConvertOptions } from '../../registry.js';
import { fileTextureSource, installTextureSource, type SourceExport, type TextureSource as PackageSource } from '../../texture/read/package-source.js';
import { propertiesRead } from '../../texture/read/texture-serialize.js';
import type { AnimComposition, AnimSegmentFacts } from '../types.js';

export const COMPOSITION_CLASSES: readonly string[] = ['AnimMontage', 'AnimComposite', 'BlendSpace', 'BlendSpace1D', 'AimOffsetBlendSpace', 'AimOffsetBlendSpace1D'];

let classByHash: Map<string, string> | undefined;
const className = (cls: string): string => {
  const m = /\?0x([0-9a-f]{16})$/.exec(cls);
  if (!m) return cls;
  classByHash ??= new Map(COMPOSITION_CLASSES.map((c) => [scriptImportIndex(`/Script/Engine.${c}`), c]));
  return classByHash.get(m[1]!) ?? cls;
};

const list = (v: PropertyValue | undefined): PropertyEntry[][] => (Array.isArray(v) ? v.map((x) => entriesOf(x as PropertyValue) ?? []) : []);

function segments(track: PropertyValue | undefined): AnimSegmentFacts[] {
  return list(prop(entriesOf(track) ?? [], 'AnimSegments')).map((s) => ({
    animation: str(prop(s, 'AnimReference')) ?? '',
    startPos: num(prop(s, 'StartPos')) ?? 0,
    animStartTime: num(prop(s, 'AnimStartTime')) ?? 0,
    animEndTime: num(prop(s, 'AnimEndTime')) ?? 0,
    playRate: num(prop(s, 'AnimPlayRate')) ?? 1,
    loopingCount: num(prop(s, 'LoopingCount')) ?? 1,
  }));
}

const name = (v: PropertyValue | undefined): string => ((x) => (x === undefined || x === 'None' ? '' : x))(str(v));

export function compositionOf(source: PackageSource, exportIndex: number | undefined): AnimComposition {
  for (const e of source.exports) e.class = className(e.class);
  const exp: SourceExport | undefined = exportIndex !== undefined ? source.exports[exportIndex] : source.exports.find((x) => COMPOSITION_CLASSES.includes(x.class));
  if (!exp || !COMPOSITION_CLASSES.includes(exp.class)) {
    throw new FormatError(source.path, 'export map', 0, `no ${COMPOSITION_CLASSES.join(', ')} export${exp ? ` (export ${exp.index} is a ${exp.class})` : ''}`);
  }
  const notes = [...source.warnings];
  if (!propertiesRead(exp)) {
    notes.push(exp.properties.error
      ? `the properties do not read (${exp.properties.error})`
      : 'the properties were not read (unversioned, without the game\'s mappings): pass them to see what the asset is made of');
  }
  const p = exp.properties.properties;
  const slots = list(prop(p, 'SlotAnimTracks')).map((s) => ({ name: name(prop(s, 'SlotName')), segments: segments(prop(s, 'AnimTrack')) }));
  const track = prop(p, 'AnimationTrack');
  if (track !== undefined) slots.push({ name: '', segments: segments(track) });
  return {
    class: exp.class, name: exp.name,
    skeleton: str(prop(p, 'Skeleton')) ?? '',
    length: num(prop(p, 'SequenceLength')) ?? num(prop(p, 'AnimLength')) ?? 0,
    rateScale: num(prop(p, 'RateScale')) ?? 1,
    slots,
    sections: list(prop(p, 'CompositeSections')).map((s) => ({ name: name(prop(s, 'SectionName')), next: name(prop(s, 'NextSectionName')), startTime: num(prop(s, 'LinkValue')) ?? 0 })),
    samples: list(prop(p, 'SampleData')).map((s) => ({ animation: str(prop(s, 'Animation')) ?? '', value: vec3(prop(s, 'SampleValue'), ['X', 'Y', 'Z'], [0, 0, 0]), rateScale: num(prop(s, 'RateScale')) ?? 1 })),
    notes,
  };
}

/** The facts of export `exportIndex` of `source` (the first montage, composite or blend space when undefined). */
export async function readComposition(source: AssetSource, exportIndex: number | undefined, opts: ConvertOptions = {}): Promise<AnimComposition> {
  const o = { ...(opts.mappings ? { mappings: opts.mappings } : {}), ...(opts.engine !== undefined ? { engine: opts.engine } : {}), ...(opts.signal ? { signal: opts.signal } : {}) };
  const pkg = 'file' in source ? await fileTextureSource(source.file, o) : await installTextureSource(source.packages, source.ref, o);
  return compositionOf(pkg, exportIndex);
}

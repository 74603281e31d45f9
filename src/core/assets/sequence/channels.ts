/**
 * The channels a section holds, found by walking its properties: every struct of a
 * MovieScene*Channel type (float and double channels as movie-scene-structs.ts decodes them,
 * bool/byte/integer/string/object channels as tagged Times and Values, event channels as
 * KeyTimes and KeyValues) and, in UE4.19 and earlier sections, the RichCurve / IntegralCurve /
 * NameCurve / StringCurve keyed in seconds. A channel is named by where it is: its property
 * ("Translation[0]"), under the ParameterName of the array element holding it
 * ("FixtureColor.RedCurve").
 */
import { fields, isEntryList } from '../../properties/fields.js';
import type { PropertyEntry, PropertyValue } from '../../properties/types.js';
import type { ChannelKey, ChannelType, KeyValue, SequenceChannel, SequenceTime } from './types.js';

const CHANNEL_TYPES: Record<string, ChannelType> = {
  MovieSceneFloatChannel: 'float',
  MovieSceneDoubleChannel: 'double',
  MovieSceneBoolChannel: 'bool',
  MovieSceneByteChannel: 'byte',
  MovieSceneIntegerChannel: 'integer',
  MovieSceneEventChannel: 'event',
  MovieSceneStringChannel: 'string',
  MovieSceneObjectPathChannel: 'object',
};
/** UE4.19 and earlier: curves keyed in seconds. */
const LEGACY_CURVES: Record<string, ChannelType> = {
  RichCurve: 'curve', FloatCurve: 'curve', IntegralCurve: 'integer', NameCurve: 'name', StringCurve: 'string',
};

/** Struct nesting a section's channels can be under; deeper is a damaged or hostile package. */
const MAX_DEPTH = 8;

export interface ChannelTimes {
  /** A tick of the sequence's tick resolution as a time. */
  tick(t: number): SequenceTime;
  /** Seconds (UE4.19 and earlier keys) as a time. */
  seconds(s: number): SequenceTime;
}

export interface SectionChannels {
  channels: SequenceChannel[];
  /** ParameterName of the array elements channels were found under. */
  parameters: string[];
}

const structOf = (type: string): string | undefined => /^StructProperty<(\w+)>$/.exec(type)?.[1];
const innerStructOf = (type: string): string | undefined => /^ArrayProperty<StructProperty<(\w+)>>$/.exec(type)?.[1];

/** A key's value as JSON: numbers, booleans, strings (names, paths), null. */
function keyValue(v: PropertyValue | undefined): KeyValue {
  if (v === undefined || v === null) return null;
  if (typeof v === 'number' || typeof v === 'boolean' || typeof v === 'string') return v;
  const f = fields(v);
  if (f && 'Value' in f) return keyValue(f['Value']);
  return JSON.stringify(v);
}

/** A FrameNumber as stored: {Value} natively, a number, or a tagged struct with Value. */
function frameNumber(v: PropertyValue | undefined): number | undefined {
  if (typeof v === 'number') return v;
  const f = fields(v);
  return f && typeof f['Value'] === 'number' ? f['Value'] : undefined;
}

const asList = (v: PropertyValue | undefined): PropertyValue[] => (Array.isArray(v) ? (v as PropertyValue[]) : []);

/** An FMovieSceneEvent key: the function it calls (short name), else null. */
function eventValue(v: PropertyValue | undefined): KeyValue {
  const f = fields(v);
  const ptrs = f ? fields(f['Ptrs']) : undefined;
  const fn = ptrs?.['Function'] ?? f?.['FunctionName'] ?? f?.['Function'];
  if (typeof fn !== 'string') return keyValue(v ?? null);
  return fn.slice(Math.max(fn.lastIndexOf('.'), fn.lastIndexOf(':')) + 1);
}

function readChannel(name: string, type: ChannelType, v: PropertyValue, times: ChannelTimes): SequenceChannel {
  const f = fields(v) ?? {};
  const ch: SequenceChannel = { name, type, keys: [] };
  if (type === 'event') {
    const keyTimes = asList(f['KeyTimes']);
    const values = asList(f['KeyValues']);
    keyTimes.forEach((t, i) => {
      const tick = frameNumber(t);
      if (tick !== undefined) ch.keys.push({ time: times.tick(tick), value: eventValue(values[i]) });
    });
    return ch;
  }
  const keyTimes = asList(f['Times']);
  const values = asList(f['Values']);
  keyTimes.forEach((t, i) => {
    const tick = frameNumber(t);
    if (tick === undefined) return;
    const key: ChannelKey = { time: times.tick(tick), value: keyValue(values[i]) };
    const interp = fields(values[i])?.['InterpMode'];
    if (typeof interp === 'string') key.interp = interp;
    ch.keys.push(key);
  });
  if (f['bHasDefaultValue'] === true) ch.default = keyValue(f['DefaultValue']);
  const pre = f['PreInfinityExtrap'], post = f['PostInfinityExtrap'];
  if (typeof pre === 'string' && typeof post === 'string') ch.extrapolation = { pre, post };
  return ch;
}

function readLegacyCurve(name: string, type: ChannelType, v: PropertyValue, times: ChannelTimes): SequenceChannel {
  const f = fields(v) ?? {};
  const ch: SequenceChannel = { name, type, keys: [] };
  for (const k of asList(f['Keys'])) {
    const kf = fields(k);
    const t = kf?.['Time'];
    if (typeof t === 'number') ch.keys.push({ time: times.seconds(t), value: keyValue(kf?.['Value']) });
  }
  const d = f['DefaultValue'];
  if (d !== undefined && (typeof d !== 'number' || d < 3.0e38)) ch.default = keyValue(d); // FRichCurve's "no default" is MAX_flt
  return ch;
}

/** The channels of a section's properties. */
export function sectionChannels(props: readonly PropertyEntry[], times: ChannelTimes): SectionChannels {
  const out: SectionChannels = { channels: [], parameters: [] };
  const visit = (list: readonly PropertyEntry[], prefix: string, depth: number): void => {
    if (depth > MAX_DEPTH) return;
    const counts = new Map<string, number>();
    for (const e of list) counts.set(e.name, (counts.get(e.name) ?? 0) + 1);
    for (const e of list) {
      if (e.raw) continue;
      const own = counts.get(e.name)! > 1 || e.arrayIndex !== undefined ? `${e.name}[${e.arrayIndex ?? 0}]` : e.name;
      const name = prefix ? `${prefix}.${own}` : own;
      const struct = structOf(e.type);
      if (struct !== undefined) {
        const ct = CHANNEL_TYPES[struct];
        const legacy = LEGACY_CURVES[struct];
        if (ct) out.channels.push(readChannel(name, ct, e.value, times));
        else if (legacy) out.channels.push(readLegacyCurve(name, legacy, e.value, times));
        else if (isEntryList(e.value)) visit(e.value, name, depth + 1);
        continue;
      }
      const inner = innerStructOf(e.type);
      if (inner === undefined || !Array.isArray(e.value)) continue;
      const ct = CHANNEL_TYPES[inner];
      (e.value as PropertyValue[]).forEach((el, i) => {
        if (ct) {
          out.channels.push(readChannel(`${name}[${i}]`, ct, el, times));
          return;
        }
        if (!isEntryList(el)) return;
        const param = el.find((x) => x.name === 'ParameterName' && typeof x.value === 'string')?.value as string | undefined;
        if (param !== undefined && !out.parameters.includes(param)) out.parameters.push(param);
        visit(el, param ?? `${name}[${i}]`, depth + 1);
      });
    }
  };
  visit(props, '', 0);
  return out;
}

/**
 * `pakscope sequence <path> [package]`: what a Level Sequence (cinematic) does
 * (core/assets/sequence): its timing, bindings, tracks, sections and channel keys. The package's
 * sequence export is found through the converter registry; -o writes the registry's JSON or CSV.
 */
import { writeFile } from 'node:fs/promises';
import { convertibleExports } from '../../core/assets/index.js';
import type { ConvertOptions } from '../../core/assets/registry.js';
import { sequenceCsv } from '../../core/assets/sequence/csv.js';
import { readSequence } from '../../core/assets/sequence/read.js';
import type { FrameRate, SequenceAsset, SequenceRange, SequenceSection, SequenceTime, SequenceTrack } from '../../core/assets/sequence/types.js';
import type { PackageModel } from '../../core/package-model.js';
import { JSON_OPTION, USMAP_OPTION, type Command } from '../command.js';
import type { Session } from '../session.js';
import { withAssetPackage } from '../asset-package.js';
import { UsageError } from '../usage-error.js';
import { ENGINE_OPTION, packageOptions } from './info.js';
import { loadMappings } from './props.js';

export const sequenceCommand: Command = {
  name: 'sequence',
  args: '<path> [package]',
  summary: 'Print what a Level Sequence does: bindings, tracks, sections, keys',
  description: [
    'Reads the Level Sequence of a package file (<path> alone) or of a package inside the',
    'containers and folders of <path>: the MovieScene it names (not the stale copies a cook',
    'may keep), its tick resolution, display rate and playback range (in frames and seconds),',
    'its bindings (possessables and spawnables: GUID, name, class, template, the level objects',
    'bound), the tracks of no binding (camera cuts first) and each binding\'s tracks, each',
    'track\'s sections with their range, row and channels (float, double, bool, byte, integer,',
    'event, string and object channels; transforms as their nine channels) and keys.',
    'Subsequence and shot sections name the sequence they play, with play rate, start offset',
    'and bias; camera cuts the binding they cut to. UE4.19 and earlier sequences are keyed in',
    'seconds. Missing exports and values of the wrong type are notes on stderr. Unversioned',
    'packages need --usmap.',
    '',
    '--json prints {"package","sequence","class","movieScene","tickResolution":{"numerator",',
    '"denominator"},"displayRate","playbackRange":{"start","end"},"tracks":[{"name","path",',
    '"class","displayName","property","mpc","sections":[{"name","path","class","range","row",',
    '"active","channels":[{"name","type","keys":[{"time","value","interp"}],"default",',
    '"extrapolation"}],"subSequence","timeScale","startFrameOffset","hierarchicalBias",',
    '"cameraBinding","cameraName","parameters"}]}],"bindings":[{"guid","name","kind","class",',
    '"template","parent","boundObjects","tracks"}],"folders","subSequences","counts","notes"};',
    'a time is {"tick","seconds","frame"} (tick null before UE4.20), a range\'s start is',
    'inclusive and its end exclusive, null for an open bound.',
    '',
    '-o FILE.json writes that JSON; -o FILE.csv the channel keys, one row per key: binding,',
    'track, section, channel, tick, frame, seconds, value.',
  ].join('\n'),
  examples: [
    'pakscope sequence Paks /Game/Cinematics/Intro --usmap Game.usmap',
    'pakscope sequence Paks /Game/Cinematics/Intro --json',
    'pakscope sequence Paks /Game/Cinematics/Intro -o Intro.csv',
  ],
  options: {
    usmap: USMAP_OPTION,
    engine: ENGINE_OPTION,
    json: JSON_OPTION,
    out: { type: 'string', short: 'o', usage: '-o, --out FILE', help: 'Write the sequence to FILE: .json (the whole structure) or .csv (its channel keys).' },
  },
  positionals: { min: 1, max: 2 },

  async run(session, args, values) {
    const opts: ConvertOptions = { ...packageOptions(values), ...(await loadMappings(values, 'sequence')) };
    const out = values['out'];
    if (typeof out === 'string' && !/\.(json|csv)$/i.test(out)) throw new UsageError(`-o writes a .json or .csv, not ${out}`, 'sequence');
    const seq = await withAssetPackage(session, args, opts, 'sequence', async ({ source, model, path }) => readSequence(source, sequenceExport(model, path), opts));
    if (!seq) return;
    for (const n of seq.notes) session.out.note(`note: ${n}`);
    if (typeof out === 'string') {
      const csv = /\.csv$/i.test(out);
      await writeFile(out, csv ? sequenceCsv(seq) : `${JSON.stringify(seq, null, 2)}\n`);
      session.out.note(`wrote ${out}: ${csv ? `${seq.counts.keys} keys` : `${seq.counts.tracks} tracks, ${seq.counts.sections} sections`}`);
    }
    if (session.json) await session.out.line(JSON.stringify(seq));
    else await printSequence(session, seq);
  },
};

function sequenceExport(model: PackageModel, path: string): number {
  const found = convertibleExports(model).find((e) => e.kind.kind === 'sequence');
  if (found) return found.index;
  const classes = [...new Set(model.exports.map((e) => e.class))].join(', ');
  throw new UsageError(`${path} holds no Level Sequence (its exports are ${classes || 'none'})`, 'sequence');
}

const n3 = (v: number): string => String(Math.round(v * 1000) / 1000);
const rate = (r: FrameRate | null): string => (r ? (r.denominator === 1 ? `${r.numerator}` : `${r.numerator}/${r.denominator}`) : '-');

/** "frame 12 (0.5 s, tick 12000)"; "-inf"/"+inf" for an open bound. */
export function timeText(t: SequenceTime | null, open: string): string {
  if (!t) return open;
  const frame = t.frame !== null ? `frame ${n3(t.frame)} ` : '';
  return `${frame}(${n3(t.seconds)} s${t.tick !== null ? `, tick ${t.tick}` : ''})`;
}
export const rangeText = (r: SequenceRange): string => `${timeText(r.start, '-inf')} .. ${timeText(r.end, '+inf')}`;

function sectionLines(s: SequenceSection): string[] {
  const head = [`    ${s.name} (${s.class})  ${rangeText(s.range)}  row ${s.row}${s.active ? '' : '  muted'}`];
  if (s.subSequence !== undefined) {
    head.push(`      plays ${s.subSequence ?? 'None'}  rate ${n3(s.timeScale ?? 1)}  start offset ${s.startFrameOffset ?? 0} ticks  bias ${s.hierarchicalBias ?? 100}`);
  }
  if (s.cameraBinding) head.push(`      camera ${s.cameraName ?? s.cameraBinding}`);
  for (const c of s.channels) {
    const keys = c.keys.map((k) => `${k.time.frame !== null ? n3(k.time.frame) : `${n3(k.time.seconds)}s`}=${typeof k.value === 'number' ? n3(k.value) : String(k.value)}`);
    const def = c.default !== undefined ? `  default ${String(c.default)}` : '';
    head.push(`      ${c.name} (${c.type}) ${c.keys.length} keys${keys.length ? `: ${keys.join(' ')}` : ''}${def}`);
  }
  return head;
}

async function printTrack(session: Session, t: SequenceTrack, indent: string): Promise<void> {
  const extra = [t.property ? `property ${t.property}` : '', t.mpc !== undefined ? `collection ${t.mpc ?? 'None'}` : ''].filter(Boolean).join('  ');
  await session.out.line(`${indent}${t.displayName} (${t.class})${extra ? `  ${extra}` : ''}`);
  for (const s of t.sections) for (const l of sectionLines(s)) await session.out.line(`${indent}${l.slice(2)}`);
}

async function printSequence(session: Session, s: SequenceAsset): Promise<void> {
  const out = session.out;
  const c = s.counts;
  await out.line(`${s.package} (${s.class} ${s.sequence}, MovieScene ${s.movieScene.slice(s.movieScene.lastIndexOf(':') + 1)})`);
  await out.line(`tick resolution ${rate(s.tickResolution)}/s  display rate ${rate(s.displayRate)} fps  playback ${rangeText(s.playbackRange)}`);
  await out.line(`${c.bindings} bindings, ${c.tracks} tracks, ${c.sections} sections, ${c.channels} channels, ${c.keys} keys`);
  for (const t of s.tracks) await printTrack(session, t, '');
  for (const b of s.bindings) {
    const facts = [b.class ? `class ${b.class}` : '', b.template ? `template ${b.template}` : '', b.parent ? `under ${b.parent}` : '', b.boundObjects?.length ? `bound to ${b.boundObjects.join(', ')}` : ''].filter(Boolean);
    await out.line(`binding ${b.name || '(unnamed)'} [${b.kind} ${b.guid}]${facts.length ? `  ${facts.join('  ')}` : ''}`);
    for (const t of b.tracks) await printTrack(session, t, '  ');
  }
  for (const sub of s.subSequences) await out.line(`subsequence ${sub}`);
}

/**
 * Reading a Level Sequence into a SequenceAsset: the MovieScene its MovieScene property names
 * (a cooked package may keep dozens of stale MovieScene_N exports; only that one plays), its
 * tick resolution, display rate and playback range, its possessables, spawnables and object
 * bindings with their tracks, the tracks of no binding (camera cuts first), each track's
 * sections with their ranges and rows and the keys of their channels (channels.ts), subsequence
 * and shot sections' sequences, camera cuts' cameras, and folders where the cook kept them.
 * UE4.19 and earlier sequences (seconds, MasterTracks, float ranges) read too. Missing exports
 * and values of the wrong type become notes.
 */
import { FormatError } from '../../errors.js';
import type { NativeDataReader } from '../../properties/context.js';
import { fields, valuesOf, type Values } from '../../properties/fields.js';
import type { ExportProperties, PackageProperties, PropertyValue } from '../../properties/types.js';
import type { AssetSource, ConvertOptions } from '../registry.js';
import { sourceProperties } from '../source-properties.js';
import { scriptImportIndex } from '../../zen/object-index.js';
import { sectionChannels, type ChannelTimes } from './channels.js';
import type {
  FrameRate, SequenceAsset, SequenceBinding, SequenceCounts, SequenceFolder, SequenceRange, SequenceSection, SequenceTime, SequenceTrack,
} from './types.js';

/** Export classes this kind reads. */
export const SEQUENCE_CLASSES = ['LevelSequence', 'TemplateSequence', 'CameraAnimationSequence'] as const;
/** Their script paths, and MovieScene's: a Zen package read without the global container names its classes by their hash. */
export const SEQUENCE_SCRIPT_PATHS = [
  '/Script/LevelSequence.LevelSequence', '/Script/TemplateSequence.TemplateSequence', '/Script/TemplateSequence.CameraAnimationSequence',
] as const;
const CLASS_OF_HASH = new Map([...SEQUENCE_SCRIPT_PATHS, '/Script/MovieScene.MovieScene'].map((p) => [scriptImportIndex(p), p.slice(p.lastIndexOf('.') + 1)]));

/** An export's class, "/Script/?0x<hash>" of a package read without the global container resolved where it is one of the above. */
function classOf(e: ExportProperties): string {
  const hash = /\?0x([0-9a-f]{16})$/.exec(e.class)?.[1];
  return (hash && CLASS_OF_HASH.get(hash)) || e.class;
}

/** UMovieScene's defaults, which a cook leaves out. */
const DEFAULT_TICK_RESOLUTION: FrameRate = { numerator: 60000, denominator: 1 };
const DEFAULT_DISPLAY_RATE: FrameRate = { numerator: 30, denominator: 1 };
/** Folder nesting deeper than this is a loop or a damaged package. */
const MAX_FOLDER_DEPTH = 32;

export interface SequenceReadOptions extends Pick<ConvertOptions, 'mappings' | 'engine' | 'signal'> {}

/** Records every export's object path (the property stream does not carry it). */
const pathReader: NativeDataReader = (pr, _r, exp) => (exp.index !== undefined ? { path: pr.ctx.objectPath(exp.index + 1) ?? undefined } : {});
const pathOfExport = (e: ExportProperties): string | undefined => (e.native as { path?: string } | undefined)?.path;

/** Export `exportIndex` of `source` (or its first sequence) as a sequence. */
export async function readSequence(source: AssetSource, exportIndex: number | undefined, opts: SequenceReadOptions = {}): Promise<SequenceAsset> {
  const opened = await sourceProperties(source, opts, { nativeData: pathReader });
  opts.signal?.throwIfAborted();
  return sequenceOfPackage(opened.properties, opened.path, exportIndex, opened.warnings);
}

const shortName = (path: string): string => path.slice(Math.max(path.lastIndexOf('.'), path.lastIndexOf(':')) + 1);

function frameRate(v: PropertyValue | undefined, fallback: FrameRate): FrameRate {
  const f = fields(v);
  const n = f?.['Numerator'], d = f?.['Denominator'];
  return { numerator: typeof n === 'number' ? n : fallback.numerator, denominator: typeof d === 'number' ? d : fallback.denominator };
}

/** 1 / FixedFrameInterval as a frame rate: a whole number of frames per second where it is one to a thousandth. */
function rateOfInterval(interval: number): FrameRate | null {
  if (!(interval > 0)) return null;
  const fps = 1 / interval;
  return Math.abs(fps - Math.round(fps)) < 1e-3 ? { numerator: Math.round(fps), denominator: 1 } : { numerator: Math.round(fps * 1000), denominator: 1000 };
}

class Clock implements ChannelTimes {
  constructor(readonly tickResolution: FrameRate | null, readonly displayRate: FrameRate | null) {}

  tick(t: number): SequenceTime {
    const tr = this.tickResolution ?? DEFAULT_TICK_RESOLUTION;
    const seconds = (t * tr.denominator) / tr.numerator;
    const dr = this.displayRate;
    return { tick: t, seconds, frame: dr ? (t * dr.numerator * tr.denominator) / (dr.denominator * tr.numerator) : null };
  }

  seconds(s: number): SequenceTime {
    const dr = this.displayRate;
    return { tick: null, seconds: s, frame: dr ? (s * dr.numerator) / dr.denominator : null };
  }
}

/** FFrameNumber bound types: the range's first tick (inclusive) and the first past it. */
function frameRange(clock: Clock, v: PropertyValue | undefined): SequenceRange {
  const f = fields(v);
  const bound = (b: PropertyValue | undefined, upper: boolean): SequenceTime | null => {
    const bf = fields(b);
    const type = String(bf?.['Type'] ?? 'Open').replace(/^ERangeBoundTypes::/, '');
    const value = bf?.['Value'];
    if (type === 'Open' || typeof value !== 'number') return null;
    const inclusive = type === 'Inclusive';
    return clock.tick(upper ? (inclusive ? value + 1 : value) : (inclusive ? value : value + 1));
  };
  return { start: bound(f?.['LowerBound'], false), end: bound(f?.['UpperBound'], true) };
}

/** UE4.19 and earlier: an FFloatRange in seconds (a bound left out is Open, its value left out 0). */
function floatRange(clock: Clock, v: PropertyValue | undefined): SequenceRange {
  const f = fields(v);
  const bound = (b: PropertyValue | undefined): SequenceTime | null => {
    const bf = fields(b);
    const type = String(bf?.['Type'] ?? 'Open').replace(/^ERangeBoundTypes::/, '');
    if (type === 'Open') return null;
    const value = bf?.['Value'];
    return clock.seconds(typeof value === 'number' ? value : 0);
  };
  return { start: bound(f?.['LowerBound']), end: bound(f?.['UpperBound']) };
}

const str = (v: PropertyValue | undefined): string | undefined => (typeof v === 'string' ? v : undefined);
const num = (v: PropertyValue | undefined): number | undefined => (typeof v === 'number' ? v : undefined);
const textOf = (v: PropertyValue | undefined): string | undefined => {
  if (typeof v === 'string') return v;
  const f = fields(v);
  return typeof f?.['text'] === 'string' ? f['text'] : undefined;
};
const structList = (v: PropertyValue | undefined): Values[] => (Array.isArray(v) ? (v as PropertyValue[]).map((x) => fields(x)).filter((x): x is Values => x !== undefined) : []);
const pathList = (v: PropertyValue | undefined): string[] => (Array.isArray(v) ? v.filter((x): x is string => typeof x === 'string') : []);

/** "MovieSceneMaterialParameterCollectionTrack" -> "Material Parameter Collection". */
function classDisplayName(cls: string): string {
  const bare = cls.replace(/^MovieScene/, '').replace(/Track$/, '') || cls;
  return bare.replace(/([a-z0-9])([A-Z])/g, '$1 $2').replace(/([A-Z])([A-Z][a-z])/g, '$1 $2');
}

/**
 * The sequence of a package's exports read with pathReader: export `exportIndex` (or the
 * first sequence). `file` names the package in errors; `warnings` start the notes.
 */
export function sequenceOfPackage(pkg: PackageProperties, file: string, exportIndex: number | undefined, warnings: readonly string[] = []): SequenceAsset {
  const exports = pkg.exports;
  const isSequence = (e: ExportProperties): boolean => (SEQUENCE_CLASSES as readonly string[]).includes(classOf(e));
  const seq = exportIndex !== undefined ? exports[exportIndex] : exports.find(isSequence);
  if (!seq) {
    if (exportIndex !== undefined) throw new FormatError(file, 'export map', 0, `no export ${exportIndex} (the package has ${exports.length})`);
    throw new FormatError(file, 'export map', 0, `no Level Sequence (its exports are ${[...new Set(exports.map((e) => e.class))].join(', ') || 'none'})`);
  }
  if (!isSequence(seq)) throw new FormatError(file, `export ${seq.index} "${seq.name}"`, 0, `a ${classOf(seq)}, not a Level Sequence`);
  if (exports.some((e) => e.encoding === 'unversioned' && e.notes?.some((n) => n.includes('mappings')))) {
    throw new FormatError(file, `export ${seq.index} "${seq.name}"`, 0, 'the package is unversioned: the game\'s mappings (.usmap) are needed to read its sequence');
  }

  const notes: string[] = [...warnings];
  const byPath = new Map<string, ExportProperties>();
  for (const e of exports) {
    const p = pathOfExport(e);
    if (p) byPath.set(p, e);
  }
  const exportAt = (path: string, what: string): ExportProperties | undefined => {
    const e = byPath.get(path);
    if (!e) notes.push(`${what} ${path} is not among the package's exports`);
    else if (e.error) notes.push(`${e.name} (${e.class}): its properties stop early: ${e.error}`);
    return e;
  };

  const sv = valuesOf(seq.properties);
  let msPath = str(sv['MovieScene']);
  if (!msPath) {
    // No MovieScene property: the last MovieScene inside the sequence is the one an editor saved last.
    const seqPath = pathOfExport(seq) ?? '';
    const inner = exports.filter((e) => classOf(e) === 'MovieScene' && (pathOfExport(e) ?? '').startsWith(`${seqPath}:`));
    msPath = inner.length ? pathOfExport(inner[inner.length - 1]!) : undefined;
    notes.push(msPath ? `the sequence names no MovieScene: ${msPath} is read` : 'the sequence names no MovieScene');
  }
  const ms = msPath ? exportAt(msPath, 'MovieScene') : undefined;
  const mv = ms ? valuesOf(ms.properties) : {};
  const playbackEntry = ms?.properties.find((p) => p.name === 'PlaybackRange');
  const legacy = playbackEntry?.type === 'StructProperty<FloatRange>' || (!('TickResolution' in mv) && ('FixedFrameInterval' in mv || 'InTime' in mv));
  const tickResolution = legacy ? null : frameRate(mv['TickResolution'], DEFAULT_TICK_RESOLUTION);
  const interval = num(mv['FixedFrameInterval']);
  const displayRate = legacy ? (interval !== undefined ? rateOfInterval(interval) : null) : frameRate(mv['DisplayRate'], DEFAULT_DISPLAY_RATE);
  const clock = new Clock(tickResolution, displayRate);
  const playbackRange = legacy ? floatRange(clock, mv['PlaybackRange']) : frameRange(clock, mv['PlaybackRange']);

  // Bindings: possessables and spawnables by GUID, in ObjectBindings' order.
  const bindings = new Map<string, SequenceBinding>();
  const bindingOf = (guid: string, name: string, kind: SequenceBinding['kind']): SequenceBinding => {
    let b = bindings.get(guid);
    if (!b) bindings.set(guid, (b = { guid, name, kind, tracks: [] }));
    return b;
  };
  for (const ob of structList(mv['ObjectBindings'])) {
    const guid = str(ob['ObjectGuid']);
    if (guid) bindingOf(guid, str(ob['BindingName']) ?? '', 'binding');
  }
  for (const p of structList(mv['Possessables'])) {
    const guid = str(p['Guid']);
    if (!guid) continue;
    const b = bindingOf(guid, str(p['Name']) ?? '', 'possessable');
    b.kind = 'possessable';
    if (!b.name) b.name = str(p['Name']) ?? '';
    const cls = p['PossessedObjectClass'];
    if (typeof cls === 'string' || cls === null) b.class = cls;
    const parent = str(p['ParentGuid']);
    if (parent && !/^0+$/.test(parent)) b.parent = parent;
  }
  for (const s of structList(mv['Spawnables'])) {
    const guid = str(s['Guid']);
    if (!guid) continue;
    const b = bindingOf(guid, str(s['Name']) ?? '', 'spawnable');
    b.kind = 'spawnable';
    if (!b.name) b.name = str(s['Name']) ?? '';
    const template = s['ObjectTemplate'];
    if (typeof template === 'string' || template === null) {
      b.template = template;
      const te = template ? byPath.get(template) : undefined;
      b.class = te ? te.class : template === null ? null : undefined;
      if (b.class === undefined) delete b.class;
    }
  }
  for (const [guid, objects] of boundObjects(sv)) {
    const b = bindings.get(guid);
    if (b) b.boundObjects = objects;
    else notes.push(`the sequence binds ${guid} to ${objects.join(', ')}, but its MovieScene has no such binding`);
  }

  const subSequences: string[] = [];
  const readTrack = (path: string): SequenceTrack | undefined => {
    const e = exportAt(path, 'track');
    if (!e) return undefined;
    const v = valuesOf(e.properties);
    const binding = fields(v['PropertyBinding']);
    const property = str(binding?.['PropertyPath']) ?? str(binding?.['PropertyName']) ?? str(v['PropertyPath']) ?? str(v['PropertyName']);
    const displayName = textOf(v['DisplayName']) ?? (property && property !== 'None' ? property : classDisplayName(e.class));
    const track: SequenceTrack = { name: e.name, path, class: e.class, displayName, sections: [] };
    if (property && property !== 'None') track.property = property;
    if ('MPC' in v) track.mpc = str(v['MPC']) ?? null;
    for (const sp of pathList(v['Sections'])) {
      const section = readSection(sp);
      if (section) track.sections.push(section);
    }
    return track;
  };
  const readSection = (path: string): SequenceSection | undefined => {
    const e = exportAt(path, 'section');
    if (!e) return undefined;
    const v = valuesOf(e.properties);
    let range: SequenceRange;
    if (legacy) {
      range = v['bIsInfinite'] === true ? { start: null, end: null } : { start: clock.seconds(num(v['StartTime']) ?? 0), end: clock.seconds(num(v['EndTime']) ?? 0) };
    } else {
      range = 'SectionRange' in v ? frameRange(clock, v['SectionRange']) : { start: null, end: null };
    }
    const { channels, parameters } = sectionChannels(e.properties, clock);
    const section: SequenceSection = {
      name: e.name, path, class: e.class, range,
      row: num(v['RowIndex']) ?? 0,
      active: v['bIsActive'] !== false,
      channels,
    };
    if (parameters.length) section.parameters = parameters;
    if ('SubSequence' in v || /SubSection$|ShotSection$/.test(e.class)) {
      const sub = str(v['SubSequence']) ?? null;
      section.subSequence = sub;
      if (sub && !subSequences.includes(sub)) subSequences.push(sub);
      const params = fields(v['Parameters']) ?? {};
      const ts = params['TimeScale'];
      const tsf = fields(ts);
      section.timeScale = typeof ts === 'number' ? ts : typeof tsf?.['PlayRate'] === 'number' ? tsf['PlayRate'] : 1;
      if (ts !== undefined && section.timeScale === 1 && typeof ts !== 'number' && tsf?.['Type'] !== 'FixedPlayRate') notes.push(`${e.name}: its time warp (${String(tsf?.['Type'])}) is not a fixed play rate`);
      section.startFrameOffset = frameNumberOf(params['StartFrameOffset']) ?? 0;
      section.hierarchicalBias = num(params['HierarchicalBias']) ?? 100;
    }
    const camera = str(fields(v['CameraBindingID'])?.['Guid']) ?? str(v['CameraGuid']);
    if (camera !== undefined) {
      section.cameraBinding = camera;
      const b = bindings.get(camera);
      if (b) section.cameraName = b.name;
    }
    return section;
  };

  const tracks: SequenceTrack[] = [];
  const cameraCut = str(mv['CameraCutTrack']);
  if (cameraCut) {
    const t = readTrack(cameraCut);
    if (t) tracks.push(t);
  }
  for (const p of [...pathList(mv['Tracks']), ...pathList(mv['MasterTracks'])]) {
    const t = readTrack(p);
    if (t) tracks.push(t);
  }
  for (const ob of structList(mv['ObjectBindings'])) {
    const guid = str(ob['ObjectGuid']);
    const b = guid ? bindings.get(guid) : undefined;
    if (!b) continue;
    for (const p of pathList(ob['Tracks'])) {
      const t = readTrack(p);
      if (t) b.tracks.push(t);
    }
  }

  const folders = readFolders(mv['RootFolders'], byPath, notes);
  const bindingList = [...bindings.values()];
  return {
    package: pkg.package,
    sequence: seq.name,
    class: classOf(seq),
    movieScene: msPath ?? '',
    tickResolution,
    displayRate,
    playbackRange,
    tracks,
    bindings: bindingList,
    folders,
    subSequences,
    counts: countSequence(tracks, bindingList),
    notes,
  };
}

function frameNumberOf(v: PropertyValue | undefined): number | undefined {
  if (typeof v === 'number') return v;
  const f = fields(v);
  return typeof f?.['Value'] === 'number' ? f['Value'] : undefined;
}

/**
 * The level objects each binding GUID is bound to: UE4's ObjectReferences (a native map of
 * GUID -> {ObjectId, ObjectPath}) and UE4.17+'s BindingReferences (BindingIdToReferences: GUID ->
 * References, an array of {ExternalObjectPath, ObjectPath}).
 */
function boundObjects(sv: Values): Map<string, string[]> {
  const out = new Map<string, string[]>();
  const add = (guid: PropertyValue | undefined, path: string | undefined): void => {
    if (typeof guid !== 'string' || !path) return;
    const list = out.get(guid) ?? [];
    if (!list.includes(path)) list.push(path);
    out.set(guid, list);
  };
  for (const pair of Array.isArray(sv['ObjectReferences']) ? (sv['ObjectReferences'] as PropertyValue[]) : []) {
    const f = fields(pair);
    add(f?.['key'], str(fields(f?.['value'])?.['ObjectPath']));
  }
  const br = fields(sv['BindingReferences']);
  const refs = br?.['BindingIdToReferences'] ?? br?.['References'];
  for (const pair of Array.isArray(refs) ? (refs as PropertyValue[]) : []) {
    const f = fields(pair);
    const arr = fields(f?.['value'])?.['References'];
    for (const r of structList(arr)) {
      const external = str(r['ExternalObjectPath']);
      add(f?.['key'], external && external !== 'None' ? external : str(r['ObjectPath']));
    }
  }
  return out;
}

/** RootFolders (editor data; cooks usually drop it): each MovieSceneFolder's name, subfolders, tracks and bindings. */
function readFolders(v: PropertyValue | undefined, byPath: Map<string, ExportProperties>, notes: string[]): SequenceFolder[] {
  const seen = new Set<string>();
  const read = (paths: string[], depth: number): SequenceFolder[] => {
    const out: SequenceFolder[] = [];
    for (const p of paths) {
      if (seen.has(p) || depth > MAX_FOLDER_DEPTH) {
        notes.push(seen.has(p) ? `folder ${p} is inside itself: not read again` : `folders nest deeper than ${MAX_FOLDER_DEPTH} at ${p}: cut there`);
        continue;
      }
      seen.add(p);
      const e = byPath.get(p);
      if (!e) {
        notes.push(`folder ${p} is not among the package's exports`);
        continue;
      }
      const fv = valuesOf(e.properties);
      out.push({
        name: str(fv['FolderName']) ?? e.name,
        folders: read(pathList(fv['ChildFolders']), depth + 1),
        tracks: [...pathList(fv['ChildTracks']), ...pathList(fv['ChildMasterTracks'])].map(shortName),
        bindings: Array.isArray(fv['ChildObjectBindingStrings']) ? fv['ChildObjectBindingStrings'].filter((x): x is string => typeof x === 'string') : [],
      });
    }
    return out;
  };
  return read(pathList(v), 0);
}

function countSequence(tracks: readonly SequenceTrack[], bindings: readonly SequenceBinding[]): SequenceCounts {
  const all = [...tracks, ...bindings.flatMap((b) => b.tracks)];
  const sections = all.flatMap((t) => t.sections);
  const channels = sections.flatMap((s) => s.channels);
  return { bindings: bindings.length, tracks: all.length, sections: sections.length, channels: channels.length, keys: channels.reduce((n, c) => n + c.keys.length, 0) };
}

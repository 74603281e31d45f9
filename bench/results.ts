/**
 * The benchmark's targets and its results file: bench/results.json holds the machine, the install
 * measured and one {name, value, target, unit, met, note?} per target (value null when it could
 * not be measured; note says why). Also the table printed and the markdown table for the README.
 */
import { availableParallelism, cpus, release, totalmem, type as osType } from 'node:os';

export type TargetName =
  | 'open_index_s' | 'peak_rss_mb' | 'graph_s' | 'package_view_ms' | 'decode_ratio_zlib' | 'decode_ratio_oodle'
  | 'decode_ratio_lz4' | 'worker_scaling' | 'extract_ratio_zlib' | 'extract_disk_ratio_zlib' | 'scroll_frame_ms'
  | 'texture_decode_ratio_bc1' | 'texture_decode_ratio_bc7' | 'texture_preview_ms' | 'diff_s'
  | 'treemap_ms' | 'search_index_s' | 'search_ms' | 'mesh_open_ms' | 'mesh_orbit_frame_ms';

export interface TargetSpec {
  name: TargetName;
  target: number;
  unit: string;
  /** 'max': the value must not exceed the target ('<' when strict); 'min': it must reach it. */
  kind: 'max' | 'min';
  strict?: boolean;
  /** One line for the README. */
  what: string;
}

/** MB here is 2^20 bytes, as process memory figures are. */
export const TARGET_SPECS: readonly TargetSpec[] = [
  { name: 'open_index_s', target: 0.5, unit: 's', kind: 'max', what: 'whole install opened and indexed: openInstall(...) until listDir(\'\') returns' },
  { name: 'peak_rss_mb', target: 400, unit: 'MB', kind: 'max', what: 'peak memory (maxRSS, workers included) of the process doing that' },
  { name: 'graph_s', target: 2, unit: 's', kind: 'max', what: 'full dependency graph from every container header, both directions' },
  { name: 'package_view_ms', target: 50, unit: 'ms', kind: 'max', strict: true, what: 'one package\'s tables ready: chunk read through the container, parsed, resolved (median)' },
  { name: 'decode_ratio_zlib', target: 0.9, unit: 'x raw', kind: 'min', what: 'Zlib decoding through the app vs node:zlib inflateSync, same blocks and threads' },
  { name: 'decode_ratio_oodle', target: 0.9, unit: 'x raw', kind: 'min', what: 'Oodle decoding through the app vs ooz-wasm decompress, same blocks and threads' },
  { name: 'decode_ratio_lz4', target: 0.9, unit: 'x raw', kind: 'min', what: 'LZ4 decoding through the app vs the LZ4 decoder called directly, same blocks and threads' },
  { name: 'worker_scaling', target: 1.7, unit: 'x', kind: 'min', what: 'two workers vs one through the app (or 0.9 of the raw decoder\'s two-thread rate where that scales less)' },
  { name: 'extract_ratio_zlib', target: 0.8, unit: 'x raw', kind: 'min', what: 'Zlib containers extracted to a folder in memory (tmpfs) vs raw inflate, same threads' },
  { name: 'extract_disk_ratio_zlib', target: 0.8, unit: 'x raw', kind: 'min', what: 'the same export into a real folder on disk (the temp dir), as a user gets it, vs raw inflate' },
  { name: 'scroll_frame_ms', target: 8, unit: 'ms', kind: 'max', what: '95th percentile main-thread work per frame scrolling the fully expanded tree at 60 Hz, no frame dropped' },
  { name: 'texture_decode_ratio_bc1', target: 0.8, unit: 'x Pillow', kind: 'min', what: 'BC1 decoding of a 4096x4096 texture vs Pillow\'s C decoder, one thread each' },
  { name: 'texture_decode_ratio_bc7', target: 0.8, unit: 'x Pillow', kind: 'min', what: 'BC7 decoding of a 4096x4096 texture vs Pillow\'s C decoder, one thread each' },
  { name: 'texture_preview_ms', target: 150, unit: 'ms', kind: 'max', what: 'a 4096x4096 BC7 mip with its mips in a .ubulk: read and decoded in the worker pool, request to pixels (median)' },
  { name: 'diff_s', target: 2, unit: 's', kind: 'max', what: 'the install compared with a copy of it with 1 % of the chunks changed, through the stored hashes: the copy opened and compared' },
  { name: 'treemap_ms', target: 1000, unit: 'ms', kind: 'max', what: 'the size map of the whole install laid out (every folder and file, squarified, from the tree\'s typed arrays)' },
  { name: 'search_index_s', target: 10, unit: 's', kind: 'max', what: 'the search index built: every package\'s name map, exports, imports and path, in the worker pool' },
  { name: 'search_ms', target: 100, unit: 'ms', kind: 'max', what: 'a query against the built search index (substring, every kind), median over ten words' },
  { name: 'mesh_open_ms', target: 1000, unit: 'ms', kind: 'max', what: 'a static mesh of a million triangles opened in the mesh view (browser host, Chromium): Open clicked to its first frame\'s render call, median of 3 fresh pages' },
  { name: 'mesh_orbit_frame_ms', target: 16, unit: 'ms', kind: 'max', what: '95th percentile main-thread work per frame orbiting that mesh (SwiftShader\'s rasterising, in the GPU process, left out)' },
];

export interface TargetResult {
  name: TargetName;
  value: number | null;
  target: number;
  unit: string;
  met: boolean;
  note?: string;
  /** Set on a row carried over from an earlier run (--only): the date it was measured. */
  measured?: string;
}

export interface MachineInfo {
  cpuModel: string;
  cores: number;
  memoryMiB: number;
  node: string;
  os: string;
}

export interface InstallSummary {
  packages: number;
  files: number;
  folders: number;
  containers: number;
  codecs: Record<string, number>;
  encryptedContainers: number;
  gib: number;
  importedPackagesPerPackage: number;
  path: string;
}

export interface BenchResults {
  mode: 'quick' | 'full';
  date: string;
  machine: MachineInfo;
  install: InstallSummary;
  targets: TargetResult[];
  /** The probes' raw figures. */
  details: Record<string, unknown>;
}

export function describeMachine(): MachineInfo {
  return {
    cpuModel: cpus()[0]?.model.trim() ?? 'unknown',
    cores: availableParallelism(),
    memoryMiB: Math.round(totalmem() / 2 ** 20),
    node: process.version,
    os: `${osType()} ${release()} (${process.platform}-${process.arch})`,
  };
}

export function specOf(name: TargetName): TargetSpec {
  return TARGET_SPECS.find((t) => t.name === name)!;
}

/** Whether a value meets its target (null never does). */
export function meets(name: TargetName, value: number | null): boolean {
  if (value === null || !Number.isFinite(value)) return false;
  const s = specOf(name);
  if (s.kind === 'min') return value >= s.target;
  return s.strict ? value < s.target : value <= s.target;
}

/** A result row; `met` is the plain comparison unless the target has an extra condition (`met`). */
export function targetResult(name: TargetName, value: number | null, note?: string, met?: boolean): TargetResult {
  const s = specOf(name);
  const v = value === null || !Number.isFinite(value) ? null : Number(value.toPrecision(4));
  return { name, value: v, target: s.target, unit: s.unit, met: met ?? meets(name, v), ...(note ? { note } : {}) };
}

/** Problems with a results object's shape (empty when it is right). */
export function validateResults(x: unknown): string[] {
  const errors: string[] = [];
  const r = x as Partial<BenchResults>;
  if (typeof r !== 'object' || r === null) return ['not an object'];
  if (r.mode !== 'quick' && r.mode !== 'full') errors.push('mode must be "quick" or "full"');
  const m = r.machine as Partial<MachineInfo> | undefined;
  if (!m || typeof m.cpuModel !== 'string' || typeof m.cores !== 'number' || typeof m.memoryMiB !== 'number' ||
      typeof m.node !== 'string' || typeof m.os !== 'string') {
    errors.push('machine needs cpuModel, cores, memoryMiB, node and os');
  }
  if (!Array.isArray(r.targets)) return [...errors, 'targets must be a list'];
  const names = r.targets.map((t) => t?.name);
  for (const s of TARGET_SPECS) {
    const n = names.filter((x) => x === s.name).length;
    if (n !== 1) errors.push(`target ${s.name} appears ${n} times`);
  }
  for (const t of r.targets) {
    const spec = TARGET_SPECS.find((s) => s.name === t?.name);
    if (!spec) { errors.push(`unknown target ${String(t?.name)}`); continue; }
    if (t.value !== null && typeof t.value !== 'number') errors.push(`${t.name}: value must be a number or null`);
    if (t.target !== spec.target) errors.push(`${t.name}: target must be ${spec.target}`);
    if (t.unit !== spec.unit) errors.push(`${t.name}: unit must be ${spec.unit}`);
    if (typeof t.met !== 'boolean') errors.push(`${t.name}: met must be a boolean`);
    if (t.value === null && t.met) errors.push(`${t.name}: no value cannot meet its target`);
    if (t.value === null && !t.note) errors.push(`${t.name}: a missing value needs a note saying why`);
    if (t.measured !== undefined && !/^\d{4}-\d\d-\d\d$/.test(t.measured)) errors.push(`${t.name}: measured must be a date (YYYY-MM-DD)`);
  }
  return errors;
}

const fmt = (v: number | null): string => (v === null ? '—' : Math.abs(v) >= 100 ? v.toFixed(0) : Math.abs(v) >= 10 ? v.toFixed(1) : v.toFixed(2));
/** The note, said to come from an earlier run when the row was carried over. */
const noteOf = (t: TargetResult): string => (t.measured ? `[carried over from the run of ${t.measured}] ` : '') + (t.note ?? '');
const goal = (t: TargetResult): string => {
  const s = specOf(t.name);
  return `${s.kind === 'min' ? '≥' : s.strict ? '<' : '≤'} ${t.target} ${t.unit}`;
};

function heading(r: BenchResults): string {
  const i = r.install;
  const m = r.machine;
  const load = r.details['loadAverage'] as { start: number; end: number } | undefined;
  return `${r.mode} run, ${r.date}: ${i.packages.toLocaleString('en-US')} packages, ${i.files.toLocaleString('en-US')} files, ` +
    `${i.containers} containers (${Object.entries(i.codecs).map(([c, n]) => `${n} ${c}`).join(', ')}; ${i.encryptedContainers} AES), ` +
    `${i.gib.toFixed(2)} GiB · ${m.cpuModel}, ${m.cores} cores, ${(m.memoryMiB / 1024).toFixed(1)} GiB, Node ${m.node}, ${m.os}` +
    (load ? ` · load average ${load.start} at start, ${load.end} at end` : '');
}

/** The table printed at the end of a run. */
export function formatTable(r: BenchResults): string {
  const rows = r.targets.map((t) => [t.name, `${fmt(t.value)} ${t.unit}`, goal(t), t.met ? 'yes' : 'NO', noteOf(t)]);
  const widths = [0, 1, 2, 3].map((c) => Math.max(...rows.map((x) => x[c]!.length), ['target', 'value', 'goal', 'met'][c]!.length));
  const line = (cells: string[]): string => cells.map((c, i) => (i < 4 ? c.padEnd(widths[i]!) : c)).join('  ').trimEnd();
  return [heading(r), '', line(['target', 'value', 'goal', 'met', 'note']), ...rows.map(line)].join('\n');
}

/** A markdown table for the README (bench/results.md). */
export function formatMarkdown(r: BenchResults): string {
  const esc = (s: string): string => s.replace(/\|/g, '\\|');
  return [
    `Benchmark (\`npm run bench${r.mode === 'quick' ? ' -- --quick' : ''}\`), ${esc(heading(r))}`,
    '',
    ...(r.targets.some((t) => t.measured) ? ['Rows marked "carried over" were not measured in this run (`--only`): their figures are from the run of the date given.', ''] : []),
    '| Target | Value | Goal | Met | Note |',
    '| --- | ---: | --- | :---: | --- |',
    ...r.targets.map((t) => `| \`${t.name}\` | ${fmt(t.value)} ${t.unit} | ${goal(t)} | ${t.met ? 'yes' : '**no**'} | ${esc(noteOf(t))} |`),
    '',
  ].join('\n');
}

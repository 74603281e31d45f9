/**
 * `pakscope info <container>`: what a container is, from Archive.describe(); `info <folder>`:
 * every container of the install the folder is.
 * `pakscope info <path> <package>` and `pakscope info <package file>`: a package, whatever its
 * format, through core/package (the same model the app's package view shows): its summary,
 * then every name, import and export in stored order.
 */
import { extname } from 'node:path';
import { open as openFile, stat } from 'node:fs/promises';
import type { Archive } from '../../core/archive.js';
import { parseEngineVersion } from '../../core/engine-versions.js';
import { isContainerFile } from '../../core/install/scan.js';
import { InstallPackages, openPackageFile, PackageLookupError, ZEN_RELEASES, type OpenedPackage, type OpenPackageOptions } from '../../core/package/open-package.js';
import { isPackageFileName } from '../../core/package/package-files.js';
import { packageInfoJson, type PackageModel } from '../../core/package-model.js';
import { PACKAGE_FILE_TAG, findClassicEngineRelease } from '../../core/uasset/versions.js';
import { JSON_OPTION, type Command, type OptionSpec, type OptionValues } from '../command.js';
import { plural } from '../../shared/format.js';
import { versionNote } from '../../shared/version-notes.js';
import type { Session } from '../session.js';
import { UsageError } from '../usage-error.js';

export const ENGINE_OPTION: OptionSpec = {
  type: 'string',
  usage: '--engine X.Y',
  help: `Read packages as this engine release writes them (IoStore packages: ${ZEN_RELEASES}; unversioned .uasset: tried first).`,
};

export const infoCommand: Command = {
  name: 'info',
  args: '<path> [package]',
  summary: 'Describe a container (every one of a folder), or a package: names, imports, exports',
  description: [
    'With one container (.utoc or .pak): its format version, flags, entry and file counts, block',
    'size, the codecs its blocks use with their counts, mount point, encryption key GUID and',
    'method, and partitions. An encrypted container is described without its key. --json prints',
    '{"kind","path","status","fields":{...}} with the same facts. With a folder: every container',
    'of the install it is (its loose files as one), each as above; --json prints',
    '{"containers":[...]}.',
    '',
    'With a package: <path> [package] names a package inside the containers and folders of',
    '<path> by its name (/Game/Maps/Entry; a UE1/2 package by its name, Botpack), its path as ls',
    'prints it, or its package id (16 hex digits); a loose package file (.uasset, .umap, .u,',
    '.utx, .unr, ...) is named alone. Prints the package summary, then every name, import and',
    'export in stored order. IoStore packages are read with the layout their container\'s',
    'versions give (--engine overrides it); /Script imports are named through the global',
    'container (global.utoc, also found beside the path or one folder up), imports of other',
    'packages through those packages where the install holds them; what stays unknown shows as',
    'a hash. A .uasset is read with the .uexp beside it. --json prints {"format","name","version",',
    '"names":[...],"imports":[{"path","class"}],"exports":[{"name","class","outer","path",',
    '"serialOffset","serialSize"}]}.',
  ].join('\n'),
  examples: [
    'pakscope info pakchunk0-Windows.utoc',
    'pakscope info Game/Content/Paks --json',
    'pakscope info Paks /Game/Maps/Entry --json',
    'pakscope info Content/Maps/Level.umap',
    'pakscope info pakchunk0-Windows.pak --json',
  ],
  options: { json: JSON_OPTION, engine: ENGINE_OPTION },
  positionals: { min: 1, max: 2 },

  async run(session, args, values) {
    if (args.length === 2) {
      const opened = await openInstallPackage(session, args[0]!, args[1]!, values);
      if (opened) await printPackage(session, opened);
      return;
    }
    const [path] = args as [string];
    if ((await stat(path)).isDirectory()) return describeFolder(session, path);
    if (await isPackageFile(path)) {
      await printPackage(session, await openPackageFile(path, packageOptions(values)));
      return;
    }
    // retoc's .uzenasset: a Zen package saved as a file.
    if (extname(path).toLowerCase() === '.uzenasset') return printPackage(session, await openPackageFile(path, packageOptions(values)));
    const install = await session.open([path], { lockedIs: 'warning' });
    if (!install) return;
    try {
      for (const archive of install.archives) await printDescription(session, archive);
    } finally {
      await install.close();
    }
  },
};

/** The package options of --engine, checked. */
export function packageOptions(values: OptionValues): OpenPackageOptions {
  const engine = values['engine'];
  if (engine === undefined) return {};
  const text = String(engine);
  if (parseEngineVersion(text) === undefined && findClassicEngineRelease(text) === undefined) {
    throw new UsageError(`--engine takes an engine release such as 4.27 or 5.4, not "${text}"`);
  }
  return { engine: text };
}

/** A package file by its extension, or by the package tag its first bytes start with. */
async function isPackageFile(path: string): Promise<boolean> {
  if (isPackageFileName(path)) return true;
  if (isContainerFile(path)) return false;
  const f = await openFile(path, 'r');
  try {
    const head = new Uint8Array(4);
    const { bytesRead } = await f.read(head, 0, 4, 0);
    return bytesRead === 4 && new DataView(head.buffer).getUint32(0, true) === PACKAGE_FILE_TAG;
  } finally {
    await f.close();
  }
}

/** Opens `ref` in the install at `root`; undefined when the install could not be opened (reported). */
export async function openInstallPackage(session: Session, root: string, ref: string, values: OptionValues): Promise<OpenedPackage | undefined> {
  const opts = packageOptions(values);
  const install = await session.open([root], { lockedIs: 'warning' });
  if (!install) return undefined;
  const packages = new InstallPackages(install);
  try {
    return await packages.open(ref, opts);
  } finally {
    await packages.close();
    await install.close();
  }
}

async function printPackage(session: Session, opened: OpenedPackage): Promise<void> {
  const m = opened.model;
  for (const w of [...opened.warnings, ...m.warnings]) session.out.warn(`${m.name}: ${w}`);
  for (const issue of m.issues) session.out.warn(`${m.fileName}: ${issue.structure} at byte ${issue.offset}: ${issue.detail}`);
  if (session.json) {
    await session.out.line(JSON.stringify(packageInfoJson(m), null, 2));
    return;
  }
  await printPackageText(session, opened, m);
}

/** A value on one line: scalars as they are, lists by their length, objects left out. */
function scalar(v: unknown): string | undefined {
  if (v === null || v === undefined) return undefined;
  if (Array.isArray(v)) return `${v.length}`;
  if (typeof v === 'object') return undefined;
  return String(v);
}

async function printPackageText(session: Session, opened: OpenedPackage, m: PackageModel): Promise<void> {
  const out = session.out;
  const rows: [string, string][] = [
    ['Format', m.format],
    ['File', opened.path],
    ...(opened.container !== opened.path ? [['Container', opened.container] as [string, string]] : []),
    ...(typeof m.details.scriptObjects === 'string' ? [['Script objects', m.details.scriptObjects] as [string, string]] : []),
  ];
  for (const [k, v] of Object.entries(m.version)) {
    const s = scalar(v);
    const note = versionNote(k, v);
    if (s !== undefined) rows.push([`version.${k}`, note ? `${s} (${note})` : s]);
  }
  rows.push(['Package flags', `0x${(m.packageFlags.value >>> 0).toString(16).padStart(8, '0')}${m.packageFlags.names.length ? ` (${m.packageFlags.names.join(', ')})` : ''}`]);
  for (const [k, v] of Object.entries(m.summary)) {
    const s = scalar(v);
    if (s !== undefined && k !== 'packageFlags') rows.push([k, s]);
  }
  const width = Math.max(...rows.map(([l]) => l.length));
  await out.line(m.name);
  for (const [label, value] of rows) await out.line(`  ${label.padEnd(width)}  ${value}`);

  const num = (i: number, n: number): string => String(i).padStart(String(Math.max(n - 1, 0)).length);
  await out.line(`Names (${m.names.length}):`);
  for (const [i, name] of m.names.entries()) await out.line(`  ${num(i, m.names.length)}  ${name}`);
  await out.line(`Imports (${m.imports.length}):`);
  for (const [i, imp] of m.imports.entries()) {
    await out.line(`  ${num(i, m.imports.length)}  ${imp.path}${imp.class ? `  (${imp.class})` : ''}`);
  }
  await out.line(`Exports (${m.exports.length}):`);
  for (const [i, e] of m.exports.entries()) {
    await out.line(`  ${num(i, m.exports.length)}  ${e.path}${e.class ? `  (${e.class})` : ''}  offset ${e.serialOffset}  size ${e.serialSize}`);
  }
  if (m.thumbnails.length > 0) {
    await out.line(`Thumbnails (${m.thumbnails.length}):`);
    for (const t of m.thumbnails) await out.line(`  ${t.object}  (${t.class})  ${t.format} ${t.width}x${t.height}, ${t.dataSize} bytes`);
  }
}

/**
 * Every container of the install a folder is (its loose files as one "loose" entry), in the
 * order the install opened them; --json prints {"containers":[...]} of what one container prints.
 */
async function describeFolder(session: Session, path: string): Promise<void> {
  const install = await session.open([path], { lockedIs: 'warning' });
  if (!install) return;
  try {
    if (install.archives.length === 0) throw new PackageLookupError(`${path}: no containers (.utoc, .pak) nor loose packages in this folder`);
    if (session.json) {
      const list = install.archives.map((a) => `  ${JSON.stringify(descriptionJson(a))}`).join(',\n');
      await session.out.line(`{"containers":[\n${list}\n]}`);
      return;
    }
    await session.out.line(`${path}: ${plural(install.archives.length, 'container')}`);
    for (const archive of install.archives) await printDescription(session, archive);
  } finally {
    await install.close();
  }
}

function descriptionJson(archive: Archive): { kind: string; path: string; status: Archive['status']; fields: Record<string, unknown> } {
  const d = archive.describe();
  return { kind: d.kind, path: d.path, status: archive.status, fields: d.fields };
}

async function printDescription(session: Session, archive: Archive): Promise<void> {
  const d = archive.describe();
  const out = session.out;
  if (session.json) {
    await out.line(JSON.stringify(descriptionJson(archive), null, 2));
    return;
  }
  const rows: [string, string][] = [['Kind', d.kind], ['Status', statusText(archive)]];
  for (const [label, value] of Object.entries(d.fields)) rows.push([label, value === null ? '-' : String(value)]);
  const width = Math.max(...rows.map(([l]) => l.length));
  await out.line(d.path);
  for (const [label, value] of rows) await out.line(`  ${label.padEnd(width)}  ${value}`);
}

function statusText(a: Archive): string {
  return a.status.state === 'ok' ? 'ok' : `${a.status.state}: ${a.status.message}`;
}

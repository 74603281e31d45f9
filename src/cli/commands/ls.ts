/** `pakscope ls <path...>`: every file of the merged install, sorted by path. */
import { basename } from 'node:path';
import type { Install, VfsFile } from '../../core/install/install.js';
import type { Usmap } from '../../core/usmap/types.js';
import { compilePathFilters } from '../../core/install/path-filter.js';
import { installMediaNames, mediumIdOfPath, mediumLabel } from '../../core/assets/sound/wwise/install-labels.js';
import { InstallPackages } from '../../core/package/open-package.js';
import { filterOption, filterValues, JSON_OPTION, type Command } from '../command.js';
import type { Output } from '../output.js';
import { loadMappings } from './props.js';

export const lsCommand: Command = {
  name: 'ls',
  args: '<path...>',
  summary: 'List every file (merged across containers) with its size and container',
  description: [
    'Lists every file of the given containers and folders once, sorted by path. Where several',
    'containers hold a path, the one the engine would load wins (a _P patch over its base, a',
    'higher _N_P over a lower one) and is the one shown. A container that lists a path several',
    'times in spellings that differ only by case is read as the engine reads it: the last wins,',
    'the row notes the copies it overrides, and a warning on stderr names them. --filter lists only the files it selects,',
    'as extract --filter does: a glob matching the whole path or any part of it from a folder',
    '("*.umap", "Content/**/T_*"; a leading / anchors it at the root), else a substring.',
    '',
    '--json prints {"files":[{"path","size","container","chunkId","chunkType"}, ...]}: size is',
    'the uncompressed byte count, container the providing container\'s file name, chunkId the',
    '24 hex digits of the IoStore chunk id and chunkType its engine name (null for .pak files);',
    'caseCopies, only where there are some, the paths of the copies it overrides in its container.',
    '',
    'Wwise media named by their id (Media/123456.wem, Media/123456.uasset) are labelled by the',
    'events that play them and their original file, as the install\'s SoundbanksInfo/bank metadata',
    'and AkAudioEvent assets name them (the app\'s tree shows the same): a last column of the',
    'table ("Bullet_Impact · Bullet_Impact_4.wav"), "label" in --json. Installs without such media',
    'read nothing more. Unversioned event assets need the game\'s mappings: --usmap FILE.',
  ].join('\n'),
  examples: [
    'pakscope ls Game/Content/Paks',
    'pakscope ls pakchunk0-Windows.utoc --json > files.json',
    'pakscope ls Game/Content/Paks --filter "*.umap" --filter "**/Textures/T_*"',
    'pakscope ls Game/Content/Paks --usmap Game.usmap',
  ],
  options: {
    filter: filterOption('List'),
    usmap: { type: 'string', usage: '--usmap FILE', help: 'Mappings (.usmap) to read unversioned Wwise event assets with, for the media labels.' },
    json: JSON_OPTION,
  },
  positionals: { min: 1, max: Infinity },

  async run(session, paths, values) {
    const { mappings } = await loadMappings(values, 'ls');
    const install = await session.open(paths);
    if (!install) return;
    try {
      const filters = filterValues(values);
      const files = selectedFiles(install.files(), filters);
      const labels = await wwiseLabels(install, files, mappings);
      if (values['json']) await printJson(session.out, files, install.problems.filter((p) => p.fatal), labels);
      else await printTable(session.out, [...files], labels);
      if (filters.length > 0 && files.length === 0) session.out.warn(`no file matches --filter ${filters.join(', ')}`);
    } finally {
      await install.close();
    }
  },
};

/** The files the filters select (all without one), as an array: printed, then counted. */
function selectedFiles(files: Iterable<VfsFile>, filters: string[]): VfsFile[] {
  const matches = compilePathFilters(filters);
  const all = [...files];
  return matches === undefined ? all : all.filter((f) => matches(f.path.toLowerCase()));
}

/**
 * The labels of the listed Wwise media named by id (path -> "event · original file"), as the app's
 * tree shows them; the install's metadata and event assets are read only when such media are listed.
 */
async function wwiseLabels(install: Install, files: readonly VfsFile[], mappings: Usmap | undefined): Promise<Map<string, string>> {
  const labels = new Map<string, string>();
  const media = files.flatMap((f) => { const id = mediumIdOfPath(f.path); return id === undefined ? [] : [{ path: f.path, id }]; });
  if (media.length === 0) return labels;
  const names = await installMediaNames(new InstallPackages(install), mappings ? { mappings } : {});
  for (const { path, id } of media) {
    const label = mediumLabel(names, id);
    if (label) labels.set(path, label);
  }
  return labels;
}

/** Paths of the copies of `f` in its winning container (spellings that differ only by case). */
function caseCopies(f: VfsFile): string[] {
  const winner = f.providers[0]!.archive;
  const out: string[] = [];
  for (let i = 1; i < f.providers.length && f.providers[i]!.archive === winner; i++) out.push(f.providers[i]!.file.path.replace(/^\/+/, ''));
  return out;
}

function containerOf(f: VfsFile): string {
  return basename(f.providers[0]!.archive.path);
}

async function printJson(
  out: Output,
  files: Iterable<VfsFile>,
  errors: { path: string; message: string }[],
  labels: ReadonlyMap<string, string>,
): Promise<void> {
  await out.text('{"files":[');
  let first = true;
  for (const f of files) {
    const file = f.providers[0]!.file;
    const entry = {
      path: f.path,
      size: f.size,
      container: containerOf(f),
      chunkId: file.chunkId ?? null,
      chunkType: file.chunkType ?? null,
      ...(caseCopies(f).length > 0 ? { caseCopies: caseCopies(f) } : {}),
      ...(labels.has(f.path) ? { label: labels.get(f.path) } : {}),
    };
    await out.text(`${first ? '\n' : ',\n'}${JSON.stringify(entry)}`);
    first = false;
  }
  await out.text(first ? ']' : '\n]');
  // Containers that could not be read at all (their errors are on stderr too).
  if (errors.length > 0) await out.text(`,"errors":${JSON.stringify(errors.map(({ path, message }) => ({ path, message })))}`);
  await out.line('}');
}

async function printTable(out: Output, files: VfsFile[], labels: ReadonlyMap<string, string>): Promise<void> {
  let pathWidth = 0;
  let sizeWidth = 0;
  let containerWidth = 0;
  for (const f of files) {
    pathWidth = Math.max(pathWidth, f.path.length);
    sizeWidth = Math.max(sizeWidth, String(f.size).length);
    if (labels.size > 0) containerWidth = Math.max(containerWidth, containerOf(f).length);
  }
  for (const f of files) {
    const copies = caseCopies(f).length;
    const note = copies === 0 ? '' : `  (overrides ${copies} ${copies === 1 ? 'copy' : 'copies'} in its container whose path differs only by case)`;
    // The Wwise label, a column of its own after the container, where any file has one.
    const label = labels.get(f.path);
    const container = label ? `${containerOf(f).padEnd(containerWidth)}  ${label}` : containerOf(f);
    await out.line(`${f.path.padEnd(pathWidth)}  ${String(f.size).padStart(sizeWidth)}  ${container}${note}`);
  }
}

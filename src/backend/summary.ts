/**
 * Turns core install objects into the plain records the API sends: container summaries for the
 * container list, tree entries for the tree, file details for the details pane.
 */
import { assetKindOfFile } from '../core/assets/index.js';
import { basename, extname } from 'node:path';
import type { Archive, ArchiveKind } from '../core/archive.js';
import type { DirListingEntry, Install, InstallProblem, VfsFile } from '../core/install/install.js';
import { IoStoreContainer } from '../core/iostore/container.js';
import type { ContainerSummary, FileDetails, InstallSummary, TreeEntry } from '../shared/api.js';
import { isTextPath } from './text-types.js';

export function summarizeInstall(id: string, root: string, install: Install): InstallSummary {
  const containers = install.archives.map(summarizeArchive);
  const listed = new Set(install.archives.map((a) => a.path));
  // Files that failed to open have no Archive; show them in the list as containers in error.
  for (const p of install.problems) {
    if (!listed.has(p.path)) containers.push(summarizeProblem(p));
  }
  return { id, root, containers, fileCount: install.fileCount, totalSize: install.totalSize };
}

function summarizeArchive(a: Archive): ContainerSummary {
  let fields: ContainerSummary['fields'];
  try {
    fields = a.describe().fields;
  } catch (e) {
    fields = { error: e instanceof Error ? e.message : String(e) };
  }
  // An IoStore container counts its files without making its file list (made on first listing).
  const fileCount = a instanceof IoStoreContainer ? a.directoryIndex?.fileCount ?? 0 : a.files().length;
  return { path: a.path, name: a.name, kind: a.kind, fileCount, status: a.status, fields };
}

function summarizeProblem(p: InstallProblem): ContainerSummary {
  const ext = extname(p.path).toLowerCase();
  const kind: ArchiveKind = ext === '.utoc' || ext === '.ucas' ? 'iostore' : ext === '.pak' ? 'pak' : 'loose';
  return {
    path: p.path,
    name: basename(p.path, ext),
    kind,
    fileCount: 0,
    status: p.fatal ? { state: 'error', message: p.message } : { state: 'warning', message: p.message },
    fields: {},
  };
}

export function toTreeEntry(e: DirListingEntry): TreeEntry {
  const entry: TreeEntry = { name: e.name, path: e.path, isDir: e.isDir, size: e.size, fileCount: e.fileCount };
  const winner = e.file?.providers[0];
  if (!e.isDir && winner) {
    entry.container = winner.archive.name;
    entry.overrides = e.file!.providers.length - 1;
  }
  return entry;
}

export function describeFile(file: VfsFile): FileDetails {
  const [winner, ...losers] = file.providers;
  if (!winner) throw new Error(`${file.path}: no container provides this file`);
  const details: FileDetails = {
    path: file.path,
    size: file.size,
    container: winner.archive.name,
    containerPath: winner.archive.path,
    storage: winner.archive.storage(winner.file.ref),
    // A copy in the winner's own container has another spelling of the path: it is named.
    overridden: losers.map((p) => (p.archive === winner.archive
      ? { container: p.archive.name, containerPath: p.archive.path, path: p.file.path.replace(/^\/+/, '') }
      : { container: p.archive.name, containerPath: p.archive.path })),
    isText: isTextPath(file.path),
  };
  if (winner.file.chunkId !== undefined) details.chunkId = winner.file.chunkId;
  if (winner.file.chunkType !== undefined) details.chunkType = winner.file.chunkType;
  const plain = winner.file.chunkType === undefined ? assetKindOfFile(file.path) : undefined;
  if (plain) details.view = plain.view;
  return details;
}

/**
 * `pakscope extract <path...> --out DIR`: writes the selected files below DIR (or into one .zip),
 * raw or as JSON, through the core exporter (core/export). A file that cannot be written (a bad
 * block, a locked container, a name that would leave DIR) is listed as failed and the rest is
 * still extracted; the exit code is then 2.
 */
import { resolve } from 'node:path';
import { extractFiles, ZipLimitError, type ConflictPolicy, type ExportFormat, type ExportProgress, type ExportSummary } from '../../core/export/index.js';
import { createWorkerPool } from '../../core/workers/pool.js';
import { filterOption, filterValues, JSON_OPTION, type Command, type OptionValues } from '../command.js';
import { formatSize, plural } from '../../shared/format.js';
import { EXIT_BAD_INPUT, type Session } from '../session.js';
import { loadMappings } from './props.js';
import { UsageError } from '../usage-error.js';

export const extractCommand: Command = {
  name: 'extract',
  args: '<path...>',
  summary: 'Write files to a folder or a .zip, as stored, as JSON or converted',
  description: [
    'Writes the files of the given containers and folders below DIR, each at its path as ls prints',
    'it (DIR is created if missing). --filter selects files as the tree filter does: a glob when',
    'it has * ? or [ (** crosses folders), else a substring of the path, case-insensitive. A glob',
    'matches the whole path or any part of it starting at a folder ("*.uasset" anywhere,',
    '"Content/**/T_*" below any Content folder); a leading / anchors it at the root. Repeated, a',
    'file matching any filter is extracted. Without --filter every file is.',
    '',
    '--format raw (the default) writes the bytes as the game stores them, decrypted and',
    'decompressed. A package brings what it needs beside it: its .uexp, and its bulk data as',
    '.ubulk, .uptnl (optional) and .m.ubulk (memory-mapped). --format json writes each package',
    '(.uasset, .umap, an IoStore package, a UE1/2 package) as its parsed header in JSON,',
    'NAME.json beside where NAME would be, each export with its "properties" as props --json',
    'prints them (unversioned ones read with --usmap FILE); files that are not packages are',
    'written raw.',
    '--format convert writes each asset PakScope converts as what it converts to, where its',
    'package would be: a texture T_X.uasset as T_X.png (T_X.dds for a pixel format PakScope',
    'cannot decode), an array, cube or volume as one PNG per slice (T_Cube_0.png to T_Cube_5.png),',
    'without its .uexp and .ubulk; a UE1/2 package\'s UnrealScript (each class\'s ScriptText) as',
    'Botpack/Classes/<Class>.uc beside Botpack.u; a sound SW_X.uasset as SW_X.wav (16-bit PCM) or, for',
    'a format PakScope cannot decode, its payload as stored (SW_X.ogg, .opus, .binka, .rada); every',
    'other file is written as stored, as raw does.',
    '',
    'An existing file is never overwritten silently: by default it is skipped and listed (so a',
    'second run only adds what is missing); --overwrite replaces it, --keep-both writes',
    '"name (2).ext" beside it. A name that would leave DIR (.., an absolute path, a drive',
    'letter, a Windows device name, a symlink in DIR pointing outside it) is refused and listed',
    'as failed, as is a file that cannot be read; the rest is still extracted, and the exit',
    'code is 2. --zip FILE writes one .zip instead (relative to DIR when --out is given too); a',
    'zip holds at most 65,535 files and 4 GiB.',
    '',
    '--json prints {"files":N,"bytes":N,"failed":[{"path","error"}],"skipped":[{"path","reason"}]}.',
  ].join('\n'),
  examples: [
    'pakscope extract Game/Content/Paks --out Export --filter "*/Maps/**"',
    'pakscope extract pakchunk0-Windows.utoc --out Export --format json --filter .umap',
    'pakscope extract Paks --zip textures.zip --filter "**/Textures/**" --json',
    'pakscope extract Paks --out Export --format convert --filter "**/Textures/**"',
    'pakscope extract Paks --out Export --filter "*.umap" --filter "Content/**/T_*"',
  ],
  options: {
    out: { type: 'string', usage: '--out DIR', help: 'Folder to write the files below (created if missing).' },
    filter: filterOption('Extract'),
    format: { type: 'string', usage: '--format raw|json|convert', help: 'raw: the bytes as stored (default); json: packages as JSON; convert: textures as PNG, UE1/2 scripts as .uc.' },
    zip: { type: 'string', usage: '--zip FILE', help: 'Write one .zip file instead of a folder.' },
    overwrite: { type: 'boolean', usage: '--overwrite', help: 'Replace files that exist (default: skip them).' },
    'keep-both': { type: 'boolean', usage: '--keep-both', help: 'Keep existing files and write "name (2).ext".' },
    usmap: { type: 'string', usage: '--usmap FILE', help: 'json, convert: mappings (.usmap) to read unversioned properties with.' },
    json: JSON_OPTION,
  },
  positionals: { min: 1, max: Infinity },

  async run(session, paths, values) {
    const opts = parseOptions(values);
    const { mappings } = await loadMappings(values, 'extract');
    const pool = createWorkerPool();
    // Ctrl-C stops the export cleanly: the file in progress is removed, the summary printed.
    const cancel = new AbortController();
    const onSigint = (): void => cancel.abort(new Error('interrupted'));
    process.once('SIGINT', onSigint);
    try {
      const install = await session.open(paths, { decoder: pool });
      if (!install) return;
      try {
        const progress = progressLine(session);
        let summary: ExportSummary;
        try {
          summary = await extractFiles(install, { filters: opts.filters }, {
            ...(opts.zip !== undefined ? { zip: opts.zip } : { out: opts.out! }),
            format: opts.format,
            conflict: opts.conflict,
            ...(mappings ? { mappings } : {}),
            pool,
            concurrency: pool.threads * 4,
            signal: cancel.signal,
            ...(progress ? { onProgress: progress.update } : {}),
          });
        } catch (e) {
          if (e instanceof ZipLimitError) throw new UsageError(e.message, 'extract');
          throw e;
        } finally {
          progress?.clear();
        }
        await report(session, summary, opts);
      } finally {
        await install.close();
      }
    } finally {
      process.off('SIGINT', onSigint);
      await pool.destroy();
    }
    if (cancel.signal.aborted) {
      // The shell should see what stopped us (exit 130), after the summary is out.
      await session.out.flush();
      process.kill(process.pid, 'SIGINT');
    }
  },
};

interface ExtractOptions {
  out?: string;
  zip?: string;
  filters: string[];
  format: ExportFormat;
  conflict: ConflictPolicy;
}

function parseOptions(values: OptionValues): ExtractOptions {
  const out = values['out'] as string | undefined;
  const zipArg = values['zip'] as string | undefined;
  if (out === undefined && zipArg === undefined) throw new UsageError('needs --out DIR (or --zip FILE)', 'extract');
  if (out === '' || zipArg === '') throw new UsageError('--out and --zip take a path, not an empty string', 'extract');
  const format = (values['format'] as string | undefined) ?? 'raw';
  if (format !== 'raw' && format !== 'json' && format !== 'convert') throw new UsageError(`--format takes raw, json or convert, not "${format}"`, 'extract');
  if (values['overwrite'] && values['keep-both']) throw new UsageError('--overwrite and --keep-both exclude each other', 'extract');
  const conflict: ConflictPolicy = values['overwrite'] ? 'overwrite' : values['keep-both'] ? 'keep-both' : 'skip';
  const filters = filterValues(values);
  return {
    ...(zipArg !== undefined ? { zip: out === undefined ? resolve(zipArg) : resolve(out, zipArg) } : { out: resolve(out!) }),
    filters, format, conflict,
  };
}

/** A progress line on stderr, rewritten in place; only for a terminal, and not under --json. */
function progressLine(session: Session): { update: (p: ExportProgress) => void; clear: () => void } | undefined {
  const err = process.stderr;
  if (session.json || !err.isTTY) return undefined;
  let shown = false;
  // A pseudo-terminal may report 0 columns (no size set): then a standard 80.
  const width = (): number => ((err.columns ?? 0) > 0 ? err.columns : 80) - 1;
  return {
    update: (p) => {
      const rate = p.bytesPerSecond > 0 ? `, ${formatSize(p.bytesPerSecond)}/s` : '';
      const left = p.secondsLeft !== null && p.secondsLeft > 1 ? `, ${Math.ceil(p.secondsLeft)} s left` : '';
      const line = `${p.filesDone}/${p.filesTotal} files, ${formatSize(p.bytesDone)} of ${formatSize(p.bytesTotal)}${rate}${left}`;
      err.write(`\r${line.slice(0, Math.max(20, width())).padEnd(Math.min(79, width()))}`);
      shown = true;
    },
    clear: () => {
      if (shown) err.write(`\r${' '.repeat(Math.min(79, width()))}\r`);
    },
  };
}

async function report(session: Session, s: ExportSummary, opts: ExtractOptions): Promise<void> {
  const out = session.out;
  const nothing = s.files === 0 && s.failed.length === 0 && s.skipped.length === 0 && !s.cancelled;
  if (s.failed.length > 0 || nothing) session.fail(EXIT_BAD_INPUT);
  if (session.json) {
    await out.line(JSON.stringify({ files: s.files, bytes: s.bytes, failed: s.failed, skipped: s.skipped }));
  } else {
    const where = opts.zip ?? opts.out!;
    await out.line(`${s.cancelled ? 'cancelled after writing' : 'extracted'} ${plural(s.files, 'file')} (${formatSize(s.bytes)}) to ${where} in ${s.seconds.toFixed(1)} s`);
    for (const f of s.failed) await out.line(`  failed: ${f.path}: ${f.error}`);
    const reasons = new Map<string, string[]>();
    for (const k of s.skipped) reasons.set(k.reason, [...(reasons.get(k.reason) ?? []), k.path]);
    for (const [reason, list] of reasons) {
      await out.line(`  skipped ${plural(list.length, 'file')}: ${reason}${list.length === 1 ? ` (${list[0]})` : ''}`);
    }
    if (s.failed.length > 0) await out.line(`${plural(s.failed.length, 'file')} failed`);
  }
  if (nothing) out.error(opts.filters.length > 0 ? `no file matches --filter ${opts.filters.join(', ')}` : 'no files to extract');
  if (s.skipped.some((k) => k.reason.includes('exists'))) {
    out.note('note: existing files were skipped; --overwrite replaces them, --keep-both writes "name (2).ext" beside them');
  }
  if (s.cancelled) out.note('note: cancelled; the file in progress was removed');
}

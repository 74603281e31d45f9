/**
 * `pakscope diff <old> <new> [package]`: what changed between two builds (core/diff): files
 * added, removed, changed and moved and how many are unchanged; with a package, what changed
 * inside it down to the property.
 */
import { KeyRing, parseAesKeyArg } from '../../core/crypto/keys.js';
import { checkComparable, checkInstallPath, type CompareSide } from '../../core/diff/comparable.js';
import { compareInstalls } from '../../core/diff/compare-installs.js';
import { diffPackage } from '../../core/diff/package-diff.js';
import type { InstallDiffJson, PackageDiffJson } from '../../core/diff/types.js';
import { openInstall, type Install } from '../../core/install/install.js';
import { InstallPackages } from '../../core/package/open-package.js';
import { createWorkerPool, type WorkerPool } from '../../core/workers/pool.js';
import { plural } from '../../shared/format.js';
import { JSON_OPTION, type Command, type OptionValues } from '../command.js';
import { EXIT_BAD_INPUT, problemText, type Session } from '../session.js';
import { ENGINE_OPTION, packageOptions } from './info.js';
import { loadMappings } from './props.js';

export const diffCommand: Command = {
  name: 'diff',
  args: '<old> <new> [package]',
  summary: 'Compare two builds: files added, removed, changed and moved, or one package\'s changes',
  description: [
    'Compares two installs (each a game folder, a container or a package file) file by file.',
    'Same content means the same decoded bytes: where both sides are IoStore chunks the hashes',
    'the containers store are compared and nothing is read; otherwise files of equal size are',
    'decoded and hashed in worker threads. A file at a new path with the same content is one',
    '"moved" entry. --aes-key applies to both builds, --old-key and --new-key to one.',
    '',
    'With [package] (a name, a path as ls prints it, or a short name), prints what changed',
    'inside it: names, imports and exports added, removed or resized, and every property that',
    'differs by its path (Export.Property[.Field...]), read with --usmap for unversioned ones.',
    '',
    '--json prints {"added":[{"path","size"}],"removed":[{"path","size"}],"changed":[{"path",',
    '"oldSize","newSize"}],"moved":[{"oldPath","newPath"}],"unchanged":N}; with a package,',
    '{"package","changes":[{"where","old","new"}]} with values as props --json encodes them.',
    'A build that is not an install, the same install twice or a locked container: exit 2.',
  ].join('\n'),
  examples: [
    'pakscope diff Old/Paks New/Paks',
    'pakscope diff Old/Paks New/Paks /Game/Data/DA_Items --usmap Game.usmap --json',
  ],
  options: {
    'old-key': { type: 'string', multiple: true, usage: '--old-key KEY', help: 'AES key for the old build only (as --aes-key). Repeatable.' },
    'new-key': { type: 'string', multiple: true, usage: '--new-key KEY', help: 'AES key for the new build only (as --aes-key). Repeatable.' },
    usmap: { type: 'string', usage: '--usmap FILE', help: 'Mappings (.usmap) to read unversioned properties with.' },
    engine: ENGINE_OPTION,
    json: JSON_OPTION,
  },
  positionals: { min: 2, max: 3 },

  async run(session, args, values) {
    const [oldPath, newPath, pkg] = args as [string, string, string | undefined];
    const opts = { ...packageOptions(values), ...(await loadMappings(values, 'diff')) };
    await checkInstallPath(oldPath, 'old');
    await checkInstallPath(newPath, 'new');
    const pool = createWorkerPool();
    const opened: Install[] = [];
    try {
      const oldInstall = await openSide(session, oldPath, 'old', values, pool);
      opened.push(oldInstall);
      const newInstall = await openSide(session, newPath, 'new', values, pool);
      opened.push(newInstall);
      await checkComparable(oldInstall, newInstall);
      if (pkg !== undefined) {
        const [a, b] = [new InstallPackages(oldInstall), new InstallPackages(newInstall)];
        try {
          const side = (packages: InstallPackages) => ({ packages, ...(opts.mappings ? { mappings: opts.mappings } : {}) });
          const d = await diffPackage(side(a), side(b), pkg, opts.engine !== undefined ? { engine: opts.engine } : {});
          for (const w of d.warnings) session.out.warn(w);
          await printPackageDiff(session, { package: d.package, changes: d.changes });
        } finally {
          await Promise.all([a.close(), b.close()]);
        }
        return;
      }
      const d = await compareInstalls(oldInstall, newInstall, { digest: (data) => pool.digest(data) });
      for (const u of d.unreadable) session.out.error(`${u.path}: could not be read to compare it (counted as changed): ${u.message}`);
      if (d.unreadable.length > 0) session.fail(EXIT_BAD_INPUT);
      await printInstallDiff(session, { added: d.added, removed: d.removed, changed: d.changed, moved: d.moved, unchanged: d.unchanged });
    } finally {
      await Promise.all(opened.map((i) => i.close()));
      await pool.destroy();
    }
  },
};

/** One build opened with --aes-key and its own keys; its non-fatal problems are warnings (the fatal ones checkComparable refuses). */
async function openSide(session: Session, path: string, side: CompareSide, values: OptionValues, pool: WorkerPool): Promise<Install> {
  const keys = new KeyRing();
  for (const arg of [...((values['aes-key'] as string[] | undefined) ?? []), ...((values[`${side}-key`] as string[] | undefined) ?? [])]) {
    keys.add(parseAesKeyArg(arg));
  }
  const install = await openInstall([path], { keys, decoder: pool });
  for (const p of install.problems) if (!p.fatal) session.out.warn(`${side}: ${problemText(p)}`);
  return install;
}

async function printInstallDiff(session: Session, d: InstallDiffJson): Promise<void> {
  if (session.json) {
    await session.out.line(JSON.stringify(d));
    return;
  }
  for (const f of d.removed) await session.out.line(`- ${f.path}  ${f.size}`);
  for (const f of d.added) await session.out.line(`+ ${f.path}  ${f.size}`);
  for (const f of d.changed) await session.out.line(`~ ${f.path}  ${f.oldSize} -> ${f.newSize}`);
  for (const f of d.moved) await session.out.line(`> ${f.oldPath} -> ${f.newPath}`);
  await session.out.line(
    `${plural(d.changed.length, 'file')} changed, ${d.added.length} added, ${d.removed.length} removed, ${d.moved.length} moved, ${d.unchanged} unchanged`,
  );
}

async function printPackageDiff(session: Session, d: PackageDiffJson): Promise<void> {
  if (session.json) {
    await session.out.line(JSON.stringify(d));
    return;
  }
  await session.out.line(d.package);
  if (d.changes.length === 0) await session.out.line('  no differences');
  for (const c of d.changes) await session.out.line(`  ${c.where}: ${JSON.stringify(c.old)} -> ${JSON.stringify(c.new)}`);
}

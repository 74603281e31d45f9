/**
 * The package an asset command (texture, audio, table) reads: `<path> <package>` of an install,
 * or one package file on disk. Opens it, prints its warnings, hands the reader its AssetSource
 * and model, and closes what it opened, so each command only says what it reads and prints.
 */
import { readFile } from 'node:fs/promises';
import { assetKindOfFile, type AssetKind, type AssetSource, type ConvertOptions, type PlainFile } from '../core/assets/registry.js';
import { isContainerFile } from '../core/install/scan.js';
import type { Install } from '../core/install/install.js';
import { InstallPackages, openPackageFile } from '../core/package/open-package.js';
import { COMPANION_EXTENSIONS, extensionOf } from '../core/package/package-files.js';
import type { PackageModel } from '../core/package-model.js';
import type { Session } from './session.js';
import { UsageError } from './usage-error.js';

/** What the reader of an asset command gets: where to read, the package's model and its path as `ls` prints it. */
export interface AssetPackage {
  source: AssetSource;
  model: PackageModel;
  path: string;
}

/**
 * Runs `read` on the package `args` name (`[path, package]` or `[file]`) for `command`; undefined
 * when the install did not open (the session has said why).
 */
export async function withAssetPackage<T>(
  session: Session, args: string[], opts: ConvertOptions, command: string, read: (pkg: AssetPackage) => Promise<T>,
): Promise<T | undefined> {
  if (args.length === 2) {
    const install = await session.open([args[0]!], { lockedIs: 'warning' });
    if (!install) return undefined;
    const packages = new InstallPackages(install);
    try {
      const opened = await packages.open(args[1]!, opts);
      for (const w of opened.warnings) session.out.warn(`${opened.path}: ${w}`);
      return await read({ source: { packages, ref: args[1]! }, model: opened.model, path: opened.path });
    } finally {
      await packages.close();
      await install.close();
    }
  }
  const [path] = args as [string];
  await session.requireFile(path, command);
  if (isContainerFile(path)) throw new UsageError(`${path} is a container: name the package inside it too (${command} <path> <package>)`, command);
  if (COMPANION_EXTENSIONS.includes(extensionOf(path))) throw new UsageError(`${path} holds data of the package beside it: name its .uasset`, command);
  const opened = await openPackageFile(path, opts);
  for (const w of opened.warnings) session.out.warn(`${opened.path}: ${w}`);
  return read({ source: { file: path }, model: opened.model, path });
}

/**
 * The plain file `args` name (`[path, file]` of an install, or `[file]` on disk) when the
 * converter registry reads it by its extension (a .wem, a .bnk) with a kind of `kind`; undefined
 * for anything else (a package), so the command goes on as for a package. `read` gets its bytes.
 */
export async function withPlainFile<T>(
  session: Session, args: string[], kind: string, command: string, read: (file: PlainFile, asset: AssetKind, install?: Install) => Promise<T>,
): Promise<{ value: T } | { value: undefined; failed: true } | undefined> {
  const target = args[args.length - 1]!;
  const asset = assetKindOfFile(target);
  if (asset?.kind !== kind) return undefined;
  if (args.length === 1) {
    await session.requireFile(target, command);
    return { value: await read({ path: target, bytes: new Uint8Array(await readFile(target)) }, asset) };
  }
  const install = await session.open([args[0]!], { lockedIs: 'warning' });
  if (!install) return { value: undefined, failed: true };
  try {
    const file = install.file(target);
    if (!file) throw new UsageError(`no file "${target}" in ${args[0]}`, command);
    const winner = file.providers[0]!;
    return { value: await read({ path: file.path, bytes: await winner.archive.read(winner.file.ref) }, asset, install) };
  } finally {
    await install.close();
  }
}

/**
 * `pakscope registry <path>`: the assets an AssetRegistry.bin lists (of the install's registries,
 * or the one file given), with their class and tags; --all adds package data and dependencies.
 */
import { readFile } from 'node:fs/promises';
import { classMatches, registryJson } from '../../core/asset-registry/json.js';
import { isAssetRegistryPath, readInstallRegistries, type RegistryFile } from '../../core/asset-registry/install.js';
import { parseAssetRegistry } from '../../core/asset-registry/read.js';
import { JSON_OPTION, type Command } from '../command.js';
import { EXIT_BAD_INPUT } from '../session.js';
import { UsageError } from '../usage-error.js';

export const registryCommand: Command = {
  name: 'registry',
  args: '<path>',
  summary: 'List the assets of the asset registry (AssetRegistry.bin) with their class and tags',
  description: [
    'Reads every AssetRegistry.bin of the containers and folders of <path> (the game\'s and any',
    'a plugin ships), or the one file <path> names: every version from UE4.17 to UE6.0. Prints',
    'each asset\'s object path and class; --tags adds its tags. --class C keeps the assets of',
    'class C (its path /Script/Engine.Texture2D or its name Texture2D). A registry that does not',
    'read (an unknown version, a count past its end) is named with the reason on stderr (exit 2).',
    '',
    '--json prints {"version","versionName","assets":[{"object","class","package","tags":{}}]}',
    '(one object per registry, one per line); --all adds "packages" (disk size, hashes, file',
    'versions, imported classes) and "dependencies" (each node\'s package dependencies with their',
    'Hard/Game/Build properties, and its referencers).',
  ].join('\n'),
  examples: [
    'pakscope registry Paks --class Texture2D --tags',
    'pakscope registry Game/AssetRegistry.bin --json --all',
  ],
  options: {
    class: { type: 'string', usage: '--class C', help: 'Only assets of class C (path or name).' },
    tags: { type: 'boolean', usage: '--tags', help: 'Print each asset\'s tags under it.' },
    all: { type: 'boolean', usage: '--all', help: 'With --json: also package data and dependencies.' },
    json: JSON_OPTION,
  },
  positionals: { min: 1, max: 1 },

  async run(session, args, values) {
    const [path] = args as [string];
    const cls = values['class'];
    if (cls !== undefined && (typeof cls !== 'string' || cls === '')) throw new UsageError('--class takes a class name such as Texture2D or /Script/Engine.Texture2D', 'registry');
    let files: RegistryFile[];
    if (isAssetRegistryPath(path) || path.toLowerCase().endsWith('.bin')) {
      await session.requireFile(path, 'registry');
      try {
        files = [{ path, registry: parseAssetRegistry(new Uint8Array(await readFile(path)), path) }];
      } catch (e) {
        if (!(e instanceof Error) || e.name !== 'FormatError') throw e;
        files = [{ path, error: e.message }];
      }
    } else {
      const install = await session.open([path], { lockedIs: 'warning' });
      if (!install) return;
      try {
        files = await readInstallRegistries(install);
      } finally {
        await install.close();
      }
      if (files.length === 0) session.out.warn(`${path}: no AssetRegistry.bin`);
    }
    for (const f of files) {
      if (f.error) {
        session.out.warn(f.error.startsWith(f.path) ? f.error : `${f.path}: ${f.error}`);
        session.fail(EXIT_BAD_INPUT);
      }
      for (const w of f.registry?.warnings ?? []) session.out.warn(`${f.path}: ${w}`);
    }
    for (const f of files) {
      const reg = f.registry;
      if (!reg) continue;
      if (session.json) {
        await session.out.line(JSON.stringify(registryJson(reg, { ...(cls !== undefined ? { class: cls } : {}), full: values['all'] === true })));
        continue;
      }
      const assets = cls === undefined ? reg.assets : reg.assets.filter((a) => classMatches(a.class, cls));
      session.out.note(`${f.path}: ${reg.versionName} (version ${reg.version}), ${reg.assets.length} assets, ${reg.packages.length} packages, ${reg.dependencies.length} dependency nodes${cls !== undefined ? `; ${assets.length} of class ${cls}` : ''}`);
      const width = Math.min(100, Math.max(0, ...assets.map((a) => a.object.length)));
      for (const a of assets) {
        await session.out.line(`${a.object.padEnd(width)}  ${a.class}`);
        if (values['tags'] === true) for (const [k, v] of Object.entries(a.tags)) await session.out.line(`    ${k} = ${v}`);
      }
    }
  },
};

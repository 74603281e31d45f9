/**
 * `pakscope locres <path>`: the localized texts of an install's .locres files (every culture of
 * every localization target), or of one .locres file, by culture, namespace and key.
 */
import { readFile } from 'node:fs/promises';
import { gatherCultures, readInstallLocres, type LocresFile } from '../../core/assets/locres/install.js';
import { cultureOf, LocresVersion, parseLocres } from '../../core/assets/locres/read.js';
import { JSON_OPTION, type Command } from '../command.js';
import { EXIT_BAD_INPUT } from '../session.js';
import { UsageError } from '../usage-error.js';

export const locresCommand: Command = {
  name: 'locres',
  args: '<path>',
  summary: 'Print the localized texts of the .locres files, by culture, namespace and key',
  description: [
    'Reads every .locres file (Localization/<target>/<culture>/*.locres) of the containers and',
    'folders of <path>, or the one .locres file <path> names: every version (legacy, compact,',
    'optimized with CRC32 or CityHash64 hashes), UTF-16 and ASCII strings. --culture C keeps one',
    'culture (the folder the file is in: en, de, pt-BR). A file that does not read (a count or',
    'offset past its end) is named with the reason on stderr and the others are still printed',
    '(exit 2).',
    '',
    '--json prints {"cultures":{"<culture>":{"<namespace>":{"<key>":"<text>"}}}}.',
  ].join('\n'),
  examples: [
    'pakscope locres Paks --culture de',
    'pakscope locres Content/Localization/Game/en/Game.locres --json',
  ],
  options: {
    culture: { type: 'string', usage: '--culture C', help: 'Only the .locres files of culture C.' },
    json: JSON_OPTION,
  },
  positionals: { min: 1, max: 1 },

  async run(session, args, values) {
    const [path] = args as [string];
    const culture = values['culture'];
    if (culture !== undefined && (typeof culture !== 'string' || culture === '')) throw new UsageError('--culture takes a culture name such as en or pt-BR', 'locres');
    let files: LocresFile[];
    if (path.toLowerCase().endsWith('.locres')) {
      await session.requireFile(path, 'locres');
      const c = cultureOf(path);
      files = [{ path, culture: c, locres: parseLocres(new Uint8Array(await readFile(path)), path) }];
    } else {
      const install = await session.open([path], { lockedIs: 'warning' });
      if (!install) return;
      try {
        files = await readInstallLocres(install, culture);
      } finally {
        await install.close();
      }
      if (files.length === 0) session.out.warn(`${path}: no .locres files${culture !== undefined ? ` of culture ${culture}` : ''}`);
    }
    for (const f of files) {
      if (f.error) {
        session.out.warn(`${f.path}: ${f.error}`);
        session.fail(EXIT_BAD_INPUT);
      }
    }
    const cultures = gatherCultures(files);
    if (session.json) {
      await session.out.line(JSON.stringify({ cultures }));
      return;
    }
    for (const f of files) {
      if (f.locres) session.out.note(`${f.path}: ${f.culture}, ${LocresVersion[f.locres.version]}, ${f.locres.entries.length} entries`);
    }
    for (const [c, namespaces] of Object.entries(cultures)) {
      await session.out.line(c);
      for (const [ns, keys] of Object.entries(namespaces)) {
        await session.out.line(`  ${ns || '(no namespace)'}`);
        for (const [key, text] of Object.entries(keys)) await session.out.line(`    ${key} = ${JSON.stringify(text)}`);
      }
    }
  },
};

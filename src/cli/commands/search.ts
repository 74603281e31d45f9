/**
 * `pakscope search <path...> <text>`: where a text is used across an install: package paths,
 * name maps, export and import names, export classes, and string values (FString and FText
 * values, string tables, .locres entries, text files' lines).
 */
import { buildSearchIndex, SEARCH_GROUPS, type SearchGroup } from '../../core/search/index.js';
import { createWorkerPool } from '../../core/workers/pool.js';
import { JSON_OPTION, type Command } from '../command.js';
import { EXIT_BAD_INPUT } from '../session.js';
import { UsageError } from '../usage-error.js';

export const searchCommand: Command = {
  name: 'search',
  args: '<path...> <text>',
  summary: 'Find a text in package paths, names, classes and strings across the install',
  description: [
    'Indexes every file of <path> (in the worker threads) and prints each place <text> occurs,',
    'case-insensitively: the file as ls prints it, where in it, and the text found. Places:',
    '"path" (the file\'s own path), names[i] (its name map), exports[i] (an export\'s name),',
    'exports[i].class (its class path), imports[i] (an imported object\'s path), an export\'s name',
    'for a string in its data (FString and FText values, string table entries), culture/namespace/key',
    'for a .locres entry, "line N" for a line of a text file (.ini, .json, .txt, ...).',
    '--in paths,names,classes,strings keeps those kinds (default: all; names covers the name map,',
    'export and import names). --class C keeps packages with an export of exactly class C, a short',
    'name (Texture2D) or a path (/Script/Engine.Texture2D); with an empty <text> ("") every such',
    'package is listed. --regex reads <text> as a regular expression; --case matches case.',
    '',
    '--json prints {"matches":[{"path","where","text"}]}.',
  ].join('\n'),
  examples: [
    'pakscope search Paks Frankfurt --in strings',
    'pakscope search Paks "" --class Texture2D --in paths --json',
    'pakscope search Paks "^T_.*_N$" --regex --in names',
  ],
  options: {
    class: { type: 'string', usage: '--class C', help: 'Only packages with an export of class C (Texture2D or /Script/Engine.Texture2D).' },
    in: { type: 'string', usage: '--in KINDS', help: `Kinds to search, comma-separated: ${SEARCH_GROUPS.join(', ')} (default: all).` },
    regex: { type: 'boolean', usage: '--regex', help: 'Read <text> as a regular expression.' },
    case: { type: 'boolean', usage: '--case', help: 'Match case.' },
    json: JSON_OPTION,
  },
  positionals: { min: 2, max: Infinity },

  async run(session, args, values) {
    const paths = args.slice(0, -1);
    const text = args[args.length - 1]!;
    const groups = parseGroups(values['in']);
    const cls = values['class'];
    if (cls !== undefined && (typeof cls !== 'string' || cls.trim() === '')) throw new UsageError('--class takes a class name such as Texture2D or /Script/Engine.Texture2D', 'search');
    const regex = values['regex'] === true;
    if (regex) {
      try {
        new RegExp(text, 'u');
      } catch (e) {
        throw new UsageError(`${text}: not a regular expression (${(e as Error).message})`, 'search');
      }
    }
    const pool = createWorkerPool();
    try {
      const install = await session.open(paths, { decoder: pool });
      if (!install) return;
      try {
        const index = await buildSearchIndex(install, { pool, strings: groups.includes('strings') });
        for (const p of index.data.problems) {
          session.out.warn(`${p.path}: not searched: ${p.message}`);
          session.fail(EXIT_BAD_INPUT);
        }
        const matches = index.search({ text, in: groups, regex, caseSensitive: values['case'] === true, ...(typeof cls === 'string' ? { class: cls.trim() } : {}) });
        if (session.json) {
          const list = [...matches].map((m) => ({ path: m.path, where: m.where, text: m.text }));
          await session.out.line(`{"matches":[${list.map((m) => JSON.stringify(m)).join(',\n')}]}`);
          return;
        }
        let n = 0;
        for (const m of matches) {
          await session.out.line(`${m.path}  ${m.where}  ${JSON.stringify(m.text)}`);
          n++;
        }
        session.out.note(`${n} match${n === 1 ? '' : 'es'} in ${index.fileCount} files`);
      } finally {
        await install.close();
      }
    } finally {
      await pool.destroy();
    }
  },
};

function parseGroups(v: unknown): SearchGroup[] {
  if (v === undefined) return [...SEARCH_GROUPS];
  const parts = String(v).split(',').map((s) => s.trim().toLowerCase()).filter((s) => s !== '');
  const bad = parts.filter((p) => !(SEARCH_GROUPS as readonly string[]).includes(p));
  if (parts.length === 0 || bad.length > 0) {
    throw new UsageError(`--in takes kinds from ${SEARCH_GROUPS.join(', ')}, comma-separated${bad.length > 0 ? `, not ${bad.join(', ')}` : ''}`, 'search');
  }
  return parts as SearchGroup[];
}

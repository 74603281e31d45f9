// Every filter example the user is shown (the tree's filter box placeholder, the CLI help, the
// README) is collected from its source and run against a real install: each must select files,
// and exactly the files its plain-text reading says (checked here without the glob matcher).
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openInstall, type Install } from '../../src/core/install/install.js';
import { compilePathFilter } from '../../src/core/install/path-filter.js';
import { COMMANDS } from '../../src/cli/run.js';
import { commandHelp, mainHelp } from '../../src/cli/help.js';
import { corpus } from '../support/corpus.js';
import { ROOT } from '../cli/run-cli.js';

/** Placeholders of the renderer's inputs that offer glob examples: "... glob (A, B)". */
function placeholderExamples(): string[] {
  const found: string[] = [];
  const walk = (dir: string): void => {
    for (const e of readdirSync(dir, { withFileTypes: true })) {
      const p = join(dir, e.name);
      if (e.isDirectory()) walk(p);
      else if (/\.(svelte|ts)$/.test(e.name)) {
        for (const m of readFileSync(p, 'utf8').matchAll(/placeholder="[^"]*glob[^"]*\(([^)"]*)\)/gi)) {
          found.push(...m[1]!.split(',').map((s) => s.trim()).filter((s) => s !== ''));
        }
      }
    }
  };
  walk(join(ROOT, 'src/renderer/src'));
  return found;
}

/** Every `--filter X` / `--filter "X"` of the command lines ("pakscope ...") in a text. */
function filterArgs(text: string): string[] {
  const commands = text.split('\n').filter((l) => /^\s*pakscope /.test(l)).join('\n');
  return [...commands.matchAll(/--filter (?:"([^"]+)"|'([^']+)'|([^\s"'`]+))/g)]
    .map((m) => m[1] ?? m[2] ?? m[3]!);
}

const helpText = [mainHelp(COMMANDS), ...COMMANDS.map(commandHelp)].join('\n');
const readme = readFileSync(join(ROOT, 'README.md'), 'utf8');

const EXAMPLES: { source: string; filter: string }[] = [
  ...placeholderExamples().map((filter) => ({ source: 'filter box placeholder', filter })),
  ...filterArgs(helpText).map((filter) => ({ source: 'CLI help', filter })),
  ...filterArgs(readme).map((filter) => ({ source: 'README', filter })),
];

/**
 * What an example means, read without the matcher: the literal pieces between wildcards, the
 * last one ending the path when the example ends in one (".umap" and "T_*" read as a name).
 * A path matching the glob has those pieces, in order, at or after a folder boundary.
 */
function plausible(filter: string, path: string): boolean {
  const p = path.toLowerCase();
  const pieces = filter.toLowerCase().replace(/^\//, '').split(/[*?]+/);
  if (!/[*?]/.test(filter)) return p.includes(pieces[0]!);
  let at = pieces[0] === '' ? 0 : p.startsWith(pieces[0]!) ? pieces[0]!.length : p.indexOf('/' + pieces[0]!) + 1 + pieces[0]!.length;
  if (pieces[0] !== '' && at <= pieces[0]!.length && !p.startsWith(pieces[0]!)) return false;
  for (const piece of pieces.slice(1)) {
    const i = p.indexOf(piece, at);
    if (i < 0) return false;
    at = i + piece.length;
  }
  return pieces.at(-1) === '' || p.endsWith(pieces.at(-1)!);
}

describe('every filter example shown to the user selects files', () => {
  let install: Install;
  let paths: string[];
  beforeAll(async () => {
    install = await openInstall([corpus('cue58/IoStore/Tagged/Zlib')]);
    paths = [...install.files()].map((f) => f.path);
  });
  afterAll(() => install.close());

  it('finds the examples in their sources', () => {
    const sources = new Set(EXAMPLES.map((e) => e.source));
    expect([...sources].sort()).toEqual(['CLI help', 'README', 'filter box placeholder']);
    expect(EXAMPLES.map((e) => e.filter)).toEqual(expect.arrayContaining(['*.uasset', 'Content/**/T_*', '*/Maps/**']));
  });

  it.each(EXAMPLES)('$source: $filter', ({ filter }) => {
    const matches = compilePathFilter(filter);
    const hits = paths.filter((p) => matches(p.toLowerCase()));
    expect(hits.length, `${filter} selects nothing`).toBeGreaterThan(0);
    for (const h of hits) expect(plausible(filter, h), `${filter} selected ${h}`).toBe(true);
  });

  it('the placeholder examples select what they say, counted without the matcher', () => {
    const count = (f: string): number => paths.filter((p) => compilePathFilter(f)(p.toLowerCase())).length;
    expect(count('*.uasset')).toBe(paths.filter((p) => p.endsWith('.uasset')).length);
    expect(count('Content/**/T_*')).toBe(paths.filter((p) => /\/Content\//.test(p) && p.split('/').at(-1)!.startsWith('T_')).length);
    expect(count('*/Maps/**')).toBe(paths.filter((p) => p.includes('/Maps/')).length);
    expect(count('/CUE4ParseFixtures/Content/Fixtures/Maps/*')).toBe(7);
    expect(count('/Content/**')).toBe(0); // anchored at the root, where there is no Content folder
  });
});

/** The text of `pakscope --help` and `pakscope <command> --help` (the README shows the first). */
import { COMMON_OPTIONS, type Command, type OptionSpec } from './command.js';

const WIDTH = 100;

export function mainHelp(commands: readonly Command[]): string {
  const usages = commands.map((c) => [`${c.name} ${c.args}`, c.summary] as [string, string]);
  return [
    'Usage: pakscope <command> [options]',
    '',
    'Browse Unreal Engine game files from the command line: IoStore containers (.utoc/.ucas) and',
    '.pak archives, merged into one mount-point tree as the engine mounts them.',
    '',
    'Commands:',
    ...table(usages),
    '',
    'A <path> is a container (.utoc), an archive (.pak), a loose package file or a folder, which is',
    'searched for .utoc and .pak files and loose packages (.uasset, .umap, .u, ...). <file> is a',
    'path as ls prints it; a [package] is that, a package name (/Game/Maps/Entry), its short name',
    '(Entry) when one package has it, or a package id.',
    'Where containers hold the same file, a _P patch wins over its base and a higher _N_P over a',
    'lower one.',
    '',
    'Options of every command:',
    ...optionTable(COMMON_OPTIONS),
    '',
    'pakscope --version prints the version; pakscope <command> --help describes a command.',
    '',
    'Exit codes:',
    ...table([
      ['0', 'everything was read (and verified)'],
      ['2', 'bad input: a malformed key or argument, a truncated or corrupt file, a failed hash, a missing .ucas or partition the command needs, a locked container'],
      ['1', 'a failure of PakScope itself or of the system'],
    ]),
    '',
  ].join('\n');
}

export function commandHelp(c: Command): string {
  return [
    `Usage: pakscope ${c.name} ${c.args} [options]`,
    '',
    c.summary + '.',
    '',
    c.description,
    '',
    'Options:',
    ...optionTable({ ...c.options, ...COMMON_OPTIONS }),
    '',
    'Examples:',
    ...c.examples.map((e) => `  ${e}`),
    '',
  ].join('\n');
}

function optionTable(options: Record<string, OptionSpec>): string[] {
  return table(Object.values(options).map((o) => [o.usage, o.help]));
}

/** Two columns; the second wrapped to WIDTH and indented under itself. */
function table(rows: [string, string][]): string[] {
  const left = Math.max(...rows.map(([l]) => l.length)) + 4;
  const lines: string[] = [];
  for (const [l, r] of rows) {
    const wrapped = wrap(r, WIDTH - left);
    lines.push(`  ${l.padEnd(left - 2)}${wrapped[0] ?? ''}`);
    for (const more of wrapped.slice(1)) lines.push(`${' '.repeat(left)}${more}`);
  }
  return lines;
}

function wrap(text: string, width: number): string[] {
  const lines: string[] = [];
  let line = '';
  for (const word of text.split(/\s+/)) {
    if (line && line.length + 1 + word.length > width) {
      lines.push(line);
      line = word;
    } else {
      line = line ? `${line} ${word}` : word;
    }
  }
  if (line) lines.push(line);
  return lines;
}

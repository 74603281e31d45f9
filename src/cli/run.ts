/**
 * The command line. Parses the arguments (node:util parseArgs), runs one command and
 * sets the exit code: 0 when everything was read, 2 for bad input of any kind, 1 for PakScope's
 * own failures. Errors are one line on stderr (the stack only with --debug); under --json also
 * {"error": "..."} on stdout.
 */
import { parseArgs, type ParseArgsConfig } from 'node:util';
import { isInputError } from '../core/errors.js';
import { systemErrorText } from '../core/system-error.js';
import { KeyRing } from '../core/crypto/keys.js';
import { version } from '../../package.json';
import { COMMON_OPTIONS, type Command, type OptionValues } from './command.js';
import { catCommand } from './commands/cat.js';
import { depsCommand } from './commands/deps.js';
import { diffCommand } from './commands/diff.js';
import { extractCommand } from './commands/extract.js';
import { infoCommand } from './commands/info.js';
import { locresCommand } from './commands/locres.js';
import { registryCommand } from './commands/registry.js';
import { lsCommand } from './commands/ls.js';
import { propsCommand } from './commands/props.js';
import { tableCommand } from './commands/table.js';
import { materialCommand } from './commands/material.js';
import { levelCommand } from './commands/level.js';
import { landscapeCommand } from './commands/landscape.js';
import { effectCommand } from './commands/effect.js';
import { sequenceCommand } from './commands/sequence.js';
import { textureCommand } from './commands/texture.js';
import { audioCommand } from './commands/audio.js';
import { meshCommand } from './commands/mesh.js';
import { thumbnailCommand } from './commands/thumbnail.js';
import { searchCommand } from './commands/search.js';
import { treeCommand } from './commands/tree.js';
import { verifyCommand } from './commands/verify.js';
import { scriptCommand } from './commands/script.js';
import { commandHelp, mainHelp } from './help.js';
import { BrokenPipe, Output } from './output.js';
import { EXIT_BAD_INPUT, EXIT_INTERNAL, EXIT_OK, Session } from './session.js';
import { UsageError } from './usage-error.js';

export const COMMANDS: readonly Command[] = [
  lsCommand, treeCommand, infoCommand, catCommand, extractCommand, verifyCommand, depsCommand, thumbnailCommand, propsCommand, tableCommand, scriptCommand, materialCommand, levelCommand, landscapeCommand, effectCommand, sequenceCommand, locresCommand, registryCommand, textureCommand, audioCommand, meshCommand, diffCommand,
  searchCommand,
];

export async function runCli(argv: string[], out = new Output()): Promise<number> {
  const code = await runCommand(argv, out);
  try {
    await out.flush();
    return code;
  } catch (e) {
    if (e instanceof BrokenPipe) return code;
    return reportFailure(out, e, undefined, false, argv.includes('--debug'));
  }
}

async function runCommand(argv: string[], out: Output): Promise<number> {
  // Before parsing: errors in parsing need these too. Nothing after "--" is an option.
  const options = argv.includes('--') ? argv.slice(0, argv.indexOf('--')) : argv;
  const json = options.includes('--json');
  const debug = options.includes('--debug');
  let command: Command | undefined;
  let session: Session | undefined;
  try {
    const [first, ...rest] = argv;
    if (first === undefined) {
      out.note(mainHelp(COMMANDS));
      return EXIT_BAD_INPUT;
    }
    if (first === '--help' || first === '-h' || first === 'help') {
      const about = rest[0] === undefined ? undefined : findCommand(rest[0]);
      await out.text(about ? commandHelp(about) : mainHelp(COMMANDS));
      return EXIT_OK;
    }
    if (first === '--version' || first === '-v') {
      await out.line(version);
      return EXIT_OK;
    }
    command = findCommand(first);
    if (options.includes('--help') || options.includes('-h')) {
      await out.text(commandHelp(command));
      return EXIT_OK;
    }
    const { positionals, values } = parseCommandArgs(command, rest);
    const keys = KeyRing.fromArgs((values['aes-key'] as string[] | undefined) ?? []);
    session = new Session(out, keys, json, debug);
    await command.run(session, positionals, values);
    await out.flush();
    return session.exitCode;
  } catch (e) {
    // The reader went away: not a failure of ours or of the input; keep what the run had earned.
    if (e instanceof BrokenPipe) return session?.exitCode ?? EXIT_OK;
    return reportFailure(out, e, command, json, debug);
  }
}

function findCommand(name: string): Command {
  const c = COMMANDS.find((x) => x.name === name);
  if (!c) {
    const what = name.startsWith('-') ? `option "${name}" before a command` : `unknown command "${name}"`;
    throw new UsageError(`${what}; the commands are ${COMMANDS.map((x) => x.name).join(', ')}`);
  }
  return c;
}

function parseCommandArgs(c: Command, args: string[]): { positionals: string[]; values: OptionValues } {
  const options: NonNullable<ParseArgsConfig['options']> = {};
  for (const [name, o] of Object.entries({ ...COMMON_OPTIONS, ...c.options })) {
    options[name] = { type: o.type, ...(o.multiple ? { multiple: true } : {}), ...(o.short ? { short: o.short } : {}) };
  }
  let parsed;
  try {
    parsed = parseArgs({ args, options, allowPositionals: true, strict: true });
  } catch (e) {
    // parseArgs explains itself ("Unknown option '--x'"); keep its words, drop its advice.
    throw new UsageError(String((e as Error).message).split('. To specify')[0]!.replace(/\.$/, ''), c.name);
  }
  const { positionals, values } = parsed;
  const { min, max } = c.positionals;
  if (positionals.length < min || positionals.length > max) {
    const expected = min === max ? `${min}` : max === Infinity ? `at least ${min}` : `${min} or ${max}`;
    throw new UsageError(`takes ${expected} argument(s) (${c.args}), not ${positionals.length}`, c.name);
  }
  return { positionals, values: values as OptionValues };
}

async function reportFailure(out: Output, e: unknown, command: Command | undefined, json: boolean, debug: boolean): Promise<number> {
  const usage = e instanceof UsageError;
  const code = usage || isInputError(e) ? EXIT_BAD_INPUT : EXIT_INTERNAL;
  // A system error (ENOENT on the output's folder) in PakScope's words, not Node's.
  let message = systemErrorText(e).replace(/\s*\n\s*/g, ' ');
  if (usage) message = `${command ? `${command.name}: ` : ''}${message} (see pakscope ${command ? `${command.name} ` : ''}--help)`;
  // A system error (ENOSPC, EIO) explains itself; anything else is a bug of ours.
  else if (code === EXIT_INTERNAL && !debug && !(e as NodeJS.ErrnoException).code) message += ' (a PakScope failure; --debug shows where)';
  out.error(message);
  if (debug && e instanceof Error && e.stack) out.note(e.stack);
  if (json) await out.line(JSON.stringify({ error: message })).then(() => out.flush()).catch(() => undefined);
  return code;
}

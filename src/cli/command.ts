/** The shape of one `pakscope <command>`: its help, its options and what it does. */
import type { Session } from './session.js';

export interface OptionSpec {
  type: 'string' | 'boolean';
  multiple?: boolean;
  short?: string;
  /** "--depth N" as the help shows it, and what it does. */
  usage: string;
  help: string;
}

export type OptionValues = Record<string, string | boolean | (string | boolean)[] | undefined>;

export interface Command {
  name: string;
  /** Arguments as the usage line shows them: "<path...>". */
  args: string;
  /** One line for `pakscope --help`. */
  summary: string;
  /** Paragraphs after the usage line of `pakscope <command> --help`. */
  description: string;
  examples: string[];
  /** Options of this command besides the common ones. */
  options: Record<string, OptionSpec>;
  positionals: { min: number; max: number };
  run(session: Session, positionals: string[], values: OptionValues): Promise<void>;
}

/** Options every command takes. */
export const COMMON_OPTIONS: Record<string, OptionSpec> = {
  'aes-key': {
    type: 'string',
    multiple: true,
    usage: '--aes-key KEY',
    help: 'AES-256 key: 64 hex digits (0x optional) or base64 of 32 bytes; GUID:KEY uses it only for containers with that key GUID. Repeatable.',
  },
  debug: { type: 'boolean', usage: '--debug', help: 'Print the stack trace of an error.' },
  help: { type: 'boolean', short: 'h', usage: '-h, --help', help: 'Show this help.' },
};

export const JSON_OPTION: OptionSpec = { type: 'boolean', usage: '--json', help: 'Print JSON on stdout.' };

/** --usmap FILE as the commands that read an asset's properties take it (parsed by props.ts's loadMappings). */
export const USMAP_OPTION: OptionSpec = { type: 'string', usage: '--usmap FILE', help: 'Mappings (.usmap) to read unversioned packages with.' };

/** --filter as ls and extract take it (core/install/path-filter.ts). */
export function filterOption(what: string): OptionSpec {
  return { type: 'string', multiple: true, usage: '--filter GLOB', help: `${what} only files matching GLOB (or containing the text). Repeatable.` };
}

/** The --filter values given, empty ones dropped. */
export function filterValues(values: OptionValues): string[] {
  return ((values['filter'] as string[] | undefined) ?? []).filter((f) => f !== '');
}

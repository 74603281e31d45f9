/**
 * UnrealScript (UE1/2 .uc source, as a .u package's ScriptText holds it) for the Monaco text
 * view: a Monarch tokenizer, case-insensitive as the language is. Keywords, types, comments,
 * strings, 'names', numbers and #exec directives; defaultproperties reads as code.
 */
import type * as Monaco from 'monaco-editor/esm/vs/editor/editor.api';

export const UNREALSCRIPT_ID = 'unrealscript';

const KEYWORDS = [
  'abstract', 'assert', 'auto', 'break', 'case', 'class', 'coerce', 'collapsecategories', 'config', 'const', 'continue',
  'cpptext', 'default', 'defaultproperties', 'dependson', 'deprecated', 'do', 'editconst', 'editinline', 'else', 'enum',
  'event', 'exec', 'export', 'extends', 'final', 'for', 'foreach', 'function', 'globalconfig', 'goto', 'hidecategories',
  'if', 'ignores', 'input', 'iterator', 'latent', 'local', 'localized', 'native', 'nativereplication', 'new', 'noexport',
  'operator', 'optional', 'out', 'perobjectconfig', 'placeable', 'postoperator', 'preoperator', 'private', 'protected',
  'public', 'reliable', 'replication', 'return', 'safereplace', 'simulated', 'singular', 'skip', 'state', 'static',
  'struct', 'switch', 'transient', 'travel', 'unreliable', 'until', 'var', 'while', 'within',
];
const TYPES = ['array', 'bool', 'byte', 'float', 'int', 'name', 'string', 'pointer', 'plane', 'rotator', 'vector', 'coords', 'color', 'object', 'actor'];
const CONSTANTS = ['none', 'self', 'super', 'global', 'true', 'false', 'default', 'static'];

export const unrealScriptLanguage: Monaco.languages.IMonarchLanguage = {
  ignoreCase: true,
  defaultToken: '',
  keywords: KEYWORDS,
  typeKeywords: TYPES,
  constants: CONSTANTS,
  operators: ['=', '>', '<', '!', '~', '?', ':', '==', '<=', '>=', '!=', '~=', '&&', '||', '^^', '++', '--', '+', '-', '*', '/', '&', '|', '^', '%', '<<', '>>', '>>>', '+=', '-=', '*=', '/=', '$', '@', '$=', '@='],
  symbols: /[=><!~?:&|+\-*/^%$@]+/,
  tokenizer: {
    root: [
      [/^\s*#\w+.*$/, 'keyword.directive'],
      [/[a-z_]\w*/, { cases: { '@keywords': 'keyword', '@typeKeywords': 'type', '@constants': 'constant', '@default': 'identifier' } }],
      { include: '@whitespace' },
      [/[{}()[\]]/, '@brackets'],
      [/@symbols/, { cases: { '@operators': 'operator', '@default': '' } }],
      [/\d*\.\d+([e][-+]?\d+)?f?/, 'number.float'],
      [/0x[0-9a-f]+/, 'number.hex'],
      [/\d+/, 'number'],
      [/[;,.]/, 'delimiter'],
      [/"([^"\\]|\\.)*$/, 'string.invalid'],
      [/"/, 'string', '@string'],
      [/'[^']*'/, 'string.name'],
    ],
    whitespace: [
      [/[ \t\r\n]+/, ''],
      [/\/\*/, 'comment', '@comment'],
      [/\/\/.*$/, 'comment'],
    ],
    comment: [
      [/[^/*]+/, 'comment'],
      [/\*\//, 'comment', '@pop'],
      [/[/*]/, 'comment'],
    ],
    string: [
      [/[^\\"]+/, 'string'],
      [/\\./, 'string.escape'],
      [/"/, 'string', '@pop'],
    ],
  },
};

export const unrealScriptConfiguration: Monaco.languages.LanguageConfiguration = {
  comments: { lineComment: '//', blockComment: ['/*', '*/'] },
  brackets: [['{', '}'], ['[', ']'], ['(', ')']],
  autoClosingPairs: [{ open: '{', close: '}' }, { open: '[', close: ']' }, { open: '(', close: ')' }, { open: '"', close: '"' }],
  folding: { markers: { start: /^\s*\/\/\s*#?region\b/, end: /^\s*\/\/\s*#?endregion\b/ } },
};

/** Registers the language with a Monaco instance (once). */
export function registerUnrealScript(monaco: typeof Monaco): void {
  if (monaco.languages.getLanguages().some((l) => l.id === UNREALSCRIPT_ID)) return;
  monaco.languages.register({ id: UNREALSCRIPT_ID, extensions: ['.uc', '.uci'], aliases: ['UnrealScript'] });
  monaco.languages.setMonarchTokensProvider(UNREALSCRIPT_ID, unrealScriptLanguage);
  monaco.languages.setLanguageConfiguration(UNREALSCRIPT_ID, unrealScriptConfiguration);
}

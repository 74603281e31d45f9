/**
 * `pakscope props <path> [package]`: the properties of every export of a package (core/properties),
 * as an indented tree or as JSON. Unversioned properties need the game's mappings (--usmap).
 */
import { readFile } from 'node:fs/promises';
import { isContainerFile } from '../../core/install/scan.js';
import { InstallPackages } from '../../core/package/open-package.js';
import { COMPANION_EXTENSIONS, extensionOf } from '../../core/package/package-files.js';
import { installPackageProperties, packageFileProperties, type OpenedProperties } from '../../core/properties/open.js';
import type { ExportProperties, PropertyEntry, PropertyValue, PropsJson } from '../../core/properties/types.js';
import { parseUsmap } from '../../core/usmap/parse.js';
import type { Usmap } from '../../core/usmap/types.js';
import { JSON_OPTION, type Command, type OptionValues } from '../command.js';
import type { Session } from '../session.js';
import { EXIT_BAD_INPUT } from '../session.js';
import { UsageError } from '../usage-error.js';
import { ENGINE_OPTION, packageOptions } from './info.js';

export const propsCommand: Command = {
  name: 'props',
  args: '<path> [package]',
  summary: 'Print the properties of every export of a package',
  description: [
    'Reads the property stream each export of a package starts with and prints it as a tree:',
    'name, type and value, structs, arrays, sets and maps nested. <path> alone is a package file',
    '(.uasset or .umap with the .uexp beside it, a UE1/2 package, a Zen package saved as a file);',
    '<path> [package] names a package inside the containers and folders of <path> as info names it.',
    'Tagged properties (editor packages, cooked UE4 before 4.23, packages cooked with tags) need',
    'nothing more; unversioned ones (most cooked UE4.23+ and IoStore packages) need the game\'s',
    'mappings: --usmap FILE (any .usmap version; stored, Oodle, Brotli or Zstd compressed). A',
    'value of an unknown type is kept as hex; an export whose stream cannot be read to its end',
    'gets an error and the others are still read (exit 2).',
    '',
    '--json prints {"exports":[{"name","class","properties":[{"name","type","value"}],',
    '"propertyBytes","serialSize","error"}]}: integers and floats are numbers (64-bit integers past',
    '2^53 are strings), structs read property by property are nested lists, native structs',
    'objects, arrays and sets lists, maps lists of {"key","value"}; propertyBytes is where the',
    'property stream ends (through its terminator), the export\'s native data follows.',
  ].join('\n'),
  examples: [
    'pakscope props Content/Data/DA_Items.uasset',
    'pakscope props Paks /Game/Data/DA_Items --usmap Game.usmap --json',
  ],
  options: {
    usmap: { type: 'string', usage: '--usmap FILE', help: 'Mappings (.usmap) to read unversioned properties with.' },
    engine: ENGINE_OPTION,
    json: JSON_OPTION,
  },
  positionals: { min: 1, max: 2 },

  async run(session, args, values) {
    const opts = { ...packageOptions(values), ...(await loadMappings(values)) };
    let opened: OpenedProperties;
    if (args.length === 2) {
      const install = await session.open([args[0]!], { lockedIs: 'warning' });
      if (!install) return;
      const packages = new InstallPackages(install);
      try {
        opened = await installPackageProperties(packages, args[1]!, opts);
      } finally {
        await packages.close();
        await install.close();
      }
    } else {
      const [path] = args as [string];
      await session.requireFile(path, 'props');
      if (isContainerFile(path)) throw new UsageError(`${path} is a container: name the package inside it too (props <path> <package>)`, 'props');
      if (COMPANION_EXTENSIONS.includes(extensionOf(path))) {
        throw new UsageError(`${path} holds data of the package beside it: name its .uasset or .umap`, 'props');
      }
      opened = await packageFileProperties(path, opts);
    }
    for (const w of opened.warnings) session.out.warn(`${opened.path}: ${w}`);
    const exports = opened.properties.exports;
    if (exports.some((e) => e.error !== null)) session.fail(EXIT_BAD_INPUT);
    if (exports.some((e) => e.encoding === 'unversioned' && e.notes?.some((n) => n.includes('mappings')))) {
      session.out.warn(`${opened.path}: the properties are unversioned: pass the game's mappings with --usmap FILE to read them`);
    }
    if (session.json) {
      await session.out.line(JSON.stringify(propsJson(exports)));
      return;
    }
    await printTree(session, opened.properties.package, exports);
  },
};

/** --usmap FILE parsed, for the commands that take it. */
export async function loadMappings(values: OptionValues, command = 'props'): Promise<{ mappings?: Usmap }> {
  const file = values['usmap'];
  if (file === undefined) return {};
  if (typeof file !== 'string' || file === '') throw new UsageError('--usmap takes a mappings file (.usmap)', command);
  return { mappings: parseUsmap(new Uint8Array(await readFile(file)), file) };
}

export function propsJson(exports: readonly ExportProperties[]): PropsJson {
  return {
    exports: exports.map((e) => ({
      name: e.name, class: e.class, properties: e.properties, propertyBytes: e.propertyBytes, serialSize: e.serialSize,
      error: e.error, propertyStart: e.propertyStart, encoding: e.encoding, ...(e.notes ? { notes: e.notes } : {}),
    })),
  };
}

// ---- the text tree ------------------------------------------------------------------------

/** Values shorter than this print on their property's line. */
const INLINE_WIDTH = 100;

async function printTree(session: Session, pkg: string, exports: readonly ExportProperties[]): Promise<void> {
  const out = session.out;
  await out.line(pkg);
  for (const e of exports) {
    const where = e.encoding === 'none' ? `${e.serialSize} bytes` : `properties ${e.propertyStart}..${e.propertyStart + e.propertyBytes} of ${e.serialSize} bytes, ${e.encoding}`;
    await out.line(`${e.name} (${e.class}): ${where}`);
    for (const n of e.notes ?? []) await out.line(`  note: ${n}`);
    for (const p of e.properties) await printEntry(session, p, 1);
    if (e.error) await out.line(`  error: ${e.error}`);
  }
}

function isEntryList(v: PropertyValue): v is PropertyEntry[] {
  return Array.isArray(v) && v.length > 0 && v.every((x) => x !== null && typeof x === 'object' && !Array.isArray(x) && 'name' in x && 'type' in x && 'value' in x);
}

/** A value on one line: JSON for scalars, {a: 1, b: 2} for small objects and lists. */
function inline(v: PropertyValue): string | undefined {
  if (v === null || typeof v !== 'object') return JSON.stringify(v);
  if (isEntryList(v)) return undefined;
  const text = Array.isArray(v)
    ? `[${v.map((x) => inline(x) ?? '…').join(', ')}]`
    : `{${Object.entries(v).map(([k, x]) => `${k}: ${inline(x) ?? '…'}`).join(', ')}}`;
  return text.length <= INLINE_WIDTH && !text.includes('…') ? text : undefined;
}

async function printEntry(session: Session, p: PropertyEntry, depth: number): Promise<void> {
  const label = `${p.name}${p.arrayIndex !== undefined ? `[${p.arrayIndex}]` : ''} (${p.type})`;
  await printValue(session, label, p.value, depth, p.raw ? ` ${p.note ?? 'raw'}` : p.note ? `  (${p.note})` : '');
}

async function printValue(session: Session, label: string, v: PropertyValue, depth: number, suffix = ''): Promise<void> {
  const pad = '  '.repeat(depth);
  const one = inline(v);
  if (one !== undefined) {
    await session.out.line(`${pad}${label} = ${one}${suffix}`);
    return;
  }
  if (isEntryList(v)) {
    await session.out.line(`${pad}${label}${suffix}`);
    for (const p of v) await printEntry(session, p, depth + 1);
    return;
  }
  if (Array.isArray(v)) {
    await session.out.line(`${pad}${label} [${v.length}]${suffix}`);
    for (const [i, x] of v.entries()) {
      if (isMapEntry(x)) {
        await printValue(session, `[${inline(x.key) ?? i}]`, x.value, depth + 1);
      } else {
        await printValue(session, `[${i}]`, x, depth + 1);
      }
    }
    return;
  }
  await session.out.line(`${pad}${label}${suffix}`);
  for (const [k, x] of Object.entries(v as Record<string, PropertyValue>)) await printValue(session, k, x, depth + 1);
}

function isMapEntry(x: PropertyValue): x is { key: PropertyValue; value: PropertyValue } {
  return x !== null && typeof x === 'object' && !Array.isArray(x) && Object.keys(x).length === 2 && 'key' in x && 'value' in x;
}

/**
 * `pakscope script <path> [package]`: a Blueprint's functions (events, functions, the
 * ubergraph) with their flags, parameters and bytecode decoded into pseudo-code (core/kismet).
 */
import { readBlueprintScript, sizesMatch, type BlueprintScript } from '../../core/kismet/read.js';
import { codeLines, propertyType, scriptText, signature, ubergraphEntries } from '../../core/kismet/text.js';
import type { ConvertOptions } from '../../core/assets/registry.js';
import { JSON_OPTION, type Command, USMAP_OPTION } from '../command.js';
import { withAssetPackage } from '../asset-package.js';
import { EXIT_BAD_INPUT } from '../session.js';
import { ENGINE_OPTION, packageOptions } from './info.js';
import { loadMappings } from './props.js';

export const scriptCommand: Command = {
  name: 'script',
  args: '<path> [package]',
  summary: 'Print a Blueprint\'s functions as pseudo-code decoded from their bytecode',
  description: [
    'Reads every function of a Blueprint package (a package file, or a package inside the',
    'containers and folders of <path>): its flags, parameters and locals, and its bytecode',
    '(Kismet script, UE4.0 to UE5.8) decoded into pseudo-code: calls with their function and',
    'arguments, assignments, `if not (...) goto L_xxxx` for branches, labels where jumps land',
    '(in-memory offsets, as the engine counts them) and the ubergraph\'s entry points named by',
    'the events that jump in. Each function\'s code is checked against both sizes the package',
    'stores (in memory and on disk); a function that does not decode is named with the reason',
    'and the byte offset on stderr (exit 2). Unversioned packages read without --usmap: a',
    'function has no properties of its own. UE5.8 packages: give --engine 5.8 (5.7 and 5.8',
    'write the same versions; 5.7\'s layout is tried first).',
    '',
    '--json prints {"package","functions":[{"name","flags","signature","params":[{"name",',
    '"type"}],"locals","bytecodeSize","storageSize","sizesMatch","code":[lines],"error"}]}',
    '(code: the lines the text prints, entry labels included).',
  ].join('\n'),
  examples: [
    'pakscope script Paks /Game/ThirdPerson/Blueprints/BP_ThirdPersonCharacter',
    'pakscope script Content/BP_Door.uasset --json',
  ],
  options: {
    usmap: USMAP_OPTION,
    engine: ENGINE_OPTION,
    json: JSON_OPTION,
  },
  positionals: { min: 1, max: 2 },

  async run(session, args, values) {
    const opts: ConvertOptions = { ...packageOptions(values), ...(await loadMappings(values, 'script')) };
    const script = await withAssetPackage(session, args, opts, 'script', ({ source }) => readBlueprintScript(source, opts));
    if (!script) return;
    let failed = false;
    for (const f of script.functions) {
      if (f.error !== undefined) {
        session.out.warn(`${script.path}: function "${f.name}": ${f.error}`);
        failed = true;
      }
    }
    if (script.functions.length === 0) session.out.note(`note: ${script.path} holds no functions`);
    if (session.json) await session.out.line(JSON.stringify(scriptJson(script)));
    else await session.out.line(scriptText(script).replace(/\n+$/, ''));
    if (failed) session.fail(EXIT_BAD_INPUT);
  },
};

export function scriptJson(s: BlueprintScript): unknown {
  const entries = ubergraphEntries(s);
  return {
    package: s.package,
    functions: s.functions.map((f) => ({
      name: f.name,
      flags: f.flags,
      signature: signature(f),
      params: f.params.map((p) => ({ name: p.name, type: propertyType(p) })),
      locals: f.locals.map((p) => ({ name: p.name, type: propertyType(p) })),
      ...(f.data ? {
        bytecodeSize: f.data.bytecodeSize, storageSize: f.data.storageSize, sizesMatch: sizesMatch(f.data),
        code: codeLines(f, entries),
      } : {}),
      ...(f.error !== undefined ? { error: f.error } : {}),
    })),
  };
}

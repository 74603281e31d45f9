/**
 * `pakscope deps <path> <package>`: which packages a package needs and which need it, from the
 * install's dependency graph (core/graph): IoStore container headers, no package parsed; classic
 * packages (paks, loose folders) by their import maps.
 */
import { buildDependencyGraph, nameImportedPackages } from '../../core/graph/build-graph.js';
import type { DependencyGraph, GraphStep } from '../../core/graph/dependency-graph.js';
import { InstallPackages, PackageLookupError } from '../../core/package/open-package.js';
import { JSON_OPTION, type Command } from '../command.js';
import { plural } from '../../shared/format.js';
import type { Session } from '../session.js';
import { UsageError } from '../usage-error.js';

export const depsCommand: Command = {
  name: 'deps',
  args: '<path> <package>',
  summary: 'Show what a package imports and what imports it, N levels deep',
  description: [
    'Lists the packages <package> depends on (imports) and the packages that depend on it, in',
    'the containers and folders of <path>. <package> is a package name (/Game/Maps/Entry), a path',
    'as ls prints it, or a package id (16 hex digits). IoStore installs answer from their container',
    'headers alone; classic packages (.uasset in a .pak or a folder, UE1/2 packages) are read for',
    'their import maps. Packages the install does not name show as their package id.',
    '',
    '--depth N follows each direction N levels (default 1; "all" for everything reachable); each',
    'package is listed once, at the level it is first reached, level by level, by name within a',
    'level. --json prints {"package","dependsOn":[{"package","depth"}],"referencedBy":[{"package",',
    '"depth"}]}, flat, with each entry\'s level in "depth".',
  ].join('\n'),
  examples: [
    'pakscope deps Paks /Game/Maps/Entry',
    'pakscope deps Paks Game/Content/Blueprints/BP_Hero.uasset --depth 2 --json',
  ],
  options: {
    depth: { type: 'string', usage: '--depth N', help: 'Follow N levels in each direction (default 1; "all" for no limit).' },
    json: JSON_OPTION,
  },
  positionals: { min: 2, max: 2 },

  async run(session, args, values) {
    const [root, ref] = args as [string, string];
    const depth = parseDepth(values['depth']);
    const install = await session.open([root], { lockedIs: 'warning' });
    if (!install) return;
    try {
      const packages = new InstallPackages(install);
      const graph = await buildDependencyGraph(install, { index: packages.index });
      for (const p of graph.problems) session.out.warn(p);
      const id = findPackage(graph, packages, ref);
      const dependsOn = graph.dependencies(id, depth);
      const referencedBy = graph.referencers(id, depth);
      // Packages the install does not hold: named by the headers of packages importing them, where those tell.
      await nameImportedPackages(graph, packages, [id, ...dependsOn.map((s) => s.id), ...referencedBy.map((s) => s.id)]);
      await print(session, graph, id, dependsOn, referencedBy);
    } finally {
      await install.close();
    }
  },
};

function parseDepth(v: unknown): number {
  if (v === undefined) return 1;
  const s = String(v);
  if (s === 'all') return Infinity;
  if (!/^\d+$/.test(s) || Number(s) < 1) throw new UsageError(`--depth takes a whole number of levels, 1 or more, or "all", not "${s}"`, 'deps');
  return Number(s);
}

/** The package id `ref` names: a path of the install, or a name or id the graph knows. */
function findPackage(graph: DependencyGraph, packages: InstallPackages, ref: string): string {
  if (!packages.install.file(ref)) {
    const id = graph.find(ref);
    if (id) return id;
  }
  try {
    const loc = packages.locate(ref);
    if (loc.packageId) return loc.packageId;
  } catch (e) {
    if (!(e instanceof PackageLookupError)) throw e;
  }
  throw new PackageLookupError(`${ref}: no such package in ${packages.install.roots.join(', ')}, nor imported by one of its packages`);
}

async function print(session: Session, graph: DependencyGraph, id: string, dependsOn: GraphStep[], referencedBy: GraphStep[]): Promise<void> {
  const out = session.out;
  const entries = (steps: GraphStep[]): { package: string; depth: number }[] => steps.map((s) => ({ package: graph.label(s.id), depth: s.depth }));
  if (session.json) {
    // One entry per line: long lists stay readable and greppable.
    const list = (steps: GraphStep[]): string => (steps.length === 0 ? '[]' : `[\n${entries(steps).map((e) => `    ${JSON.stringify(e)}`).join(',\n')}\n  ]`);
    await out.line(`{\n  "package": ${JSON.stringify(graph.label(id))},\n  "dependsOn": ${list(dependsOn)},\n  "referencedBy": ${list(referencedBy)}\n}`);
    return;
  }
  const name = graph.nameOf(id);
  await out.line(`${name ?? id}${name ? ` (${id})` : ''}${graph.holds(id) ? '' : ' (not in the install)'}`);
  const list = async (title: string, steps: GraphStep[]): Promise<void> => {
    await out.line(`${title} (${plural(steps.length, 'package')}):`);
    for (const s of steps) await out.line(`${'  '.repeat(s.depth)}${graph.label(s.id)}${graph.holds(s.id) ? '' : '  (not in the install)'}`);
  };
  await list('Depends on', dependsOn);
  await list('Referenced by', referencedBy);
}

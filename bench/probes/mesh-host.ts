/**
 * The browser host (as `npm run web` runs it) on an install, with one package's mesh read as a
 * synthetic grid (test/fixtures/mesh-grid.ts) instead of by the mesh reader: the mesh group's page
 * opens that package and gets a mesh of the size asked for through the whole backend path
 * (meshInfo, meshGeometry, the wire). Prints the page URL as its last line and runs until SIGTERM.
 */
import { readMesh } from '../../src/core/assets/mesh/kind.js';
import { runHost } from '../../src/host/main.js';
import { meshGrid } from '../../test/fixtures/mesh-grid.js';
import { probeArgs, progress } from './probe-io.js';

interface Args {
  root: string;
  /** The package whose mesh is swapped: its path ends so ("/SM_Fixture"), with or without ".uasset". */
  packageName: string;
  side: number;
  staticDir: string;
  workerFile: string;
}

const args = probeArgs<Args>();
const isSwapped = (ref: string): boolean => ref.replace(/\.uasset$/, '').endsWith(args.packageName);
const t0 = performance.now();
const grid = meshGrid(args.side);
progress(`grid of ${(args.side * args.side * 2).toLocaleString('en-US')} triangles made in ${(performance.now() - t0).toFixed(0)} ms`);
const host = await runHost([args.root], {
  staticDir: args.staticDir,
  workerFile: args.workerFile,
  out: progress,
  readMesh: async (source, exportIndex, opts) => ('ref' in source && isSwapped(source.ref) ? grid : readMesh(source, exportIndex, opts)),
});
process.stdout.write(`${host.url}\n`);
const stop = (): void => { void host.close().finally(() => process.exit(0)); };
process.on('SIGTERM', stop);
process.on('SIGINT', stop);

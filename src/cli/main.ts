/** The `pakscope` entry point (bundled to out/cli/pakscope.mjs; bin/pakscope.mjs loads it). */
import { runCli } from './run.js';

process.exitCode = await runCli(process.argv.slice(2));

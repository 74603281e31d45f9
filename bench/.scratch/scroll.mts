import { measureScroll } from '../measure-scroll.ts';
import { readFileSync } from 'node:fs';
const m = JSON.parse(readFileSync(process.argv[2] ?? '/tmp/bx/tiny/manifest.json', 'utf8'));
const t0 = performance.now();
const r = await measureScroll({ root: m.root, aesKeyArg: m.aesKeyArg, expectedRows: m.files + m.folders, expectedFiles: m.files, scrollSeconds: 3, pixelsPerFrame: 220, log: (l) => console.log(l) });
console.log(r, (performance.now() - t0) / 1000);

import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
const m = JSON.parse(readFileSync(process.argv[2], 'utf8'));
const child = spawn(process.execPath, ['/work/main/scripts/web.mjs', m.root, '--aes-key', m.aesKeyArg], { env: { ...process.env, PAKSCOPE_CONFIG_DIR: '/tmp/bx/cfg' }, stdio: ['ignore', 'pipe', 'inherit'] });
const url: string = await new Promise((res) => { let o = ''; child.stdout.on('data', (d) => { o += d; const l = o.trim().split('\n').at(-1)!; if (l.startsWith('http')) res(l); }); });
const u = new URL(url);
const token = u.searchParams.get('token')!;
const call = async (method: string, body: unknown) => (await (await fetch(`${u.origin}/api/${method}`, { method: 'POST', headers: { 'content-type': 'application/json', 'x-pakscope-token': token }, body: JSON.stringify(body) })).json()).value;
const open = await call('openInstall', { path: m.root, aesKeys: [m.aesKeyArg] });
const queue = [''];
let n = 0; const t0 = performance.now(); const times: number[] = [];
while (queue.length) {
  const p = queue.shift()!;
  const a = performance.now();
  const r = await call('listDir', { installId: open.id, path: p });
  times.push(performance.now() - a);
  n++;
  for (const e of r) if (e.isDir) queue.push(e.path);
}
times.sort((a, b) => a - b);
console.log('listDir calls', n, 'total s', ((performance.now() - t0) / 1000).toFixed(1), 'median ms', times[n >> 1]!.toFixed(2), 'p95', times[Math.floor(n * 0.95)]!.toFixed(2), 'max', times.at(-1)!.toFixed(1));
child.kill();

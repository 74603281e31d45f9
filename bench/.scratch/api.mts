import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
const m = JSON.parse(readFileSync('/tmp/bx/tiny/manifest.json', 'utf8'));
const child = spawn(process.execPath, ['/work/main/scripts/web.mjs', m.root, '--aes-key', m.aesKeyArg], { env: { ...process.env, PAKSCOPE_CONFIG_DIR: '/tmp/bx/cfg' }, stdio: ['ignore', 'pipe', 'inherit'] });
const url: string = await new Promise((res) => { let o = ''; child.stdout.on('data', (d) => { o += d; const l = o.trim().split('\n').at(-1)!; if (l.startsWith('http')) res(l); }); });
const u = new URL(url);
const token = u.searchParams.get('token')!;
const info = await (await fetch(`${u.origin}/api/recentInstalls`, { method: 'POST', headers: { 'content-type': 'application/json', 'x-pakscope-token': token }, body: 'null' })).text();
console.log(info.slice(0, 300));
const open = await (await fetch(`${u.origin}/api/openInstall`, { method: 'POST', headers: { 'content-type': 'application/json', 'x-pakscope-token': token }, body: JSON.stringify({ path: m.root, aesKeys: [m.aesKeyArg] }) })).json();
console.log(JSON.stringify(open).slice(0, 200));
for (const path of ['Game/Content/Environments/Forest/Materials', 'Game/Content/Weapons/Staffs', 'Game/Content/Maps/Arenas']) {
  const r = await (await fetch(`${u.origin}/api/listDir`, { method: 'POST', headers: { 'content-type': 'application/json', 'x-pakscope-token': token }, body: JSON.stringify({ installId: open.value.id, path }) })).json();
  console.log(path, r.value.map((e: any) => e.name + (e.isDir ? '/' : '')).join(' '));
}
child.kill();

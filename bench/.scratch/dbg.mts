import { chromium } from 'playwright-core';
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
const m = JSON.parse(readFileSync('/tmp/bx/tiny/manifest.json', 'utf8'));
const child = spawn(process.execPath, ['/work/main/scripts/web.mjs', m.root, '--aes-key', m.aesKeyArg], { env: { ...process.env, PAKSCOPE_CONFIG_DIR: '/tmp/bx/cfg' }, stdio: ['ignore', 'pipe', 'inherit'] });
const url: string = await new Promise((res) => { let o = ''; child.stdout.on('data', (d) => { o += d; const l = o.trim().split('\n').at(-1)!; if (l.startsWith('http')) res(l); }); });
const browser = await chromium.launch({ executablePath: '/usr/bin/chromium', args: ['--headless', '--no-sandbox', '--disable-gpu'] });
const page = await browser.newPage({ viewport: { width: 1360, height: Number(process.argv[2] ?? 16000) } });
page.on('console', (m) => console.log('console:', m.text()));
await page.addInitScript(() => {
  const orig = window.fetch.bind(window);
  (window as any).__lists = [];
  window.fetch = async (input: any, init?: any) => {
    const res = await orig(input, init);
    if (String(input).includes('/api/listDir')) {
      const body = JSON.parse(init.body);
      const copy = res.clone();
      copy.text().then((t) => (window as any).__lists.push([body.path, t.length, (JSON.parse(t).value ?? []).length]));
    }
    return res;
  };
});
await page.goto(url);
await page.locator('[data-testid="tree"] .row').first().waitFor();
const src = `async ({ rowHeight }) => {
  const vp = document.querySelector('[data-testid="tree"]');
  const spacer = vp.firstElementChild;
  const frame = () => new Promise((r) => requestAnimationFrame(() => r()));
  const loading = () => vp.querySelector('.chev.loading') !== null;
  let expanded = 0, steps = 0, waits = 0; const t0 = performance.now(); let tClick = 0;
  for (;;) {
    steps++;
    const collapsed = [...vp.querySelectorAll('.row[aria-expanded="false"]')].filter((r) => !r.querySelector('.chev.loading'));
    if (collapsed.length > 0) {
      const before = spacer.offsetHeight / rowHeight;
      const clicked = collapsed.slice(0, ${process.argv[3] ?? 1000}).map((r) => r.dataset.path + '@' + r.id);
      const a = performance.now();
      for (const r of collapsed.slice(0, ${process.argv[3] ?? 1000})) r.querySelector(".twisty").click();
      tClick += performance.now() - a;
      expanded += collapsed.length;
      do { await frame(); waits++; } while (loading());
      const after = spacer.offsetHeight / rowHeight;
      if (after <= before) console.log('rows ' + before + ' -> ' + after + ' after clicking ' + clicked.join(', '));
      continue;
    }
    const max = spacer.offsetHeight - vp.clientHeight;
    if (vp.scrollTop < max - 1) { vp.scrollTop = Math.min(max, vp.scrollTop + vp.clientHeight - rowHeight * 4); await frame(); await frame(); continue; }
    break;
  }
  // Sweep and collect what is shown.
  vp.scrollTop = 0; await frame(); await frame();
  const seen = new Map();
  for (;;) {
    for (const r of vp.querySelectorAll('.row')) seen.set(r.dataset.path, r.getAttribute('aria-expanded'));
    const max = spacer.offsetHeight - vp.clientHeight;
    if (vp.scrollTop >= max - 1) break;
    vp.scrollTop = Math.min(max, vp.scrollTop + vp.clientHeight - rowHeight * 4); await frame(); await frame();
  }
  const states = {}; for (const v of seen.values()) states[v] = (states[v] || 0) + 1;
  return { paths: [...seen.keys()], rows: Math.round(spacer.offsetHeight / rowHeight), expanded, steps, waits, ms: performance.now() - t0, tClick, seen: seen.size, states };
}`;
const r: any = await page.evaluate(`(${src})({ rowHeight: 22 })`);
const lists: any[] = await page.evaluate('window.__lists');
console.log('listDir calls', lists.length, lists.filter((l) => /Forest\/Materials$|Staffs$|Arenas$|Forest$/.test(l[0])));
const seen = new Set(r.paths); delete r.paths; console.log(r, 'expected', m.files + m.folders);
const { openInstall } = await import('/work/main/src/core/install/install.ts');
const { KeyRing } = await import('/work/main/src/core/crypto/keys.ts');
const inst = await openInstall([m.root], { keys: KeyRing.fromArgs([m.aesKeyArg]) });
const dirs = new Set<string>(); for (const f of inst.files()) { const p = f.path.split('/'); for (let i = 1; i < p.length; i++) dirs.add(p.slice(0, i).join('/')); }
const missing = [...dirs].filter((d) => !seen.has(d)); console.log('missing', missing.length, missing.slice(0, 30));
await browser.close(); child.kill();

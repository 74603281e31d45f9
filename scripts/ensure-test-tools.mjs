// The tests' outside tools, from Debian: Chromium for the end-to-end tests (playwright's own
// browser download is not possible here), python3-pil (Pillow) as the reference decoder of the
// BCn texture tests, astcenc as the reference decoder of the ASTC tests. Installs what is missing
// with apt-get when we are root; otherwise says how.
import { existsSync } from 'node:fs';
import { execSync } from 'node:child_process';

const CHROMIUM = process.env.PAKSCOPE_CHROMIUM ?? '/usr/bin/chromium';

function hasPillow() {
  try {
    execSync("/usr/bin/python3 -c 'import PIL'", { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
}

const missing = [];
if (!existsSync(CHROMIUM)) missing.push(['chromium', 'the end-to-end tests']);
if (!hasPillow()) missing.push(['python3-pil', 'the BCn texture tests (Pillow as the reference decoder)']);
if (!existsSync('/usr/bin/astcenc')) missing.push(['astcenc', 'the ASTC texture tests (the reference decoder)']);

if (missing.length > 0) {
  const names = missing.map(([name]) => name).join(' ');
  const root = typeof process.getuid === 'function' && process.getuid() === 0;
  if (root && existsSync('/usr/bin/apt-get')) {
    console.log(`Installing ${missing.map(([n, why]) => `${n} for ${why}`).join(', ')} (apt-get install ${names})...`);
    const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
    execSync(`apt-get update -qq && apt-get install -y -qq ${names} > /dev/null`, { stdio: 'inherit', env, shell: '/bin/bash' });
  } else {
    for (const [name, why] of missing) console.warn(`warning: ${name} is missing; install it (Debian: sudo apt-get install ${name}) for ${why}`);
  }
}

// The end-to-end tests drive Debian's Chromium (playwright's own browser download is not possible
// here). Installs it with apt-get when it is missing and we are root; otherwise says how.
import { existsSync } from 'node:fs';
import { execSync } from 'node:child_process';

const CHROMIUM = process.env.PAKSCOPE_CHROMIUM ?? '/usr/bin/chromium';
if (!existsSync(CHROMIUM)) {
  const root = typeof process.getuid === 'function' && process.getuid() === 0;
  if (root && existsSync('/usr/bin/apt-get')) {
    console.log('Installing Chromium for the end-to-end tests (apt-get install chromium)...');
    const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
    execSync('apt-get update -qq && apt-get install -y -qq chromium > /dev/null', { stdio: 'inherit', env, shell: '/bin/bash' });
  } else {
    console.warn(`warning: ${CHROMIUM} is missing; install Chromium (Debian: sudo apt-get install chromium) for the end-to-end tests`);
  }
}

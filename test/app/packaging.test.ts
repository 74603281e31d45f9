// The packaging configuration (electron-builder.yml) read as electron-builder reads it: targets
// per OS, the file associations (equal to src/main/file-types.ts), the files that go into the
// package (the built app only: no sources, tests, corpus or source maps), the icons, and the
// `dist` script. Packages themselves are built where Electron's binaries can be downloaded
// (docs/packaging.md); this checks everything that decides what they contain.
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { APP_ID, APP_NAME } from '../../src/main/app-identity.js';
import { FILE_TYPES } from '../../src/main/file-types.js';

const ROOT = join(import.meta.dirname, '..', '..');

// ---- a strict reader for the YAML subset the config uses ----

type Yaml = string | number | boolean | null | Yaml[] | { [key: string]: Yaml };

class YamlSubsetError extends Error {}

interface Line { no: number; indent: number; text: string }

/**
 * Block maps and sequences (indented with spaces), `- key: value` items, flow sequences of plain
 * scalars, quoted and plain scalars, comments. Anything else (anchors, tags, block scalars, flow
 * maps, tabs) is refused rather than guessed at, so the test never reads the file differently
 * from electron-builder without saying so.
 */
function parseYaml(source: string): Yaml {
  const lines: Line[] = [];
  source.split('\n').forEach((raw, i) => {
    if (/^\s*\t/.test(raw)) throw new YamlSubsetError(`line ${i + 1}: tab indentation`);
    const text = stripComment(raw, i + 1).trimEnd();
    if (text.trim() === '') return;
    if (text.trim() === '---' || text.trim() === '...') throw new YamlSubsetError(`line ${i + 1}: document markers`);
    lines.push({ no: i + 1, indent: text.length - text.trimStart().length, text: text.trimStart() });
  });
  let pos = 0;

  const isItem = (l: Line) => l.text === '-' || l.text.startsWith('- ');

  function block(indent: number): Yaml {
    const first = lines[pos]!;
    if (first.indent !== indent) throw new YamlSubsetError(`line ${first.no}: expected indentation ${indent}`);
    return isItem(first) ? sequence(indent) : map(indent);
  }

  function nested(parentIndent: number, no: number): Yaml {
    const next = lines[pos];
    if (!next || next.indent <= parentIndent) throw new YamlSubsetError(`line ${no}: empty value (write null)`);
    return block(next.indent);
  }

  function map(indent: number): Yaml {
    const out: Record<string, Yaml> = {};
    while (pos < lines.length && lines[pos]!.indent === indent && !isItem(lines[pos]!)) {
      const line = lines[pos++]!;
      const m = /^([A-Za-z0-9_.$-]+):(?:\s+(.*))?$/.exec(line.text);
      if (!m) throw new YamlSubsetError(`line ${line.no}: not a "key: value" line: ${line.text}`);
      const key = m[1]!;
      if (key in out) throw new YamlSubsetError(`line ${line.no}: duplicate key ${key}`);
      out[key] = m[2] === undefined ? nested(indent, line.no) : scalarOrFlow(m[2], line.no);
    }
    if (pos < lines.length && lines[pos]!.indent > indent) throw new YamlSubsetError(`line ${lines[pos]!.no}: unexpected indentation`);
    return out;
  }

  function sequence(indent: number): Yaml {
    const out: Yaml[] = [];
    while (pos < lines.length && lines[pos]!.indent === indent && isItem(lines[pos]!)) {
      const line = lines[pos]!;
      const content = line.text.slice(1).trimStart();
      if (content === '') {
        pos++;
        out.push(nested(indent, line.no));
      } else if (/^[A-Za-z0-9_.$-]+:(\s|$)/.test(content)) {
        // "- key: value": a map whose keys line up with "key".
        const column = indent + (line.text.length - content.length);
        lines[pos] = { no: line.no, indent: column, text: content };
        out.push(map(column));
      } else {
        pos++;
        out.push(scalarOrFlow(content, line.no));
      }
    }
    if (pos < lines.length && lines[pos]!.indent > indent) throw new YamlSubsetError(`line ${lines[pos]!.no}: unexpected indentation`);
    return out;
  }

  const result = block(0);
  if (pos !== lines.length) throw new YamlSubsetError(`line ${lines[pos]!.no}: unexpected content`);
  return result;
}

function stripComment(line: string, no: number): string {
  let quote: string | null = null;
  for (let i = 0; i < line.length; i++) {
    const c = line[i]!;
    if (quote) {
      if (c === '\\' && quote === '"') i++;
      else if (c === quote) quote = null;
    } else if (c === '"' || c === "'") {
      // A quote opens a quoted scalar only at the start of a value.
      if (i === 0 || /[\s[,:-]/.test(line[i - 1]!)) quote = c;
    } else if (c === '#' && (i === 0 || /\s/.test(line[i - 1]!))) {
      return line.slice(0, i);
    }
  }
  if (quote) throw new YamlSubsetError(`line ${no}: unterminated quote`);
  return line;
}

function scalarOrFlow(text: string, no: number): Yaml {
  const t = text.trim();
  if (t.startsWith('[')) {
    if (!t.endsWith(']')) throw new YamlSubsetError(`line ${no}: flow sequence not closed on its line`);
    const inner = t.slice(1, -1).trim();
    return inner === '' ? [] : inner.split(',').map((s) => scalar(s.trim(), no));
  }
  return scalar(t, no);
}

function scalar(t: string, no: number): Yaml {
  if (t.startsWith('"')) {
    if (!t.endsWith('"') || t.length < 2) throw new YamlSubsetError(`line ${no}: bad double-quoted scalar`);
    return JSON.parse(t) as string;
  }
  if (t.startsWith("'")) {
    if (!t.endsWith("'") || t.length < 2) throw new YamlSubsetError(`line ${no}: bad single-quoted scalar`);
    return t.slice(1, -1).replace(/''/g, "'");
  }
  // These start something else in YAML (a tag, an anchor, an alias, a flow map, a block scalar, ...).
  if (/^[!&*{}|>%@`\]]/.test(t)) throw new YamlSubsetError(`line ${no}: "${t}" must be quoted`);
  if (/:\s|\s#/.test(t) || t.endsWith(':')) throw new YamlSubsetError(`line ${no}: "${t}" must be quoted`);
  if (t === 'null' || t === '~') return null;
  if (t === 'true') return true;
  if (t === 'false') return false;
  if (/^-?(0|[1-9]\d*)(\.\d+)?$/.test(t)) return Number(t);
  if (/^(yes|no|on|off|y|n)$/i.test(t)) throw new YamlSubsetError(`line ${no}: "${t}" reads differently in YAML 1.1 and 1.2: quote it`);
  return t;
}

// ---- the files electron-builder's `files` patterns select ----

function globToRegExp(glob: string): RegExp {
  let re = '';
  for (let i = 0; i < glob.length; i++) {
    const c = glob[i]!;
    if (c === '*' && glob[i + 1] === '*') {
      const slashAfter = glob[i + 2] === '/';
      re += slashAfter ? '(?:.*/)?' : '.*';
      i += slashAfter ? 2 : 1;
    } else if (c === '*') re += '[^/]*';
    else if (c === '?') re += '[^/]';
    else if (c === '{') {
      const end = glob.indexOf('}', i);
      re += `(?:${glob.slice(i + 1, end).split(',').map(escapeRe).join('|')})`;
      i = end;
    } else re += escapeRe(c);
  }
  return new RegExp(`^${re}$`);
}

function escapeRe(s: string): string {
  return s.replace(/[.+^${}()|[\]\\/]/g, '\\$&');
}

/** Included when some pattern takes it and no "!" pattern drops it (as electron-builder's matcher). */
function selects(patterns: string[]): (path: string) => boolean {
  const take = patterns.filter((p) => !p.startsWith('!')).map(globToRegExp);
  const drop = patterns.filter((p) => p.startsWith('!')).map((p) => globToRegExp(p.slice(1)));
  return (path) => take.some((r) => r.test(path)) && !drop.some((r) => r.test(path));
}

function walk(dir: string): string[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? walk(join(dir, e.name)) : [relative(ROOT, join(dir, e.name)).split('\\').join('/')]);
}

function pngSize(file: string): { width: number; height: number } {
  const b = readFileSync(file);
  expect(b.subarray(0, 8).toString('hex'), file).toBe('89504e470d0a1a0a');
  expect(b.subarray(12, 16).toString('latin1'), file).toBe('IHDR');
  return { width: b.readUInt32BE(16), height: b.readUInt32BE(20) };
}

// ---- the configuration ----

const config = parseYaml(readFileSync(join(ROOT, 'electron-builder.yml'), 'utf8')) as Record<string, any>;
const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as Record<string, any>;

const targets = (platform: string): { target: string; arch: string[] }[] => config[platform].target;

describe('the YAML reader', () => {
  it('reads the subset and refuses what it does not know', () => {
    expect(parseYaml('a: 1\nb:\n  - x\n  - k: "v # not a comment"\n    n: null\nc: [x64, arm64] # comment\nd: \'it\'\'s\'\n'))
      .toEqual({ a: 1, b: ['x', { k: 'v # not a comment', n: null }], c: ['x64', 'arm64'], d: "it's" });
    for (const bad of ['a: !out/**', 'a: &x 1', 'a: |\n  text', 'a: {b: 1}', 'a: no', 'a:\n\tb: 1', 'a: 1\na: 2', 'a: "open', 'a:\nb: 1']) {
      expect(() => parseYaml(bad), bad).toThrow(YamlSubsetError);
    }
  });
});

describe('electron-builder.yml', () => {
  it('names the app as the main process does', () => {
    expect(config['appId']).toBe(APP_ID);
    expect(config['productName']).toBe(APP_NAME);
    // The packaged package.json: Electron's app name (user-data folder, Linux window class) and the .desktop file.
    expect(config['extraMetadata']).toMatchObject({ productName: APP_NAME, desktopName: `${config['linux'].executableName}.desktop` });
    expect(config['extraMetadata'].homepage).toMatch(/^https:\/\//);
    expect(config['extraMetadata'].author.email).toMatch(/^[^@\s]+@[^@\s]+\.[a-z]+$/);
    expect(config['linux'].maintainer).toMatch(/^[^<]+ <[^@\s]+@[^@\s>]+>$/);
    expect(pkg['version']).toMatch(/^\d+\.\d+\.\d+/);
    expect(pkg['description']).toMatch(/Unreal Engine/);
  });

  it('builds an AppImage and a .deb for Linux, an NSIS installer for Windows, a .dmg for macOS', () => {
    expect(targets('linux')).toEqual([{ target: 'AppImage', arch: ['x64'] }, { target: 'deb', arch: ['x64'] }]);
    expect(config['linux'].category).toBe('Development');
    expect(targets('win')).toEqual([{ target: 'nsis', arch: ['x64'] }]);
    // Per-user installs need no administrator; the user may choose per-machine and the folder.
    expect(config['nsis']).toMatchObject({ oneClick: false, perMachine: false, allowToChangeInstallationDirectory: true });
    expect(targets('mac')).toEqual([{ target: 'dmg', arch: ['x64', 'arm64'] }]);
    expect(config['mac'].category).toBe('public.app-category.developer-tools');
    expect(config['publish']).toBeNull();
  });

  // Issue 25, finding 7: the packaged app keeps none of Electron's ways in.
  it('flips Electron\'s fuses: no run-as-Node, NODE_OPTIONS or --inspect; the app only from a checked app.asar; cookies encrypted', () => {
    expect(config['electronFuses']).toEqual({
      runAsNode: false,
      enableNodeOptionsEnvironmentVariable: false,
      enableNodeCliInspectArguments: false,
      enableCookieEncryption: true,
      onlyLoadAppFromAsar: true,
      enableEmbeddedAsarIntegrityValidation: true,
    });
    // The fuses check app.asar: the app must be packed into one.
    expect(config['asar']).toBe(true);
    // Without run-as-Node, child_process.fork of the app's own binary fails: the main process must not use it.
    for (const file of walk(join(ROOT, 'src/main')).concat(walk(join(ROOT, 'src/core/workers')))) {
      expect(readFileSync(join(ROOT, file), 'utf8'), file).not.toMatch(/child_process|\bfork\(|ELECTRON_RUN_AS_NODE/);
    }
  });

  it('associates exactly the file types the app offers, one MIME type per extension', () => {
    const assoc = config['fileAssociations'] as Record<string, string>[];
    expect(assoc.map((a) => ({ ext: a['ext'], name: a['name'], mime: a['mimeType'] }))).toEqual(FILE_TYPES.map((t) => ({ ...t })));
    for (const a of assoc) {
      expect(typeof a['ext'], 'Linux writes one glob per entry: an array would be "*.a,b"').toBe('string');
      expect(a['role']).toBe('Viewer');
      expect(a['description']).toBe(a['name']);
    }
    const exts = assoc.map((a) => a['ext']);
    for (const required of ['utoc', 'pak', 'uasset', 'umap', 'u', 'utx', 'unr', 'uax', 'umx', 'usx', 'ukx', 'upx']) expect(exts).toContain(required);
    expect(new Set(assoc.map((a) => a['mimeType'])).size).toBe(assoc.length);
    expect(new Set(assoc.map((a) => a['name'])).size).toBe(assoc.length);
  });

  it('packs the built app and package.json, and nothing else of the project', () => {
    const files = config['files'] as string[];
    const packs = selects(files);
    for (const p of ['package.json', 'out/main/index.js', 'out/main/worker.js', 'out/main/chunks/backend-a1b2.js', 'out/preload/index.cjs',
      'out/renderer/index.html', 'out/renderer/favicon.svg', 'out/renderer/assets/index-x1.js', 'out/renderer/assets/codicon-x.ttf']) {
      expect(packs(p), p).toBe(true);
    }
    for (const p of ['src/main/app.ts', 'src/core/io/binary-reader.ts', 'test/app/main.test.ts', 'test/fixtures/toc-writer.ts',
      'out/main/index.js.map', 'out/renderer/assets/index-x1.js.map', 'out/cli/pakscope.mjs', 'out/cli/pakscope.mjs.map',
      'out/host/host.mjs', 'out/bench/decode.mjs', 'bench/run.ts', 'scripts/build-cli.mjs', 'resources/icon.svg', 'README.md',
      'electron-builder.yml', 'tsconfig.json', 'vitest.config.ts', '../shared/corpus/MANIFEST.tsv', 'shared/corpus/iostore/a.utoc',
      'corpus/a.pak', 'test-artifacts/shot.png', 'dist/PakScope.AppImage', 'package-lock.json']) {
      expect(packs(p), p).toBe(false);
    }
    expect(packs(pkg['main'].replace(/^\.\//, ''))).toBe(true);
    // What is built in out/ now (npm test builds the app first: electron-vite build): its three
    // entry points are packed, and only the app's three parts, no map. Without a build there is
    // nothing to check, and that is a failure, not a pass.
    const built = walk(join(ROOT, 'out')).filter(packs);
    for (const entry of ['out/main/index.js', 'out/preload/index.cjs', 'out/renderer/index.html']) {
      expect(built, `${entry} is not built: run npm run build (npm test does)`).toContain(entry);
    }
    for (const f of built) expect(f, f).toMatch(/^out\/(main|preload|renderer)\/[^]*(?<!\.map)$/);
    // Beside the app only the window icon.
    expect(config['extraResources']).toEqual([{ from: 'resources/icons/512x512.png', to: 'icon.png' }]);
    expect(config['asar']).toBe(true);
  });

  it('has icons in every size from the SVG: 16 to 1024, as the platforms ask', () => {
    expect(readFileSync(join(ROOT, 'resources/icon.svg'), 'utf8')).toMatch(/^<svg [^>]*viewBox="0 0 64 64"/);
    for (const size of [16, 24, 32, 48, 64, 128, 256, 512, 1024]) {
      expect(pngSize(join(ROOT, `resources/icons/${size}x${size}.png`))).toEqual({ width: size, height: size });
    }
    expect(statSync(join(ROOT, config['linux'].icon)).isDirectory()).toBe(true);
    expect(pngSize(join(ROOT, config['win'].icon)).width).toBeGreaterThanOrEqual(256); // .ico made from it
    expect(pngSize(join(ROOT, config['mac'].icon)).width).toBe(1024); // .icns made from it
    expect(pngSize(join(ROOT, 'resources/icon.png'))).toEqual({ width: 512, height: 512 }); // the window in development
    expect(config['directories']).toEqual({ output: 'dist', buildResources: 'resources' });
  });
});

describe('npm run dist', () => {
  it('builds the app, then runs a pinned electron-builder with this config, publishing nothing', () => {
    const dist = pkg['scripts']['dist'] as string;
    const [build, builder] = dist.split(' && ');
    expect(build).toBe('electron-vite build');
    // Run through npx: not a dependency, so `npm ci` stays as it is (docs/packaging.md says why).
    expect(builder).toMatch(/^npx --yes electron-builder@\d+\.\d+\.\d+ --config electron-builder\.yml --publish never$/);
    expect(Object.keys({ ...pkg['dependencies'], ...pkg['devDependencies'] })).not.toContain('electron-builder');
  });

  it('is described for people and release workflows', () => {
    const doc = readFileSync(join(ROOT, 'docs/packaging.md'), 'utf8');
    for (const phrase of ['npm run dist', '--linux', '--win', '--mac', 'AppImage', '.deb', 'NSIS', '.dmg']) expect(doc).toContain(phrase);
  });
});

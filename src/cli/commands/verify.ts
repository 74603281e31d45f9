/**
 * `pakscope verify <path...>`: decompresses every chunk of every container and checks it against
 * its stored hash. IoStore: every TOC entry, those without a path too (container header, script
 * objects); pak: every entry. Decompression runs in the worker pool with several chunks in flight.
 */
import { basename } from 'node:path';
import type { Archive, HashCheck } from '../../core/archive.js';
import { DecodeError, isInputError, UnsupportedCodecError } from '../../core/errors.js';
import { IoStoreContainer } from '../../core/iostore/container.js';
import { createWorkerPool } from '../../core/workers/pool.js';
import { JSON_OPTION, type Command } from '../command.js';
import { plural } from '../../shared/format.js';
import { EXIT_BAD_INPUT, EXIT_INTERNAL, type Session } from '../session.js';

interface ChunkRef {
  /** What the JSON calls it: {chunkId} for IoStore entries, {path} for pak entries. */
  id: { chunkId: string } | { path: string };
  check(): Promise<HashCheck | null>;
}

interface Failure { container: string; chunkId?: string; path?: string; error: string }
interface Unsupported { container: string; chunkId?: string; path?: string; codec: string }

interface ContainerResult {
  container: string;
  chunks: number;
  ok: number;
  failed: Failure[];
  unsupported: Unsupported[];
  /** A failure that is PakScope's own (exit 1), not the input's. */
  internal: boolean;
}

export const verifyCommand: Command = {
  name: 'verify',
  args: '<path...>',
  summary: 'Decompress every chunk and check it against its stored hash',
  description: [
    'Reads every chunk of every container (IoStore: every TOC entry, also those without a path;',
    'pak: every entry), decrypts and decompresses it, and checks it against the hash the',
    'container stores. Prints one line per container and the failures.',
    '',
    'Chunks whose codec PakScope cannot decode (Oodle Leviathan, ...) are counted as',
    'unsupported: they are reported but do not fail the run. The exit code is 0 when every',
    'other chunk verified, 2 when one did not.',
    '',
    '--json prints {"chunks":N,"ok":N,"failed":[{"container","chunkId" or "path","error"}],',
    '"unsupported":[{"container","chunkId" or "path","codec"}],"containers":[...]}.',
  ].join('\n'),
  examples: ['pakscope verify Game/Content/Paks', 'pakscope verify pakchunk0-Windows.utoc --json'],
  options: { json: JSON_OPTION },
  positionals: { min: 1, max: Infinity },

  async run(session, paths) {
    const pool = createWorkerPool();
    try {
      const install = await session.open(paths, { decoder: pool });
      if (!install) return;
      try {
        const results: ContainerResult[] = [];
        for (const archive of install.archives) {
          if (archive.status.state === 'locked') continue; // reported as an error by open()
          const r = await verifyArchive(archive, pool.threads * 2);
          results.push(r);
          if (!session.json) await printResult(session, r);
        }
        await report(session, results);
      } finally {
        await install.close();
      }
    } finally {
      await pool.destroy();
    }
  },
};

function chunksOf(archive: Archive): ChunkRef[] {
  if (archive instanceof IoStoreContainer) {
    return Array.from({ length: archive.chunkCount }, (_, i) => ({
      id: { chunkId: archive.chunkIdHex(i) },
      check: () => archive.verifyChunk(i),
    }));
  }
  return archive.files().map((f) => ({ id: { path: f.path }, check: () => archive.verify(f.ref) }));
}

async function verifyArchive(archive: Archive, inFlight: number): Promise<ContainerResult> {
  const container = basename(archive.path);
  const chunks = chunksOf(archive);
  const result: ContainerResult = { container, chunks: chunks.length, ok: 0, failed: [], unsupported: [], internal: false };
  const outcomes: (Failure | Unsupported | null)[] = new Array(chunks.length);
  let next = 0;
  const worker = async (): Promise<void> => {
    while (next < chunks.length) {
      const i = next++;
      const c = chunks[i]!;
      try {
        const check = await c.check();
        outcomes[i] = check === null || check.ok ? null : { container, ...c.id, error: hashMismatch(check) };
      } catch (e) {
        const codec = unsupportedCodec(e);
        if (codec) outcomes[i] = { container, ...c.id, codec };
        else {
          if (!isInputError(e)) result.internal = true;
          outcomes[i] = { container, ...c.id, error: e instanceof Error ? e.message : String(e) };
        }
      }
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, Math.min(inFlight, chunks.length)) }, worker));
  for (const o of outcomes) {
    if (o === null) result.ok++;
    else if ('codec' in o) result.unsupported.push(o);
    else result.failed.push(o);
  }
  return result;
}

/** The codec of a chunk PakScope cannot decode, or undefined for any other failure. */
function unsupportedCodec(e: unknown): string | undefined {
  if (e instanceof UnsupportedCodecError) return e.codec;
  // ooz-wasm has no Leviathan decoder: such blocks fail to decode whatever their data.
  if (e instanceof DecodeError && /leviathan/i.test(e.method)) return e.method;
  return undefined;
}

function hashMismatch(c: HashCheck): string {
  const actual = Object.entries(c.actual).map(([alg, h]) => `${alg} ${h}`).join(', ');
  return `hash mismatch: stored ${c.expected}, computed ${actual}`;
}

async function printResult(session: Session, r: ContainerResult): Promise<void> {
  const out = session.out;
  const parts = [`${r.ok} ok`];
  if (r.failed.length) parts.push(`${r.failed.length} failed`);
  if (r.unsupported.length) parts.push(`${r.unsupported.length} unsupported`);
  await out.line(`${r.container}: ${plural(r.chunks, 'chunk')}, ${parts.join(', ')}`);
  // One line per distinct error, so a missing .ucas does not print every chunk.
  const byError = new Map<string, Failure[]>();
  for (const f of r.failed) byError.set(f.error, [...(byError.get(f.error) ?? []), f]);
  for (const [error, list] of byError) {
    const first = list[0]!;
    const what = first.chunkId !== undefined ? `chunk ${first.chunkId}` : first.path;
    await out.line(`  failed: ${list.length > 1 ? `${what} and ${list.length - 1} more` : what}: ${error}`);
  }
  const codecs = new Map<string, number>();
  for (const u of r.unsupported) codecs.set(u.codec, (codecs.get(u.codec) ?? 0) + 1);
  for (const [codec, n] of codecs) await out.line(`  unsupported: ${plural(n, 'chunk')} ${n === 1 ? 'uses' : 'use'} ${codec}, which PakScope cannot decode`);
}

async function report(session: Session, results: ContainerResult[]): Promise<void> {
  const total = { chunks: 0, ok: 0 };
  const failed: Failure[] = [];
  const unsupported: Unsupported[] = [];
  for (const r of results) {
    total.chunks += r.chunks;
    total.ok += r.ok;
    failed.push(...r.failed);
    unsupported.push(...r.unsupported);
    if (r.internal) session.fail(EXIT_INTERNAL);
  }
  if (failed.length > 0) session.fail(EXIT_BAD_INPUT);
  if (session.json) {
    const containers = results.map((r) => ({ container: r.container, chunks: r.chunks, ok: r.ok, failed: r.failed.length, unsupported: r.unsupported.length }));
    await session.out.line(JSON.stringify({ chunks: total.chunks, ok: total.ok, failed, unsupported, containers }));
    return;
  }
  const parts = [`${total.ok} ok`, `${failed.length} failed`];
  if (unsupported.length) parts.push(`${unsupported.length} unsupported (not verified)`);
  await session.out.line(`total: ${plural(total.chunks, 'chunk')} in ${plural(results.length, 'container')}: ${parts.join(', ')}`);
  if (unsupported.length) {
    const n = unsupported.length;
    session.out.note(`note: ${plural(n, 'chunk')} ${n === 1 ? 'uses a codec PakScope cannot decode and was' : 'use a codec PakScope cannot decode and were'} not verified`);
  }
}

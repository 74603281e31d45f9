import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { join } from 'node:path';

/** test/corpus/wwise: small real Wwise files from public repositories (SOURCES.tsv), with ffmpeg's figures (expected.json). */
export const WWISE_CORPUS = fileURLToPath(new URL('../corpus/wwise/', import.meta.url));
export const wwiseFile = (name: string): string => join(WWISE_CORPUS, name);
export const loadWwise = (name: string): Uint8Array => new Uint8Array(readFileSync(wwiseFile(name)));

export interface WwiseExpected {
  codec: string;
  codebooks?: string;
  rate: number;
  channels: number;
  frames: number;
  rms: number[];
  peak: number;
  sha256: string;
}
export const wwiseExpected = (): Record<string, WwiseExpected> => JSON.parse(readFileSync(wwiseFile('expected.json'), 'utf8'));

/** A bank's media by id, cut by its DIDX table (independent of PakScope's bank reader). */
export function bankMedia(bank: Uint8Array): Map<number, Uint8Array> {
  const v = new DataView(bank.buffer, bank.byteOffset, bank.byteLength);
  const didx: [number, number, number][] = [];
  let data = -1;
  for (let at = 0; at + 8 <= bank.length; at += 8 + v.getUint32(at + 4, true)) {
    const tag = String.fromCharCode(...bank.subarray(at, at + 4));
    const size = v.getUint32(at + 4, true);
    if (tag === 'DIDX') for (let i = 0; i < size / 12; i++) didx.push([v.getUint32(at + 8 + i * 12, true), v.getUint32(at + 12 + i * 12, true), v.getUint32(at + 16 + i * 12, true)]);
    if (tag === 'DATA') data = at + 8;
  }
  return new Map(didx.map(([id, off, size]) => [id, bank.subarray(data + off, data + off + size)]));
}

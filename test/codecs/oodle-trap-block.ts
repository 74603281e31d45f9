import { readFileSync } from 'node:fs';
import { corpus } from '../support/corpus.js';

/**
 * A Leviathan block that makes a fresh ooz-wasm decoder trap: the first 143309 stream bytes of
 * corpus/oodle/xml.leviathan (after its 8-byte size) with two bytes flipped, declared as 1 MiB.
 * Found by a seeded search; shared by the codec and the pool tests.
 */
export function oodleTrapBlock(): { block: Uint8Array; size: number } {
  const block = Uint8Array.from(readFileSync(corpus('oodle', 'xml.leviathan')).subarray(8, 8 + 143309));
  block[104130]! ^= 249;
  block[63527]! ^= 217;
  return { block, size: 1048576 };
}

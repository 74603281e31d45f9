import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { join } from 'node:path';

/** ../shared/corpus beside the project: tests read it in place, never copy it. */
export const CORPUS = fileURLToPath(new URL('../../../shared/corpus/', import.meta.url));
export const corpus = (...p: string[]): string => join(CORPUS, ...p);

/** The cue58 fixture AES key (MANIFEST.tsv). */
export const CUE58_AES_KEY = '0x435545345061727365466978747572654145534b657930313233343536373839';
/** The repak test paks' key (MANIFEST.tsv, base64). */
export const REPAK_AES_KEY = 'lNJbw660IOC+kU7cnVQ1oeqrXyhk4J6UAZrCBbcnp94=';

/** A corpus file's bytes. */
export const loadCorpus = (rel: string): Uint8Array => new Uint8Array(readFileSync(corpus(rel)));

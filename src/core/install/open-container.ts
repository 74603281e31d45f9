/**
 * Opens one install file by its extension: .utoc as an IoStore container, .pak as a pak archive,
 * anything else as a loose file.
 */
import { extname } from 'node:path';
import type { Archive } from '../archive.js';
import type { KeyRing } from '../crypto/keys.js';
import type { BlockDecoder } from '../workers/block-job.js';
import { openIoStoreContainer } from '../iostore/container.js';
import { openPakArchive } from '../pak/pak-archive.js';
import { LooseFileArchive } from './loose-file.js';

export interface OpenContainerOptions {
  keys?: KeyRing;
  decoder?: BlockDecoder;
}

export async function openContainer(path: string, opts: OpenContainerOptions = {}): Promise<Archive> {
  switch (extname(path).toLowerCase()) {
    case '.utoc': return openIoStoreContainer(path, opts);
    case '.pak': return openPakArchive(path, opts);
    default: return LooseFileArchive.open(path);
  }
}

/**
 * The sequence kind in the converter registry: Level Sequences (and template and camera
 * animation sequences); the app's sequence view; JSON of the whole structure (what `pakscope
 * sequence --json` prints) and CSV of its channel keys, one row per key (csv.ts).
 */
import { registerAssetKind, type AssetKind } from '../registry.js';
import { sequenceCsv } from './csv.js';
import { SEQUENCE_CLASSES, SEQUENCE_SCRIPT_PATHS, readSequence } from './read.js';

export const sequenceKind: AssetKind = {
  kind: 'sequence',
  view: 'sequence',
  classes: SEQUENCE_CLASSES,
  scriptClassPaths: SEQUENCE_SCRIPT_PATHS,
  converts: ['json', 'csv'],
  async convert(source, exportIndex, extension, opts) {
    const ext = (extension ?? 'json').toLowerCase();
    if (ext !== 'json' && ext !== 'csv') throw new RangeError(`a sequence converts to .json or .csv, not .${ext}`);
    const seq = await readSequence(source, exportIndex, opts);
    const text = ext === 'csv' ? sequenceCsv(seq) : `${JSON.stringify(seq, null, 2)}\n`;
    return [{ suffix: '', extension: ext, data: new TextEncoder().encode(text) }];
  },
};

registerAssetKind(sequenceKind);

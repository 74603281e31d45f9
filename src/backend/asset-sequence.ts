/**
 * The sequence view: what a Level Sequence does (core/assets/sequence, the registry's
 * "sequence" view), with the tree path of every package it names that the install holds
 * (subsequences, bound objects' levels, spawnable templates, parameter collections: the view's
 * links) and its JSON and key CSV for Save and Copy.
 */
import { sequenceCsv } from '../core/assets/sequence/csv.js';
import { readSequence } from '../core/assets/sequence/read.js';
import type { SequenceAsset } from '../core/assets/sequence/types.js';
import { treePathsOf } from '../core/package/object-path.js';
import type { InstallPackages } from '../core/package/open-package.js';
import type { Usmap } from '../core/usmap/types.js';
import type { AssetRequest, SequenceView } from '../shared/asset-api.js';
import { packageAssets } from './assets.js';
import type { PackageService } from './packages.js';
import { RequestError } from './request-error.js';

/** Object paths the sequence names outside its own package -> tree paths of the packages the install holds. */
export function sequenceLinks(s: SequenceAsset, packages: InstallPackages): Record<string, string> {
  const paths: string[] = [...s.subSequences];
  const tracks = [...s.tracks, ...s.bindings.flatMap((b) => b.tracks)];
  for (const t of tracks) {
    if (t.mpc) paths.push(t.mpc);
    for (const sec of t.sections) if (sec.subSequence) paths.push(sec.subSequence);
  }
  for (const b of s.bindings) paths.push(...(b.boundObjects ?? []));
  return treePathsOf(paths.filter((p) => p.startsWith('/') && !p.startsWith('/Script/')), packages);
}

export async function readSequenceView(packages: InstallPackages, service: PackageService, req: AssetRequest, mappings: Usmap | undefined): Promise<SequenceView> {
  const loc = service.locate(packages, req.path);
  const engine = req.engine?.trim() || undefined;
  const { model } = await packages.open(loc, engine !== undefined ? { engine } : {});
  const sequences = packageAssets(model).filter((a) => a.view === 'sequence');
  const asset = req.exportIndex !== undefined ? sequences.find((a) => a.exportIndex === req.exportIndex) : sequences[0];
  if (!asset) {
    throw new RequestError(req.exportIndex !== undefined ? `${req.path}: export ${req.exportIndex} is not a Level Sequence` : `${req.path}: no export of this package is a Level Sequence`);
  }
  const sequence = await readSequence({ packages, ref: loc.path }, asset.exportIndex, {
    ...(mappings ? { mappings } : {}), ...(engine !== undefined ? { engine } : {}),
  });
  return {
    path: loc.path, exportIndex: asset.exportIndex, sequence, links: sequenceLinks(sequence, packages),
    json: `${JSON.stringify(sequence, null, 2)}\n`, csv: sequenceCsv(sequence),
  };
}

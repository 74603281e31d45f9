import { releaseWritesPakVersion } from '../engine-versions.js';
import { FormatError } from '../errors.js';
import type { AssumedVersions } from './layout.js';
import { issueText, type UAssetPackage, type UAssetParseOptions, readPackageWithLayout } from './package.js';
import {
  CLASSIC_ENGINE_RELEASES, type ClassicEngineRelease, LegacyFileVersion, PACKAGE_FILE_TAG, UE5_LATEST, findClassicEngineRelease,
  releaseRange, releasesWithVersions,
} from './versions.js';

/**
 * The layouts an unversioned package may have, given its LegacyFileVersion: one per distinct
 * set of versions, most likely first (the caller's engine, then releases that write this
 * LegacyFileVersion, newest first, then the rest of the same major version).
 */
export function candidateLayouts(legacyFileVersion: number, engine?: ClassicEngineRelease): AssumedVersions[] {
  const ue5 = legacyFileVersion <= LegacyFileVersion.UE5_VERSION;
  const releases = CLASSIC_ENGINE_RELEASES.filter((e) => (e.ue5 > 0) === ue5).reverse();
  const ordered = [
    ...(engine ? [engine] : []),
    ...releases.filter((e) => e.legacyFileVersion === legacyFileVersion),
    ...releases.filter((e) => e.legacyFileVersion !== legacyFileVersion),
  ];
  const byKey = new Map<string, AssumedVersions>();
  for (const e of ordered) {
    const key = `${e.ue4}/${e.ue5}/${e.importPackageNameAlways}`;
    const got = byKey.get(key);
    if (got) { if (!got.engines.includes(e.engine)) got.engines.push(e.engine); continue; }
    byKey.set(key, { ue4: e.ue4, ue5: e.ue5, importPackageNameAlways: e.importPackageNameAlways, engines: [e.engine] });
  }
  // Engines in table order inside each layout, so ranges read "4.16-4.27".
  const order = new Map(CLASSIC_ENGINE_RELEASES.map((e, i) => [e.engine, i]));
  for (const l of byKey.values()) l.engines.sort((a, b) => order.get(a)! - order.get(b)!);
  return [...byKey.values()];
}

/** The releases that may have written the package's .pak (all of them when it came from none, or none fits). */
function fromContainer(releases: ClassicEngineRelease[], opts: UAssetParseOptions): ClassicEngineRelease[] {
  const { pakVersion } = opts;
  if (pakVersion === undefined) return releases;
  const kept = releases.filter((e) => releaseWritesPakVersion(e.engine, pakVersion));
  return kept.length > 0 ? kept : releases;
}

function enginesInOrder(engines: Iterable<string>): ClassicEngineRelease[] {
  const set = new Set(engines);
  return CLASSIC_ENGINE_RELEASES.filter((e) => set.has(e.engine));
}

/** The bytes just past the summary's version fields say whether the package is versioned. */
function peekUnversioned(header: Uint8Array): { unversioned: boolean; legacyFileVersion: number } | null {
  if (header.length < 24) return null;
  const v = new DataView(header.buffer, header.byteOffset, header.byteLength);
  if (v.getUint32(0, true) !== PACKAGE_FILE_TAG) return null;
  const legacy = v.getInt32(4, true);
  if (legacy >= 0 || legacy < LegacyFileVersion.EARLY_EXIT_CONTRACT) return null;
  let p = 8;
  if (legacy !== LegacyFileVersion.UE3_VERSION_REMOVED) p += 4;
  const ue4 = v.getInt32(p, true);
  const ue5 = legacy <= LegacyFileVersion.UE5_VERSION ? v.getInt32(p + 4, true) : 0;
  return { unversioned: ue4 === 0 && ue5 === 0, legacyFileVersion: legacy };
}

/**
 * A versioned package with its stated versions. UE5.8 writes import package names in cooked
 * packages too, at the same object version as 5.7: a newest-version package that does not read
 * without them is read with them.
 */
function readVersioned(header: Uint8Array, fileName: string, opts: UAssetParseOptions): ReturnType<typeof readPackageWithLayout> {
  try {
    return readPackageWithLayout(header, fileName, undefined, opts);
  } catch (e) {
    if (!(e instanceof FormatError) || peekUE5Version(header) < UE5_LATEST) throw e;
    try {
      return readPackageWithLayout(header, fileName, { ue4: 0, ue5: 0, importPackageNameAlways: true, engines: ['5.8'] }, opts);
    } catch {
      throw e;
    }
  }
}

/** The UE5 version a versioned UE5 package states (0 for others). */
function peekUE5Version(header: Uint8Array): number {
  if (header.length < 20) return 0;
  const v = new DataView(header.buffer, header.byteOffset, header.byteLength);
  const legacy = v.getInt32(4, true);
  if (legacy > LegacyFileVersion.UE5_VERSION) return 0;
  return v.getInt32(legacy === LegacyFileVersion.UE3_VERSION_REMOVED ? 12 : 16, true);
}

/**
 * Parses the header of a UE4/UE5 package (.uasset/.umap, uncooked or cooked; for a cooked split
 * package pass the .uasset and the .uexp's size). An unversioned package's versions come from
 * the bytes: the caller's engine is kept if its layout fits them, else every candidate layout is
 * probed and the newest that hangs together is read (version.engine then spans every release
 * that fits). Bad input throws a FormatError.
 */
export function parseUAsset(header: Uint8Array, fileName: string, opts: UAssetParseOptions = {}): UAssetPackage {
  const engine = opts.engine !== undefined ? findClassicEngineRelease(opts.engine) : undefined;
  const peek = peekUnversioned(header);
  if (!peek?.unversioned) {
    // Versioned (or not a UE4/5 package at all: the summary reader says why).
    const { pkg: read, problems } = readVersioned(header, fileName, opts);
    const pkg = read!;
    for (const p of problems) if (!pkg.issues.some((i) => issueText(i) === p)) pkg.warnings.push(p);
    const releases = fromContainer(releasesWithVersions(pkg.version.ue4, pkg.version.ue5), opts);
    const saved = pkg.summary.savedByEngineVersion;
    pkg.version.engine = saved && saved.major >= 4 ? `${saved.major}.${saved.minor}` : releaseRange(releases) || null;
    pkg.version.engineCandidates = releases.map((e) => e.engine);
    if (opts.engine !== undefined && engine === undefined) pkg.warnings.push(`unknown engine version "${opts.engine}" ignored`);
    return pkg;
  }

  // The caller's engine first: when its layout fits, nothing else is probed (fast for a whole
  // archive of packages from one game, once the first has told the engine).
  const candidates = candidateLayouts(peek.legacyFileVersion, engine);
  if (engine) {
    const layout = candidates[0]!;
    let reading: ReturnType<typeof readPackageWithLayout> | undefined;
    try {
      reading = readPackageWithLayout(header, fileName, layout, opts);
    } catch (e) {
      if (!(e instanceof FormatError)) throw e;
    }
    if (reading && reading.problems.length === 0) {
      const pkg = reading.pkg!;
      pkg.version.source = 'engine-option';
      pkg.version.engine = engine.engine;
      pkg.version.engineCandidates = [...layout.engines];
      return pkg;
    }
  }

  // Probe every candidate layout (cheap: stops at the first problem), then read the chosen one.
  const fits: AssumedVersions[] = [];
  let best: { layout: AssumedVersions; stage: number; problems: string[] } | undefined;
  /** The error of the layout that read furthest before failing. */
  let failure: { error: FormatError; stage: number } | undefined;
  for (const layout of candidates) {
    const progress = { stage: 0 };
    try {
      const { problems, stage } = readPackageWithLayout(header, fileName, layout, opts, true, progress);
      if (problems.length === 0) fits.push(layout);
      else if (!best || stage > best.stage) best = { layout, stage, problems };
    } catch (e) {
      if (!(e instanceof FormatError)) throw e;
      if (!failure || progress.stage > failure.stage) failure = { error: e, stage: progress.stage };
    }
  }
  // A layout that failed later than any other got to read is a better guess than one that read
  // to the end of an earlier stage with problems: its error is the package's.
  if (fits.length === 0 && failure && (!best || failure.stage > best.stage)) throw failure.error;

  let layout: AssumedVersions;
  const notes: string[] = [];
  const fitting = fromContainer(enginesInOrder(fits.flatMap((l) => l.engines)), opts);
  if (fits.length > 0) {
    layout = fits[0]!;
    // The caller's engine was tried first and did not fit.
    if (engine) notes.push(`the bytes do not fit a UE${engine.engine} layout; read as UE${releaseRange(fitting)}`);
  } else if (best) {
    layout = best.layout;
    notes.push(`no known layout fits this unversioned package; read as UE${releaseRange(enginesInOrder(best.layout.engines))}, where ${best.problems.join('; ')}`);
  } else {
    throw failure!.error;
  }
  const reading = readPackageWithLayout(header, fileName, layout, opts);
  const pkg = reading.pkg!;
  pkg.warnings.push(...notes);
  for (const p of reading.problems) if (!pkg.issues.some((i) => issueText(i) === p) && !notes.some((n) => n.includes(p))) pkg.warnings.push(p);
  const engines = fitting.length > 0 ? fitting : fromContainer(enginesInOrder(layout.engines), opts);
  pkg.version.source = 'layout';
  pkg.version.engine = releaseRange(engines) || null;
  pkg.version.engineCandidates = fitting.map((e) => e.engine);
  if (opts.engine !== undefined && engine === undefined) pkg.warnings.push(`unknown engine version "${opts.engine}" ignored`);
  return pkg;
}

/**
 * The service behind the app: open installs by id, answer tree, details, read and verify requests,
 * and report progress as events. Node only, no Electron: the main process serves it over IPC and
 * the browser host over HTTP, both after validateRequest. Every failure is an Error whose message
 * can be shown as is (a FormatError names the file, the structure and the byte offset).
 */
import { RequestError } from './request-error.js';
import { randomUUID } from 'node:crypto';
import { basename, dirname, extname, resolve } from 'node:path';
import type { Archive } from '../core/archive.js';
import { KeyRing } from '../core/crypto/keys.js';
import type { BlockDecoder } from '../core/workers/block-job.js';
import type { WorkerPool } from '../core/workers/pool.js';
import type { Install, InstallProgress, OpenInstallOptions } from '../core/install/install.js';
import { openInstall as coreOpenInstall } from '../core/install/install.js';
import type {
  AddKeysResult, ApiEvent, AppInfo, ExportRequest, ExportStarted, FileDetails, FileListRequest, FileListWritten, HashCheck,
  InstallSummary, KeyStatus, PakScopeApi, TreeEntry,
} from '../shared/api.js';
import type {
  AnimView, AssetRequest, AssetTable, AssetTableRequest, AssetText, AssetThumbnail, ConversionFormat, LevelScene, LevelSceneRequest, LevelView, SequenceView, MaterialView, MetaSoundView, NiagaraView, MeshGeometry, MeshGeometryRequest, MeshView, SaveConversionRequest, SavedConversion, FontView, MidiView, SpriteView, SoundBankView, SoundCueView, SoundView, SoundWav,
  TexturePixels, TexturePixelsRequest, TextureView, ThumbnailRequest,
} from '../shared/asset-api.js';
import { FONT_CONVERSION_FORMATS, SOUND_CONVERSION_FORMATS } from '../shared/asset-api.js';
import { baseName, convertSound, readSound } from '../core/assets/sound/kind.js';
import { wemSound } from '../core/assets/sound/wwise/wem.js';
import { parseBank } from '../core/assets/sound/wwise/bank.js';
import { installWwiseNames } from '../core/assets/sound/wwise/install-names.js';
import { hasMediaNamedById, installMediaNames, mediumIdOfPath, mediumLabel } from '../core/assets/sound/wwise/install-labels.js';
import { emptyNames, type WwiseNames } from '../core/assets/sound/wwise/names.js';
import { bankListing, bankMediaSound, wemIdOfPath, withWwiseNames } from '../core/assets/sound/wwise/soundbank.js';
import { assetKindOfFile } from '../core/assets/index.js';
import type { LocalizationView, RegistryView } from '../shared/data-api.js';
import type { Sound } from '../core/assets/sound/types.js';
import { soundView } from './sounds.js';
import { readSoundCue } from '../core/assets/sound/cue.js';
import type { ConvertOptions } from '../core/assets/registry.js';
import { packageOfObjectPath } from '../core/package/object-path.js';
import { fontKind } from '../core/assets/font/kind.js';
import { readMidi } from '../core/assets/midi/read.js';
import { midiKind } from '../core/assets/midi/kind.js';
import { spriteKind } from '../core/assets/sprite/kind.js';
import { readSprite, spriteImage } from '../core/assets/sprite/read.js';
import { encodePng } from '../core/assets/texture/png.js';
import { packageFontView, plainFontView } from './fonts.js';
import { packageAssets } from './assets.js';
import type {
  GraphDirection, GraphFindView, GraphPathView, GraphStatsView, MappingsStatus, PackageGraphView, PackagePropertiesView, PackageView,
} from '../shared/package-api.js';
import type { ChangeListFile, ComparisonSummary, PackageComparison } from '../shared/compare-api.js';
import { CompareService, type ComparedSide } from './compare.js';
import type { Dialogs } from './dialogs.js';
import { ExportService } from './export.js';
import { FileKeyStore, KeyService, type KeyStore } from './keys.js';
import { GraphService } from './graph.js';
import { PackageService } from './packages.js';
import { readAssetTable } from './asset-table.js';
import { readMaterialView } from './asset-material.js';
import { LevelService } from './asset-level.js';
import { readMetaSoundView, readNiagaraView } from './asset-effect.js';
import { readSequenceView } from './asset-sequence.js';
import { landscapeFile, readLandscapeView } from './asset-landscape.js';
import type { LandscapeView } from '../shared/landscape-api.js';
import { readLocalization, readRegistryView } from './game-data.js';
import { RegistryFactsService } from './registry-facts.js';
import { readAssetText } from './asset-text.js';
import { MappingsService, MappingsStore, PropertiesService } from './properties.js';
import { checkOpenable, PathGrants } from './path-grants.js';
import { RecentList } from './recent.js';
import { SaveService } from './save-conversion.js';
import { TextureService } from './textures.js';
import { MeshService, type MeshReader } from './meshes.js';
import { AnimService } from './anims.js';
import { readMesh } from '../core/assets/mesh/kind.js';
import { describeFile, summarizeInstall, toTreeEntry } from './summary.js';
import { SearchService } from './search.js';
import type { SearchRequest, SearchStarted, SizeMapRequest, SizeMapView } from '../shared/search-api.js';

/** readFile answers at most this many bytes per call; the UI pages through bigger files. */
export const MAX_READ = 16 * 1024 * 1024;
/** Progress events are sent at most this often (ms), except the first and the last. */
const PROGRESS_INTERVAL_MS = 100;

/** Containers that can decode part of a file (IoStore's readChunkRange). */
type RangeReadable = Archive & { readChunkRange?(ref: number, offset: number, length: number, signal?: AbortSignal): Promise<Uint8Array> };

export type OpenInstallFn = (paths: string[], opts?: OpenInstallOptions) => Promise<Install>;

export interface BackendOptions {
  /** Folder for recent.json (Electron: userData; browser host: ~/.config/pakscope). */
  configDir: string;
  /** How long a listing of Wwise media waits for the install's names (ms; default WWISE_NAMES_WAIT_MS). */
  wwiseNamesWaitMs?: number;
  /** Read an install's Wwise names as soon as it opens (default true; false leaves them to the first listing of its media). */
  wwiseNamesAtOpen?: boolean;
  dialogs: Dialogs;
  /** What appInfo() reports besides the Node version. */
  info: Omit<AppInfo, 'node'>;
  /** Block decoder for openInstall, e.g. the worker pool; core's inline decoder when absent. */
  decoder?: BlockDecoder;
  /** The core openInstall; tests pass a stub. */
  openInstall?: OpenInstallFn;
  /** Where AES keys are remembered per install; by default keys.json (mode 0600) in configDir. */
  keyStore?: KeyStore;
  /** Tests: every path may be opened, as if the user had given it (path-grants.ts). */
  anyPath?: boolean;
  /** The mesh reader; the mesh kind's by default. Tests pass hand-made meshes. */
  readMesh?: MeshReader;
}

interface OpenEntry {
  id: string;
  /** The keys it was opened with (trimmed); keys only ever add, so fewer keys reuse it. */
  keys: ReadonlySet<string>;
  root: string;
  /** Resolves once the install is indexed; rejects with the reason it could not be opened. */
  ready: Promise<{ install: Install; summary: InstallSummary }>;
  abort: AbortController;
  install?: Install;
}

/** Whether the install's Wwise metadata and event assets named anything. */
const anyWwiseNames = (n: WwiseNames): boolean => n.events.size > 0 || n.media.size > 0 || n.mediaEvents.size > 0;

/** How long a listing of Wwise media waits for the install's names before it answers without them. */
const WWISE_NAMES_WAIT_MS = 1500;

export class Backend implements PakScopeApi {
  private readonly installs = new Map<string, OpenEntry>();
  private readonly listeners = new Set<(event: ApiEvent) => void>();
  private readonly recent: RecentList;
  private readonly openFn: OpenInstallFn;
  private readonly exports: ExportService;
  private readonly keys: KeyService;
  private readonly packages = new PackageService();
  private readonly graphs = new GraphService(this.packages);
  private readonly properties = new PropertiesService(this.packages);
  private readonly mappings: MappingsService;
  private readonly grants: PathGrants;
  private readonly textures: TextureService;
  private readonly meshes: MeshService;
  private readonly levels = new LevelService();
  private readonly anims: AnimService;
  private readonly saves: SaveService;
  private readonly comparisons: CompareService;
  private readonly searches: SearchService;
  private readonly registryFacts: RegistryFactsService;
  /** Per install: what its Wwise metadata and event assets name of its media (read once, when a medium named by id is first listed or opened). */
  private readonly wwiseLabels = new Map<string, Promise<WwiseNames>>();
  /** The same once read. */
  private readonly wwiseNamesKnown = new Map<string, WwiseNames>();

  constructor(private readonly opts: BackendOptions) {
    this.recent = new RecentList(opts.configDir);
    const confirm = opts.dialogs.confirmOpen?.bind(opts.dialogs);
    this.grants = new PathGrants({ ...(confirm ? { confirm } : {}), ...(opts.anyPath ? { anyPath: true } : {}) });
    this.openFn = opts.openInstall ?? coreOpenInstall;
    this.exports = new ExportService({
      emit: (e) => this.emit(e), pickedOnly: opts.dialogs.pickExportFolder !== undefined, ...(isWorkerPool(opts.decoder) ? { pool: opts.decoder } : {}),
    });
    this.keys = new KeyService(opts.keyStore ?? new FileKeyStore(opts.configDir), opts.decoder);
    this.mappings = new MappingsService(new MappingsStore(opts.configDir), opts.dialogs.pickMappingsFile !== undefined);
    this.textures = new TextureService({
      packages: this.packages,
      pool: poolOf(opts.decoder),
      mappings: async (installId) => {
        const entry = this.installs.get(installId);
        return entry ? (await this.mappings.forInstall(entry.root))?.usmap : undefined;
      },
    });
    this.registryFacts = new RegistryFactsService({
      pool: poolOf(opts.decoder),
      onReady: (installId) => this.emit({ type: 'registry-ready', installId }),
    });
    this.meshes = new MeshService({
      packages: this.packages,
      read: opts.readMesh ?? readMesh,
      pool: poolOf(opts.decoder),
      mappings: async (installId) => {
        const entry = this.installs.get(installId);
        return entry ? (await this.mappings.forInstall(entry.root))?.usmap : undefined;
      },
    });
    this.anims = new AnimService({
      packages: this.packages,
      mappings: async (installId) => {
        const entry = this.installs.get(installId);
        return entry ? (await this.mappings.forInstall(entry.root))?.usmap : undefined;
      },
    });
    this.saves = new SaveService(opts.dialogs.pickSaveFile !== undefined);
    const pool = poolOf(opts.decoder);
    this.comparisons = new CompareService(pool ? { digest: (data) => pool.digest(data) } : {});
    this.searches = new SearchService({ configDir: opts.configDir, emit: (e) => this.emit(e), ...(poolOf(opts.decoder) ? { pool: poolOf(opts.decoder)! } : {}) });
  }

  // ---- events ----

  onEvent(listener: (event: ApiEvent) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  emit(event: ApiEvent): void {
    for (const l of [...this.listeners]) {
      try {
        l(event);
      } catch {
        // One broken listener (a closed window, a dropped SSE client) must not stop the others.
      }
    }
  }

  /**
   * A path the user gave outside the page: the command line, a second launch, a file dropped on
   * the window (Electron's preload), the path given to `npm run web`. The page may open it.
   */
  grantPath(path: string): void {
    this.grants.grant(path);
  }

  // ---- API ----

  async appInfo(): Promise<AppInfo> {
    return { ...this.opts.info, node: process.versions.node };
  }

  /**
   * Opens a folder or a container file. Opening the same path with the same keys again answers
   * the install already open (the browser host opens the start-up install before the page asks).
   */
  async openInstall(req: { path: string; aesKeys?: string[]; confirmed?: boolean }): Promise<InstallSummary> {
    if (req.path.trim() === '') throw new RequestError('no path given: choose a game folder or a container file');
    const root = resolve(req.path.trim());
    const keys = KeyRing.fromArgs(req.aesKeys ?? []); // throws KeyError on a malformed key, before any file is touched
    // Only paths the user gave, asked before the disk is (the answer must not tell what exists).
    await this.grants.permit(root, 'install', req.confirmed === true,
      async () => [...(await this.recent.list()), ...[...this.installs.values()].map((e) => e.root)]);
    await checkOpenable(root);
    const asked = (req.aesKeys ?? []).map((k) => k.trim());
    // The same install, opened with these keys or more (the browser host opens it with the
    // command line's keys, then the page asks for it by path alone), is the one already open.
    // Of several, the one opened with the most keys (the most unlocked).
    let best: OpenEntry | undefined;
    for (const entry of this.installs.values()) {
      if (entry.root === root && asked.every((k) => entry.keys.has(k)) && entry.keys.size >= (best?.keys.size ?? -1)) best = entry;
    }
    if (best) return best.ready.then((r) => r.summary);
    const id = randomUUID();
    const abort = new AbortController();
    const entry: OpenEntry = { id, keys: new Set(asked), root, abort, ready: undefined as never };
    entry.ready = this.load(entry, keys);
    this.installs.set(id, entry);
    // A failed open leaves nothing behind, so the user can fix the cause and try again.
    entry.ready.catch(() => { if (this.installs.get(id) === entry) this.installs.delete(id); });
    return entry.ready.then((r) => r.summary);
  }

  private async load(entry: OpenEntry, keys: KeyRing): Promise<{ install: Install; summary: InstallSummary }> {
    const progress = this.progressReporter(entry.id);
    await this.keys.addRemembered(entry.root, keys); // keys remembered for this install apply by themselves
    const options: OpenInstallOptions = { keys, onProgress: progress, signal: entry.abort.signal };
    if (this.opts.decoder) options.decoder = this.opts.decoder;
    let install: Install;
    try {
      install = await this.openFn([entry.root], options);
    } catch (e) {
      throw new Error(`cannot open ${entry.root}: ${messageOf(e)}`, { cause: e });
    }
    if (entry.abort.signal.aborted) {
      await install.close().catch(() => undefined);
      throw new Error(`opening ${entry.root} was cancelled`);
    }
    // The worker threads start while the user looks at the tree, not at the first read.
    void (this.opts.decoder as Partial<WorkerPool> | undefined)?.warm?.().catch(() => undefined);
    // The path itself is unusable (missing, unreadable): an error, not an empty install.
    const rootProblem = install.problems.find((p) => p.fatal && resolve(p.path) === entry.root);
    if (rootProblem && install.archives.length === 0) {
      await install.close().catch(() => undefined);
      // A FormatError's message already names the file; others get the path in front.
      // The request's fault (an unreadable path), not PakScope's: a 4xx in the browser host.
      throw new RequestError(rootProblem.message.includes(entry.root) ? rootProblem.message : `cannot open ${entry.root}: ${rootProblem.message}`);
    }
    const summary = summarizeInstall(entry.id, entry.root, install);
    // A folder with nothing the app reads: say so and what was looked for, not an empty tree.
    if (summary.containers.length === 0) {
      await install.close().catch(() => undefined);
      throw new RequestError(`no game files in ${entry.root}: looked for IoStore containers (.utoc with its .ucas), .pak archives and loose packages (.uasset/.umap with their .uexp/.ubulk, UE1/2 packages such as .u, .unr, .utx) in it and every folder below it`);
    }
    entry.install = install;
    if (this.opts.wwiseNamesAtOpen !== false) this.readWwiseNamesSoon(entry, install);
    progress({ phase: 'done', done: summary.fileCount, total: summary.fileCount }, true);
    await this.recent.add(entry.root).catch(() => undefined); // a read-only config folder must not fail the open
    return { install, summary };
  }

  private progressReporter(installId: string): (p: InstallProgress, force?: boolean) => void {
    let last = 0;
    return (p, force = false) => {
      const now = Date.now();
      if (!force && last !== 0 && now - last < PROGRESS_INTERVAL_MS && p.phase !== 'done') return;
      last = now;
      const event: ApiEvent = { type: 'progress', installId, phase: p.phase, done: p.done, total: p.total };
      if (p.current !== undefined) event.current = p.current;
      this.emit(event);
    };
  }

  async closeInstall(req: { installId: string }): Promise<void> {
    const entry = this.installs.get(req.installId);
    if (!entry) return; // closing twice is harmless
    this.installs.delete(req.installId);
    this.comparisons.forgetInstall(req.installId);
    entry.abort.abort();
    await this.exports.cancelInstall(req.installId);
    this.graphs.forget(req.installId);
    this.searches.forget(req.installId);
    this.registryFacts.forget(req.installId);
    this.wwiseLabels.delete(req.installId);
    this.wwiseNamesKnown.delete(req.installId);
    this.textures.forget(req.installId);
    this.meshes.forget(req.installId);
    this.levels.forget(req.installId);
    this.anims.forget(req.installId);
    await this.packages.forget(req.installId);
    const opened = await entry.ready.catch(() => null);
    await opened?.install.close();
  }

  async listDir(req: { installId: string; path: string; filter?: string }): Promise<TreeEntry[]> {
    const install = await this.install(req.installId);
    const filter = req.filter?.trim() || undefined;
    const entries = install.listDir(normalizeDir(req.path), filter).map(toTreeEntry);
    // Wwise media named by id get the name of the events that play them, where the install says.
    if (entries.some((e) => !e.isDir && mediumIdOfPath(e.path) !== undefined)) {
      // Reading every event asset of a large game takes a while: the listing does not wait long
      // for it, and the page lists again when the names are known (wwise-names-ready).
      const pending = this.wwiseNamesOf(req.installId, install);
      const wait = this.opts.wwiseNamesWaitMs ?? WWISE_NAMES_WAIT_MS;
      let timer: ReturnType<typeof setTimeout> | undefined;
      const names = this.wwiseNamesKnown.get(req.installId)
        ?? (wait > 0 ? await Promise.race([pending, new Promise<undefined>((r) => { timer = setTimeout(() => r(undefined), wait); })]) : undefined);
      clearTimeout(timer);
      if (!names) {
        void pending.then(() => { if (this.wwiseLabels.get(req.installId) === pending) this.emit({ type: 'wwise-names-ready', installId: req.installId }); });
        return entries;
      }
      for (const e of entries) {
        const id = e.isDir ? undefined : mediumIdOfPath(e.path);
        const label = id === undefined ? undefined : mediumLabel(names, id);
        if (label) e.label = label;
      }
    }
    return entries;
  }

  /**
   * The tree's filter finds Wwise media by the events and original files of their labels from the
   * start, not only once a folder of them has been listed: the install's names are read as soon
   * as it opens, after the open has answered (an install with no medium named by id reads nothing
   * more than its file list). The page lists again when they are known.
   */
  private readWwiseNamesSoon(entry: OpenEntry, install: Install): void {
    setTimeout(() => {
      if (this.installs.get(entry.id) !== entry) return;
      void this.wwiseNamesOf(entry.id, install).then((names) => {
        if (anyWwiseNames(names) && this.installs.get(entry.id) === entry) this.emit({ type: 'wwise-names-ready', installId: entry.id });
      });
    }, 0);
  }

  private wwiseNamesOf(installId: string, install: Install): Promise<WwiseNames> {
    let names = this.wwiseLabels.get(installId);
    if (!names) {
      names = (async () => {
        // A close aborts the read (its signal is checked before each file): a closed install is not read.
        const entry = this.installs.get(installId);
        // An install without media named by id (most) reads nothing more, not even its mappings.
        if (!entry || !hasMediaNamedById(install)) return emptyNames();
        const { signal } = entry.abort;
        const mappings = (await this.mappings.forInstall(entry.root).catch(() => undefined))?.usmap;
        signal.throwIfAborted();
        return installMediaNames(this.packages.packagesOf(installId, install), { signal, ...(mappings ? { mappings } : {}) });
      })().catch(() => emptyNames()).then((read) => {
        // Only the names of the install as it still is (not closed or changed meanwhile).
        if (this.wwiseLabels.get(installId) === names) {
          this.wwiseNamesKnown.set(installId, read);
          // The tree's filter finds a medium by the events that play it, as its label shows them
          // (a walk of every path: only where there are names to find).
          if (anyWwiseNames(read)) install.setFilterLabels((path) => {
            const id = mediumIdOfPath(path);
            return id === undefined ? undefined : mediumLabel(read, id);
          });
        }
        return read;
      });
      this.wwiseLabels.set(installId, names);
    }
    return names;
  }

  async fileDetails(req: { installId: string; path: string }): Promise<FileDetails> {
    const install = await this.install(req.installId);
    const file = this.file(install, req.path);
    const details = describeFile(file);
    // A package the install's asset registry lists: its class and tags, without opening it. The
    // registry is read in the background: until it is, the answer says so (a registry-ready event follows).
    if (/\.(uasset|umap)$/i.test(file.path) && this.registryFacts.hasRegistry(install)) {
      const pkg = this.packages.packagesOf(req.installId, install).index.ofFile(file);
      const facts = pkg ? this.registryFacts.factsIfRead(req.installId, install, pkg.name) : [];
      if (facts === undefined) details.registryLoading = true;
      else if (facts.length > 0) details.registry = facts;
    }
    return details;
  }

  async readFile(req: { installId: string; path: string; offset?: number; length?: number }): Promise<{ bytes: Uint8Array; total: number }> {
    const install = await this.install(req.installId);
    const file = this.file(install, req.path);
    const winner = file.providers[0]!;
    const offset = req.offset ?? 0;
    const length = Math.min(req.length ?? MAX_READ, MAX_READ);
    if (offset > file.size) throw new RequestError(`${file.path}: offset ${offset} is past the end of the file (${file.size} bytes)`);
    const archive = winner.archive as RangeReadable;
    if (typeof archive.readChunkRange === 'function') {
      // IoStore decodes only the blocks that cover the range: the hex view of a 2 GiB chunk stays cheap.
      return { bytes: await archive.readChunkRange(winner.file.ref, offset, length), total: file.size };
    }
    const data = await archive.read(winner.file.ref);
    // Copy, so the caller never holds (and transfers) a view into a whole decompressed file.
    return { bytes: data.slice(offset, Math.min(offset + length, data.length)), total: data.length };
  }

  async verifyFile(req: { installId: string; path: string }): Promise<HashCheck | null> {
    const install = await this.install(req.installId);
    const winner = this.file(install, req.path).providers[0]!;
    return winner.archive.verify(winner.file.ref);
  }

  recentInstalls(): Promise<string[]> {
    return this.recent.list();
  }

  async pickPath(req: { kind: 'folder' | 'file' }): Promise<string | null> {
    return this.grants.grant(await (req.kind === 'folder' ? this.opts.dialogs.pickFolder() : this.opts.dialogs.pickFile()));
  }

  // ---- export and keys (export.ts, keys.ts) ----

  async pickExportFolder(): Promise<string | null> {
    return this.exports.notePicked((await this.opts.dialogs.pickExportFolder?.()) ?? null);
  }

  async startExport(req: ExportRequest): Promise<ExportStarted> {
    const { entry, install } = await this.opened(req.installId);
    // JSON and converted exports read unversioned packages with the install's mappings, as the Properties and asset tabs do.
    const mappings = req.format !== 'raw' ? (await this.mappings.forInstall(entry.root))?.usmap : undefined;
    return this.exports.start(install, installName(entry.root), req, mappings);
  }

  cancelExport(req: { exportId: string }): Promise<void> {
    return this.exports.cancel(req.exportId);
  }

  async exportFileList(req: FileListRequest): Promise<FileListWritten> {
    const { entry, install } = await this.opened(req.installId);
    return this.exports.fileList(install, installName(entry.root), req);
  }

  async keyStatus(req: { installId: string }): Promise<KeyStatus> {
    const { entry, install } = await this.opened(req.installId);
    return this.keys.status(install, entry.root);
  }

  async addKeys(req: { installId: string; keys: string[] }): Promise<AddKeysResult> {
    const { entry, install, loaded } = await this.opened(req.installId);
    const added = await this.keys.add(install, entry.root, req.keys);
    // The install changed in place: later openInstall calls for it answer the new summary.
    loaded.summary = summarizeInstall(entry.id, entry.root, install);
    this.graphs.forget(entry.id); // new containers: new packages and edges
    this.comparisons.forgetInstall(entry.id);
    this.searches.forget(entry.id);
    this.wwiseLabels.delete(entry.id);
    this.wwiseNamesKnown.delete(entry.id);
    this.textures.forget(entry.id);
    this.meshes.forget(entry.id);
    this.levels.forget(entry.id);
    this.anims.forget(entry.id);
    await this.packages.forget(entry.id);
    return { ...added, summary: loaded.summary, status: await this.keys.status(install, entry.root) };
  }

  async forgetKey(req: { installId: string; keyId: string }): Promise<KeyStatus> {
    const { entry, install } = await this.opened(req.installId);
    await this.keys.forget(entry.root, req.keyId);
    return this.keys.status(install, entry.root);
  }

  // ---- packages and the dependency graph (packages.ts, graph.ts) ----

  async openPackage(req: { installId: string; path: string; engine?: string }): Promise<PackageView> {
    return this.packages.open(req.installId, await this.install(req.installId), req);
  }

  async readPackageBytes(req: { installId: string; path: string; offset?: number; length?: number }): Promise<{ bytes: Uint8Array; total: number }> {
    return this.packages.readBytes(req.installId, await this.install(req.installId), req);
  }

  async packageGraph(req: { installId: string; package: string; direction: GraphDirection; depth?: number }): Promise<PackageGraphView> {
    return this.graphs.view(req.installId, await this.install(req.installId), req);
  }

  // ---- search and size map (search.ts) ----

  async startSearch(req: SearchRequest): Promise<SearchStarted> {
    return this.searches.start(req.installId, await this.install(req.installId), req);
  }

  async cancelSearch(req: { searchId: string }): Promise<void> {
    this.searches.cancel(req.searchId);
  }

  async sizeMap(req: SizeMapRequest): Promise<SizeMapView> {
    return this.searches.sizeMap(req.installId, await this.install(req.installId), req);
  }

  async graphStats(req: { installId: string }): Promise<GraphStatsView> {
    return this.graphs.stats(req.installId, await this.install(req.installId));
  }

  async graphPath(req: { installId: string; from: string; to: string }): Promise<GraphPathView> {
    return this.graphs.path(req.installId, await this.install(req.installId), req);
  }

  async graphFind(req: { installId: string; query: string; limit?: number }): Promise<GraphFindView> {
    return this.graphs.find(req.installId, await this.install(req.installId), req);
  }

  // ---- properties and mappings (properties.ts) ----

  async packageProperties(req: { installId: string; path: string; engine?: string; culture?: string }): Promise<PackagePropertiesView> {
    const { entry, install } = await this.opened(req.installId);
    return this.properties.view(req.installId, install, req, await this.mappings.forInstall(entry.root));
  }

  async mappingsStatus(req: { installId: string }): Promise<MappingsStatus> {
    const { entry } = await this.opened(req.installId);
    return this.mappings.status(entry.root);
  }

  async setMappings(req: { installId: string; path: string; confirmed?: boolean }): Promise<MappingsStatus> {
    const { entry } = await this.opened(req.installId);
    if (req.path.trim() !== '') {
      // The file in use already may be chosen again; any other only as openInstall allows.
      await this.grants.permit(req.path.trim(), 'mappings', req.confirmed === true, async () => {
        const current = await this.mappings.store.load(entry.root);
        return current === null ? [] : [current];
      });
    }
    return this.mappings.set(entry.root, req.path);
  }

  async pickMappings(req: { installId: string }): Promise<MappingsStatus | null> {
    const { entry } = await this.opened(req.installId);
    const path = this.grants.grant((await this.opts.dialogs.pickMappingsFile?.()) ?? null);
    return path === null ? null : this.mappings.set(entry.root, path);
  }

  // ---- asset previews (textures.ts, save-conversion.ts) ----

  async textureInfo(req: AssetRequest): Promise<TextureView> {
    return this.textures.info(await this.install(req.installId), req);
  }

  async texturePixels(req: TexturePixelsRequest): Promise<TexturePixels> {
    return this.textures.pixels(await this.install(req.installId), req);
  }

  async soundCue(req: AssetRequest): Promise<SoundCueView> {
    const install = await this.install(req.installId);
    const entry = this.installs.get(req.installId);
    const mappings = entry ? (await this.mappings.forInstall(entry.root))?.usmap : undefined;
    const packages = this.packages.packagesOf(req.installId, install);
    const loc = this.packages.locate(packages, req.path);
    const { model } = await packages.open(loc, req.engine?.trim() ? { engine: req.engine.trim() } : {});
    const cue = packageAssets(model).find((a) => a.view === 'soundcue' && (req.exportIndex === undefined || a.exportIndex === req.exportIndex));
    if (!cue) throw new RequestError(`${req.path}: ${req.exportIndex !== undefined ? `export ${req.exportIndex} is no SoundCue` : 'no export of this package is a SoundCue'}`);
    const g = await readSoundCue({ packages, ref: loc.path }, cue.exportIndex, { ...(mappings ? { mappings } : {}), ...(req.engine?.trim() ? { engine: req.engine.trim() } : {}) });
    return {
      ...g, path: req.path, exportIndex: cue.exportIndex,
      nodes: g.nodes.map((n) => (n.soundPackage ? { ...n, soundPath: packages.index.byPackageName(n.soundPackage)?.file.path ?? null } : n)),
    };
  }

  async fontInfo(req: AssetRequest): Promise<FontView> {
    const install = await this.install(req.installId);
    if (assetKindOfFile(req.path)?.kind === 'font') {
      const { path, bytes } = await this.plainBytes(install, req.path);
      return plainFontView(path, bytes);
    }
    const { packages, loc, exportIndex, opts } = await this.kindExport(req, install, 'font', 'font');
    return packageFontView({ packages, path: loc.path, exportIndex, ...opts });
  }

  async spriteInfo(req: AssetRequest): Promise<SpriteView> {
    const { packages, exportIndex, source, opts } = await this.kindExport(req, await this.install(req.installId), 'sprite', 'Paper2D sprite');
    const sprite = await readSprite(source, exportIndex, opts);
    const { file: _file, ...facts } = sprite;
    const texturePath = sprite.texture ? packages.index.byPackageName(packageOfObjectPath(sprite.texture))?.file.path ?? null : null;
    try {
      return { ...facts, path: req.path, exportIndex, texturePath, png: encodePng(await spriteImage(source, sprite, opts)) };
    } catch (e) {
      return { ...facts, path: req.path, exportIndex, texturePath, error: e instanceof Error ? e.message : String(e) };
    }
  }

  async midiInfo(req: AssetRequest): Promise<MidiView> {
    const { exportIndex, source, opts } = await this.kindExport(req, await this.install(req.installId), 'midi', 'MidiFile');
    const song = await readMidi(source, exportIndex, opts);
    return { ...song, path: req.path, exportIndex };
  }

  /** The export of the registry's view `view` a request names (the first by default), with the install's mappings. */
  private async kindExport(req: AssetRequest, install: Install, view: string, what: string) {
    const found = await this.findKindExport(req, install, view, 'first of the view');
    if (!found) throw new RequestError(`${req.path}: ${req.exportIndex !== undefined ? `export ${req.exportIndex} is no ${what}` : `no export of this package is a ${what}`}`);
    return found;
  }

  /**
   * The export of the registry's view `view` a request names, or undefined when it is not one;
   * without an export index, the first of the view or the package's first asset (which must be
   * of the view). The package is opened once.
   */
  private async findKindExport(req: AssetRequest, install: Install, view: string, byDefault: 'first of the view' | 'first asset') {
    const entry = this.installs.get(req.installId);
    const mappings = entry ? (await this.mappings.forInstall(entry.root))?.usmap : undefined;
    const packages = this.packages.packagesOf(req.installId, install);
    const loc = this.packages.locate(packages, req.path);
    const { model } = await packages.open(loc, req.engine?.trim() ? { engine: req.engine.trim() } : {});
    const assets = packageAssets(model);
    const found = req.exportIndex !== undefined ? assets.find((a) => a.exportIndex === req.exportIndex)
      : byDefault === 'first asset' ? assets[0] : assets.find((a) => a.view === view);
    if (found?.view !== view) return undefined;
    const opts: ConvertOptions = { ...(mappings ? { mappings } : {}), ...(req.engine?.trim() ? { engine: req.engine.trim() } : {}) };
    return { packages, loc, exportIndex: found.exportIndex, mappings, source: { packages, ref: loc.path }, opts };
  }

  /** A font saved as its file, through the font kind (a package's FontFace, or a loose .ufont). */
  private async fontFileOf(install: Install, req: SaveConversionRequest): Promise<Uint8Array> {
    try {
      if (assetKindOfFile(req.path)?.kind === 'font') {
        const { path, bytes } = await this.plainBytes(install, req.path);
        return (await fontKind.convertFile!({ path, bytes }, req.format, {}))[0]!.data;
      }
      const { exportIndex, source, opts } = await this.kindExport(req, install, 'font', 'font');
      const files = await fontKind.convert!(source, exportIndex, req.format, opts);
      if (files.length !== 1 || files[0]!.extension !== req.format) throw new RequestError(`${req.path}: not one .${req.format} font file (save its faces one by one)`);
      return files[0]!.data;
    } catch (e) {
      if (e instanceof RangeError) throw new RequestError(`${req.path}: ${e.message}`);
      throw e;
    }
  }

  async soundBank(req: AssetRequest): Promise<SoundBankView> {
    const install = await this.install(req.installId);
    const { path, bytes } = await this.plainBytes(install, req.path);
    const bank = parseBank(bytes, path);
    const names = await installWwiseNames(install, path, bank.events.map((e) => e.id));
    return { path, ...bankListing(bytes, path, names) };
  }

  async soundWav(req: AssetRequest): Promise<SoundWav> {
    const v = await soundView(await this.readSoundOf(await this.install(req.installId), req), req.path, undefined, poolOf(this.opts.decoder), { whole: true });
    if (!v.wav) throw new RequestError(`${v.name}: ${v.decodeError ?? `${v.format} does not decode`}`);
    return { wav: v.wav, notes: v.notes };
  }

  async soundInfo(req: AssetRequest): Promise<SoundView> {
    return soundView(await this.readSoundOf(await this.install(req.installId), req), req.path, undefined, poolOf(this.opts.decoder));
  }

  async meshInfo(req: AssetRequest): Promise<MeshView> {
    return this.meshes.info(await this.install(req.installId), req);
  }

  async meshGeometry(req: MeshGeometryRequest): Promise<MeshGeometry> {
    return this.meshes.geometry(await this.install(req.installId), req);
  }

  async animInfo(req: AssetRequest): Promise<AnimView> {
    return this.anims.info(await this.install(req.installId), req);
  }

  async assetText(req: AssetRequest): Promise<AssetText> {
    const install = await this.install(req.installId);
    return readAssetText(this.packages.packagesOf(req.installId, install), this.packages, req);
  }

  async assetTable(req: AssetTableRequest): Promise<AssetTable> {
    const install = await this.install(req.installId);
    const entry = this.installs.get(req.installId);
    const mappings = entry ? (await this.mappings.forInstall(entry.root))?.usmap : undefined;
    return readAssetTable(this.packages.packagesOf(req.installId, install), this.packages, req, mappings);
  }

  async materialInfo(req: AssetRequest): Promise<MaterialView> {
    const install = await this.install(req.installId);
    const entry = this.installs.get(req.installId);
    const mappings = entry ? (await this.mappings.forInstall(entry.root))?.usmap : undefined;
    return readMaterialView(this.packages.packagesOf(req.installId, install), this.packages, req, mappings);
  }

  async metaSoundInfo(req: AssetRequest): Promise<MetaSoundView> {
    const install = await this.install(req.installId);
    const entry = this.installs.get(req.installId);
    const mappings = entry ? (await this.mappings.forInstall(entry.root))?.usmap : undefined;
    return readMetaSoundView(this.packages.packagesOf(req.installId, install), this.packages, req, mappings);
  }

  async niagaraInfo(req: AssetRequest): Promise<NiagaraView> {
    const install = await this.install(req.installId);
    const entry = this.installs.get(req.installId);
    const mappings = entry ? (await this.mappings.forInstall(entry.root))?.usmap : undefined;
    return readNiagaraView(this.packages.packagesOf(req.installId, install), this.packages, req, mappings);
  }

  async landscapeInfo(req: AssetRequest): Promise<LandscapeView> {
    const install = await this.install(req.installId);
    const entry = this.installs.get(req.installId);
    const mappings = entry ? (await this.mappings.forInstall(entry.root))?.usmap : undefined;
    return readLandscapeView(this.packages.packagesOf(req.installId, install), this.packages, req, mappings);
  }

  async levelInfo(req: AssetRequest): Promise<LevelView> {
    const install = await this.install(req.installId);
    const entry = this.installs.get(req.installId);
    const mappings = entry ? (await this.mappings.forInstall(entry.root))?.usmap : undefined;
    return this.levels.view(this.packages.packagesOf(req.installId, install), this.packages, req, mappings);
  }

  async sequenceInfo(req: AssetRequest): Promise<SequenceView> {
    const install = await this.install(req.installId);
    const entry = this.installs.get(req.installId);
    const mappings = entry ? (await this.mappings.forInstall(entry.root))?.usmap : undefined;
    return readSequenceView(this.packages.packagesOf(req.installId, install), this.packages, req, mappings);
  }

  async levelScene(req: LevelSceneRequest): Promise<LevelScene> {
    const install = await this.install(req.installId);
    const entry = this.installs.get(req.installId);
    const mappings = entry ? (await this.mappings.forInstall(entry.root))?.usmap : undefined;
    return this.levels.scene(this.packages.packagesOf(req.installId, install), this.packages, req, mappings);
  }

  async localization(req: { installId: string; path: string }): Promise<LocalizationView> {
    return readLocalization(await this.install(req.installId), req.path === '' ? '' : normalizeFile(req.path));
  }

  async assetRegistry(req: { installId: string; path: string }): Promise<RegistryView> {
    const install = await this.install(req.installId);
    return readRegistryView(install, this.packages.packagesOf(req.installId, install), normalizeFile(req.path));
  }

  async assetThumbnail(req: ThumbnailRequest): Promise<AssetThumbnail> {
    return this.textures.thumbnail(await this.install(req.installId), req);
  }

  async pickSaveFile(req: { name: string; format: ConversionFormat }): Promise<string | null> {
    return this.saves.notePicked((await this.opts.dialogs.pickSaveFile?.(req)) ?? null);
  }

  async saveConversion(req: SaveConversionRequest): Promise<SavedConversion> {
    const install = await this.install(req.installId);
    const file = await this.saves.destination(install, req);
    if ((SOUND_CONVERSION_FORMATS as readonly string[]).includes(req.format)) return this.saves.write(file, await this.soundFile(install, req), req.conflict);
    if ((FONT_CONVERSION_FORMATS as readonly string[]).includes(req.format)) return this.saves.write(file, await this.fontFileOf(install, req), req.conflict);
    if (req.format === 'mid') {
      const { exportIndex, source, opts } = await this.kindExport(req, install, 'midi', 'MidiFile');
      const [mid] = await midiKind.convert!(source, exportIndex, 'mid', opts);
      return this.saves.write(file, mid!.data, req.conflict);
    }
    // A .png of a package whose asset is a sprite (a plain file is a texture's concern).
    const sprite = req.format === 'png' && !assetKindOfFile(req.path) ? await this.findKindExport(req, install, 'sprite', 'first asset') : undefined;
    if (sprite) {
      const [png] = await spriteKind.convert!(sprite.source, sprite.exportIndex, 'png', sprite.opts);
      return this.saves.write(file, png!.data, req.conflict);
    }
    // A .png or .glb of a landscape actor: its heightmap (or a layer) or its terrain.
    const landscape = (req.format === 'png' || req.format === 'glb') && !assetKindOfFile(req.path) ? await this.findKindExport(req, install, 'landscape', 'first asset') : undefined;
    if (landscape) return this.saves.write(file, await landscapeFile(landscape.packages, this.packages, req, landscape.mappings), req.conflict);
    if (req.format === 'glb') {
      const glb = await this.anims.isAnim(install, req) ? await this.anims.convert(install, req) : await this.meshes.convert(install, req);
      return this.saves.write(file, glb, req.conflict);
    }
    const view = await this.textures.info(install, req);
    if (!view.converts.includes(req.format)) throw new RequestError(`${view.name} (${view.pixelFormat}) does not convert to .${req.format}: ${view.converts.map((c) => `.${c}`).join(', ')}`);
    const bytes = await this.textures.convert(install, req);
    return this.saves.write(file, bytes, req.conflict);
  }

  /** A sound saved as a decoded WAV or as stored, through the sound kind. */
  private async soundFile(install: Install, req: SaveConversionRequest): Promise<Uint8Array> {
    const sound = await this.readSoundOf(install, req);
    try {
      return (await convertSound(sound, req.format, undefined, poolOf(this.opts.decoder))).data;
    } catch (e) {
      if (e instanceof RangeError) throw new RequestError(`${sound.name}: ${e.message}`);
      throw e;
    }
  }

  /** The sound of a package as the sound kind reads it, with the install's mappings; or a plain .wem file. */
  private async readSoundOf(install: Install, req: AssetRequest): Promise<Sound> {
    const plain = assetKindOfFile(req.path)?.kind;
    if (plain === 'sound') {
      const { path, bytes } = await this.plainBytes(install, req.path);
      const sound = wemSound(bytes, baseName(path), path);
      const id = wemIdOfPath(path);
      return id === undefined ? sound : withWwiseNames(sound, id, await this.wwiseNamesOf(req.installId, install));
    }
    if (plain === 'soundbank') {
      if (req.mediaId === undefined) throw new RequestError(`${req.path} is a sound bank: name one of its media (mediaId)`);
      const { path, bytes } = await this.plainBytes(install, req.path);
      const names = await installWwiseNames(install, path, []);
      return bankMediaSound(bytes, path, req.mediaId, names);
    }
    const entry = this.installs.get(req.installId);
    const mappings = entry ? (await this.mappings.forInstall(entry.root))?.usmap : undefined;
    const packages = this.packages.packagesOf(req.installId, install);
    const sound = await readSound({ packages, ref: req.path }, req.exportIndex, { ...(mappings ? { mappings } : {}), ...(req.engine !== undefined ? { engine: req.engine } : {}) });
    // A Wwise media asset ("Media/<id>.uasset") is named by the events that play it, as a .wem is.
    const id = sound.format === 'WEM' ? mediumIdOfPath(req.path) : undefined;
    return id === undefined ? sound : withWwiseNames(sound, id, await this.wwiseNamesOf(req.installId, install));
  }

  // ---- comparing two builds (compare.ts) ----

  async compareInstalls(req: { oldId: string; newId: string }): Promise<ComparisonSummary> {
    const [a, b] = await Promise.all([this.comparedSide(req.oldId), this.comparedSide(req.newId)]);
    return this.comparisons.compare(a, b);
  }

  async closeComparison(req: { comparisonId: string }): Promise<void> {
    this.comparisons.close(req.comparisonId);
  }

  async comparisonDir(req: { comparisonId: string; path: string; changesOnly?: boolean }): Promise<TreeEntry[]> {
    return this.comparisons.dir(req);
  }

  async comparisonChanges(req: { comparisonId: string; format: 'csv' | 'json' }): Promise<ChangeListFile> {
    return this.comparisons.changes(req);
  }

  async comparePackage(req: { comparisonId: string; path: string }): Promise<PackageComparison> {
    return this.comparisons.package(req);
  }

  private async comparedSide(installId: string): Promise<ComparedSide> {
    const { entry, install } = await this.opened(installId);
    return {
      id: installId, root: entry.root, install,
      packages: () => this.packages.packagesOf(installId, install),
      mappings: async () => (await this.mappings.forInstall(entry.root))?.usmap,
    };
  }

  private async opened(id: string): Promise<{ entry: OpenEntry; install: Install; loaded: { install: Install; summary: InstallSummary } }> {
    const entry = this.installs.get(id);
    if (!entry) throw new RequestError(`no open install with id "${id}" (it was closed; open it again)`, 404);
    const loaded = await entry.ready;
    return { entry, install: loaded.install, loaded };
  }

  /** Closes every install (window closed, host stopped). */
  async close(): Promise<void> {
    await this.exports.close();
    const ids = [...this.installs.keys()];
    await Promise.all(ids.map((installId) => this.closeInstall({ installId }).catch(() => undefined)));
  }

  // ---- helpers ----

  private async install(id: string): Promise<Install> {
    const entry = this.installs.get(id);
    if (!entry) throw new RequestError(`no open install with id "${id}" (it was closed; open it again)`, 404);
    return (await entry.ready).install;
  }

  /** A plain file's bytes (a .wem, a .bnk), read whole. */
  private async plainBytes(install: Install, path: string): Promise<{ path: string; bytes: Uint8Array }> {
    const file = this.file(install, path);
    const winner = file.providers[0]!;
    return { path: file.path, bytes: await winner.archive.read(winner.file.ref) };
  }

  private file(install: Install, path: string) {
    const file = install.file(normalizeFile(path));
    if (!file) throw new RequestError(`no file "${path}" in this install`, 404);
    return file;
  }
}

/** Tree paths are `ls` paths: no leading slash; "" and "/" are the top level. */
function normalizeDir(path: string): string {
  return path.replace(/\\/g, '/').replace(/^\/+/, '').replace(/\/+$/, '');
}

function normalizeFile(path: string): string {
  return path.replace(/\\/g, '/').replace(/^\/+/, '');
}

/** Names exported zips and lists: the game folder for .../X/Content/Paks, the file name for a container. */
function installName(root: string): string {
  let dir = root;
  while (/^(paks|content)$/i.test(basename(dir)) && dirname(dir) !== dir) dir = dirname(dir);
  return basename(dir, extname(dir)) || 'install';
}

/** The worker pool behind the block decoder, when it is one (texture decoding runs there too). */
function poolOf(decoder: BlockDecoder | undefined): WorkerPool | undefined {
  const d = decoder as Partial<WorkerPool> | undefined;
  return d && typeof d.warm === 'function' && typeof d.destroy === 'function' ? (d as WorkerPool) : undefined;
}

function messageOf(e: unknown): string {
  return e instanceof Error ? e.message : String(e);
}

/** The block decoder is the worker pool (the app's): texture conversions decode there too. */
function isWorkerPool(decoder: BlockDecoder | undefined): decoder is WorkerPool {
  return typeof (decoder as Partial<WorkerPool> | undefined)?.decodeImage === 'function';
}

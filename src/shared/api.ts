/**
 * The one API between the renderer and the backend. The main process serves it over IPC (the
 * preload exposes it as window.pakscope), the browser host serves it over HTTP; both validate every
 * request with `validateRequest` before it reaches the backend. Framework-free: no Node, no DOM.
 */
import type { ArchiveKind, ArchiveStatus, FileStorage, HashCheck } from '../core/archive.js';
import type { ExportProgress } from '../core/export/types.js';
import type {
  AnimView, AssetRequest, AssetTable, AssetTableRequest, AssetText, AssetThumbnail, ConversionFormat, LevelScene, LevelSceneRequest, LevelView, SequenceView, MaterialView, MetaSoundView, NiagaraView, MeshGeometry, MeshGeometryRequest, MeshView, SaveConversionRequest, SavedConversion, FontView, MidiView, SpriteView, SoundBankView, SoundCueView, SoundView, SoundWav, TexturePixels, TexturePixelsRequest, TextureView,
  ThumbnailRequest,
} from './asset-api.js';
import type { LandscapeView } from './landscape-api.js';
import type { LocalizationView, RegistryFact, RegistryView } from './data-api.js';
import type { ChangeListFile, ComparisonSummary, PackageComparison, TreeDiff } from './compare-api.js';
import type { SearchEvent, SearchRequest, SearchStarted, SizeMapRequest, SizeMapView } from './search-api.js';
import type {
  GraphDirection, GraphFindView, GraphPathView, GraphStatsView, MappingsStatus, PackageGraphView, PackagePropertiesView, PackageView,
} from './package-api.js';

export type { ArchiveKind, ArchiveStatus, FileStorage, HashCheck };
export type { ExportProgress };
export type * from './package-api.js';
export type * from './asset-api.js';
export type * from './landscape-api.js';
export type * from './data-api.js';
export type * from './compare-api.js';
export type * from './search-api.js';
export { MAX_SEARCH_HITS, SEARCH_KINDS } from './search-api.js';
export { MAX_PIXEL_READ, MAX_SOUND_WAV } from './asset-api.js';

export interface AppInfo {
  name: string;
  version: string;
  node: string;
  electron: string | null;
  chrome: string | null;
  mode: 'electron' | 'web';
}

export interface ContainerSummary {
  path: string;
  name: string;
  kind: ArchiveKind;
  fileCount: number;
  status: ArchiveStatus;
  /** The same facts as `pakscope info`. */
  fields: Record<string, string | number | boolean | null>;
}

export interface InstallSummary {
  id: string;
  /** The folder or file the user opened. */
  root: string;
  containers: ContainerSummary[];
  fileCount: number;
  totalSize: number;
}

export interface TreeEntry {
  name: string;
  /** Full path as `ls` prints it (no leading slash). */
  path: string;
  isDir: boolean;
  /** File: its size; folder: total size of the files below it (that match the filter, if any). */
  size: number;
  /** Folder: number of files below it (matching the filter, if any); file: 1. */
  fileCount: number;
  /** File: name of the container that provides it. */
  container?: string;
  /** File: how many other containers hold the same path (overridden by this one). */
  overrides?: number;
  /** In a comparison's tree (comparisonDir): what changed here. */
  diff?: TreeDiff;
  /**
   * File: what the install's metadata calls it, where its name is only an id: a Wwise medium's
   * events and original file ("Play_Footstep · Step_01.wav" for Media/123456.wem).
   */
  label?: string;
}

export interface FileDetails {
  path: string;
  size: number;
  container: string;
  containerPath: string;
  chunkId?: string;
  chunkType?: string;
  storage: FileStorage;
  /**
   * Containers that also hold this path and lose to `container`, highest priority first. `path`
   * is set for a copy in the winner's own container, whose path differs only by case (the engine
   * looks paths up regardless of case: the last in the index wins).
   */
  overridden: { container: string; containerPath: string; path?: string }[];
  /** Opens in the text view (ini, json, txt, csv, xml, uproject, uplugin, ...). */
  isText: boolean;
  /**
   * A plain file (no package) the converter registry reads by its name: the preview it gets
   * ("sound" for a .wem, "localization" for a .locres, "registry" for an AssetRegistry.bin),
   * which the page shows beside Text/Hex through the asset and data APIs.
   */
  view?: string;
  /** A package's assets as the install's AssetRegistry.bin lists them (class and tags), where it does. */
  registry?: RegistryFact[];
  /** The install's asset registry is still being read: ask again after its registry-ready event. */
  registryLoading?: boolean;
}

export type ApiEvent =
  | { type: 'progress'; installId: string; phase: 'scan' | 'index' | 'done'; done: number; total: number; current?: string }
  /** A path handed over by the OS (second launch, file association) to open. */
  | { type: 'open-path'; path: string }
  /** An export started with startExport: progress at most every 100 ms, then one export-done. */
  | { type: 'export-progress'; exportId: string; progress: ExportProgress }
  | { type: 'export-done'; result: ExportResult }
  /** A command from the native menu (Electron) for the page to carry out. */
  | { type: 'menu'; command: MenuCommand }
  /** The install's asset registries have been read: fileDetails answers with their facts now. */
  | { type: 'registry-ready'; installId: string }
  /** The install's Wwise metadata and event assets have been read after a listing went without them: list again for the media's labels. */
  | { type: 'wwise-names-ready'; installId: string }
  /** A search started with startSearch: index progress, its hits in batches as found, then one search-done. */
  | SearchEvent;

/**
 * What the native menu asks of the page: start an export of the selection, close the install or
 * the package tab shown,
 * show or hide a pane (the View menu's check marks decide; the main process remembers them).
 */
export type MenuCommand = 'export' | 'close-install' | 'close-tab' | 'show-sidebar' | 'hide-sidebar' | 'show-details' | 'hide-details';

export interface PakScopeApi {
  appInfo(): Promise<AppInfo>;
  /**
   * Opens a path the user gave (a dialog, a drop, the command line, the recent list); another is
   * refused (NeedsConfirmation, 403) unless the user confirms it: Electron asks natively, the
   * browser host takes `confirmed` from the page's own confirmation. See backend/path-grants.ts.
   */
  openInstall(req: { path: string; aesKeys?: string[]; confirmed?: boolean }): Promise<InstallSummary>;
  closeInstall(req: { installId: string }): Promise<void>;
  listDir(req: { installId: string; path: string; filter?: string }): Promise<TreeEntry[]>;
  fileDetails(req: { installId: string; path: string }): Promise<FileDetails>;
  readFile(req: { installId: string; path: string; offset?: number; length?: number }): Promise<{ bytes: Uint8Array; total: number }>;
  verifyFile(req: { installId: string; path: string }): Promise<HashCheck | null>;
  recentInstalls(): Promise<string[]>;
  /** A native dialog; resolves null when cancelled or where there is none (browser mode). */
  pickPath(req: { kind: 'folder' | 'file' }): Promise<string | null>;
  // ---- export (backend/export.ts) ----
  /** The native "export to" folder dialog; null when cancelled or in browser mode. */
  pickExportFolder(): Promise<string | null>;
  /** Checks the request, starts the export and answers at once; progress and the result come as events. */
  startExport(req: ExportRequest): Promise<ExportStarted>;
  /** Stops an export at once (what was written stays; the file in progress is removed). */
  cancelExport(req: { exportId: string }): Promise<void>;
  /** Writes the list of the selected files (path, size, container, chunk id, chunk type) into the destination. */
  exportFileList(req: FileListRequest): Promise<FileListWritten>;
  // ---- AES keys (backend/keys.ts) ----
  /** Locked containers of the install and the keys remembered for it. */
  keyStatus(req: { installId: string }): Promise<KeyStatus>;
  /** Checks each key against the locked containers; those it opens join the tree at once; working keys are remembered. */
  addKeys(req: { installId: string; keys: string[] }): Promise<AddKeysResult>;
  /** Forgets a remembered key (containers it opened stay open until the install is reopened). */
  forgetKey(req: { installId: string; keyId: string }): Promise<KeyStatus>;
  // ---- packages and the dependency graph (backend/packages.ts, backend/graph.ts) ----
  /** Parses a package of the install (Zen, .uasset/.umap, UE1/2) for the package view, with its byte regions. */
  openPackage(req: { installId: string; path: string; engine?: string }): Promise<PackageView>;
  /** Bytes of a package's stream: the Zen chunk, or the .uasset followed by its .uexp; at most MAX_READ a call. */
  readPackageBytes(req: { installId: string; path: string; offset?: number; length?: number }): Promise<{ bytes: Uint8Array; total: number }>;
  /** What a package needs and what needs it, up to `depth` steps (default 1), from the container headers. */
  packageGraph(req: { installId: string; package: string; direction: GraphDirection; depth?: number }): Promise<PackageGraphView>;
  /** Counts of the install's dependency graph and its most referenced packages. */
  graphStats(req: { installId: string }): Promise<GraphStatsView>;
  /** Why `from` needs `to`: the shortest chain of imports. */
  graphPath(req: { installId: string; from: string; to: string }): Promise<GraphPathView>;
  /** Packages of the graph whose name contains `query` (or with that id). */
  graphFind(req: { installId: string; query: string; limit?: number }): Promise<GraphFindView>;
  // ---- properties and mappings (backend/properties.ts) ----
  /** Every export's properties with their byte ranges; unversioned ones read with the install's mappings. */
  packageProperties(req: { installId: string; path: string; engine?: string; culture?: string }): Promise<PackagePropertiesView>;
  /** The mappings (.usmap) remembered for the install. */
  mappingsStatus(req: { installId: string }): Promise<MappingsStatus>;
  /**
   * Reads a .usmap and, when it reads, uses and remembers it for the install; "" forgets the
   * install's choice. The path must be one the user gave or confirmed, as for openInstall.
   */
  setMappings(req: { installId: string; path: string; confirmed?: boolean }): Promise<MappingsStatus>;
  /** Electron: a native dialog for a .usmap, then setMappings; null when cancelled or where there is no dialog. */
  pickMappings(req: { installId: string }): Promise<MappingsStatus | null>;
  // ---- asset previews (backend/textures.ts, backend/save-conversion.ts) ----
  /** A texture's facts: format, size, mips and where their bytes are, what it converts to. */
  textureInfo(req: AssetRequest): Promise<TextureView>;
  /** Decoded pixels of one mip and slice, a page at a time (decoded once, off this thread, then served from a cache). */
  texturePixels(req: TexturePixelsRequest): Promise<TexturePixels>;
  /** A sound's facts (format, rate, channels, length, loop, streaming chunks, cue points) and its decoded WAV where it decodes. */
  soundInfo(req: AssetRequest): Promise<SoundView>;
  /** A sound's whole decoded WAV: what the view swaps in after a partial soundInfo (a long streamed sound). */
  soundWav(req: AssetRequest): Promise<SoundWav>;
  /** A SoundCue's node graph: volume, pitch, its nodes with their children and settings, each wave player's sound. */
  soundCue(req: AssetRequest): Promise<SoundCueView>;
  /** A font: a FontFace's (or loose .ufont's) file with its family and style, or a Font's typefaces and their faces. */
  fontInfo(req: AssetRequest): Promise<FontView>;
  /** A Paper2D sprite: its region of its baked source texture (a PNG) and facts. */
  spriteInfo(req: AssetRequest): Promise<SpriteView>;
  /** A MidiFile's ticks per quarter note and tracks of events. */
  midiInfo(req: AssetRequest): Promise<MidiView>;
  /** A Wwise sound bank (.bnk): its events (named where the install's metadata names them) and embedded media. */
  soundBank(req: AssetRequest): Promise<SoundBankView>;
  /** A mesh's facts (LODs with their counts and sections, bones, morph targets, sockets, materials, bounds), what the mesh view shows beside it. */
  meshInfo(req: AssetRequest): Promise<MeshView>;
  /** One LOD's vertices, indices and morph target deltas as typed-array bytes, in the view's axes. */
  meshGeometry(req: MeshGeometryRequest): Promise<MeshGeometry>;
  /** An animation sequence's facts, codecs, curves and its skeleton posed at each frame (the animation view). */
  animInfo(req: AssetRequest): Promise<AnimView>;
  /** The text an export holds (a UE1/2 class's UnrealScript source): what the text preview shows. */
  assetText(req: AssetRequest): Promise<AssetText>;
  /** A data table, string table, curve table or curve as rows and columns (the table view). */
  assetTable(req: AssetTableRequest): Promise<AssetTable>;
  /** A material's parent chain and parameters, each with its effective value and where it comes from (the material view). */
  materialInfo(req: AssetRequest): Promise<MaterialView>;
  /** A map's actors, components, transforms, meshes, instances, sublevels and World Partition cells (the level view). */
  levelInfo(req: AssetRequest): Promise<LevelView>;
  /** A Level Sequence's timing, bindings, tracks, sections and keys (the sequence view). */
  sequenceInfo(req: AssetRequest): Promise<SequenceView>;
  /** A map's terrain: the landscape actor's sizes, components, heights and layers, previews of its heightmap and layers, and the terrain as the mesh view draws it (the landscape view). */
  landscapeInfo(req: AssetRequest): Promise<LandscapeView>;
  /** What the level view draws in 3D: each distinct static mesh and the matrices placing it (binary), its package's tree path for meshGeometry. */
  levelScene(req: LevelSceneRequest): Promise<LevelScene>;
  /** A MetaSound Source or Patch's frontend document: its graph's nodes, pins, literals and edges, inputs, interfaces (the MetaSound view). */
  metaSoundInfo(req: AssetRequest): Promise<MetaSoundView>;
  /** A Niagara System's user parameters, emitters and renderers, with the assets they reference (the Niagara view). */
  niagaraInfo(req: AssetRequest): Promise<NiagaraView>;
  /**
   * Every culture of the localization target `path` (a .locres or .locmeta) belongs to, side by
   * side by namespace and key; "" gathers every .locres of the install.
   */
  localization(req: { installId: string; path: string }): Promise<LocalizationView>;
  /** An AssetRegistry.bin's assets with class and tags, each linked to its package where the install holds it. */
  assetRegistry(req: { installId: string; path: string }): Promise<RegistryView>;
  /** A package's first texture, small (its smallest mip of 64 px or more, downscaled): a gallery cell. */
  assetThumbnail(req: ThumbnailRequest): Promise<AssetThumbnail>;
  /** Electron: the native save dialog for a conversion (`name` is the suggested file name); null when cancelled or in browser mode. */
  pickSaveFile(req: { name: string; format: ConversionFormat }): Promise<string | null>;
  /** Starts a search of the install (its index is built first when it has none); hits come as search events. */
  startSearch(req: SearchRequest): Promise<SearchStarted>;
  /** Stops a running search (its search-done says cancelled). */
  cancelSearch(req: { searchId: string }): Promise<void>;
  /** The size map of a folder: its entries and theirs laid out in width x height, by size or stored size. */
  sizeMap(req: SizeMapRequest): Promise<SizeMapView>;
  /** Converts an asset (texture: .png, .dds, .hdr; sound: .wav, or as stored; mesh: .glb) and writes it to `destination`. */
  saveConversion(req: SaveConversionRequest): Promise<SavedConversion>;
  // ---- comparing two builds (backend/compare.ts) ----
  /** Compares two open installs file by file (IoStore: by the stored chunk hashes); the comparison stays open for the calls below. */
  compareInstalls(req: { oldId: string; newId: string }): Promise<ComparisonSummary>;
  closeComparison(req: { comparisonId: string }): Promise<void>;
  /** One folder of both builds merged, each entry's change marked (TreeEntry.diff), folders with their counts; changesOnly drops the rest. */
  comparisonDir(req: { comparisonId: string; path: string; changesOnly?: boolean }): Promise<TreeEntry[]>;
  /** The list of changes as `pakscope diff` prints it (json) or one row per change (csv). */
  comparisonChanges(req: { comparisonId: string; format: 'csv' | 'json' }): Promise<ChangeListFile>;
  /** One package of both builds: what changed in it, its tables and properties and its JSON on each side. */
  comparePackage(req: { comparisonId: string; path: string }): Promise<PackageComparison>;
}

// ---- export ----

/**
 * What to export: `paths` are tree paths (a folder means everything below it; none means the
 * whole install); with `filter` (the tree filter) only the matching files below them.
 */
export interface ExportSelectionRequest {
  installId: string;
  paths: string[];
  filter?: string;
  /** The folder the user chose: an absolute path, outside the install. */
  destination: string;
  /** What happens to a file that exists already: nothing is overwritten silently. */
  conflict: 'overwrite' | 'skip' | 'keep-both';
}

export interface ExportRequest extends ExportSelectionRequest {
  /**
   * raw: the bytes as stored; json: packages as their parsed model (.json), other files raw;
   * convert: assets as what they convert to (textures as .png, one per slice), other files raw.
   */
  format: 'raw' | 'json' | 'convert';
  /** folder: the files below `destination`; zip: one .zip file in `destination`. */
  output: 'folder' | 'zip';
  /** output zip: the file name (".zip" is added when missing); default "<install>-export.zip". */
  zipName?: string;
}

export interface ExportStarted {
  exportId: string;
  /** The folder or .zip file written. */
  target: string;
  filesTotal: number;
  bytesTotal: number;
}

export interface ExportResult {
  exportId: string;
  target: string;
  /** Files written and their bytes (for a zip, before compression). */
  files: number;
  bytes: number;
  seconds: number;
  cancelled: boolean;
  /** The first failures and skips by path (at most 1,000 each); the counts are complete. */
  failed: { path: string; error: string }[];
  failedCount: number;
  skipped: { path: string; reason: string }[];
  skippedCount: number;
  /** Set when the export stopped early: a full disk, an unwritable folder, a zip past its limits. */
  error?: string;
}

export interface FileListRequest extends ExportSelectionRequest {
  format: 'csv' | 'json';
}

export interface FileListWritten {
  /** The file written, or null when it existed and the policy was skip. */
  path: string | null;
  files: number;
}

// ---- AES keys ----

export interface LockedContainer {
  name: string;
  path: string;
  kind: ArchiveKind;
  /** 32 hex digits; all zero for the main key. */
  keyGuid: string;
  reason: string;
}

export interface RememberedKey {
  /** Names the key in forgetKey; not the key itself. */
  id: string;
  guid: string | null;
  /** The key shortened, e.g. 0x4355…3839. */
  label: string;
}

export interface KeyStatus {
  locked: LockedContainer[];
  keys: RememberedKey[];
  /** Where remembered keys are kept, for the dialog. */
  storage: string;
}

export interface KeyCheck {
  /** The key as typed, shortened. */
  input: string;
  ok: boolean;
  /** Names of the containers it opened. */
  unlocked: string[];
  message: string;
}

export interface AddKeysResult {
  checks: KeyCheck[];
  /** The install after the unlock: containers and totals changed. */
  summary: InstallSummary;
  status: KeyStatus;
  /** The keys work but could not be remembered (the reason). */
  saveError?: string;
}

export type ApiMethod = keyof PakScopeApi;
export type ApiRequest<M extends ApiMethod> = Parameters<PakScopeApi[M]>[0];
export type ApiResult<M extends ApiMethod> = Awaited<ReturnType<PakScopeApi[M]>>;

/** What the preload exposes as window.pakscope and the web client implements. */
export interface PakScopeBridge extends PakScopeApi {
  onEvent(listener: (event: ApiEvent) => void): () => void;
}

// ---- request validation (every IPC and HTTP argument goes through here) ----

export class ApiValidationError extends Error {
  constructor(method: string, detail: string) {
    super(`invalid request to ${method}: ${detail}`);
    this.name = 'ApiValidationError';
  }
}

type Shape = Record<string, 'string' | 'string?' | 'number?' | 'boolean?' | 'string[]' | 'string[]?' | 'paths' | ['enum' | 'enum?', ...string[]]>;

const ASSET: Shape = { installId: 'string', path: 'string', exportIndex: 'number?', engine: 'string?', mediaId: 'number?' };

const SHAPES: Record<ApiMethod, Shape | null> = {
  appInfo: null,
  openInstall: { path: 'string', aesKeys: 'string[]?', confirmed: 'boolean?' },
  closeInstall: { installId: 'string' },
  listDir: { installId: 'string', path: 'string', filter: 'string?' },
  fileDetails: { installId: 'string', path: 'string' },
  readFile: { installId: 'string', path: 'string', offset: 'number?', length: 'number?' },
  verifyFile: { installId: 'string', path: 'string' },
  recentInstalls: null,
  pickPath: { kind: ['enum', 'folder', 'file'] },
  pickExportFolder: null,
  startExport: {
    installId: 'string', paths: 'paths', filter: 'string?', destination: 'string', conflict: ['enum', 'overwrite', 'skip', 'keep-both'],
    format: ['enum', 'raw', 'json', 'convert'], output: ['enum', 'folder', 'zip'], zipName: 'string?',
  },
  cancelExport: { exportId: 'string' },
  exportFileList: {
    installId: 'string', paths: 'paths', filter: 'string?', destination: 'string', conflict: ['enum', 'overwrite', 'skip', 'keep-both'],
    format: ['enum', 'csv', 'json'],
  },
  keyStatus: { installId: 'string' },
  addKeys: { installId: 'string', keys: 'string[]' },
  forgetKey: { installId: 'string', keyId: 'string' },
  openPackage: { installId: 'string', path: 'string', engine: 'string?' },
  readPackageBytes: { installId: 'string', path: 'string', offset: 'number?', length: 'number?' },
  packageGraph: { installId: 'string', package: 'string', direction: ['enum', 'dependencies', 'referencers', 'both'], depth: 'number?' },
  graphStats: { installId: 'string' },
  graphPath: { installId: 'string', from: 'string', to: 'string' },
  graphFind: { installId: 'string', query: 'string', limit: 'number?' },
  packageProperties: { installId: 'string', path: 'string', engine: 'string?', culture: 'string?' },
  mappingsStatus: { installId: 'string' },
  setMappings: { installId: 'string', path: 'string', confirmed: 'boolean?' },
  pickMappings: { installId: 'string' },
  textureInfo: ASSET,
  soundInfo: ASSET,
  soundWav: ASSET,
  soundCue: ASSET,
  soundBank: ASSET,
  fontInfo: ASSET,
  spriteInfo: ASSET,
  midiInfo: ASSET,
  meshInfo: ASSET,
  meshGeometry: { ...ASSET, lod: 'number?' },
  animInfo: ASSET,
  assetText: ASSET,
  assetTable: { ...ASSET, flatten: 'boolean?' },
  materialInfo: ASSET,
  levelInfo: ASSET,
  sequenceInfo: ASSET,
  landscapeInfo: ASSET,
  levelScene: { ...ASSET, sublevels: 'boolean?' },
  metaSoundInfo: ASSET,
  niagaraInfo: ASSET,
  texturePixels: { ...ASSET, mip: 'number?', slice: 'number?', pixels: ['enum?', 'rgba8', 'float32'], offset: 'number?', length: 'number?' },
  assetThumbnail: { installId: 'string', path: 'string', size: 'number?' },
  localization: { installId: 'string', path: 'string' },
  assetRegistry: { installId: 'string', path: 'string' },
  pickSaveFile: { name: 'string', format: ['enum', 'png', 'dds', 'hdr', 'wav', 'ogg', 'opus', 'binka', 'rada', 'wem', 'glb', 'ttf', 'otf', 'ttc', 'woff', 'woff2', 'mid'] },
  compareInstalls: { oldId: 'string', newId: 'string' },
  closeComparison: { comparisonId: 'string' },
  comparisonDir: { comparisonId: 'string', path: 'string', changesOnly: 'boolean?' },
  comparisonChanges: { comparisonId: 'string', format: ['enum', 'csv', 'json'] },
  comparePackage: { comparisonId: 'string', path: 'string' },
  startSearch: {
    installId: 'string', text: 'string', in: 'string[]?', regex: 'boolean?', caseSensitive: 'boolean?', class: 'string?',
  },
  cancelSearch: { searchId: 'string' },
  sizeMap: { installId: 'string', path: 'string', width: 'number?', height: 'number?', measure: ['enum?', 'size', 'stored'] },
  saveConversion: {
    ...ASSET, format: ['enum', 'png', 'dds', 'hdr', 'wav', 'ogg', 'opus', 'binka', 'rada', 'wem', 'glb', 'ttf', 'otf', 'ttc', 'woff', 'woff2', 'mid'], mip: 'number?', slice: 'number?', lod: 'number?', layer: 'string?', destination: 'string', conflict: ['enum?', 'overwrite', 'fail'],
  },
};

export const API_METHODS = Object.keys(SHAPES) as ApiMethod[];

export function isApiMethod(name: unknown): name is ApiMethod {
  return typeof name === 'string' && Object.prototype.hasOwnProperty.call(SHAPES, name);
}

const MAX_STRING = 32 * 1024;
/** A selection of tree paths (export): more than a string[] takes, each a path without NUL. */
const MAX_PATHS = 20_000;

/**
 * Checks a request against its method's shape; unknown keys, wrong types and huge strings are
 * refused. Only own properties count, of the shape and of the request: "__proto__",
 * "constructor" or "toString" are not fields (a `key in shape` test took them for known ones).
 * The answer is a new object without a prototype, holding the shape's fields only.
 */
export function validateRequest<M extends ApiMethod>(method: M, req: unknown): ApiRequest<M> {
  if (!isApiMethod(method)) throw new ApiValidationError(String(method), 'unknown method');
  const shape = SHAPES[method];
  if (shape === null) {
    if (req !== undefined && req !== null) throw new ApiValidationError(method, 'takes no argument');
    return undefined as ApiRequest<M>;
  }
  if (typeof req !== 'object' || req === null || Array.isArray(req)) throw new ApiValidationError(method, 'argument must be an object');
  const obj = req as Record<string, unknown>;
  for (const key of Reflect.ownKeys(obj)) {
    if (typeof key !== 'string' || !Object.hasOwn(shape, key)) throw new ApiValidationError(method, `unknown field "${String(key)}"`);
  }
  const out = Object.create(null) as Record<string, unknown>;
  for (const [key, type] of Object.entries(shape)) {
    const v = Object.hasOwn(obj, key) ? obj[key] : undefined;
    const optional = typeof type === 'string' ? type.endsWith('?') : type[0] === 'enum?';
    if (v === undefined) {
      if (optional) continue;
      throw new ApiValidationError(method, `missing field "${key}"`);
    }
    const base = typeof type === 'string' ? type.replace('?', '') : 'enum';
    const ok =
      base === 'string' ? typeof v === 'string' && v.length <= MAX_STRING && !v.includes('\0') :
      base === 'number' ? typeof v === 'number' && Number.isSafeInteger(v) && v >= 0 :
      base === 'boolean' ? typeof v === 'boolean' :
      base === 'string[]' ? Array.isArray(v) && v.length <= 256 && v.every((s) => typeof s === 'string' && s.length <= 1024) :
      base === 'paths' ? Array.isArray(v) && v.length <= MAX_PATHS && v.every((s) => typeof s === 'string' && s.length <= 4096 && !s.includes('\0')) :
      Array.isArray(type) && typeof v === 'string' && type.slice(1).includes(v);
    if (!ok) throw new ApiValidationError(method, `field "${key}" has the wrong type or size`);
    // Arrays are copied: the backend keeps no object the caller made.
    out[key] = Array.isArray(v) ? [...(v as unknown[])] : v;
  }
  return out as ApiRequest<M>;
}

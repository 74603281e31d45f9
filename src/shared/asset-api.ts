/**
 * What the asset previews get from the backend (api.ts names the methods): which exports of a
 * package the converter registry knows (their view and conversions), a texture's facts, its
 * decoded pixels page by page, thumbnails for the gallery, and saving a conversion. Byte arrays
 * travel as the API's file bytes do (structured clone over IPC, base64 over HTTP).
 */
import type { AnimCodecs, AnimComposition } from '../core/assets/anim/types.js';
import type { EffectiveParameter, LinearColor, MaterialAsset, MaterialLevel, MaterialParameterKind, MaterialParameterValue } from '../core/assets/material/types.js';
import type { LevelActor, LevelAsset, LevelComponent, LevelCounts, LevelInstances, LevelLight, PartitionCell, Placement, StreamingLevel } from '../core/assets/level/types.js';
import type { MeshMaterial } from '../core/assets/mesh/types.js';
import type {
  ChannelKey, FrameRate, SequenceAsset, SequenceBinding, SequenceChannel, SequenceFolder, SequenceRange, SequenceSection, SequenceTime, SequenceTrack,
} from '../core/assets/sequence/types.js';
import type { SoundCueGraph, SoundCueNode } from '../core/assets/sound/cue.js';
import type { MidiSong } from '../core/assets/midi/read.js';
import type { SoundCuePoint, SoundInfo } from '../core/assets/sound/types.js';
import type { TextureInfo, TextureMip } from '../core/assets/texture/types.js';
import type {
  MetaSoundDocument, MetaSoundEdge, MetaSoundGraph, MetaSoundGraphInput, MetaSoundLiteral, MetaSoundNode, MetaSoundVertex,
} from '../core/assets/metasound/types.js';
import type { NiagaraEmitter, NiagaraReference, NiagaraRenderer, NiagaraSystemAsset, NiagaraUserParameter } from '../core/assets/niagara/types.js';

export type { EffectiveParameter, LinearColor, MaterialAsset, MaterialLevel, MaterialParameterKind, MaterialParameterValue };
export type { LevelActor, LevelAsset, LevelComponent, LevelCounts, LevelInstances, LevelLight, PartitionCell, Placement, StreamingLevel };
export type { MetaSoundDocument, MetaSoundEdge, MetaSoundGraph, MetaSoundGraphInput, MetaSoundLiteral, MetaSoundNode, MetaSoundVertex };
export type { NiagaraEmitter, NiagaraReference, NiagaraRenderer, NiagaraSystemAsset, NiagaraUserParameter };
export type { ChannelKey, FrameRate, SequenceAsset, SequenceBinding, SequenceChannel, SequenceFolder, SequenceRange, SequenceSection, SequenceTime, SequenceTrack };
export type { AnimCodecs, AnimComposition, MeshMaterial, SoundCueGraph, SoundCueNode, SoundCuePoint, SoundInfo, TextureInfo, TextureMip };

/** An export the converter registry knows: the preview tab it gets and the files it converts to. */
export interface PackageAsset {
  exportIndex: number;
  name: string;
  class: string;
  /** "texture", "sound", ... */
  kind: string;
  /** The app's preview tab for it ("texture"). */
  view: string;
  /** File extensions it converts to ("png", "dds", "hdr"). */
  converts: string[];
}

/** Names one asset of an install: a package (tree path or name) and, when it has several, the export. */
export interface AssetRequest {
  installId: string;
  path: string;
  /** Index in the package's exports; by default the first export the registry knows. */
  exportIndex?: number;
  /** The engine release for an unversioned package, as openPackage takes it. */
  engine?: string;
  /** A Wwise sound bank (.bnk): the embedded medium (its id) the request is about. */
  mediaId?: number;
}

/** A text an export holds (a UE1/2 class's UnrealScript source in its ScriptText), for the text view. */
export interface AssetText {
  /** Tree path of the package, as openPackage gives it. */
  path: string;
  exportIndex: number;
  /** The export's name ("ScriptText") and the object it belongs to (its class), if any. */
  name: string;
  outer: string | null;
  /** The file --format convert writes it as ("EnergySword.uc"). */
  fileName: string;
  /** The text view's language: "unrealscript" for a class's source, else "plaintext". */
  language: string;
  /** What the text is, when not the export's own text ("Blueprint bytecode as pseudo-code · 6 functions"). */
  description?: string;
  text: string;
}

/** A table of an asset; `flatten` splits each struct field of a data table into a column per field of it ("Nested.Marker"). */
export interface AssetTableRequest extends AssetRequest {
  flatten?: boolean;
}

/** A material as the material view shows it: its chain and parameters (core/assets/material). */
export interface MaterialView {
  /** Tree path of the package, as openPackage gives it. */
  path: string;
  exportIndex: number;
  material: MaterialAsset;
  /** Object paths (chain levels, textures) of packages the install holds -> their tree paths. */
  links: Record<string, string>;
  /** What `pakscope material --json` prints, for Save and Copy. */
  json: string;
}

/** A MetaSound Source or Patch as the MetaSound view shows it: its frontend document (core/assets/metasound). */
export interface MetaSoundView {
  /** Tree path of the package, as openPackage gives it. */
  path: string;
  exportIndex: number;
  document: MetaSoundDocument;
  /** What `pakscope effect --json` prints, for Save. */
  json: string;
  /** The graph as Graphviz DOT (`pakscope effect -o X.dot`), for Save. */
  dot: string;
}

/** A Niagara System as the Niagara view shows it (core/assets/niagara). */
export interface NiagaraView {
  /** Tree path of the package, as openPackage gives it. */
  path: string;
  exportIndex: number;
  system: NiagaraSystemAsset;
  /** Object paths (referenced assets, emitters) of packages the install holds -> their tree paths. */
  links: Record<string, string>;
  /** What `pakscope effect --json` prints, for Save. */
  json: string;
}

/** A Level Sequence as the sequence view shows it (core/assets/sequence). */
export interface SequenceView {
  /** Tree path of the package, as openPackage gives it. */
  path: string;
  exportIndex: number;
  sequence: SequenceAsset;
  /** Object paths it names (subsequences, bound objects, templates, collections) the install holds -> their tree paths. */
  links: Record<string, string>;
  /** What `pakscope sequence --json` prints, and the CSV of its keys, for Save and Copy. */
  json: string;
  csv: string;
}

/** A map as the level view shows it: what it places (core/assets/level). */
export interface LevelView {
  /** Tree path of the package, as openPackage gives it. */
  path: string;
  exportIndex: number;
  level: LevelAsset;
  /** Object or package paths (meshes, materials, sublevels, cells' packages) the install holds -> their tree paths. */
  links: Record<string, string>;
  /** What `pakscope level --json` prints, for Save and Copy. */
  json: string;
}

/**
 * What the level view's 3D scene draws: every static mesh the level places (a static mesh
 * component's mesh, each instance of an instanced, hierarchical or foliage component's), one
 * entry per distinct mesh and its placements. The placements' matrices travel as one binary
 * array (a frame on the browser host), the meshes' geometry is asked for per mesh (meshGeometry
 * of `treePath`), so a mesh placed a thousand times is sent once and drawn instanced.
 */
export interface LevelScene {
  /** Tree path of the package, as openPackage gives it. */
  path: string;
  exportIndex: number;
  /** The components that place meshes, in the level's order (actors, then each one's components). */
  components: LevelSceneComponent[];
  /** The distinct meshes, in the order the level first places them; each one's placements are consecutive. */
  meshes: LevelSceneMesh[];
  /** Placements in all (the sum of the meshes' counts). */
  placements: number;
  /**
   * Float32 4x4 matrix per placement, column-major (WebGL's order), in the mesh view's axes (cm,
   * Y up, right-handed): the component's world transform, times the instance's for an instance.
   */
  matrices: Uint8Array;
  /** Uint32 per placement: the index of the component placing it in `components`. */
  owners: Uint8Array;
  /** Min and max of the placements' locations, view axes (cm); zeros when the level places nothing. */
  bounds: { min: [number, number, number]; max: [number, number, number] };
  /** Tree paths of the sublevels and World Partition cells drawn with the map (LevelSceneRequest.sublevels). */
  sublevels: string[];
  /** Sublevels and cells the install holds that did not read, and why. */
  notes: string[];
}

export interface LevelSceneRequest extends AssetRequest {
  /** Also the streaming sublevels (at their LevelTransform) and World Partition cells the install holds, one level deep. */
  sublevels?: boolean;
}

export interface LevelSceneComponent {
  /** The component's object path, and its actor's (LevelAsset's paths). */
  path: string;
  actor: string;
  actorClass: string;
  /** Tree path of the sublevel or cell package it is in; absent in the map itself. */
  sublevel?: string;
}

export interface LevelSceneMesh {
  /** The StaticMesh's object path. */
  mesh: string;
  /** Tree path of its package in the install (meshGeometry's path); null when the install lacks it. */
  treePath: string | null;
  /** Its placements: `count` from index `first`. */
  first: number;
  count: number;
}

/** A data table, string table, curve table or curve as the table view shows it. */
export interface AssetTable {
  /** Tree path of the package, as openPackage gives it. */
  path: string;
  exportIndex: number;
  /** "DataTable", "StringTable", "CurveTable" or "Curve". */
  kind: string;
  name: string;
  class: string;
  /** One line about it: "3 rows of FixtureTableRow", "namespace X, 3 entries". */
  summary: string;
  /** The first column is the row's name (or key); one column per field after it. */
  columns: { key: string; label: string; numeric?: boolean }[];
  /** Cells as text, numbers as numbers (sorted as numbers); null for a field a row lacks. */
  rows: (string | number | null)[][];
  /** The table as `pakscope table --csv` and `--json` print it, for Save and Copy. */
  csv: string;
  json: string;
  notes: string[];
  /** Data tables: how many fields are structs (each can be split into a column per field of it: AssetTableRequest.flatten). */
  structFields?: number;
  /** Cell texts that name a package the install holds (object references) -> its tree path. */
  links?: Record<string, string>;
  /** Curve tables and curves: each curve's keys and its values evaluated across (and a little past) its keys, for the plot. */
  curves?: { name: string; keys: [number, number][]; samples: [number, number][] }[];
}

/** A texture's facts for the view, with what it converts to. */
export interface TextureView extends TextureInfo {
  /** Tree path of the package, as openPackage gives it. */
  path: string;
  exportIndex: number;
  /** The pixel format has floats beyond [0, 1] (BC6H, FloatRGBA, R16F, ...): exposure and .hdr apply. */
  hdr: boolean;
  /** What saveConversion writes for it ("png", "dds", and "hdr" for HDR formats). */
  converts: string[];
}

export interface TexturePixelsRequest extends AssetRequest {
  /** 0 (the largest) by default. */
  mip?: number;
  /** The 2D image of the mip: a cube face, array layer, volume slice; 0 by default. */
  slice?: number;
  /**
   * rgba8: 8-bit RGBA as the PNG holds it (4 bytes a pixel); float32: the HDR floats, RGBA
   * little-endian (16 bytes a pixel; HDR formats only).
   */
  pixels?: 'rgba8' | 'float32';
  /** A page of the pixel bytes: at most MAX_PIXEL_READ a call. */
  offset?: number;
  length?: number;
}

export interface TexturePixels {
  width: number;
  height: number;
  pixels: 'rgba8' | 'float32';
  /** Where `bytes` starts in the whole image's bytes, and their count. */
  offset: number;
  total: number;
  bytes: Uint8Array;
}

/** pixel pages are at most this big (the whole image of a 2048x2048 RGBA8 mip). */
export const MAX_PIXEL_READ = 16 * 1024 * 1024;

export interface ThumbnailRequest {
  installId: string;
  path: string;
  /** The longest side wanted, 16 to 256 (default 128). */
  size?: number;
}

/** A gallery cell: the package's first texture, small; or why there is none. */
export interface AssetThumbnail {
  path: string;
  /** The registry's kind of the package's first known export; null when it has none. */
  kind: string | null;
  /** Export name and class of that export. */
  name?: string;
  class?: string;
  /** Set for textures: the facts a cell shows. */
  pixelFormat?: string;
  width?: number;
  height?: number;
  /** The image, RGBA, at most `size` on its longest side. */
  image?: { width: number; height: number; rgba: Uint8Array };
  /** Why it could not be read or decoded. */
  error?: string;
}

/**
 * A Wwise sound bank for the bank view: its events, named where the install's SoundbanksInfo
 * metadata or asset names give a name, each with the media its play actions reach, and its
 * embedded media (each playable through soundInfo with `mediaId`).
 */
export interface SoundBankView {
  path: string;
  version: number;
  bankId: number;
  events: { id: number; name: string | null; media: number[] }[];
  media: { id: number; bytes: number; codec: string; name: string | null; samples: number; sampleRate: number; channels: number }[];
  /** Media its events play that are not embedded (streamed, loose Media/<id>.wem, another bank), named where the metadata names them. */
  otherMedia: { id: number; name: string | null }[];
  notes: string[];
}

/** A sound's facts for the sound view, with its decoded WAV when PakScope decodes its format. */
export interface SoundView extends SoundInfo {
  /** Tree path of the package, as openPackage gives it. */
  path: string;
  /** What saveConversion writes for it: "wav" (decodable formats) and the stored format's extension. */
  converts: SoundConversionFormat[];
  /** The sound as a 16-bit PCM WAV (what "Save as WAV" writes); absent when it does not decode or is past MAX_SOUND_WAV. */
  wav?: Uint8Array;
  /** Why there is no `wav` for a decodable format (a decode error, too long to preview). */
  decodeError?: string;
  /** `wav` holds the sound's first seconds only (a long streamed sound, to start at once); soundWav gives the whole. */
  partial?: boolean;
}

/** A sound's whole WAV (after a partial soundInfo), with what did not decode. */
export interface SoundWav {
  wav: Uint8Array;
  notes: string[];
}

/** A SoundCue's node graph for the cue view, each wave player's sound as a tree path of the install. */
export interface SoundCueView extends SoundCueGraph {
  /** Tree path of the package, as openPackage gives it. */
  path: string;
  exportIndex: number;
  nodes: (SoundCueNode & {
    /** The wave player's sound package in this install's tree (what a click opens); null when the install lacks it. */
    soundPath?: string | null;
  })[];
}

/** The sound view's WAV is at most this big (about 6 minutes of 48 kHz stereo); longer ones save but do not preview. */
export const MAX_SOUND_WAV = 64 * 1024 * 1024;

/** What a sound saves as: a decoded 16-bit PCM WAV, or its payload as stored (its own extension). */
export type SoundConversionFormat = 'wav' | 'ogg' | 'opus' | 'binka' | 'rada' | 'wem';
export const SOUND_CONVERSION_FORMATS: readonly SoundConversionFormat[] = ['wav', 'ogg', 'opus', 'binka', 'rada', 'wem'];
/** What a font saves as: its file in its own format (fonts are not transcoded). */
export type FontConversionFormat = 'ttf' | 'otf' | 'ttc' | 'woff' | 'woff2';
export const FONT_CONVERSION_FORMATS: readonly FontConversionFormat[] = ['ttf', 'otf', 'ttc', 'woff', 'woff2'];
export type ConversionFormat = 'png' | 'dds' | 'hdr' | SoundConversionFormat | 'glb' | FontConversionFormat | 'mid';

/** One font file for the font view: its facts and bytes (the view renders its sample with them). */
export interface FontFaceFacts {
  /** The FontFace's export name ("Roboto-Regular"), or the .ufont file's name. */
  name: string;
  /** Tree path of the package (or plain file) it is in: what "Save as" converts. */
  path: string;
  exportIndex?: number;
  format: FontConversionFormat;
  family: string;
  style: string;
  fullName: string;
  /** In the export, the .ufont beside its package, or a plain file. */
  from: 'inline' | 'ufont' | 'file';
  tables: string[];
  /** The file's size in bytes (its bytes are FontView.faceBytes[i]). */
  size: number;
}

/** A Font's typeface entry, with its face where the install has it. */
export interface FontTypefaceView {
  typeface: string;
  name: string;
  fontFace: string | null;
  /** The face's package in this install's tree (what a click opens); null when it has none. */
  facePath: string | null;
}

/** What the font view shows: a FontFace (or a loose .ufont) with its file, or a Font with its typefaces and faces. */
export interface FontView {
  path: string;
  exportIndex: number;
  kind: 'face' | 'font';
  class: string;
  name: string;
  /** A FontFace's: where it was imported from, its hinting and loading policy. */
  sourceFilename?: string;
  hinting?: string;
  loadingPolicy?: string;
  /** The face's file, or a Font's faces that the install has (each at most MAX_FONT_VIEW_BYTES). */
  faces: FontFaceFacts[];
  /**
   * Each face's file by its index in `faces` ("0", "1"): an object near the answer's top, where
   * the wire format looks for byte arrays (it does not search arrays).
   */
  faceBytes: Record<string, Uint8Array>;
  typefaces: FontTypefaceView[];
  /** An offline (legacy) font: its cache type, texture pages (tree paths, null where missing) and glyph count. */
  cacheType?: string;
  textures: { ref: string; path: string | null }[];
  glyphs: number;
  notes: string[];
}

/** A Paper2D sprite for the sprite view: its facts and its region of its texture as a PNG. */
export interface SpriteView {
  path: string;
  exportIndex: number;
  name: string;
  /** The baked source texture's object path, and its package in this install's tree (null when missing). */
  texture: string | null;
  texturePath: string | null;
  uv: [number, number];
  size: [number, number];
  pixelsPerUnrealUnit: number;
  vertices: number;
  /** The PNG `extract --format convert` writes; absent when it does not decode (see error). */
  png?: Uint8Array;
  error?: string;
  notes: string[];
}

/** A MidiFile for the MIDI view: ticks per quarter note and each track's events. */
export interface MidiView extends MidiSong {
  path: string;
  exportIndex: number;
}

/** A font file bigger than this is described but not sent to the view (a CJK font of 20 MB is). */
export const MAX_FONT_VIEW_BYTES = 32 * 1024 * 1024;

/**
 * A mesh's facts for the mesh view (static mesh, skeletal mesh or skeleton). Lengths are
 * centimetres. Points the view draws (bones, sockets) are in the view's axes: the glTF writer's
 * (Y up, right-handed: the engine's (x, y, z) as (x, z, y)) without its scale to metres; the
 * bounds and sizes are in the engine's axes as stored, as `pakscope mesh --json` prints them.
 */
export interface MeshView {
  /** Tree path of the package, as openPackage gives it. */
  path: string;
  exportIndex: number;
  /** "StaticMesh", "SkeletalMesh", "Skeleton". */
  class: string;
  name: string;
  lods: MeshLodView[];
  materials: MeshMaterial[];
  /** Bind pose: each bone's position in the view's axes (cm). */
  bones: { name: string; parent: number; position: [number, number, number] }[];
  morphTargets: string[];
  /** Each socket where it is in the bind pose, in the view's axes (cm). */
  sockets: { name: string; bone: string; position: [number, number, number] }[];
  /** The bounds the mesh stores (engine axes, cm). */
  storedBounds?: { origin: [number, number, number]; extent: [number, number, number]; radius: number };
  /**
   * Tables of what the reader found besides geometry: a GeometryCache's frames and visibility
   * samples, a PhysicsAsset's bodies, constraints and collision pairs.
   */
  facts?: { title: string; columns: string[]; rows: (string | number | boolean)[][] }[];
  notes: string[];
  /** What saveConversion writes for it ("glb"). */
  converts: string[];
}

/**
 * An animation sequence for the animation view: its facts, and its skeleton's bones posed at each
 * of its frames (positions in the mesh view's axes, cm), so the page only draws them.
 */
export interface AnimView {
  path: string;
  exportIndex: number;
  class: string;
  name: string;
  /** The skeleton's object path, "" when unknown. */
  skeleton: string;
  /** The skeletal mesh of that skeleton found for it (its package, as ls prints it): what the .glb plays it on. */
  mesh?: string;
  sequenceLength: number;
  rateScale: number;
  /** Sampled keys: frames + 1 (both ends), 0 when not read. */
  frames: number;
  additive: string;
  codecs: AnimCodecs;
  tracks: { bone: number; boneName: string; translationKeys: number; rotationKeys: number; scaleKeys: number; formats: string[] }[];
  /** Each curve's value at each frame. */
  curves: { name: string; keys: number; values: number[] }[];
  /** The skeleton's bones (empty when it was not read). */
  bones: { name: string; parent: number }[];
  /** frames x bones x 3: each bone's position at each frame, view axes (cm). */
  positions: number[];
  /**
   * The mesh's LOD 0 skinned by the sequence (meshGeometry of `mesh` gives its bind pose):
   * `influences` joints (the mesh's bone indices) and weights per vertex, and per frame per mesh
   * bone the 3x4 matrix (rows) taking a bind-pose vertex to its posed place, view axes.
   */
  skin?: { vertices: number; influences: number; joints: number[]; weights: number[]; bones: number; matrices: number[] };
  /** A montage, composite or blend space: what it is made of (it has no tracks of its own). */
  composition?: AnimComposition;
  notes: string[];
  converts: string[];
}

export interface MeshLodView {
  vertices: number;
  /** The sum over its sections. */
  triangles: number;
  uvChannels: number;
  normals: boolean;
  tangents: boolean;
  colors: boolean;
  /** Bone influences per vertex (skeletal meshes), 0 for none. */
  influences: number;
  /** Sections with triangles: their material slot and triangles (firstIndex in the index buffer). */
  sections: { material: number; firstIndex: number; triangles: number }[];
  /** Min and max of the vertex positions, engine axes (cm). */
  bounds: { min: [number, number, number]; max: [number, number, number] };
}

export interface MeshGeometryRequest extends AssetRequest {
  /** 0 (the finest) by default. */
  lod?: number;
}

/**
 * One LOD's vertex and index data for the mesh view, in the view's axes (cm, Y up,
 * right-handed). Each array travels as the bytes of a little-endian typed array, so it is a
 * view away from WebGL: `new Float32Array(positions.buffer, positions.byteOffset, n * 3)`.
 */
export interface MeshGeometry {
  lod: number;
  vertices: number;
  /** Float32 x, y, z per vertex. */
  positions: Uint8Array;
  /** Float32 x, y, z per vertex, unit length; absent when the mesh stores none. */
  normals?: Uint8Array;
  /** Float32 u, v per vertex for each UV channel, channel after channel. */
  uvs: Uint8Array;
  uvChannels: number;
  /** RGBA8 per vertex, as stored. */
  colors?: Uint8Array;
  /** Uint32 triangle list. */
  indices: Uint8Array;
  /** Morph targets of this LOD, in MeshView.morphTargets' order: `morphCounts[t]` vertices each, one after another. */
  morphCounts: number[];
  /** Uint32 vertex indices of every target's moved vertices. */
  morphVertices: Uint8Array;
  /** Float32 x, y, z position delta (cm, view axes) per moved vertex. */
  morphDeltas: Uint8Array;
}

export interface SaveConversionRequest extends AssetRequest {
  format: ConversionFormat;
  /** png and hdr write one image: this mip and slice (0 by default); dds writes every stored mip. */
  mip?: number;
  slice?: number;
  /** glb: the level of detail to write (0 by default). */
  lod?: number;
  /** A landscape's png: this weight layer's weights instead of the heightmap. */
  layer?: string;
  /** The file to write: an absolute path, outside the install (Electron: the one picked in the save dialog). */
  destination: string;
  /** An existing file: replaced (the save dialog asked already), or refused (fail, the default). */
  conflict?: 'overwrite' | 'fail';
}

export interface SavedConversion {
  path: string;
  bytes: number;
}

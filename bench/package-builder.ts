/**
 * Turns one catalog asset into its cooked Zen package: the asset export (or, for blueprints, the
 * generated class and its CDO), its subobjects, script and package imports, the imported packages'
 * names, a bulk data map when it has a .ubulk, and export data sliced from the content pool.
 */
import { createHash } from 'node:crypto';
import { scriptImportIndex } from '../src/core/zen/object-index.js';
import { KINDS } from './asset-kinds.js';
import type { Asset } from './catalog.js';
import type { ContentPool } from './content-pool.js';
import type { StoreEntrySpec } from './container-header-writer.js';
import type { Rng } from './rng.js';
import { cdoPath } from './script-objects-writer.js';
import {
  exportIndex, NULL_INDEX, packageImportIndex, publicExportHash, writeZenPackage, type ZenExportSpec, type ZenPackageSpec,
} from './zen-writer.js';

const PKG_COOKED = 0x200;
const PKG_UNVERSIONED_PROPERTIES = 0x2000;
const PKG_CONTAINS_MAP = 0x20000;
const PKG_FILTER_EDITOR_ONLY = 0x80000000;
const RF_PUBLIC = 0x1;
const RF_STANDALONE = 0x2;
const RF_TRANSACTIONAL = 0x8;
const RF_CLASS_DEFAULT_OBJECT = 0x10;
/** BULKDATA_PayloadAtEndOfFile | BULKDATA_PayloadInSeperateFile | BULKDATA_Force_NOT_InlinePayload | BULKDATA_NoOffsetFixUp */
const BULK_SEPARATE_FILE = 0x10501;

/** Property and type names that tagged-property data refers to. */
const PROPERTY_NAMES = [
  'None', 'ByteProperty', 'IntProperty', 'FloatProperty', 'DoubleProperty', 'BoolProperty', 'StrProperty', 'NameProperty',
  'ObjectProperty', 'SoftObjectProperty', 'StructProperty', 'ArrayProperty', 'MapProperty', 'EnumProperty', 'TextProperty',
  'Vector', 'Rotator', 'Transform', 'LinearColor', 'Guid', 'RelativeLocation', 'RelativeRotation', 'RelativeScale3D',
  'StaticMesh', 'Materials', 'OverrideMaterials', 'BodySetup', 'NavCollision', 'LODGroup', 'LightingGuid', 'ExtendedBounds',
  'SRGB', 'CompressionSettings', 'Filter', 'LODBias', 'MipGenSettings', 'NeverStream', 'AddressX', 'AddressY', 'ImportedSize',
  'Parent', 'ScalarParameterValues', 'VectorParameterValues', 'TextureParameterValues', 'ParameterInfo', 'ParameterValue',
  'BasePropertyOverrides', 'Skeleton', 'PhysicsAsset', 'LODInfo', 'MorphTargets', 'RefSkeleton', 'SequenceLength', 'RateScale',
  'CompressedTrackOffsets', 'Notifies', 'AnimNotify', 'SlotAnimTracks', 'CompositeSections', 'BlendIn', 'BlendOut',
  'UberGraphFrame', 'RootComponent', 'DefaultSceneRoot', 'SimpleConstructionScript', 'InheritableComponentHandler',
  'bReplicates', 'bCanBeDamaged', 'PrimaryActorTick', 'Tags', 'AttachParent', 'Mobility', 'CollisionProfileName',
  'BodyInstance', 'WidgetTree', 'RootWidget', 'Slot', 'Text', 'Font', 'ColorAndOpacity', 'Brush', 'Visibility',
  'PersistentLevel', 'WorldSettings', 'Actors', 'LevelScriptActor', 'Model', 'ModelComponents', 'NavListStart',
  'StreamingLevels', 'WorldPartition', 'RuntimeHash', 'RawData', 'SampleRate', 'NumChannels', 'Duration', 'SoundClassObject',
  'AttenuationSettings', 'FirstNode', 'ChildNodes', 'SoundWave', 'VolumeMultiplier', 'PitchMultiplier', 'EmitterHandles',
  'SystemSpawnScript', 'SystemUpdateScript', 'RowStruct', 'RowMap', 'FloatCurve', 'Keys', 'Time', 'Value', 'FontFaces',
];

export interface BuiltPackage {
  bytes: Uint8Array;
  storeEntry: StoreEntrySpec;
}

/** The object other packages import from this asset: its generated class for blueprints. */
export function importedObjectName(asset: Asset): string {
  return KINDS[asset.kind].generatedClass ? `${asset.objectName}_C` : asset.objectName;
}

export function buildPackage(asset: Asset, assets: readonly Asset[], pool: ContentPool, rng: Rng): BuiltPackage {
  const kind = KINDS[asset.kind];
  const scriptRefs: string[] = [];
  const script = (path: string): string => {
    const idx = scriptImportIndex(path);
    if (!scriptRefs.includes(idx)) scriptRefs.push(idx);
    return idx;
  };

  const exports: ZenExportSpec[] = [];
  const top = (e: Omit<ZenExportSpec, 'serialSize'>): number => exports.push({ ...e, serialSize: 0 }) - 1;
  let owner: number;
  if (kind.generatedClass) {
    const cls = `${asset.objectName}_C`;
    owner = top({
      name: cls, number: 0, outer: NULL_INDEX, classIndex: script(kind.classPath), superIndex: script(kind.generatedClass.parent),
      templateIndex: script(cdoPath(kind.classPath)), publicExportHash: publicExportHash(cls), objectFlags: RF_PUBLIC | RF_TRANSACTIONAL,
    });
    top({
      name: `Default__${cls}`, number: 0, outer: NULL_INDEX, classIndex: exportIndex(owner), superIndex: NULL_INDEX,
      templateIndex: script(cdoPath(kind.generatedClass.parent)), publicExportHash: publicExportHash(`Default__${cls}`),
      objectFlags: RF_PUBLIC | RF_CLASS_DEFAULT_OBJECT | RF_TRANSACTIONAL,
    });
  } else {
    owner = top({
      name: asset.objectName, number: 0, outer: NULL_INDEX, classIndex: script(kind.classPath), superIndex: NULL_INDEX,
      templateIndex: script(cdoPath(kind.classPath)), publicExportHash: publicExportHash(asset.objectName),
      objectFlags: RF_PUBLIC | RF_STANDALONE | RF_TRANSACTIONAL,
    });
  }
  for (const [cls, base, lo, hi] of kind.subobjects) {
    const n = rng.range(lo, hi);
    for (let k = 0; k < n; k++) {
      top({
        name: base, number: k + 1, outer: exportIndex(owner), classIndex: script(cls), superIndex: NULL_INDEX,
        templateIndex: script(cdoPath(cls)), publicExportHash: '0000000000000000', objectFlags: RF_TRANSACTIONAL,
      });
    }
  }

  // Export data: most of it is the asset's own; subobjects get small shares.
  const min = 16;
  const dataSize = Math.max(asset.exportSize, 64 * exports.length);
  const data = pool.slice(rng, dataSize);
  let left = dataSize - min * exports.length;
  for (let i = exports.length - 1; i > 0; i--) {
    const share = Math.floor(left * Math.min(0.3, rng.next() * 0.15));
    exports[i]!.serialSize = min + share;
    left -= share;
  }
  exports[0]!.serialSize = min + left;

  const imported = asset.imports.map((i) => assets[i]!);
  const importedPublicExportHashes = imported.map((a) => publicExportHash(importedObjectName(a)));
  const imports = [...scriptRefs, ...imported.map((_, i) => packageImportIndex(i, i))];
  const extraNames = PROPERTY_NAMES.slice(0, 12 + rng.int(PROPERTY_NAMES.length - 12));

  const bulkData: ZenPackageSpec['bulkData'] = [];
  // Streamed mips (or audio chunks) in the .ubulk: halves, the last one takes the rest.
  for (let at = 0, left = asset.bulkSize; left > 0;) {
    const size = left > 32768 ? Math.floor(left / 2) : left;
    bulkData.push({ serialOffset: at, serialSize: size, flags: BULK_SEPARATE_FILE });
    at += size;
    left -= size;
  }

  const { bytes } = writeZenPackage({
    name: asset.packageName,
    packageFlags: (PKG_COOKED | PKG_UNVERSIONED_PROPERTIES | PKG_FILTER_EDITOR_ONLY | (kind.umap ? PKG_CONTAINS_MAP : 0)) >>> 0,
    extraNames, exports, imports, importedPublicExportHashes,
    importedPackageNames: imported.map((a) => a.packageName),
    bulkData,
    exportData: data,
  });
  return {
    bytes,
    storeEntry: {
      packageId: asset.packageId,
      importedPackages: imported.map((a) => a.packageId),
      shaderMapHashes: kind.shaderMap ? [createHash('sha1').update(asset.packageName).digest('hex')] : [],
    },
  };
}

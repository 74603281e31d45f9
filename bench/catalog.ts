/**
 * The synthetic install's package list: realistic folders and names (characters, environments,
 * maps with World Partition cells, blueprints, UI, audio, VFX, weapons, game-feature plugins,
 * Engine content), each package's imports (about 10, mostly within its own group, the rest spread
 * over popular shared packages), its export and bulk data sizes, and its container.
 */
import { packageIdFromName } from '../src/core/hash/cityhash64.js';
import { KINDS, type AssetKind } from './asset-kinds.js';
import { Rng } from './rng.js';

export interface Asset {
  index: number;
  kind: AssetKind;
  /** Path below the mount point: "Game/Content/Characters/Heroes/Aria/Meshes/SK_Aria.uasset". */
  path: string;
  /** "/Game/Characters/Heroes/Aria/Meshes/SK_Aria" */
  packageName: string;
  packageId: string;
  /** "SK_Aria" */
  objectName: string;
  /** The unit it was made with (one character, one biome category, one map ...). */
  group: number;
  container: number;
  /** Indices of the imported assets. */
  imports: number[];
  /** Bytes of export data (the asset and its subobjects). */
  exportSize: number;
  /** Bytes of its .ubulk (0: none); whole 64 KiB blocks. */
  bulkSize: number;
}

export interface CatalogOptions {
  packages: number;
  containers: number;
  seed: number;
}

interface MountRoot { dir: string; pkg: string }

const GAME: MountRoot = { dir: 'Game/Content', pkg: '/Game' };
const ENGINE: MountRoot = { dir: 'Engine/Content', pkg: '/Engine' };
const plugin = (dir: string, name: string): MountRoot => ({ dir: `${dir}/${name}/Content`, pkg: `/${name}` });

const pad2 = (n: number): string => String(n).padStart(2, '0');
const pad3 = (n: number): string => String(n).padStart(3, '0');

const CHARACTER_NAMES = ['Aria', 'Bram', 'Cato', 'Dara', 'Eldric', 'Fenna', 'Goran', 'Hale', 'Ilsa', 'Joren', 'Kael', 'Lyra', 'Marek',
  'Nyx', 'Orin', 'Petra', 'Quill', 'Rowan', 'Sable', 'Tarin', 'Ulla', 'Vex', 'Wren', 'Yara', 'Zane', 'Hero', 'Goblin', 'Troll',
  'Wolf', 'Spider', 'Golem', 'Wraith', 'Drake', 'Bandit', 'Knight', 'Archer', 'Mage', 'Skeleton', 'Cultist', 'Merchant'];
const FACTIONS = ['Heroes', 'Enemies', 'NPCs', 'Creatures', 'Bosses'];
const BODY_PARTS = ['Body', 'Head', 'Hair', 'Eyes', 'Teeth', 'Outfit01', 'Outfit02', 'Armor', 'Cape', 'Boots', 'Gloves', 'Belt'];
const TEX_SUFFIX = ['D', 'N', 'ORM', 'E', 'M'];
const ANIMS = ['Idle', 'Idle_Break01', 'Idle_Break02', 'Walk_Fwd', 'Walk_Bwd', 'Walk_Left', 'Walk_Right', 'Run_Fwd', 'Run_Bwd',
  'Run_Left', 'Run_Right', 'Sprint', 'Jump_Start', 'Jump_Loop', 'Jump_Land', 'Crouch_Idle', 'Crouch_Walk', 'Attack_01', 'Attack_02',
  'Attack_03', 'Attack_Heavy', 'Block', 'Dodge_Fwd', 'Dodge_Bwd', 'Hit_React_Front', 'Hit_React_Back', 'Death_01', 'Death_02',
  'Emote_Wave', 'Emote_Cheer', 'Turn_Left_90', 'Turn_Right_90', 'Interact', 'Pickup', 'Climb_Up', 'Swim_Idle', 'Swim_Fwd'];
const BIOMES = ['Forest', 'Desert', 'Tundra', 'Swamp', 'Canyon', 'Coast', 'Ruins', 'Village', 'Castle', 'Caves', 'Volcano', 'Jungle',
  'Highlands', 'Marsh', 'Harbor', 'Temple', 'Mines', 'Farmland'];
const ENV_CATEGORIES: Record<string, string[]> = {
  Rocks: ['Boulder', 'Rock', 'Pebbles', 'Stone', 'Slab', 'Outcrop'],
  Cliffs: ['Cliff', 'CliffEdge', 'CliffCorner', 'Overhang'],
  Trees: ['Oak', 'Pine', 'Birch', 'Willow', 'DeadTree', 'Stump', 'Log'],
  Foliage: ['Grass', 'Fern', 'Bush', 'Flowers', 'Moss', 'Reeds', 'Ivy'],
  Props: ['Crate', 'Barrel', 'Cart', 'Fence', 'Lantern', 'Sack', 'Bench', 'Table', 'Chair', 'Bucket', 'Sign', 'Well'],
  Buildings: ['Wall', 'Roof', 'Door', 'Window', 'Floor', 'Stairs', 'Pillar', 'Beam', 'Arch', 'Tower'],
  Ground: ['Dirt', 'Mud', 'Sand', 'Gravel', 'Cobble', 'Snow'],
  Debris: ['Rubble', 'Planks', 'Bones', 'Scrap'],
};
const REGIONS = ['Overworld', 'Dungeons', 'Towns', 'Arenas', 'Story'];
const MAP_NAMES = ['MainWorld', 'Frontier', 'Lowlands', 'Citadel', 'Underdark', 'Skyreach', 'Harborside', 'Ashfall', 'Greywatch', 'Thornwood'];
const BP_FOLDERS: Record<string, string[]> = {
  AI: ['AIController', 'Patrol', 'Spawner', 'Perception', 'BehaviorNode'],
  Gameplay: ['GameMode', 'GameState', 'PlayerController', 'PlayerState', 'Checkpoint', 'Trigger', 'Door', 'Elevator', 'Trap'],
  Pickups: ['Pickup_Health', 'Pickup_Ammo', 'Pickup_Coin', 'Pickup_Key', 'Chest', 'Loot'],
  Interactables: ['Lever', 'Button', 'Ladder', 'Rope', 'Torch', 'Campfire', 'Portal'],
  Abilities: ['Ability_Fireball', 'Ability_Heal', 'Ability_Dash', 'Ability_Shield', 'Projectile', 'Buff', 'Debuff'],
};
const UI_FOLDERS = ['HUD', 'Menus', 'Inventory', 'Map', 'Dialogue', 'Settings', 'Common', 'Shop', 'Quests'];
const ICON_CATEGORIES = ['Items', 'Weapons', 'Abilities', 'Currencies', 'Quests', 'Achievements', 'Emotes', 'Cosmetics'];
const SFX_CATEGORIES = ['Footsteps', 'Impacts', 'Weapons', 'UI', 'Ambience', 'Creatures', 'Magic', 'Foley', 'Explosions'];
const LANGUAGES = ['en', 'de', 'fr', 'es', 'ja', 'ko', 'zh-Hans', 'pt-BR'];
const VFX_CATEGORIES = ['Fire', 'Smoke', 'Magic', 'Impacts', 'Weather', 'Water', 'Blood', 'Environment', 'UI'];
const WEAPON_TYPES: Record<string, string[]> = {
  Swords: ['Longsword', 'Shortsword', 'Greatsword', 'Rapier', 'Scimitar'],
  Bows: ['Longbow', 'Shortbow', 'Crossbow'],
  Staffs: ['OakStaff', 'CrystalStaff', 'BoneStaff'],
  Guns: ['Rifle', 'Pistol', 'Shotgun', 'SMG', 'Sniper'],
  Shields: ['Buckler', 'TowerShield', 'KiteShield'],
};
const FEATURES = ['SeasonOne', 'WinterEvent', 'Halloween', 'ShooterCore', 'Arena', 'Battlepass', 'Racing', 'Survival'];

class Builder {
  readonly assets: Omit<Asset, 'container' | 'imports' | 'exportSize' | 'bulkSize' | 'packageId'>[] = [];
  private readonly names = new Set<string>();
  private group = 0;
  private areaEnd = 0;

  constructor(readonly rng: Rng) {}

  /** Sets the running total this area may reach. */
  areaUntil(total: number): void { this.areaEnd = total; }
  get full(): boolean { return this.assets.length >= this.areaEnd; }
  newGroup(): void { this.group++; }

  add(root: MountRoot, folder: string, kind: AssetKind, name: string): void {
    if (this.full) return;
    let objectName = name;
    let packageName = `${root.pkg}/${folder}/${objectName}`;
    for (let n = 2; this.names.has(packageName.toLowerCase()); n++) {
      objectName = `${name}_${n}`;
      packageName = `${root.pkg}/${folder}/${objectName}`;
    }
    this.names.add(packageName.toLowerCase());
    const ext = KINDS[kind].umap ? '.umap' : '.uasset';
    this.assets.push({ index: this.assets.length, kind, path: `${root.dir}/${folder}/${objectName}${ext}`, packageName, objectName, group: this.group });
  }
}

/** A name that repeats in a series: Hero, Hero_02, Hero_03 ... once the list runs out. */
function series(list: readonly string[], i: number): string {
  const base = list[i % list.length]!;
  const round = Math.floor(i / list.length);
  return round === 0 ? base : `${base}${pad2(round + 1)}`;
}

function engineContent(b: Builder): void {
  const { rng } = b;
  for (let i = 0; !b.full; i++) {
    b.newGroup();
    const lib = `Functions/Engine_MaterialFunctions0${(i % 3) + 1}/${rng.pick(['Math', 'Texturing', 'Shading', 'Utility', 'Procedurals', 'WorldPositionOffset'])}`;
    for (let k = 0; k < 12; k++) b.add(ENGINE, lib, 'MaterialFunction', `MF_${rng.pick(['Blend', 'Noise', 'Mask', 'Rotate', 'Fresnel', 'Panner', 'Lerp', 'Remap'])}_${pad3(i * 12 + k)}`);
    for (let k = 0; k < 6; k++) b.add(ENGINE, 'EngineMaterials', 'Texture', `T_Default_${rng.pick(['Diffuse', 'Normal', 'Mask', 'Noise', 'Gradient'])}_${pad3(i * 6 + k)}`);
    for (let k = 0; k < 3; k++) b.add(ENGINE, 'EngineMaterials', 'Material', `M_${rng.pick(['WorldGrid', 'Default', 'Unlit', 'Decal', 'PostProcess'])}_${pad3(i * 3 + k)}`);
    b.add(ENGINE, 'BasicShapes', 'StaticMesh', `SM_${rng.pick(['Cube', 'Sphere', 'Cylinder', 'Cone', 'Plane', 'Torus'])}_${pad2(i)}`);
    b.add(ENGINE, 'EngineSounds', 'SoundWave', `SW_Engine_${pad3(i)}`);
    if (i % 10 === 0) b.add(ENGINE, 'EngineFonts', 'Font', `Font_Roboto_${pad2(i / 10)}`);
    const niagara = plugin('Engine/Plugins/FX', 'Niagara');
    b.add(niagara, 'DefaultAssets/Templates', 'NiagaraSystem', `NS_Template_${pad3(i)}`);
    b.add(niagara, 'Modules/Textures', 'Texture', `T_Niagara_${pad3(i)}`);
  }
}

function characters(b: Builder): void {
  const { rng } = b;
  for (let i = 0; !b.full; i++) {
    b.newGroup();
    const name = series(CHARACTER_NAMES, i);
    const base = `Characters/${FACTIONS[i % FACTIONS.length]}/${name}`;
    const parts = BODY_PARTS.slice(0, rng.range(3, BODY_PARTS.length));
    b.add(GAME, `${base}/Meshes`, 'Skeleton', `SKEL_${name}`);
    b.add(GAME, `${base}/Meshes`, 'PhysicsAsset', `PHYS_${name}`);
    b.add(GAME, `${base}/Meshes`, 'SkeletalMesh', `SK_${name}`);
    for (const p of parts.slice(1, 5)) b.add(GAME, `${base}/Meshes`, 'SkeletalMesh', `SK_${name}_${p}`);
    for (const p of parts) for (const s of TEX_SUFFIX.slice(0, rng.range(2, 4))) b.add(GAME, `${base}/Textures`, 'Texture', `T_${name}_${p}_${s}`);
    b.add(GAME, `${base}/Materials`, 'Material', `M_${name}_Master`);
    for (const p of parts) b.add(GAME, `${base}/Materials`, 'MaterialInstance', `MI_${name}_${p}`);
    for (const a of ANIMS.slice(0, rng.range(12, ANIMS.length))) b.add(GAME, `${base}/Animations`, 'AnimSequence', `A_${name}_${a}`);
    for (let k = 1; k <= rng.range(2, 6); k++) b.add(GAME, `${base}/Animations`, 'AnimMontage', `AM_${name}_Attack_${pad2(k)}`);
    b.add(GAME, `${base}/Animations`, 'AnimBlueprint', `ABP_${name}`);
    b.add(GAME, `${base}/Blueprints`, 'Blueprint', `BP_${name}`);
    if (rng.chance(0.5)) b.add(GAME, `${base}/Blueprints`, 'Blueprint', `BP_${name}_AIController`);
    for (let k = 1; k <= rng.range(4, 12); k++) b.add(GAME, `${base}/Audio`, 'SoundWave', `SW_${name}_${rng.pick(['Footstep', 'Grunt', 'Attack', 'Hurt', 'Death', 'Breath'])}_${pad2(k)}`);
    for (let k = 1; k <= rng.range(2, 5); k++) b.add(GAME, `${base}/Audio`, 'SoundCue', `SC_${name}_${rng.pick(['Footsteps', 'Vocals', 'Attacks', 'Hurt'])}_${pad2(k)}`);
  }
}

function environments(b: Builder): void {
  const { rng } = b;
  for (let i = 0; !b.full; i++) {
    const biome = series(BIOMES, Math.floor(i / 8));
    const cat = Object.keys(ENV_CATEGORIES)[i % 8]!;
    const items = ENV_CATEGORIES[cat]!;
    b.newGroup();
    const base = `Environments/${biome}`;
    const variants = rng.range(6, 30);
    b.add(GAME, `${base}/Materials/${cat}`, 'Material', `M_${biome}_${cat}_Master`);
    for (let k = 0; k < variants; k++) {
      const item = items[k % items.length]!;
      const n = pad2(Math.floor(k / items.length) + 1);
      b.add(GAME, `${base}/Meshes/${cat}`, 'StaticMesh', `SM_${biome}_${item}_${n}`);
      if (k % 2 === 0) {
        for (const s of TEX_SUFFIX.slice(0, 3)) b.add(GAME, `${base}/Textures/${cat}`, 'Texture', `T_${biome}_${item}_${n}_${s}`);
        b.add(GAME, `${base}/Materials/${cat}`, 'MaterialInstance', `MI_${biome}_${item}_${n}`);
      }
    }
  }
}

function maps(b: Builder, cellsPerMap: number): void {
  const { rng } = b;
  for (let i = 0; !b.full; i++) {
    b.newGroup();
    const region = REGIONS[i % REGIONS.length]!;
    const map = series(MAP_NAMES, i);
    const base = `Maps/${region}`;
    b.add(GAME, base, 'World', map);
    for (const sub of ['Audio', 'Lighting', 'Gameplay', 'Cinematics']) b.add(GAME, base, 'World', `${map}_${sub}`);
    // World Partition: a generated folder of streaming cells, as cooked UE5 games ship them.
    const cells = Math.max(20, Math.round(cellsPerMap * (0.4 + rng.next() * 1.2)));
    const side = Math.ceil(Math.sqrt(cells));
    for (let c = 0; c < cells && !b.full; c++) {
      const x = (c % side) - (side >> 1);
      const y = Math.floor(c / side) - (side >> 1);
      const level = c % 9 === 0 ? 1 : 0;
      b.add(GAME, `${base}/${map}/_Generated_`, 'WorldCell', `MainGrid_L${level}_X${x}_Y${y}_DL0`);
    }
    for (let h = 0; h < Math.min(40, cells / 10); h++) b.add(GAME, `${base}/${map}/HLOD`, 'StaticMesh', `SM_${map}_HLOD0_${pad3(h)}`);
  }
}

function blueprints(b: Builder): void {
  const { rng } = b;
  for (let i = 0; !b.full; i++) {
    b.newGroup();
    const folder = Object.keys(BP_FOLDERS)[i % 5]!;
    const nouns = BP_FOLDERS[folder]!;
    for (let k = 0; k < rng.range(6, 20); k++) b.add(GAME, `Blueprints/${folder}`, 'Blueprint', `BP_${nouns[k % nouns.length]}_${pad2(i + 1)}`);
    b.add(GAME, 'Data/DataTables', 'DataTable', `DT_${folder}_${pad2(i + 1)}`);
    b.add(GAME, 'Data/Curves', 'Curve', `Curve_${folder}_${pad2(i + 1)}`);
  }
}

function ui(b: Builder): void {
  const { rng } = b;
  for (let i = 0; !b.full; i++) {
    b.newGroup();
    const folder = UI_FOLDERS[i % UI_FOLDERS.length]!;
    for (let k = 0; k < rng.range(4, 14); k++) b.add(GAME, `UI/${folder}/Widgets`, 'Widget', `WBP_${folder}_${rng.pick(['Panel', 'Button', 'Entry', 'Slot', 'Tooltip', 'Popup', 'List'])}_${pad2(i * 20 + k)}`);
    const icons = ICON_CATEGORIES[i % ICON_CATEGORIES.length]!;
    for (let k = 0; k < rng.range(20, 80); k++) b.add(GAME, `UI/Icons/${icons}`, 'Texture', `T_Icon_${icons}_${pad3(i * 80 + k)}`);
    if (i % 4 === 0) b.add(GAME, 'UI/Fonts', 'Font', `Font_UI_${pad2(i / 4)}`);
  }
}

function audio(b: Builder): void {
  const { rng } = b;
  for (let i = 0; !b.full; i++) {
    b.newGroup();
    if (i % 3 === 2) {
      const lang = LANGUAGES[Math.floor(i / 3) % LANGUAGES.length]!;
      const who = series(CHARACTER_NAMES, Math.floor(i / 24));
      for (let k = 0; k < rng.range(20, 60); k++) b.add(GAME, `Audio/Dialogue/${lang}/${who}`, 'SoundWave', `VO_${who}_Line_${pad3(k)}`);
      continue;
    }
    const cat = SFX_CATEGORIES[i % SFX_CATEGORIES.length]!;
    for (let k = 0; k < rng.range(10, 40); k++) b.add(GAME, `Audio/SFX/${cat}`, 'SoundWave', `SW_${cat}_${pad3(i * 40 + k)}`);
    for (let k = 0; k < rng.range(4, 12); k++) b.add(GAME, `Audio/SFX/${cat}/Cues`, 'SoundCue', `SC_${cat}_${pad3(i * 12 + k)}`);
    if (i % 9 === 0) b.add(GAME, 'Audio/Music', 'SoundWave', `SW_Music_${pad2(i / 9)}`);
  }
}

function vfx(b: Builder): void {
  const { rng } = b;
  for (let i = 0; !b.full; i++) {
    b.newGroup();
    const cat = series(VFX_CATEGORIES, i);
    for (let k = 0; k < rng.range(4, 12); k++) b.add(GAME, `VFX/${cat}`, 'NiagaraSystem', `NS_${cat}_${pad2(k + 1)}`);
    for (let k = 0; k < rng.range(4, 10); k++) b.add(GAME, `VFX/${cat}/Textures`, 'Texture', `T_${cat}_${rng.pick(['Flipbook', 'Noise', 'Mask', 'Gradient'])}_${pad2(k + 1)}`);
    b.add(GAME, `VFX/${cat}/Materials`, 'Material', `M_${cat}_Particle`);
    for (let k = 0; k < rng.range(2, 6); k++) b.add(GAME, `VFX/${cat}/Materials`, 'MaterialInstance', `MI_${cat}_${pad2(k + 1)}`);
  }
}

function weapons(b: Builder): void {
  const { rng } = b;
  for (let i = 0; !b.full; i++) {
    b.newGroup();
    const type = Object.keys(WEAPON_TYPES)[i % 5]!;
    const name = series(WEAPON_TYPES[type]!, Math.floor(i / 5));
    const base = `Weapons/${type}/${name}`;
    b.add(GAME, `${base}/Meshes`, 'SkeletalMesh', `SK_${name}`);
    b.add(GAME, `${base}/Meshes`, 'Skeleton', `SKEL_${name}`);
    b.add(GAME, `${base}/Meshes`, 'PhysicsAsset', `PHYS_${name}`);
    for (const s of TEX_SUFFIX.slice(0, 3)) b.add(GAME, `${base}/Textures`, 'Texture', `T_${name}_${s}`);
    b.add(GAME, `${base}/Materials`, 'MaterialInstance', `MI_${name}`);
    for (const a of ['Fire', 'Reload', 'Equip', 'Idle', 'Inspect'].slice(0, rng.range(2, 5))) b.add(GAME, `${base}/Animations`, 'AnimSequence', `A_${name}_${a}`);
    for (let k = 1; k <= rng.range(2, 6); k++) b.add(GAME, `${base}/Audio`, 'SoundWave', `SW_${name}_${pad2(k)}`);
    b.add(GAME, `${base}/Audio`, 'SoundCue', `SC_${name}`);
    b.add(GAME, `${base}/Blueprints`, 'Blueprint', `BP_${name}`);
    b.add(GAME, `${base}/VFX`, 'NiagaraSystem', `NS_${name}_Muzzle`);
  }
}

function gameFeatures(b: Builder): void {
  const { rng } = b;
  for (let i = 0; !b.full; i++) {
    b.newGroup();
    const root = plugin('Game/Plugins/GameFeatures', series(FEATURES, Math.floor(i / 12)));
    const area = ['Blueprints', 'Maps', 'UI', 'Cosmetics', 'Audio', 'Data'][i % 6]!;
    for (let k = 0; k < rng.range(10, 40); k++) {
      const n = pad3(i * 40 + k);
      switch (area) {
        case 'Blueprints': b.add(root, 'Game/Blueprints', 'Blueprint', `BP_Feature_${n}`); break;
        case 'Maps': b.add(root, 'Maps/_Generated_', 'WorldCell', `FeatureGrid_L0_X${k}_Y${i}_DL0`); break;
        case 'UI': b.add(root, 'UI', k % 3 ? 'Texture' : 'Widget', k % 3 ? `T_Feature_Icon_${n}` : `WBP_Feature_${n}`); break;
        case 'Cosmetics':
          b.add(root, 'Cosmetics/Meshes', 'SkeletalMesh', `SK_Cosmetic_${n}`);
          b.add(root, 'Cosmetics/Textures', 'Texture', `T_Cosmetic_${n}_D`);
          b.add(root, 'Cosmetics/Materials', 'MaterialInstance', `MI_Cosmetic_${n}`);
          break;
        case 'Audio': b.add(root, 'Audio', 'SoundWave', `SW_Feature_${n}`); break;
        default: b.add(root, 'Data', 'DataTable', `DT_Feature_${n}`);
      }
    }
  }
}

/** Shares of the install per area (they add up to 1). */
const AREAS: [(b: Builder, packages: number) => void, number][] = [
  [engineContent, 0.04],
  [characters, 0.16],
  [environments, 0.22],
  [(b, n) => maps(b, Math.max(60, Math.round(n / 200))), 0.2],
  [blueprints, 0.05],
  [ui, 0.06],
  [audio, 0.08],
  [vfx, 0.05],
  [weapons, 0.06],
  [gameFeatures, 0.08],
];

function sizeOf(rng: Rng, kind: AssetKind): number {
  const kib = Math.min(1024, Math.max(0.5, rng.logNormal(KINDS[kind].exportKiB, 0.8)));
  return Math.round(kib * 1024);
}

/**
 * Streamed bulk data: mostly 40-360 KiB, a few of up to 1.4 MiB; sizes anywhere in between, as
 * mips and audio chunks are, so most files end in a short block.
 */
function bulkOf(rng: Rng, kind: AssetKind): number {
  if (!rng.chance(KINDS[kind].bulkChance)) return 0;
  const r = rng.next();
  const blocks = r < 0.65 ? 1 : r < 0.88 ? 2 : r < 0.96 ? 4 : r < 0.99 ? 8 : 16;
  return Math.round(blocks * 65536 * (0.6 + 0.8 * rng.next()));
}

/** Mean imported packages per package, as in a real game's container headers. */
export const IMPORTS_PER_PACKAGE = 10;

/** Scales the kinds' import ranges so the whole catalog averages `target` imports per package. */
function importScale(assets: readonly Asset[], target: number): number {
  let expected = 0;
  for (const a of assets) for (const [, lo, hi] of KINDS[a.kind].imports) expected += (lo + hi) / 2;
  // Picks that repeat (or name the package itself) are dropped: aim a little higher.
  return expected > 0 ? (target * assets.length * 1.12) / expected : 1;
}

/** Picks the imports of every asset: mostly from its own group, else popular packages of the kind. */
function linkImports(assets: Asset[], rng: Rng): void {
  const kindIds = new Map(Object.keys(KINDS).map((k, i) => [k as AssetKind, i]));
  const key = (group: number, kind: AssetKind): number => group * 32 + kindIds.get(kind)!;
  const byKind = new Map<AssetKind, number[]>();
  const byGroupKind = new Map<number, number[]>();
  for (const a of assets) {
    (byKind.get(a.kind) ?? byKind.set(a.kind, []).get(a.kind)!).push(a.index);
    const k = key(a.group, a.kind);
    (byGroupKind.get(k) ?? byGroupKind.set(k, []).get(k)!).push(a.index);
  }
  // Popularity: a shuffled order per kind; skewed picks favour its head (shared master materials ...).
  for (const list of byKind.values()) {
    for (let i = list.length - 1; i > 0; i--) {
      const j = rng.int(i + 1);
      [list[i], list[j]] = [list[j]!, list[i]!];
    }
  }
  const scale = importScale(assets, IMPORTS_PER_PACKAGE);
  const none: number[] = [];
  for (const a of assets) {
    const chosen = new Set<number>();
    for (const [kind, lo, hi] of KINDS[a.kind].imports) {
      const n = Math.round(rng.range(lo, hi) * scale);
      const local = byGroupKind.get(key(a.group, kind)) ?? none;
      const global = byKind.get(kind) ?? none;
      for (let k = 0; k < n; k++) {
        const fromLocal = local.length > 1 && rng.chance(0.65);
        const list = fromLocal ? local : global;
        if (list.length === 0) break;
        const pick = fromLocal ? list[rng.int(list.length)]! : list[rng.skewed(list.length, 2.5)]!;
        if (pick !== a.index) chosen.add(pick);
      }
    }
    a.imports = [...chosen];
  }
}

/** Whole groups go to the container holding the fewest packages so far (containers fill evenly). */
function assignContainers(assets: Asset[], containers: number): void {
  const load = new Array<number>(containers).fill(0);
  let group = -1;
  let current = 0;
  for (const a of assets) {
    if (a.group !== group) {
      group = a.group;
      current = load.indexOf(Math.min(...load));
    }
    a.container = current;
    load[current] = load[current]! + 1;
  }
}

export function buildCatalog(opts: CatalogOptions): Asset[] {
  const rng = new Rng(opts.seed);
  const b = new Builder(rng);
  let end = 0;
  AREAS.forEach(([make, share], i) => {
    end = i === AREAS.length - 1 ? opts.packages : Math.min(opts.packages, end + Math.round(opts.packages * share));
    b.areaUntil(end);
    make(b, opts.packages);
  });
  const assets: Asset[] = b.assets.map((a) => ({
    ...a,
    packageId: packageIdFromName(a.packageName),
    container: 0,
    imports: [],
    exportSize: sizeOf(rng, a.kind),
    bulkSize: bulkOf(rng, a.kind),
  }));
  linkImports(assets, rng);
  assignContainers(assets, opts.containers);
  return assets;
}

/**
 * What a mesh's slot materials give its glTF material and the 3D view's textured mode: the base
 * colour, normal and occlusion-roughness-metallic textures, or a base colour, picked from the
 * effective parameters of each slot's material (core/assets/material, its parent chain followed
 * through the install) by the names games give them. Names decide, so this is a guess: a texture
 * parameter named like a base colour ("BaseColor", "Base Texture", "Diffuse", "Albedo"), a normal
 * map, or an ORM map (packed as glTF packs it: occlusion R, roughness G, metallic B; an "MRA" map
 * packs them otherwise and is left out); failing a named base colour, the first texture no name
 * marks as something else. A material that is not in the install, or does not read, leaves its
 * slot as it was.
 */
import { packageOfObjectPath } from '../../package/object-path.js';
import type { InstallPackages } from '../../package/open-package.js';
import { readMaterial } from '../material/read.js';
import type { EffectiveParameter, MaterialAsset } from '../material/types.js';
import type { ConvertOptions } from '../registry.js';
import type { Mesh, MeshMaterial } from './types.js';

/** Lowercase letters and digits only: "Base Texture" -> "basetexture". */
const squash = (s: string): string => s.toLowerCase().replace(/[^a-z0-9]/g, '');
/** The object name of a path: "/Game/T/T_A_D.T_A_D" -> "T_A_D". */
const objectName = (p: string): string => p.slice(p.lastIndexOf('/') + 1).replace(/^.*\./, '');

const BASE_NAMES = ['basecolor', 'basecolour', 'basetexture', 'basemap', 'diffuse', 'albedo'];
const BASE_SUFFIX = /_(d|bc|basecolou?r|diffuse|albedo|col)$/i;
const NORMAL_SUFFIX = /_(n|normal|nrm)$/i;
const ORM_SUFFIX = /_orm$/i;
/** Words that say a texture is not a base colour. */
const OTHER_ROLE = /normal|mask|rough|metal|orm|mra|occlusion|ao|emissive|opacity|height|noise|detail|spec/;

type Role = 'baseColor' | 'normal' | 'orm';

function roleOf(p: EffectiveParameter): Role | undefined {
  const name = squash(p.name);
  const tex = typeof p.value === 'string' ? objectName(p.value) : '';
  if (name.includes('normal') || NORMAL_SUFFIX.test(tex)) return 'normal';
  if (name === 'orm' || name.includes('occlusionroughnessmetal') || ORM_SUFFIX.test(tex)) return 'orm';
  if (BASE_NAMES.some((n) => name.includes(n)) || BASE_SUFFIX.test(tex)) return 'baseColor';
  return undefined;
}

/** The textures and base colour the material's parameters give a glTF material. */
export function slotLook(m: MaterialAsset): Pick<MeshMaterial, 'textures' | 'baseColor'> {
  const textures: NonNullable<MeshMaterial['textures']> = {};
  const candidates = m.parameters.filter((p) => p.kind === 'texture' && typeof p.value === 'string');
  for (const p of candidates) {
    const role = roleOf(p);
    if (role && textures[role] === undefined) textures[role] = p.value as string;
  }
  if (textures.baseColor === undefined) {
    const plain = candidates.find((p) => roleOf(p) === undefined && !OTHER_ROLE.test(squash(p.name)) && !OTHER_ROLE.test(objectName(p.value as string).toLowerCase()));
    if (plain) textures.baseColor = plain.value as string;
  }
  const out: Pick<MeshMaterial, 'textures' | 'baseColor'> = {};
  if (Object.keys(textures).length > 0) out.textures = textures;
  if (textures.baseColor === undefined) {
    const colors = m.parameters.filter((p) => p.kind === 'vector' && p.value !== null && typeof p.value === 'object');
    const named = colors.find((p) => BASE_NAMES.some((n) => squash(p.name).includes(n))) ?? colors.find((p) => ['color', 'colour', 'tint'].includes(squash(p.name)));
    if (named && named.value !== null && typeof named.value === 'object') out.baseColor = [named.value.r, named.value.g, named.value.b, named.value.a];
  }
  return out;
}

/** Fills each slot's textures and base colour from its material, where the install holds it. */
export async function resolveSlotMaterials(packages: InstallPackages, mesh: Mesh, opts: Pick<ConvertOptions, 'mappings' | 'engine' | 'signal' | 'materialReads'> = {}): Promise<void> {
  const looks = new Map<string, Pick<MeshMaterial, 'textures' | 'baseColor'> | null>();
  for (const slot of mesh.materials) {
    if (slot.material === '' || slot.textures !== undefined) continue;
    let look = looks.get(slot.material);
    if (look === undefined) {
      opts.signal?.throwIfAborted();
      const pkg = packageOfObjectPath(slot.material);
      look = null;
      if (packages.index.byPackageName(pkg)) {
        try {
          look = slotLook(await readMaterial({ packages, ref: pkg }, undefined, opts));
        } catch (e) {
          if (opts.signal?.aborted) throw e;
          // A material that does not read leaves the slot untextured, as one outside the install does.
        }
      }
      looks.set(slot.material, look);
    }
    if (look?.textures) slot.textures = { ...look.textures };
    if (look?.baseColor) slot.baseColor = [...look.baseColor];
  }
}

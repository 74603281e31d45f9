/**
 * Mesh -> glTF 2.0 binary (.glb), built with glTF Transform's document model (it lays out the
 * buffer views, the accessors' bounds and the GLB chunks). One glTF mesh for the chosen LOD, one
 * primitive per section (all sharing the LOD's vertex accessors), a material per slot, the
 * skeleton as a node tree with a skin, morph targets as glTF targets named in the mesh's
 * extras.targetNames, sockets as nodes. Axes and units: see axes.ts.
 */
import { Document, NodeIO, VertexLayout, type Accessor, type Material, type Mesh as GltfMesh, type Node, type Texture } from '@gltf-transform/core';
import type { Mesh, MeshLod, MeshMaterial, MeshPart } from '../types.js';
import {
  composeMat4, GLTF_SCALE, invertAffineMat4, multiplyMat4, rotatorToQuat, streamToGltfAxes, toGltfAxes, toGltfPosition, toGltfQuat,
  type Mat4,
} from './axes.js';

export interface GlbOptions {
  /** The LOD to write (default 0). */
  lod?: number;
  /**
   * PNG files of the textures the materials name (MeshMaterial.textures), by texture object
   * path; a texture not in the map is left out. Normal maps already in glTF's convention.
   */
  textures?: ReadonlyMap<string, Uint8Array>;
  /** Adds to the document once it is built (an animation on the bone nodes: anim/gltf-animation.ts). */
  extend?: (doc: Document, boneNodes: readonly Node[]) => void;
}

/** The .glb of `mesh`. Throws RangeError for a LOD the mesh does not have or data that does not fit its counts. */
export async function writeGlb(mesh: Mesh, opts: GlbOptions = {}): Promise<Uint8Array> {
  const doc = buildGltfDocument(mesh, opts);
  // Separate buffer views per attribute: the sections' primitives share the LOD's accessors.
  return new NodeIO().setVertexLayout(VertexLayout.SEPARATE).writeBinary(doc);
}

/** The glTF document of `mesh` (see writeGlb). */
export function buildGltfDocument(mesh: Mesh, opts: GlbOptions = {}): Document {
  const lodIndex = opts.lod ?? 0;
  if (mesh.lods.length > 0 && (!Number.isInteger(lodIndex) || lodIndex < 0 || lodIndex >= mesh.lods.length)) {
    throw new RangeError(`${mesh.name} has LODs 0 to ${mesh.lods.length - 1}, not ${lodIndex}`);
  }
  const lod = mesh.lods[lodIndex];
  const doc = new Document();
  doc.getRoot().getAsset().generator = 'PakScope';
  const scene = doc.createScene(mesh.name);
  doc.getRoot().setDefaultScene(scene);

  const boneNodes = writeSkeleton(doc, mesh, scene);
  let meshNode: Node | undefined;
  if (mesh.parts) {
    writeParts(doc, mesh, mesh.parts, scene, opts.textures);
  } else if (lod) {
    const textures = new Map<string, Texture>();
    const materials = mesh.materials.map((m) => writeMaterial(doc, m, opts.textures, textures));
    const buffer = doc.createBuffer();
    const gltfMesh = writeLod(doc, buffer, mesh, lod, lodIndex, materials);
    meshNode = doc.createNode(mesh.name).setMesh(gltfMesh);
    scene.addChild(meshNode);
    if (lod.skin && boneNodes.length > 0) meshNode.setSkin(writeSkin(doc, buffer, mesh, boneNodes));
  }
  for (const socket of mesh.sockets) {
    const node = doc.createNode(socket.name)
      .setTranslation(toGltfPosition(socket.location))
      .setRotation(toGltfQuat(rotatorToQuat(...socket.rotation)))
      .setScale(toGltfAxes(socket.scale));
    const bone = socket.bone ? boneNodes[mesh.bones.findIndex((b) => b.name === socket.bone)] : undefined;
    if (bone) bone.addChild(node);
    else if (meshNode) meshNode.addChild(node);
    else scene.addChild(node);
  }
  opts.extend?.(doc, boneNodes);
  return doc;
}

/**
 * Adds LOD `lodIndex` of a static mesh to `doc` as one glTF mesh (its slots' materials, textures
 * from `textures`), for a document that places it many times (a level: assets/level/gltf.ts).
 * `made` holds the glTF textures already in `doc`, so meshes sharing a texture embed it once.
 * Undefined when the mesh has no such LOD.
 */
export function addStaticMesh(doc: Document, mesh: Mesh, lodIndex = 0, textures?: ReadonlyMap<string, Uint8Array>, made = new Map<string, Texture>()): GltfMesh | undefined {
  const lod = mesh.lods[lodIndex];
  if (!lod) return undefined;
  const materials = mesh.materials.map((m) => writeMaterial(doc, m, textures, made));
  const buffer = doc.getRoot().listBuffers()[0] ?? doc.createBuffer();
  return writeLod(doc, buffer, mesh, lod, lodIndex, materials);
}

/**
 * One node per part, parented as the parts say, each with its own glTF mesh; parts shown only part
 * of the time get a step animation of their scale (0 while hidden), which Blender and three.js play.
 */
function writeParts(doc: Document, mesh: Mesh, parts: readonly MeshPart[], scene: ReturnType<Document['createScene']>, pngs: GlbOptions['textures']): void {
  const made = new Map<string, Texture>();
  const materials = mesh.materials.map((m) => writeMaterial(doc, m, pngs, made));
  const buffer = doc.createBuffer();
  const nodes: Node[] = [];
  let animation: ReturnType<Document['createAnimation']> | undefined;
  parts.forEach((part, i) => {
    const node = doc.createNode(part.name)
      .setTranslation(toGltfPosition(part.local.translation))
      .setRotation(toGltfQuat(part.local.rotation))
      .setScale(toGltfAxes(part.local.scale));
    if (part.geometry && part.geometry.indices.length > 0) {
      node.setMesh(writeLod(doc, buffer, { ...mesh, name: part.name, morphTargets: [] }, part.geometry, 0, materials));
    }
    nodes.push(node);
    if (part.parent < 0) scene.addChild(node);
    else if (part.parent < i) nodes[part.parent]!.addChild(node);
    else throw new RangeError(`part ${i} (${part.name}) has parent ${part.parent}: parents come before their children`);
    const v = part.visibility;
    if (v && v.times.length > 0) {
      if (v.visible.length !== v.times.length) throw new RangeError(`part ${part.name}: ${v.times.length} visibility times, ${v.visible.length} states`);
      animation ??= doc.createAnimation(mesh.name);
      const scale = toGltfAxes(part.local.scale);
      const input = doc.createAccessor(`${part.name}_times`, buffer).setType('SCALAR').setArray(Float32Array.from(v.times));
      const output = doc.createAccessor(`${part.name}_scale`, buffer).setType('VEC3')
        .setArray(Float32Array.from(v.visible.flatMap((shown) => (shown ? scale : [0, 0, 0]))));
      const sampler = doc.createAnimationSampler().setInput(input).setOutput(output).setInterpolation('STEP');
      animation.addSampler(sampler).addChannel(doc.createAnimationChannel().setTargetNode(node).setTargetPath('scale').setSampler(sampler));
    }
  });
}

/** One node per bone, parented as the skeleton says; the roots go in the scene. */
function writeSkeleton(doc: Document, mesh: Mesh, scene: ReturnType<Document['createScene']>): Node[] {
  const nodes: Node[] = [];
  mesh.bones.forEach((bone, i) => {
    const node = doc.createNode(bone.name)
      .setTranslation(toGltfPosition(bone.local.translation))
      .setRotation(toGltfQuat(bone.local.rotation))
      .setScale(toGltfAxes(bone.local.scale));
    nodes.push(node);
    if (bone.parent < 0) scene.addChild(node);
    else if (bone.parent < i) nodes[bone.parent]!.addChild(node);
    else throw new RangeError(`bone ${i} (${bone.name}) has parent ${bone.parent}: parents come before their children`);
  });
  return nodes;
}

/** The skin: every bone a joint (joint index = bone index), inverse bind matrices from the bind pose. */
function writeSkin(doc: Document, buffer: ReturnType<Document['createBuffer']>, mesh: Mesh, boneNodes: Node[]) {
  const globals: Mat4[] = [];
  const ibm = new Float32Array(16 * mesh.bones.length);
  mesh.bones.forEach((bone, i) => {
    const local = composeMat4(toGltfPosition(bone.local.translation), toGltfQuat(bone.local.rotation), toGltfAxes(bone.local.scale));
    const global = bone.parent < 0 ? local : multiplyMat4(globals[bone.parent]!, local);
    globals.push(global);
    const inv = invertAffineMat4(global);
    inv[3] = inv[7] = inv[11] = 0; // exactly affine, as the validator checks
    inv[15] = 1;
    ibm.set(inv, i * 16);
  });
  const skin = doc.createSkin(mesh.name)
    .setInverseBindMatrices(doc.createAccessor('inverseBindMatrices', buffer).setType('MAT4').setArray(ibm));
  for (const node of boneNodes) skin.addJoint(node);
  const root = mesh.bones.findIndex((b) => b.parent < 0);
  if (root >= 0 && mesh.bones.every((b, i) => i === root || b.parent >= 0)) skin.setSkeleton(boneNodes[root]!);
  return skin;
}

function writeMaterial(doc: Document, slot: MeshMaterial, pngs: ReadonlyMap<string, Uint8Array> | undefined, made: Map<string, Texture>): Material {
  // Not metallic unless a texture says so: glTF's default (fully metallic) renders most game
  // materials near black.
  const material = doc.createMaterial(slot.name).setBaseColorFactor([1, 1, 1, 1]).setMetallicFactor(0).setRoughnessFactor(0.8);
  const texture = (path: string | undefined): Texture | null => {
    if (!path) return null;
    const png = pngs?.get(path);
    if (!png) return null;
    let t = made.get(path);
    if (!t) {
      t = doc.createTexture(path.slice(path.lastIndexOf('.') + 1) || path).setImage(new Uint8Array(png)).setMimeType('image/png');
      made.set(path, t);
    }
    return t;
  };
  const base = texture(slot.textures?.baseColor);
  if (base) material.setBaseColorTexture(base);
  else if (slot.baseColor) material.setBaseColorFactor(slot.baseColor.map((c) => Math.min(1, Math.max(0, c))) as [number, number, number, number]);
  const normal = texture(slot.textures?.normal);
  if (normal) material.setNormalTexture(normal);
  const orm = texture(slot.textures?.orm);
  if (orm) material.setOcclusionTexture(orm).setMetallicRoughnessTexture(orm).setMetallicFactor(1).setRoughnessFactor(1);
  return material;
}

function writeLod(doc: Document, buffer: ReturnType<Document['createBuffer']>, mesh: Mesh, lod: MeshLod, lodIndex: number, materials: Material[]): GltfMesh {
  const n = lod.vertexCount;
  checkLength(mesh, 'positions', lod.positions, n * 3);
  const accessor = (name: string, type: 'SCALAR' | 'VEC2' | 'VEC3' | 'VEC4', array: Float32Array | Uint8Array | Uint16Array | Uint32Array) =>
    doc.createAccessor(name, buffer).setType(type).setArray(array as Float32Array<ArrayBuffer>);

  const attributes = new Map<string, Accessor>();
  attributes.set('POSITION', accessor('POSITION', 'VEC3', streamToGltfAxes(lod.positions, 3, GLTF_SCALE)));
  if (lod.normals && lod.normals.length > 0) {
    checkLength(mesh, 'normals', lod.normals, n * 3);
    attributes.set('NORMAL', accessor('NORMAL', 'VEC3', unitVectors(streamToGltfAxes(lod.normals, 3), 3)));
    if (lod.tangents && lod.tangents.length > 0) {
      checkLength(mesh, 'tangents', lod.tangents, n * 4);
      attributes.set('TANGENT', accessor('TANGENT', 'VEC4', unitVectors(streamToGltfAxes(lod.tangents, 4), 4)));
    }
  }
  lod.uvs.forEach((uv, i) => {
    checkLength(mesh, `UV channel ${i}`, uv, n * 2);
    attributes.set(`TEXCOORD_${i}`, accessor(`TEXCOORD_${i}`, 'VEC2', new Float32Array(uv)));
  });
  if (lod.colors && lod.colors.length > 0) {
    checkLength(mesh, 'colors', lod.colors, n * 4);
    attributes.set('COLOR_0', accessor('COLOR_0', 'VEC4', new Uint8Array(lod.colors)).setNormalized(true));
  }
  if (lod.skin) {
    const { influences, joints, weights } = lod.skin;
    checkLength(mesh, 'skin joints', joints, n * influences);
    checkLength(mesh, 'skin weights', weights, n * influences);
    for (const j of joints) if (j >= mesh.bones.length) throw new RangeError(`${mesh.name}: a vertex is weighted to bone ${j} of ${mesh.bones.length}`);
    const sets = Math.ceil(influences / 4);
    const { j, w } = mergedInfluences(joints, weights, influences, sets * 4);
    for (let s = 0; s < sets; s++) {
      const js = new Uint16Array(n * 4);
      const ws = new Float32Array(n * 4);
      for (let v = 0; v < n; v++) {
        js.set(j.subarray(v * sets * 4 + s * 4, v * sets * 4 + s * 4 + 4), v * 4);
        ws.set(w.subarray(v * sets * 4 + s * 4, v * sets * 4 + s * 4 + 4), v * 4);
      }
      attributes.set(`JOINTS_${s}`, accessor(`JOINTS_${s}`, 'VEC4', js));
      attributes.set(`WEIGHTS_${s}`, accessor(`WEIGHTS_${s}`, 'VEC4', ws));
    }
  }

  // Morph targets: every target of the mesh (so the names line up), deltas of this LOD.
  const targets = mesh.morphTargets.map((t) => {
    const src = t.lods[lodIndex];
    const position = new Float32Array(n * 3);
    const normal = new Float32Array(n * 3);
    let hasNormals = false;
    if (src) {
      checkLength(mesh, `morph target ${t.name} deltas`, src.positionDeltas, src.vertices.length * 3);
      if (src.normalDeltas) checkLength(mesh, `morph target ${t.name} normal deltas`, src.normalDeltas, src.vertices.length * 3);
      src.vertices.forEach((v, i) => {
        if (v >= n) throw new RangeError(`${mesh.name}: morph target ${t.name} moves vertex ${v} of ${n}`);
        position[v * 3] = src.positionDeltas[i * 3]! * GLTF_SCALE;
        position[v * 3 + 1] = src.positionDeltas[i * 3 + 2]! * GLTF_SCALE;
        position[v * 3 + 2] = src.positionDeltas[i * 3 + 1]! * GLTF_SCALE;
        if (src.normalDeltas) {
          hasNormals = true;
          normal[v * 3] = src.normalDeltas[i * 3]!;
          normal[v * 3 + 1] = src.normalDeltas[i * 3 + 2]!;
          normal[v * 3 + 2] = src.normalDeltas[i * 3 + 1]!;
        }
      });
    }
    const target = doc.createPrimitiveTarget(t.name);
    const sparse = (src?.vertices.length ?? 0) > 0 && (src?.vertices.length ?? 0) < n / 3;
    target.setAttribute('POSITION', accessor(`${t.name}_POSITION`, 'VEC3', position).setSparse(sparse));
    if (hasNormals && attributes.has('NORMAL')) target.setAttribute('NORMAL', accessor(`${t.name}_NORMAL`, 'VEC3', normal).setSparse(sparse));
    return target;
  });

  const gltfMesh = doc.createMesh(mesh.name);
  const wide = n > 0xffff;
  lod.sections.forEach((section, i) => {
    if (section.triangles <= 0) return; // glTF has no empty primitives
    const end = section.firstIndex + section.triangles * 3;
    if (section.firstIndex < 0 || end > lod.indices.length) {
      throw new RangeError(`${mesh.name}: section ${i} reads indices ${section.firstIndex} to ${end} of ${lod.indices.length}`);
    }
    const slice = lod.indices.subarray(section.firstIndex, end);
    for (const v of slice) if (v >= n) throw new RangeError(`${mesh.name}: section ${i} indexes vertex ${v} of ${n}`);
    const prim = doc.createPrimitive()
      .setIndices(accessor(`section${i}_indices`, 'SCALAR', wide ? new Uint32Array(slice) : new Uint16Array(slice)));
    for (const [semantic, acc] of attributes) prim.setAttribute(semantic, acc);
    const material = materials[section.materialIndex];
    if (material) prim.setMaterial(material);
    for (const t of targets) prim.addTarget(t);
    gltfMesh.addPrimitive(prim);
  });
  if (targets.length > 0) {
    gltfMesh.setWeights(targets.map(() => 0)).setExtras({ targetNames: mesh.morphTargets.map((t) => t.name) });
  }
  return gltfMesh;
}

function checkLength(mesh: Mesh, what: string, array: ArrayLike<number>, expected: number): void {
  if (array.length < expected) throw new RangeError(`${mesh.name}: ${what} hold ${array.length} values, not the ${expected} the vertex count needs`);
}

/** Each vector (the first three of `stride`) made unit length; a zero one becomes +Y (glTF's up) so readers get a valid normal. */
function unitVectors(a: Float32Array, stride: 3 | 4): Float32Array {
  for (let i = 0; i + stride <= a.length; i += stride) {
    const len = Math.hypot(a[i]!, a[i + 1]!, a[i + 2]!);
    if (len > 1e-8 && Number.isFinite(len)) { a[i] = a[i]! / len; a[i + 1] = a[i + 1]! / len; a[i + 2] = a[i + 2]! / len; }
    else { a[i] = 0; a[i + 1] = 1; a[i + 2] = 0; }
    if (stride === 4) a[i + 3] = a[i + 3]! < 0 ? -1 : 1;
  }
  return a;
}

/**
 * Per vertex `slots` joints and weights as glTF wants them: a joint listed twice merged into one,
 * weights summing to 1 (a vertex with none bound wholly to its first joint), unused slots joint 0
 * weight 0 (so no used joint repeats).
 */
function mergedInfluences(joints: Uint16Array, weights: Float32Array, influences: number, slots: number): { j: Uint16Array; w: Float32Array } {
  const vertices = Math.floor(joints.length / influences);
  const j = new Uint16Array(vertices * slots);
  const w = new Float32Array(vertices * slots);
  for (let v = 0; v < vertices; v++) {
    const base = v * slots;
    let used = 0, sum = 0;
    for (let k = 0; k < influences; k++) {
      const weight = weights[v * influences + k]!;
      if (!(weight > 0)) continue;
      const joint = joints[v * influences + k]!;
      let at = 0;
      while (at < used && j[base + at] !== joint) at++;
      if (at === used) { j[base + at] = joint; used++; }
      w[base + at] = w[base + at]! + weight;
      sum += weight;
    }
    if (used === 0) { j[base] = joints[v * influences]!; w[base] = 1; continue; }
    for (let k = 0; k < used; k++) w[base + k] = w[base + k]! / sum;
  }
  return { j, w };
}

/**
 * `pakscope mesh <path> [package]`: a static or skeletal mesh's (or a skeleton's) facts, and the
 * mesh written as glTF 2.0 binary (-o FILE.glb). The package's mesh export is found through the
 * converter registry (core/assets), read by the mesh readers and written by the glTF writer.
 */
import { writeFile } from 'node:fs/promises';
import { extname } from 'node:path';
import { assetKindOf, type ConvertOptions } from '../../core/assets/index.js';
import { readMeshTextures } from '../../core/assets/mesh/gltf/textures.js';
import { writeGlb } from '../../core/assets/mesh/gltf/write.js';
import { animSummary, readAnimatedMesh, readComposition, writeAnimatedGlb, type AnimatedMesh, type AnimComposition } from '../../core/assets/anim/index.js';
import { meshSummary, readMesh } from '../../core/assets/mesh/index.js';
import type { Mesh } from '../../core/assets/mesh/types.js';
import type { AssetSource } from '../../core/assets/registry.js';
import type { PackageModel } from '../../core/package-model.js';
import { JSON_OPTION, type Command, USMAP_OPTION } from '../command.js';
import type { Session } from '../session.js';
import { withAssetPackage } from '../asset-package.js';
import { UsageError } from '../usage-error.js';
import { ENGINE_OPTION, packageOptions } from './info.js';
import { loadMappings } from './props.js';

export const meshCommand: Command = {
  name: 'mesh',
  args: '<path> [package]',
  summary: 'Describe a mesh, skeleton or animation, or write it as .glb (-o)',
  description: [
    'Reads the StaticMesh, SkeletalMesh or Skeleton of a package file (<path> alone: .uasset with',
    'its .uexp and .ubulk beside it) or of a package inside the containers and folders of <path>',
    '(named as info names it): every LOD with its vertices, triangles, UV channels and sections,',
    'the bones, morph targets and sockets. A Nanite mesh shows its fallback mesh, or says it has',
    'none. Unversioned packages need --usmap FILE.',
    '',
    'A GeometryCache shows its tracks\' frames (raw codec: vertices, indices, normals, UVs, colours',
    'per frame; other codecs are named, not decoded) and visibility samples; its LOD n is frame n,',
    'its .glb a node per frame shown in turn (a step animation of their scale). A',
    'PhysicsAsset shows its bodies (bone, sphere, box, capsule and convex shapes), constraints',
    '(bones joined, limits) and collision pairs; its .glb a node per body placed by its constraint,',
    'its shapes as meshes. A GeometryCollection shows its pieces (transforms, parents, vertices and',
    'faces of its managed arrays) and groups; its .glb a node per piece.',
    '',
    '-o FILE.glb writes glTF 2.0 binary (metres, Y up): LOD 0, or the LOD --lod N names, one',
    'primitive per section, the skin and morph targets of skeletal meshes.',
    '',
    '--json prints, in the engine\'s units and axes as stored (centimetres, Z up),',
    '{"class","lods":[{"vertices","triangles","uvChannels","sections":[{"material","triangles"}],',
    '"bounds":{"min":[x,y,z],"max":[x,y,z]}}],"bones":[{"name","parent"}],"morphTargets":[name],',
    '"sockets":[{"name","location":[x,y,z]}],"parts","physics","geometryCache"}: triangles is the sum over the LOD\'s sections,',
    'sections those with triangles, bounds the min and max of the LOD\'s vertex positions, parent',
    'the parent bone\'s index (-1 for the root).',
    '',
    'An AnimSequence package is read as an animation: its length, keys, rate scale, codecs, tracks',
    'and curves, the keys decoded where the bone codec is one of the engine\'s own (per-track,',
    'constant or variable key lerp; ACL is named, not decoded). -o FILE.glb writes it on a skeletal',
    'mesh of its skeleton (found beside the sequence or the skeleton, or the one --mesh names; the',
    'skeleton\'s bones without one) as a glTF animation. --json prints',
    '{"class","name","skeleton","sequenceLength","rateScale","frames","additive","codecs",',
    '"tracks":[{"bone","boneName","translation","rotation","scale":{"format","times","values"}}],',
    '"curves":[{"name","keys"}],"notes","mesh"}: times in frames, values in the engine\'s axes (cm;',
    'quaternions x, y, z, w); mesh the package it plays on. AnimMontage, AnimComposite and BlendSpace',
    'packages print their facts: slots of segments, sections, samples (--json: {"class","name",',
    '"skeleton","length","rateScale","slots","sections","samples","notes"}).',
  ].join('\n'),
  examples: [
    'pakscope mesh Paks /Game/Meshes/SM_Rock -o SM_Rock.glb',
    'pakscope mesh Paks /Game/Characters/SK_Hero --lod 1 -o SK_Hero_LOD1.glb --usmap Game.usmap',
    'pakscope mesh Content/Meshes/SM_Rock.uasset --json',
    'pakscope mesh Paks /Game/Characters/Anims/Run -o Run.glb',
    'pakscope mesh Paks /Game/Characters/SK_Hero --anim /Game/Characters/Anims/Run -o SK_Hero_Run.glb',
  ],
  options: {
    out: { type: 'string', short: 'o', usage: '-o, --out FILE', help: 'Write the mesh to FILE as glTF 2.0 binary (.glb).' },
    lod: { type: 'string', usage: '--lod N', help: 'The LOD to write (0 is the most detailed; default 0).' },
    mesh: { type: 'string', usage: '--mesh PACKAGE', help: 'Animations: the skeletal mesh to play it on (default: one of its skeleton found beside it).' },
    anim: { type: 'string', usage: '--anim PACKAGE', help: 'Skeletal meshes: write the .glb with this AnimSequence of its skeleton as a glTF animation.' },
    usmap: USMAP_OPTION,
    engine: ENGINE_OPTION,
    json: JSON_OPTION,
  },
  positionals: { min: 1, max: 2 },

  async run(session, args, values) {
    const out = values['out'];
    if (out !== undefined && (typeof out !== 'string' || out === '' || out === '-' || extname(out).toLowerCase() !== '.glb')) {
      throw new UsageError(`-o names the .glb file to write, not "${String(out)}"`, 'mesh');
    }
    const lod = lodOption(values['lod']);
    const opts: ConvertOptions = { ...packageOptions(values), ...(await loadMappings(values, 'mesh')) };
    const meshRef = values['mesh'];
    const read = await withAssetPackage(session, args, opts, 'mesh', async ({ source, model, path }): Promise<Mesh | AnimatedMesh | AnimComposition> => {
      const composition = model.exports.findIndex((e) => assetKindOf(e.class)?.kind === 'animcomposition');
      if (composition >= 0 && !model.exports.some((e) => ['mesh', 'anim'].includes(assetKindOf(e.class)?.kind ?? ''))) {
        if (typeof out === 'string') throw new UsageError(`${path} is a ${model.exports[composition]!.class}: its facts print, it has no .glb of its own (write its sequences')`, 'mesh');
        return readComposition(source, composition, opts);
      }
      const anim = model.exports.findIndex((e) => assetKindOf(e.class)?.kind === 'anim');
      if (anim >= 0 && !model.exports.some((e) => assetKindOf(e.class)?.kind === 'mesh')) {
        const a = await readAnimatedMesh(source, anim, { ...opts, ...(typeof meshRef === 'string' ? { meshRef } : {}) });
        if (typeof out === 'string') {
          const data = await writeAnimatedGlb(a, lod ?? 0);
          await writeFile(out, data);
          session.out.note(`wrote ${out}: glTF 2.0 binary, ${a.sequence.name} on ${a.meshPath ?? `the bones of ${a.sequence.skeleton}`}, ${data.length} bytes`);
        }
        return a;
      }
      const m = await readMesh(source, meshExport(model, path), opts);
      if (lod !== undefined && lod >= m.lods.length) {
        throw new UsageError(`${m.name} has ${m.lods.length === 0 ? 'no LODs' : `LODs 0 to ${m.lods.length - 1}`}, not ${lod}`, 'mesh');
      }
      const animRef = values['anim'];
      if (typeof animRef === 'string') {
        // The mesh with a sequence of its skeleton on its joints.
        if (typeof out !== 'string') throw new UsageError('--anim goes with -o FILE.glb', 'mesh');
        if ('file' in source) throw new UsageError('--anim needs the install the mesh is in: mesh <path> <package> --anim <sequence>', 'mesh');
        const a = await readAnimatedMesh({ packages: source.packages, ref: animRef }, undefined, { ...opts, meshRef: path });
        for (const n of [...a.sequence.notes, ...a.notes]) session.out.note(`note: ${n}`);
        const data = await writeAnimatedGlb(a, lod ?? 0);
        await writeFile(out, data);
        session.out.note(`wrote ${out}: glTF 2.0 binary, ${m.name} LOD ${lod ?? 0} playing ${a.sequence.name}, ${data.length} bytes`);
      } else if (typeof out === 'string') await write(session, source, m, out, lod ?? 0, opts);
      return m;
    });
    if (!read) return;
    if ('sequence' in read) return printAnimation(session, read, out === undefined);
    if ('slots' in read) return printComposition(session, read);
    const mesh = read;
    for (const n of mesh.notes) session.out.note(`note: ${n}`);
    if (session.json) await session.out.line(JSON.stringify(meshSummary(mesh)));
    else if (out === undefined) await printFacts(session, mesh);
  },
};

function lodOption(v: unknown): number | undefined {
  if (v === undefined) return undefined;
  const text = String(v);
  if (!/^\d{1,3}$/.test(text)) throw new UsageError(`--lod takes a whole number 0 or more, not "${text}"`, 'mesh');
  return Number(text);
}

async function printAnimation(session: Session, a: AnimatedMesh, facts: boolean): Promise<void> {
  const s = a.sequence;
  for (const n of [...s.notes, ...a.notes]) session.out.note(`note: ${n}`);
  const summary = animSummary(s, a.skeleton?.bones.map((b) => b.name));
  if (session.json) {
    await session.out.line(JSON.stringify({ ...summary, notes: [...s.notes, ...a.notes], mesh: a.meshPath ?? null }));
    return;
  }
  if (!facts) return;
  const out = session.out;
  await out.line(`${s.name} (${s.class})`);
  await out.line(`  skeleton: ${s.skeleton || '(not known)'}${a.meshPath ? `, played on ${a.meshPath}` : ''}`);
  await out.line(`  length ${s.sequenceLength} s, ${s.frames} keys, rate scale ${s.rateScale}${s.additive !== 'AAT_None' ? `, additive ${s.additive}${s.refPoseSequence ? ` on ${s.refPoseSequence}` : ''}` : ''}`);
  await out.line(`  bone codec: ${s.codecs.bone || '(none)'}${s.codecs.boneFormat ? ` (${s.codecs.boneFormat})` : ''}, ${s.codecs.boneDecoded ? 'decoded' : 'not decoded'}`);
  await out.line(`  curve codec: ${s.codecs.curve || '(none)'}${s.codecs.curveFormat ? ` (${s.codecs.curveFormat})` : ''}, ${s.codecs.curveDecoded ? 'decoded' : s.curveNames.length ? 'not decoded' : 'no curves'}`);
  for (const t of summary.tracks) {
    const ch = (['translation', 'rotation', 'scale'] as const).flatMap((k) => (t[k] ? [`${k} ${plural(t[k].times.length, 'key')} (${t[k].format})`] : []));
    await out.line(`  track ${t.boneName ?? `bone ${t.bone}`}: ${ch.join(', ') || 'reference pose'}`);
  }
  for (const c of summary.curves) await out.line(`  curve ${c.name}: ${plural(c.keys.length, 'key')}`);
}

async function printComposition(session: Session, c: AnimComposition): Promise<void> {
  for (const n of c.notes) session.out.note(`note: ${n}`);
  if (session.json) {
    await session.out.line(JSON.stringify(c));
    return;
  }
  const out = session.out;
  await out.line(`${c.name} (${c.class})`);
  await out.line(`  skeleton: ${c.skeleton || '(not known)'}; length ${c.length} s, rate scale ${c.rateScale}`);
  for (const s of c.slots) {
    await out.line(`  ${s.name ? `slot ${s.name}` : 'track'}: ${plural(s.segments.length, 'segment')}`);
    for (const g of s.segments) await out.line(`    at ${g.startPos} s: ${g.animation} ${g.animStartTime}-${g.animEndTime} s at x${g.playRate}, ${plural(g.loopingCount, 'loop')}`);
  }
  for (const s of c.sections) await out.line(`  section ${s.name} at ${s.startTime} s${s.next ? ` -> ${s.next}` : ''}`);
  for (const s of c.samples) await out.line(`  sample (${s.value.join(', ')}): ${s.animation} at x${s.rateScale}`);
}

/** The package's mesh export, found by the registry (the first export of the mesh kind). */
function meshExport(model: PackageModel, path: string): number {
  const index = model.exports.findIndex((e) => assetKindOf(e.class)?.kind === 'mesh');
  if (index >= 0) return index;
  const classes = [...new Set(model.exports.map((e) => e.class))].join(', ');
  throw new UsageError(`${path} holds no mesh (its exports are ${classes || 'none'})`, 'mesh');
}

async function write(session: Session, source: AssetSource, mesh: Mesh, path: string, lod: number, opts: ConvertOptions): Promise<void> {
  if (mesh.lods.length === 0 && mesh.bones.length === 0) throw new UsageError(`${mesh.name} has no geometry and no bones to write`, 'mesh');
  const textures = await readMeshTextures(source, mesh, opts);
  for (const n of textures.notes) session.out.note(`note: ${n}`);
  const data = await writeGlb(mesh, { lod, textures: textures.pngs });
  await writeFile(path, data);
  const what = mesh.parts ? `${mesh.parts.length} nodes` : mesh.lods.length > 0 ? `LOD ${lod}` : 'skeleton';
  session.out.note(`wrote ${path}: glTF 2.0 binary, ${what}, ${data.length} bytes (${mesh.name})`);
}

const plural = (n: number, what: string): string => `${n} ${what}${n === 1 ? '' : 's'}`;

async function printFacts(session: Session, m: Mesh): Promise<void> {
  const out = session.out;
  const s = meshSummary(m);
  await out.line(`${m.name} (${m.class})`);
  for (const [i, l] of s.lods.entries()) {
    const b = l.bounds;
    await out.line(`  LOD ${i}: ${plural(l.vertices, 'vertex').replace('vertexs', 'vertices')}, ${plural(l.triangles, 'triangle')}, ${plural(l.uvChannels, 'UV channel')}, ${plural(l.sections.length, 'section')}`);
    for (const sec of l.sections) await out.line(`    ${sec.material || '(no slot)'}: ${plural(sec.triangles, 'triangle')}`);
    await out.line(`    bounds (${b.min.join(', ')}) to (${b.max.join(', ')}) cm`);
  }
  if (s.bones.length > 0) await out.line(`  bones: ${s.bones.map((b) => `${b.name}${b.parent >= 0 ? ` <- ${s.bones[b.parent]?.name ?? b.parent}` : ''}`).join(', ')}`);
  if (s.morphTargets.length > 0) await out.line(`  morph targets: ${s.morphTargets.join(', ')}`);
  for (const k of m.sockets) await out.line(`  socket ${k.name}${k.bone ? ` on ${k.bone}` : ''} at (${k.location.join(', ')})`);
  if (m.materials.length > 0) await out.line(`  materials: ${m.materials.map((x) => x.material ? `${x.name} (${x.material})` : x.name).join(', ')}`);
  if (s.parts) await out.line(`  parts: ${s.parts.map((p) => `${p.name}${p.parent >= 0 ? ` <- ${s.parts![p.parent]?.name ?? p.parent}` : ''}${p.triangles > 0 ? ` (${plural(p.triangles, 'triangle')})` : ''}`).join(', ')}`);
  for (const t of m.facts ?? []) {
    await out.line(`  ${t.title}:${t.rows.length === 0 ? ' none' : ''}`);
    if (t.rows.length > 0) await out.line(`    ${t.columns.join(' | ')}`);
    for (const row of t.rows) await out.line(`    ${row.map(String).join(' | ')}`);
  }
}

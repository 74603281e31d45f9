/**
 * The mesh view's 3D scene (three.js, WebGL): one LOD's geometry built once into a
 * BufferGeometry (typed-array views on the bytes the API sent, no copies), a group per section,
 * and overlays that share it (wireframe) or are built once when first shown (normals, bones,
 * sockets, bounds). Frames are drawn on demand, at most one per animation frame, only when the
 * camera or a setting changed: nothing is allocated per frame, so a mesh of a million triangles
 * orbits as fast as the GPU draws it. Axes are the API's view axes (cm, Y up, right-handed).
 */
import {
  Box3, Box3Helper, BufferAttribute, BufferGeometry, DataTexture, DoubleSide, Float32BufferAttribute, FrontSide,
  LinearMipmapLinearFilter, LineBasicMaterial, LineSegments, Mesh, MeshBasicMaterial, MeshLambertMaterial, NearestFilter, PerspectiveCamera, Points, PointsMaterial,
  RepeatWrapping, Scene, Sphere, SRGBColorSpace, Vector3, WebGLRenderer, type Material,
} from 'three';
import { Stage } from '../three/stage.js';
import type { OrbitControls } from 'three/addons/controls/OrbitControls.js';
import { VertexNormalsHelper } from 'three/addons/helpers/VertexNormalsHelper.js';
import type { MeshGeometry, MeshLodView, MeshView } from '../../../../shared/api.js';
import { SECTION_COLOURS } from './section-colours.js';

export type ColourMode = 'sections' | 'plain' | 'vertex' | 'uv' | 'textures';

/** A material slot's base colour texture, decoded (RGBA8, rows top first as UV v = 0 is the top). */
export interface SlotTexture { width: number; height: number; rgba: Uint8Array }

export interface SceneOptions {
  colour: ColourMode;
  /** UV channel the checker uses. */
  uvChannel: number;
  wireframe: boolean;
  normals: boolean;
  bones: boolean;
  sockets: boolean;
  bounds: boolean;
  twoSided: boolean;
}

/** A name drawn beside a point (bones, sockets). */
export interface Label { text: string; x: number; y: number; kind: 'bone' | 'socket' }


const floatsOf = (b: Uint8Array, count: number): Float32Array =>
  b.byteOffset % 4 === 0 ? new Float32Array(b.buffer, b.byteOffset, count) : new Float32Array(b.slice(0, count * 4).buffer);
const uintsOf = (b: Uint8Array, count: number): Uint32Array =>
  b.byteOffset % 4 === 0 ? new Uint32Array(b.buffer, b.byteOffset, count) : new Uint32Array(b.slice(0, count * 4).buffer);

const NO_LABELS: Label[] = [];
const OVERLAY_KINDS = ['normals', 'bones', 'sockets', 'bounds'] as const;
type OverlayKind = (typeof OVERLAY_KINDS)[number];

export class MeshScene {
  private readonly stage: Stage;
  readonly renderer: WebGLRenderer;
  private readonly scene: Scene;
  private readonly camera = new PerspectiveCamera(40, 1, 0.1, 1e6);
  private readonly controls: OrbitControls;
  private geometry: BufferGeometry | null = null;
  private solid: Mesh | null = null;
  private wire: Mesh | null = null;
  private overlays: { normals?: VertexNormalsHelper; bones?: LineSegments; bonePoints?: Points; sockets?: Points; bounds?: Box3Helper } = {};
  private readonly materials = new Map<string, Material | Material[]>();
  private checker: DataTexture | null = null;
  private readonly slotTextures = new Map<number, DataTexture>();
  private view: MeshView | null = null;
  private lod: MeshLodView | null = null;
  private options: SceneOptions;
  private readonly projected = new Vector3();
  private labelsShown = true; // the page may still show another mesh's names: the first frame says
  /** Called after each frame with the labels to draw (bones and sockets shown, in CSS pixels). */
  onframe: ((labels: Label[]) => void) | null = null;
  /** Frames drawn, and the time the last took on this thread (the canvas's data-frames and data-frame-ms say them too). */
  frames = 0;
  lastFrameMs = 0;

  constructor(private readonly canvas: HTMLCanvasElement, options: SceneOptions) {
    this.options = { ...options };
    this.stage = new Stage(canvas, this.camera, 1.1, () => this.draw());
    ({ renderer: this.renderer, scene: this.scene, controls: this.controls } = this.stage);
  }

  /** Shows LOD `geo` of `view` (the previous LOD's GPU buffers are freed); `frame`: move the camera to frame it. */
  setGeometry(view: MeshView, geo: MeshGeometry, frame: boolean): void {
    const started = performance.now();
    this.view = view;
    this.lod = view.lods[geo.lod] ?? null;
    this.clearGeometry();
    const n = geo.vertices;
    const g = new BufferGeometry();
    g.setAttribute('position', new BufferAttribute(floatsOf(geo.positions, n * 3), 3));
    if (geo.normals) g.setAttribute('normal', new BufferAttribute(floatsOf(geo.normals, n * 3), 3));
    const uvs = floatsOf(geo.uvs, n * 2 * geo.uvChannels);
    for (let c = 0; c < Math.min(4, geo.uvChannels); c++) {
      // three.js names the channels uv, uv1, uv2, uv3; a texture's `channel` picks one.
      g.setAttribute(c === 0 ? 'uv' : `uv${c}`, new BufferAttribute(uvs.subarray(c * n * 2, (c + 1) * n * 2), 2));
    }
    if (geo.colors) g.setAttribute('color', new BufferAttribute(geo.colors, 4, true));
    const indices = uintsOf(geo.indices, geo.indices.byteLength / 4);
    g.setIndex(new BufferAttribute(indices, 1));
    const sections = this.lod?.sections ?? [{ material: 0, firstIndex: 0, triangles: indices.length / 3 }];
    sections.forEach((s, i) => g.addGroup(s.firstIndex, s.triangles * 3, i));
    if (!geo.normals) g.computeVertexNormals();
    // Morph targets: dense deltas per target (three.js's layout), relative to the base positions.
    let at = 0;
    const morphs = geo.morphCounts.map((count) => {
      const dense = new Float32Array(n * 3);
      const vs = uintsOf(geo.morphVertices, geo.morphVertices.byteLength / 4), ds = floatsOf(geo.morphDeltas, geo.morphDeltas.byteLength / 4);
      for (let k = at; k < at + count; k++) {
        const v = vs[k]!;
        if (v < n) { dense[v * 3] = ds[k * 3]!; dense[v * 3 + 1] = ds[k * 3 + 1]!; dense[v * 3 + 2] = ds[k * 3 + 2]!; }
      }
      at += count;
      return new Float32BufferAttribute(dense, 3);
    });
    if (morphs.length > 0) {
      g.morphAttributes.position = morphs;
      g.morphTargetsRelative = true;
    }
    g.computeBoundingBox();
    g.computeBoundingSphere();
    this.geometry = g;

    this.solid = new Mesh(g, this.surfaceMaterial());
    this.solid.updateMorphTargets();
    this.scene.add(this.solid);
    const wireMaterial = new MeshBasicMaterial({ color: 0x101418, wireframe: true, transparent: true, opacity: 0.45 });
    this.wire = new Mesh(g, wireMaterial);
    this.wire.morphTargetInfluences = this.solid.morphTargetInfluences; // one array: the sliders move both
    this.wire.visible = this.options.wireframe;
    this.scene.add(this.wire);
    this.rebuildOverlays();
    if (frame) this.frameAll();
    this.invalidate();
    // For the bench: the main thread's time to build the scene (its first frame is data-frames' next).
    this.canvas.dataset['buildMs'] = (performance.now() - started).toFixed(2);
  }

  /** A skeleton alone: no geometry, only its bones (and sockets). */
  setSkeleton(view: MeshView): void {
    this.view = view;
    this.lod = null;
    this.clearGeometry();
    this.rebuildOverlays();
    this.frameAll();
  }

  /** Replaces the vertex positions shown (a skinned pose): x, y, z per vertex in the view's axes; normals follow. */
  setPositions(positions: Float32Array): void {
    const g = this.geometry;
    const attr = g?.getAttribute('position');
    if (!g || !attr || attr.array.length !== positions.length) return;
    (attr.array as Float32Array).set(positions);
    attr.needsUpdate = true;
    if (g.getAttribute('normal')) g.computeVertexNormals();
    g.computeBoundingBox();
    g.computeBoundingSphere();
    this.invalidate();
  }

  /** Moves the bones shown (an animation's pose): x, y, z per bone in the view's axes (cm). */
  setBonePositions(positions: ArrayLike<number>): void {
    const view = this.view;
    if (!view) return;
    this.view = { ...view, bones: view.bones.map((b, i) => ({ ...b, position: [positions[i * 3]!, positions[i * 3 + 1]!, positions[i * 3 + 2]!] })) };
    this.rebuildOverlays();
    this.invalidate();
  }

  /** Base colour textures by material slot, for the 'textures' colour mode (sections of other slots stay grey). */
  setTextures(textures: ReadonlyMap<number, SlotTexture>): void {
    for (const t of this.slotTextures.values()) t.dispose();
    this.slotTextures.clear();
    for (const [slot, img] of textures) {
      const t = new DataTexture(img.rgba, img.width, img.height);
      t.wrapS = t.wrapT = RepeatWrapping;
      t.colorSpace = SRGBColorSpace;
      t.generateMipmaps = true;
      t.minFilter = LinearMipmapLinearFilter;
      t.needsUpdate = true;
      this.slotTextures.set(slot, t);
    }
    for (const [key, m] of [...this.materials]) {
      if (!key.startsWith('textures|')) continue;
      for (const x of [m].flat()) x.dispose();
      this.materials.delete(key);
    }
    if (this.solid && this.options.colour === 'textures') this.solid.material = this.surfaceMaterial();
    this.invalidate();
  }

  setOptions(next: SceneOptions): void {
    const prev = this.options;
    this.options = { ...next };
    if (this.solid && (prev.colour !== next.colour || prev.uvChannel !== next.uvChannel || prev.twoSided !== next.twoSided)) this.solid.material = this.surfaceMaterial();
    if (this.wire) this.wire.visible = next.wireframe;
    // Only the overlay toggled is built again: the normals of a million vertices are not rebuilt for the bones.
    const changed = (['normals', 'bones', 'sockets', 'bounds'] as const).filter((k) => prev[k] !== next[k]);
    if (changed.length > 0) this.rebuildOverlays(changed);
    this.invalidate();
  }

  /** Sets morph target `index`'s weight (0 to 1). */
  setMorph(index: number, weight: number): void {
    const w = this.solid?.morphTargetInfluences;
    if (w && index < w.length) { w[index] = weight; this.invalidate(); }
  }

  /** Turns the camera around the target by angles in radians (as a drag would): for keys and tests. */
  orbit(azimuth: number, polar: number): void {
    const offset = this.camera.position.clone().sub(this.controls.target);
    const r = offset.length();
    const theta = Math.atan2(offset.x, offset.z) + azimuth;
    let phi = Math.acos(Math.min(1, Math.max(-1, offset.y / r))) + polar;
    phi = Math.min(Math.PI - 0.01, Math.max(0.01, phi));
    this.camera.position.set(
      this.controls.target.x + r * Math.sin(phi) * Math.sin(theta),
      this.controls.target.y + r * Math.cos(phi),
      this.controls.target.z + r * Math.sin(phi) * Math.cos(theta),
    );
    this.controls.update();
    this.invalidate();
  }

  /** Moves the camera so everything shown (and `points`) fits, looking at the mesh's front (engine +X) from above and to its right. */
  frameAll(points?: ArrayLike<number>): void {
    const sphere = this.contentSphere(points);
    const r = Math.max(sphere.radius, 1);
    const fov = (this.camera.fov * Math.PI) / 180;
    const fit = Math.min(fov, 2 * Math.atan(Math.tan(fov / 2) * this.camera.aspect));
    const dist = (r / Math.sin(fit / 2)) * 1.05;
    const dir = new Vector3(1, 0.55, 0.75).normalize();
    this.controls.target.copy(sphere.center);
    this.camera.position.copy(sphere.center).addScaledVector(dir, dist);
    this.camera.near = Math.max(dist / 1000, 0.01);
    this.camera.far = dist * 100;
    this.camera.updateProjectionMatrix();
    this.controls.update();
    this.invalidate();
  }

  dispose(): void {
    this.clearGeometry();
    this.clearOverlays();
    for (const m of this.materials.values()) for (const x of [m].flat()) x.dispose();
    this.checker?.dispose();
    for (const t of this.slotTextures.values()) t.dispose();
    this.stage.dispose();
  }

  /** Asks for a frame (several asks in one animation frame draw once). */
  invalidate(): void {
    this.stage.invalidate();
  }

  private draw(): void {
    const t = performance.now();
    this.renderer.render(this.scene, this.camera);
    this.lastFrameMs = performance.now() - t;
    this.frames++;
    // For the status and the tests: frames drawn and the last one's time on this thread.
    this.canvas.dataset['frames'] = String(this.frames);
    this.canvas.dataset['frameMs'] = this.lastFrameMs.toFixed(2);
    // No names shown (the usual case): nothing is made or handed on, frame after frame.
    const labels = this.labels();
    if (labels.length > 0 || this.labelsShown) this.onframe?.(labels);
    this.labelsShown = labels.length > 0;
  }

  // ---- internals ----

  /** What frameAll fits: the geometry, bones and sockets, and `points` (x, y, z each: an animation's every pose). */
  private contentSphere(points?: ArrayLike<number>): Sphere {
    const box = new Box3();
    for (let i = 0; points && i + 2 < points.length; i += 3) box.expandByPoint(new Vector3(points[i]!, points[i + 1]!, points[i + 2]!));
    if (this.geometry?.boundingBox) box.union(this.geometry.boundingBox);
    for (const b of this.view?.bones ?? []) box.expandByPoint(new Vector3(...b.position));
    for (const k of this.view?.sockets ?? []) box.expandByPoint(new Vector3(...k.position));
    if (box.isEmpty()) box.set(new Vector3(-50, -50, -50), new Vector3(50, 50, 50));
    return box.getBoundingSphere(new Sphere());
  }

  private surfaceMaterial(): Material | Material[] {
    const { colour, uvChannel, twoSided } = this.options;
    const side = twoSided ? DoubleSide : FrontSide;
    const key = `${colour}|${uvChannel}|${twoSided}|${this.lod?.sections.length ?? 0}`;
    const made = this.materials.get(key);
    if (made) return made;
    const base = { side, polygonOffset: true, polygonOffsetFactor: 1, polygonOffsetUnits: 1 };
    let m: Material | Material[];
    if (colour === 'sections') {
      m = (this.lod?.sections ?? [{ material: 0 }]).map((s) => new MeshLambertMaterial({ ...base, color: SECTION_COLOURS[s.material % SECTION_COLOURS.length] }));
    } else if (colour === 'textures') {
      m = (this.lod?.sections ?? [{ material: 0 }]).map((s) => {
        const map = this.slotTextures.get(s.material);
        return new MeshLambertMaterial({ ...base, ...(map ? { map } : { color: 0x9a9a9a }) });
      });
    } else if (colour === 'vertex') {
      m = new MeshLambertMaterial({ ...base, vertexColors: true });
    } else if (colour === 'uv') {
      const map = this.checkerTexture().clone();
      map.channel = uvChannel;
      map.needsUpdate = true;
      m = new MeshLambertMaterial({ ...base, map });
    } else {
      m = new MeshLambertMaterial({ ...base, color: 0xc8c8c8 });
    }
    // Back faces (drawn when two-sided) are tinted red: a mesh seen from behind, or wound the
    // wrong way, shows it.
    for (const x of [m].flat()) {
      x.onBeforeCompile = (shader) => {
        shader.fragmentShader = shader.fragmentShader.replace('#include <color_fragment>',
          '#include <color_fragment>\n\tif (!gl_FrontFacing) diffuseColor.rgb *= vec3(1.0, 0.45, 0.45);');
      };
    }
    this.materials.set(key, m);
    return m;
  }

  /** An 8x8 checker with a coloured corner cell per quadrant, so flipped or rotated UVs show. */
  private checkerTexture(): DataTexture {
    if (this.checker) return this.checker;
    const size = 256, cells = 8, data = new Uint8Array(size * size * 4);
    const corner = [[230, 90, 80], [80, 160, 230], [120, 200, 100], [220, 190, 70]];
    for (let y = 0; y < size; y++) {
      for (let x = 0; x < size; x++) {
        const cx = Math.floor((x * cells) / size), cy = Math.floor((y * cells) / size);
        const light = (cx + cy) % 2 === 0;
        const q = (cx < cells / 2 ? 0 : 1) + (cy < cells / 2 ? 0 : 2);
        const tint = corner[q]!;
        const p = (y * size + x) * 4;
        for (let c = 0; c < 3; c++) data[p + c] = light ? 235 : Math.round(tint[c]! * 0.75);
        data[p + 3] = 255;
      }
    }
    const t = new DataTexture(data, size, size);
    t.wrapS = t.wrapT = RepeatWrapping;
    t.magFilter = NearestFilter;
    t.colorSpace = SRGBColorSpace;
    t.needsUpdate = true;
    this.checker = t;
    return t;
  }

  private rebuildOverlays(which: readonly OverlayKind[] = OVERLAY_KINDS): void {
    this.clearOverlays(which);
    const o = this.options;
    const view = this.view;
    if (!view) return;
    const want = (k: OverlayKind): boolean => o[k] && which.includes(k);
    if (want('normals') && this.solid && this.geometry?.getAttribute('normal')) {
      const size = (this.geometry.boundingSphere?.radius ?? 50) * 0.04;
      this.overlays.normals = new VertexNormalsHelper(this.solid, size, 0x5ad0ff);
      this.scene.add(this.overlays.normals);
    }
    if (want('bones') && view.bones.length > 0) {
      const lines: number[] = [];
      const points = new Float32Array(view.bones.length * 3);
      view.bones.forEach((b, i) => {
        points.set(b.position, i * 3);
        const p = view.bones[b.parent];
        if (p) lines.push(...p.position, ...b.position);
      });
      const lg = new BufferGeometry();
      lg.setAttribute('position', new Float32BufferAttribute(lines, 3));
      this.overlays.bones = new LineSegments(lg, new LineBasicMaterial({ color: 0xffd24a, depthTest: false, transparent: true }));
      const pg = new BufferGeometry();
      pg.setAttribute('position', new BufferAttribute(points, 3));
      this.overlays.bonePoints = new Points(pg, new PointsMaterial({ color: 0xffd24a, size: 7, sizeAttenuation: false, depthTest: false, transparent: true }));
      for (const x of [this.overlays.bones, this.overlays.bonePoints]) { x.renderOrder = 10; this.scene.add(x); }
    }
    if (want('sockets') && view.sockets.length > 0) {
      const sg = new BufferGeometry();
      sg.setAttribute('position', new Float32BufferAttribute(view.sockets.flatMap((s) => s.position), 3));
      this.overlays.sockets = new Points(sg, new PointsMaterial({ color: 0x6af0a0, size: 9, sizeAttenuation: false, depthTest: false, transparent: true }));
      this.overlays.sockets.renderOrder = 11;
      this.scene.add(this.overlays.sockets);
    }
    if (want('bounds') && this.lod) {
      const { min, max } = this.lod.bounds;
      // Engine (x, y, z) -> view (x, z, y).
      const box = new Box3(new Vector3(min[0], min[2], min[1]), new Vector3(max[0], max[2], max[1]));
      this.overlays.bounds = new Box3Helper(box, 0x9aa4b0);
      this.scene.add(this.overlays.bounds);
    }
  }

  private clearOverlays(which: readonly OverlayKind[] = OVERLAY_KINDS): void {
    const parts = { normals: ['normals'], bones: ['bones', 'bonePoints'], sockets: ['sockets'], bounds: ['bounds'] } as const;
    for (const key of which.flatMap((k) => parts[k])) {
      const x = this.overlays[key];
      if (!x) continue;
      this.scene.remove(x);
      x.geometry.dispose();
      for (const m of [x.material].flat()) m.dispose();
      delete this.overlays[key];
    }
  }

  private clearGeometry(): void {
    for (const m of [this.solid, this.wire]) if (m) this.scene.remove(m);
    if (this.wire) (this.wire.material as Material).dispose();
    this.geometry?.dispose();
    this.geometry = null;
    this.solid = null;
    this.wire = null;
    this.clearOverlays();
  }

  private labels(): Label[] {
    const view = this.view;
    if (!view || !((this.options.bones && view.bones.length) || (this.options.sockets && view.sockets.length))) return NO_LABELS;
    const out: Label[] = [];
    const w = this.canvas.clientWidth, h = this.canvas.clientHeight;
    const add = (text: string, p: readonly number[], kind: Label['kind']) => {
      this.projected.set(p[0]!, p[1]!, p[2]!).project(this.camera);
      if (this.projected.z > 1 || this.projected.z < -1) return; // behind the camera or past far
      out.push({ text, kind, x: ((this.projected.x + 1) / 2) * w, y: ((1 - this.projected.y) / 2) * h });
    };
    if (this.options.bones) for (const b of view.bones) add(b.name, b.position, 'bone');
    if (this.options.sockets) for (const s of view.sockets) add(s.name, s.position, 'socket');
    return out;
  }
}

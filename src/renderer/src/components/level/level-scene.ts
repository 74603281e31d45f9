/**
 * The level view's 3D scene (three.js, WebGL): every static mesh the level places, one
 * InstancedMesh per distinct mesh holding all its placements (the matrices the API sent, uploaded
 * as they are), its geometry added when it arrives. Placements of hidden actor classes are left
 * out of the instance buffers (compacted, so hidden ones cost nothing to draw); the selected
 * actor's are tinted. A click picks the placement under the cursor. Frames are drawn on demand,
 * as the mesh view draws them. Axes are the API's view axes (cm, Y up, right-handed).
 */
import {
  Box3, BufferAttribute, BufferGeometry, Color, DoubleSide, GridHelper, InstancedBufferAttribute, InstancedMesh,
  Mesh, MeshLambertMaterial, PerspectiveCamera, Raycaster, Scene, Sphere, Vector2, Vector3, WebGLRenderer,
} from 'three';
import { Stage } from '../three/stage.js';
import type { OrbitControls } from 'three/addons/controls/OrbitControls.js';
import type { LevelScene as LevelSceneData, MeshGeometry, Placement } from '../../../../shared/api.js';

const floatsOf = (b: Uint8Array, count: number): Float32Array =>
  b.byteOffset % 4 === 0 ? new Float32Array(b.buffer, b.byteOffset, count) : new Float32Array(b.slice(0, count * 4).buffer);
const uintsOf = (b: Uint8Array, count: number): Uint32Array =>
  b.byteOffset % 4 === 0 ? new Uint32Array(b.buffer, b.byteOffset, count) : new Uint32Array(b.slice(0, count * 4).buffer);

/** Mesh tints, told apart on the dark background; the selection's is none of them. */
const TINTS = ['#b8c0cc', '#9fc59a', '#c9b48a', '#8fb4d6', '#c79ab8', '#a6c9c4', '#d0a58f', '#b0a8d8'].map((c) => new Color(c));
const SELECTED = new Color('#ff8a1f');

interface Drawn {
  mesh: InstancedMesh;
  /** Instance slot -> placement index (the visible placements, compacted). */
  slots: Uint32Array;
}

export class LevelScene {
  private readonly stage: Stage;
  readonly renderer: WebGLRenderer;
  private readonly scene: Scene;
  private readonly camera = new PerspectiveCamera(50, 1, 1, 1e7);
  private readonly controls: OrbitControls;
  private readonly raycaster = new Raycaster();
  private data: LevelSceneData | null = null;
  private matrices: Float32Array = new Float32Array(0);
  private owners: Uint32Array = new Uint32Array(0);
  private readonly drawn = new Map<number, Drawn>();
  private grid: GridHelper | null = null;
  private terrain: Mesh | null = null;
  private hidden = new Set<string>();
  private selectedActor: string | null = null;
  /** Instances drawn (visible placements of the meshes loaded). */
  instancesDrawn = 0;

  constructor(private readonly canvas: HTMLCanvasElement) {
    this.stage = new Stage(canvas, this.camera, 1.0, () => this.draw());
    ({ renderer: this.renderer, scene: this.scene, controls: this.controls } = this.stage);
  }

  /** The level's placements (what was drawn before goes). */
  setData(data: LevelSceneData): void {
    this.clear();
    this.clearTerrain(); // the caller sets it again where the level has one
    this.data = data;
    this.matrices = floatsOf(data.matrices, data.placements * 16);
    this.owners = uintsOf(data.owners, data.placements);
    this.frameAll();
  }

  /** Draws mesh `index` of the data with its geometry, at each of its placements. */
  addMesh(index: number, geo: MeshGeometry): void {
    const entry = this.data?.meshes[index];
    if (!entry || this.drawn.has(index)) return;
    const n = geo.vertices;
    const g = new BufferGeometry();
    g.setAttribute('position', new BufferAttribute(floatsOf(geo.positions, n * 3), 3));
    if (geo.normals) g.setAttribute('normal', new BufferAttribute(floatsOf(geo.normals, n * 3), 3));
    g.setIndex(new BufferAttribute(uintsOf(geo.indices, geo.indices.byteLength / 4), 1));
    if (!geo.normals) g.computeVertexNormals();
    g.computeBoundingBox();
    g.computeBoundingSphere();
    const material = new MeshLambertMaterial({ color: 0xffffff, side: DoubleSide });
    const mesh = new InstancedMesh(g, material, entry.count);
    mesh.instanceColor = new InstancedBufferAttribute(new Float32Array(entry.count * 3), 3);
    mesh.name = entry.mesh;
    mesh.count = 0; // none drawn until fill() counts the visible ones
    this.drawn.set(index, { mesh, slots: new Uint32Array(entry.count) });
    this.fill(index);
    this.scene.add(mesh);
    this.invalidate();
  }

  /**
   * Draws a landscape's terrain (the landscape view's geometry, in the actor's frame with its
   * scale) at the actor's location and rotation (engine axes, moved to the view's as
   * mesh/gltf/axes.ts does: (x, y, z) as (x, z, y), a rotation (x, y, z, w) as (-x, -z, -y, w)).
   */
  setTerrain(geo: MeshGeometry, at: Placement): void {
    this.clearTerrain();
    const n = geo.vertices;
    const g = new BufferGeometry();
    g.setAttribute('position', new BufferAttribute(floatsOf(geo.positions, n * 3), 3));
    if (geo.normals) g.setAttribute('normal', new BufferAttribute(floatsOf(geo.normals, n * 3), 3));
    g.setIndex(new BufferAttribute(uintsOf(geo.indices, geo.indices.byteLength / 4), 1));
    if (!geo.normals) g.computeVertexNormals();
    const mesh = new Mesh(g, new MeshLambertMaterial({ color: 0x7f9a6a, side: DoubleSide }));
    mesh.position.set(at.location.x, at.location.z, at.location.y);
    mesh.quaternion.set(-at.quat.x, -at.quat.z, -at.quat.y, at.quat.w);
    this.terrain = mesh;
    this.scene.add(mesh);
    this.invalidate();
  }

  /** Hides the placements of actors of these classes. */
  setHidden(classes: ReadonlySet<string>): void {
    this.hidden = new Set(classes);
    for (const i of this.drawn.keys()) this.fill(i);
    this.invalidate();
  }

  /** Tints the placements of this actor (object path). */
  setSelected(actor: string | null): void {
    if (actor === this.selectedActor) return;
    this.selectedActor = actor;
    for (const [i, d] of this.drawn) this.colour(i, d);
    this.invalidate();
  }

  /** The placement under a point of the canvas (CSS pixels), as its component's index in the data; null for none. */
  pick(x: number, y: number): number | null {
    const w = this.canvas.clientWidth, h = this.canvas.clientHeight;
    this.raycaster.setFromCamera(new Vector2((x / w) * 2 - 1, 1 - (y / h) * 2), this.camera);
    const hits = this.raycaster.intersectObjects([...this.drawn.values()].map((d) => d.mesh), false);
    for (const hit of hits) {
      const d = [...this.drawn.values()].find((x) => x.mesh === hit.object);
      if (!d || hit.instanceId === undefined || hit.instanceId >= d.mesh.count) continue;
      return this.owners[d.slots[hit.instanceId]!] ?? null;
    }
    return null;
  }

  /** Moves the camera so every placement drawn fits (before any mesh arrives: their locations). */
  frameAll(): void {
    const box = new Box3();
    for (const d of this.drawn.values()) {
      if (d.mesh.count === 0) continue;
      d.mesh.computeBoundingBox();
      if (d.mesh.boundingBox) box.union(d.mesh.boundingBox);
    }
    if (this.terrain) box.union(new Box3().setFromObject(this.terrain));
    if (box.isEmpty() && this.data && this.data.placements > 0) {
      const { min, max } = this.data.bounds;
      box.set(new Vector3(...min), new Vector3(...max));
    }
    if (box.isEmpty()) box.set(new Vector3(-500, -500, -500), new Vector3(500, 500, 500));
    const sphere = box.getBoundingSphere(new Sphere());
    const r = Math.max(sphere.radius, 100);
    const fov = (this.camera.fov * Math.PI) / 180;
    const fit = Math.min(fov, 2 * Math.atan(Math.tan(fov / 2) * this.camera.aspect));
    // A level is wide and flat more often than round: the sphere's fit leaves room enough.
    const dist = (r / Math.tan(fit / 2)) * 1.1;
    const dir = new Vector3(1, 0.8, 0.9).normalize();
    this.controls.target.copy(sphere.center);
    this.camera.position.copy(sphere.center).addScaledVector(dir, dist);
    this.camera.near = Math.max(dist / 2000, 0.5);
    this.camera.far = dist * 200;
    this.camera.updateProjectionMatrix();
    this.controls.update();
    this.setGrid(sphere.center, r, box.min.y);
    this.invalidate();
  }

  /** Flies the camera and its target along the view: forward (+) or back, right or left, up or down, in steps of the scene's size. */
  fly(forward: number, right: number, up: number): void {
    const step = Math.max(this.camera.position.distanceTo(this.controls.target) * 0.08, 10);
    const dir = this.controls.target.clone().sub(this.camera.position).normalize();
    const side = dir.clone().cross(this.camera.up).normalize();
    const move = dir.multiplyScalar(forward * step).addScaledVector(side, right * step).addScaledVector(this.camera.up, up * step);
    this.camera.position.add(move);
    this.controls.target.add(move);
    this.controls.update();
    this.invalidate();
  }

  dispose(): void {
    this.clear();
    this.clearTerrain();
    this.stage.dispose();
  }

  /** Asks for a frame (several asks in one animation frame draw once). */
  invalidate(): void {
    this.stage.invalidate();
  }

  private draw(): void {
    this.renderer.render(this.scene, this.camera);
    this.canvas.dataset['frames'] = String(Number(this.canvas.dataset['frames'] ?? 0) + 1);
  }

  // ---- internals ----

  /** Mesh `index`'s visible placements into its instance buffer. */
  private fill(index: number): void {
    const d = this.drawn.get(index), entry = this.data?.meshes[index];
    if (!d || !entry || !this.data) return;
    const target = d.mesh.instanceMatrix.array as Float32Array;
    let k = 0;
    for (let p = entry.first; p < entry.first + entry.count; p++) {
      const owner = this.data.components[this.owners[p]!];
      if (owner && this.hidden.has(owner.actorClass)) continue;
      target.set(this.matrices.subarray(p * 16, p * 16 + 16), k * 16);
      d.slots[k++] = p;
    }
    this.instancesDrawn += k - d.mesh.count;
    d.mesh.count = k;
    d.mesh.instanceMatrix.needsUpdate = true;
    d.mesh.boundingBox = null;
    d.mesh.boundingSphere = null; // the raycaster's test: computed again for the placements now drawn
    this.colour(index, d);
  }

  private colour(index: number, d: Drawn): void {
    if (!this.data) return;
    const tint = TINTS[index % TINTS.length]!;
    for (let k = 0; k < d.mesh.count; k++) {
      const owner = this.data.components[this.owners[d.slots[k]!]!];
      d.mesh.setColorAt(k, owner && owner.actor === this.selectedActor ? SELECTED : tint);
    }
    if (d.mesh.instanceColor) d.mesh.instanceColor.needsUpdate = true;
  }

  /** A ground grid under the content, sized to it, so the scale and the up direction read. */
  private setGrid(center: Vector3, radius: number, floor: number): void {
    if (this.grid) {
      this.scene.remove(this.grid);
      this.grid.dispose();
    }
    // Cells of a power of ten (1 m for a room, 100 m for a landscape), 40 of them across.
    const cell = 10 ** Math.floor(Math.log10(Math.max(radius / 2, 1)));
    this.grid = new GridHelper(cell * 40, 40, 0x56606c, 0x3a414a);
    this.grid.position.set(center.x, floor - radius * 0.01, center.z); // just under the floor: no fighting with it
    this.scene.add(this.grid);
  }

  private clearTerrain(): void {
    if (!this.terrain) return;
    this.scene.remove(this.terrain);
    this.terrain.geometry.dispose();
    (this.terrain.material as MeshLambertMaterial).dispose();
    this.terrain = null;
  }

  private clear(): void {
    for (const d of this.drawn.values()) {
      this.scene.remove(d.mesh);
      d.mesh.geometry.dispose();
      (d.mesh.material as MeshLambertMaterial).dispose();
      d.mesh.dispose();
    }
    this.drawn.clear();
    this.instancesDrawn = 0;
    this.data = null;
  }
}

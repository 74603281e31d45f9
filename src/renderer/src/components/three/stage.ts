// What the 3D views (mesh, landscape, animation, level) share: a WebGL renderer on their canvas, a
// scene lit by an ambient light and a key light that moves with the camera, orbit controls, the
// canvas's size followed, and frames drawn on demand only (several asks in one animation frame
// draw once), so an idle view costs nothing.
import { AmbientLight, Color, DirectionalLight, PerspectiveCamera, Scene, SRGBColorSpace, WebGLRenderer } from 'three';
import { OrbitControls } from 'three/addons/controls/OrbitControls.js';

export class Stage {
  readonly renderer: WebGLRenderer;
  readonly scene = new Scene();
  readonly controls: OrbitControls;
  private readonly resize: ResizeObserver;
  private frame = 0;

  /** `draw` renders one frame (and whatever the view does after it). */
  constructor(readonly canvas: HTMLCanvasElement, readonly camera: PerspectiveCamera, ambient: number, private readonly draw: () => void) {
    this.renderer = new WebGLRenderer({ canvas, antialias: true, preserveDrawingBuffer: true });
    this.renderer.setPixelRatio(Math.min(2, window.devicePixelRatio || 1));
    this.renderer.outputColorSpace = SRGBColorSpace;
    this.scene.background = new Color('#2b2f36');
    this.scene.add(new AmbientLight(0xffffff, ambient));
    const key = new DirectionalLight(0xffffff, 2.2);
    key.position.set(0.4, 0.6, 1); // over the viewer's right shoulder, moving with the camera
    camera.add(key);
    this.scene.add(camera);
    this.controls = new OrbitControls(camera, canvas);
    this.controls.enableDamping = false; // damping needs a frame loop; frames are drawn on change only
    this.controls.screenSpacePanning = true;
    this.controls.addEventListener('change', () => this.invalidate());
    this.resize = new ResizeObserver(() => this.fit());
    this.resize.observe(canvas);
    this.fit();
  }

  /** Asks for a frame (several asks in one animation frame draw once). */
  invalidate(): void {
    if (this.frame) return;
    this.frame = requestAnimationFrame(() => {
      this.frame = 0;
      this.draw();
    });
  }

  /** Frees the GPU side. The view frees its own geometries and materials first. */
  dispose(): void {
    cancelAnimationFrame(this.frame);
    this.resize.disconnect();
    this.controls.dispose();
    this.renderer.dispose();
    // The context goes now, not when the canvas is collected: Chromium keeps only 16 alive, and
    // each package opened makes a view of its own.
    this.renderer.forceContextLoss();
  }

  private fit(): void {
    const w = Math.max(1, this.canvas.clientWidth), h = Math.max(1, this.canvas.clientHeight);
    this.renderer.setSize(w, h, false);
    this.camera.aspect = w / h;
    this.camera.updateProjectionMatrix();
    this.invalidate();
  }
}

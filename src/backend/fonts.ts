/**
 * The font view's facts (core/assets/font): a FontFace's file with its names, a Font's typeface
 * entries with their faces read through the install, an offline font's pages; and a font saved
 * as its file (saveConversion).
 */
import { fontFile, readFontAsset, type FontFaceAsset, type FontFile } from '../core/assets/font/read.js';
import { packageOfObjectPath } from '../core/package/object-path.js';
import type { InstallPackages } from '../core/package/open-package.js';
import type { Usmap } from '../core/usmap/types.js';
import { MAX_FONT_VIEW_BYTES, type FontFaceFacts, type FontView } from '../shared/asset-api.js';

export interface FontRequestContext {
  packages: InstallPackages;
  /** The package's tree path. */
  path: string;
  exportIndex: number;
  mappings?: Usmap;
  engine?: string;
}

type FaceWithBytes = FontFaceFacts & { bytes: Uint8Array };

/** The view with each face's bytes moved to faceBytes (see FontView). */
function withBytes(view: Omit<FontView, 'faces' | 'faceBytes'>, faces: FaceWithBytes[]): FontView {
  const faceBytes: Record<string, Uint8Array> = {};
  return { ...view, faces: faces.map(({ bytes, ...f }, i) => { faceBytes[String(i)] = bytes; return f; }), faceBytes };
}

function facts(name: string, path: string, exportIndex: number | undefined, f: FontFile, notes: string[]): FaceWithBytes | undefined {
  if (f.bytes.length > MAX_FONT_VIEW_BYTES) {
    notes.push(`${name}'s font file is ${f.bytes.length} bytes: too big to preview (it saves)`);
    return undefined;
  }
  return {
    name, path, ...(exportIndex !== undefined ? { exportIndex } : {}), format: f.format, family: f.names.family, style: f.names.style,
    fullName: f.names.full, from: f.from, tables: f.names.tables, size: f.bytes.length, bytes: f.bytes,
  };
}

/** The view of export `exportIndex` of a package: a FontFace or a Font. */
export async function packageFontView(ctx: FontRequestContext): Promise<FontView> {
  const opts = { ...(ctx.mappings ? { mappings: ctx.mappings } : {}), ...(ctx.engine ? { engine: ctx.engine } : {}) };
  const asset = await readFontAsset({ packages: ctx.packages, ref: ctx.path }, ctx.exportIndex, opts);
  const notes = [...asset.notes];
  if (asset.kind === 'face') {
    const face = asset.file ? facts(asset.name, ctx.path, ctx.exportIndex, asset.file, notes) : undefined;
    return withBytes({
      path: ctx.path, exportIndex: ctx.exportIndex, kind: 'face', class: asset.class, name: asset.name,
      sourceFilename: asset.sourceFilename, hinting: asset.hinting, loadingPolicy: asset.loadingPolicy,
      typefaces: [], textures: [], glyphs: 0, notes,
    }, face ? [face] : []);
  }
  const faces: FaceWithBytes[] = [];
  const read = new Map<string, string | null>();
  const typefaces = [];
  for (const t of asset.typefaces) {
    let facePath: string | null = null;
    if (t.fontFace !== null) {
      const pkg = packageOfObjectPath(t.fontFace);
      if (read.has(t.fontFace)) facePath = read.get(t.fontFace)!;
      else {
        facePath = ctx.packages.index.byPackageName(pkg)?.file.path ?? null;
        read.set(t.fontFace, facePath);
        if (facePath === null) notes.push(`${t.name}: ${t.fontFace} is not in the install`);
        else {
          try {
            const { model } = await ctx.packages.open(facePath, ctx.engine ? { engine: ctx.engine } : {});
            const objectName = t.fontFace.slice(pkg.length + 1);
            const index = model.exports.findIndex((e) => e.name === objectName);
            const face = await readFontAsset({ packages: ctx.packages, ref: facePath }, Math.max(0, index), opts) as FontFaceAsset;
            if (face.kind === 'face' && face.file) {
              const f = facts(face.name, facePath, Math.max(0, index), face.file, notes);
              if (f) faces.push(f);
            } else notes.push(`${t.name}: ${face.notes.join('; ') || `${t.fontFace} holds no font file`}`);
          } catch (e) {
            notes.push(`${t.name}: ${t.fontFace} does not read: ${e instanceof Error ? e.message : String(e)}`);
          }
        }
      }
    }
    typefaces.push({ typeface: t.typeface, name: t.name, fontFace: t.fontFace, facePath });
  }
  return withBytes({
    path: ctx.path, exportIndex: ctx.exportIndex, kind: 'font', class: asset.class, name: asset.name, typefaces,
    cacheType: asset.cacheType,
    textures: asset.textures.map((ref) => ({ ref, path: ctx.packages.index.byPackageName(packageOfObjectPath(ref))?.file.path ?? null })),
    glyphs: asset.glyphs, notes,
  }, faces);
}

/** The view of a loose font file (a .ufont). */
export function plainFontView(path: string, bytes: Uint8Array): FontView {
  const notes: string[] = [];
  const name = path.slice(path.lastIndexOf('/') + 1);
  const f = facts(name, path, undefined, fontFile(bytes, path, 'file'), notes);
  return withBytes({ path, exportIndex: 0, kind: 'face', class: 'font file (.ufont)', name, typefaces: [], textures: [], glyphs: 0, notes }, f ? [f] : []);
}

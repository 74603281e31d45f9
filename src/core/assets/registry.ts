/**
 * The one converter registry: export class -> the asset kind that reads it, the view the app
 * shows for it and the files it converts to. The app's preview tabs, the CLI's asset commands,
 * `extract --format convert` and the export dialog all ask this table; none of them tests a
 * class name itself. Each kind (texture, sound, mesh, table, ...) registers itself from its own
 * folder under src/core/assets/<kind>/.
 */

export interface AssetKind {
  /** "texture", "sound", "mesh", "table", ... */
  kind: string;
  /** The app's preview tab for it ("texture"); the renderer maps it to a component. */
  view: string;
  /** Export classes (short names, as the package model gives them) this kind reads. */
  classes: readonly string[];
  /** File extensions it converts to, the one `--format convert` writes first ("png", "dds", "hdr"). */
  converts: readonly string[];
}

const kinds: AssetKind[] = [];
const byClass = new Map<string, AssetKind>();

/** Adds a kind; a class already claimed by another kind is a programming error. */
export function registerAssetKind(kind: AssetKind): void {
  for (const c of kind.classes) {
    const other = byClass.get(c);
    if (other && other !== kind) throw new Error(`class ${c} is claimed by both ${other.kind} and ${kind.kind}`);
  }
  kinds.push(kind);
  for (const c of kind.classes) byClass.set(c, kind);
}

/** The kind that reads exports of class `className`, if any. */
export const assetKindOf = (className: string): AssetKind | undefined => byClass.get(className);

/** Every registered kind, in registration order. */
export const assetKinds = (): readonly AssetKind[] => kinds;

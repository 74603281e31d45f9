/**
 * The thumbnail an editor package carries (the image the Content Browser shows), ready to write:
 * uncooked .uasset/.umap files keep PNG (JPEG in UE5 when so saved) thumbnails in their header;
 * cooked and Zen packages have none.
 */
import type { PackageModel, PackageModelThumbnail } from '../package-model.js';

export interface ThumbnailImage {
  /** The object it shows ("TestMaterial"). */
  object: string;
  class: string;
  format: 'png' | 'jpeg';
  width: number;
  height: number;
  data: Uint8Array;
  /** The file extensions that fit the format: [".png"] or [".jpg", ".jpeg"]. */
  extensions: string[];
}

const EXTENSIONS: Record<ThumbnailImage['format'], string[]> = { png: ['.png'], jpeg: ['.jpg', '.jpeg'] };

/**
 * The package's thumbnail image: the one of `object` when given (object name or path, any case),
 * else the package's asset (the thumbnail named like the package), else the first with an image.
 * Undefined when there is none with image bytes in a known format.
 */
export function findThumbnail(model: PackageModel, object?: string): ThumbnailImage | undefined {
  const usable = model.thumbnails.filter((t): t is PackageModelThumbnail & { data: Uint8Array; format: 'png' | 'jpeg' } =>
    (t.format === 'png' || t.format === 'jpeg') && t.data !== undefined && t.data.length > 0);
  const assetName = model.name.slice(model.name.lastIndexOf('/') + 1).toLowerCase();
  const wanted = object?.toLowerCase();
  const pick = wanted !== undefined
    ? usable.find((t) => t.object.toLowerCase() === wanted || t.object.toLowerCase().endsWith(`.${wanted}`))
    : usable.find((t) => t.object.toLowerCase() === assetName) ?? usable[0];
  if (!pick) return undefined;
  return {
    object: pick.object, class: pick.class, format: pick.format, width: pick.width, height: pick.height,
    data: pick.data, extensions: EXTENSIONS[pick.format],
  };
}

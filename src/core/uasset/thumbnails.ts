import type { BinaryReader } from '../io/binary-reader.js';

export type ThumbnailFormat = 'png' | 'jpeg' | 'empty' | 'unknown';

/** One entry of the thumbnail table and the image it points at (FObjectThumbnail). */
export interface Thumbnail {
  /** Short class name of the object ("Blueprint"). */
  objectClass: string;
  /** Object path without the package name ("TestActorBP"). */
  objectPath: string;
  /** Where the FObjectThumbnail starts. */
  offset: number;
  width: number;
  height: number;
  format: ThumbnailFormat;
  /** Where the compressed image bytes start and how many there are (0 for an empty thumbnail). */
  dataOffset: number;
  dataSize: number;
}

const PNG_SIGNATURE = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];

/** The image format of compressed thumbnail bytes, by signature. */
export function imageFormat(data: Uint8Array): ThumbnailFormat {
  if (data.length === 0) return 'empty';
  if (data.length >= 8 && PNG_SIGNATURE.every((b, i) => data[i] === b)) return 'png';
  if (data.length >= 3 && data[0] === 0xff && data[1] === 0xd8 && data[2] === 0xff) return 'jpeg';
  return 'unknown';
}

/**
 * The thumbnail table: i32 count, then per thumbnail FString class, FString path, i32 offset of
 * its FObjectThumbnail (i32 width, i32 height (negative: JPEG in UE5), i32 size, image bytes),
 * which the engine writes before the table.
 */
export function readThumbnails(r: BinaryReader): Thumbnail[] {
  const n = r.count(12, 'thumbnail count');
  const entries: { objectClass: string; objectPath: string; offset: number; at: number }[] = [];
  for (let i = 0; i < n; i++) {
    const objectClass = r.fstring();
    const objectPath = r.fstring();
    const at = r.pos;
    entries.push({ objectClass, objectPath, offset: r.i32(), at });
  }
  return entries.map(({ objectClass, objectPath, offset, at }) => {
    if (offset < 0 || offset > r.length - 12) throw r.error(`thumbnail "${objectPath}" offset ${offset} is outside the header`, at);
    const t = r.slice(offset, r.length - offset, 'thumbnail');
    const width = t.i32();
    const rawHeight = t.i32();
    const dataSize = t.count(1, 'thumbnail image size');
    const data = t.bytesView(dataSize);
    return {
      objectClass, objectPath, offset, width, height: Math.abs(rawHeight), format: imageFormat(data),
      dataOffset: offset + 12, dataSize,
    };
  });
}

/** RGBA pixels as a PNG blob: URL for an <img> (the CSP allows blob: images); null where no 2D canvas is to be had. */
export function rgbaImageUrl(image: { width: number; height: number; rgba: Uint8Array }): Promise<string | null> {
  const c = document.createElement('canvas');
  c.width = image.width;
  c.height = image.height;
  const ctx = c.getContext('2d');
  if (!ctx) return Promise.resolve(null);
  const data = ctx.createImageData(image.width, image.height);
  data.data.set(image.rgba);
  ctx.putImageData(data, 0, 0);
  return new Promise((done) => c.toBlob((b) => done(b ? URL.createObjectURL(b) : null), 'image/png'));
}

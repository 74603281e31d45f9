/** The cooked texture reader (UTexture* exports of UE4/UE5 packages): see read.ts. */
export { readInstallTexture, readTextureFile, TEXTURE_CLASSES, type TextureReadOptions } from './read.js';
export { MissingPayloadError } from './bulk-data.js';

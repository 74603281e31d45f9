import { inflateSync } from 'node:zlib';
import { DEFLATE_MAX_RATIO, nodeZlibCodec } from './node-zlib.js';

/** The engine's "Zlib": a zlib stream (RFC 1950, with header and Adler-32). */
export const zlibCodec = nodeZlibCodec('Zlib', inflateSync, DEFLATE_MAX_RATIO);

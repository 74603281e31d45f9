import { gunzipSync } from 'node:zlib';
import { DEFLATE_MAX_RATIO, nodeZlibCodec } from './node-zlib.js';

/** The engine's "Gzip": a gzip member (RFC 1952). */
export const gzipCodec = nodeZlibCodec('Gzip', gunzipSync, DEFLATE_MAX_RATIO);

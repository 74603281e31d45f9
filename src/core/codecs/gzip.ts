import { Gunzip, gunzipSync } from 'node:zlib';
import { DEFLATE_MAX_RATIO, nodeZlibCodec } from './node-zlib.js';
import { ReusedInflater } from './reused-inflater.js';

/** The engine's "Gzip": a gzip member (RFC 1952). */
export const gzipCodec = nodeZlibCodec('Gzip', gunzipSync, DEFLATE_MAX_RATIO, ReusedInflater.create(() => new Gunzip(), 'gzip'));

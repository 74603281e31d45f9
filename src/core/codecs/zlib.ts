import { Inflate, inflateSync } from 'node:zlib';
import { DEFLATE_MAX_RATIO, nodeZlibCodec } from './node-zlib.js';
import { ReusedInflater } from './reused-inflater.js';

/** The engine's "Zlib": a zlib stream (RFC 1950, with header and Adler-32). */
export const zlibCodec = nodeZlibCodec('Zlib', inflateSync, DEFLATE_MAX_RATIO, ReusedInflater.create(() => new Inflate(), 'zlib'));

/**
 * JSON over HTTP between the browser host and the web client. An answer holding byte arrays goes
 * as one binary frame (encodeFrame): the JSON with each array replaced by {"$bytes": [offset,
 * length]}, then the arrays themselves, so a mesh's or an image's tens of MB are neither base64'd
 * nor escaped into a string, and arrive as views on the frame (8-byte aligned: Float32Array and
 * Uint32Array views on them need no copy). encodeJson/decodeJson ({ "$base64": "..." }) remain
 * for bytes inside plain JSON. Runs in Node (host) and the browser (client).
 */
const TAG = '$base64';
const BYTES = '$bytes';
/** The Content-Type of a frame. */
export const FRAME_TYPE = 'application/x-pakscope-frame';

const align8 = (n: number): number => (n + 7) & ~7;

/**
 * `value` as a frame's parts, in order (the arrays are not copied): a 4-byte little-endian JSON
 * length, the JSON (UTF-8), zeros to a multiple of 8, then each array padded to a multiple of 8
 * (offsets in the JSON count from there). Null when `value` holds no byte arrays near its top.
 */
export function encodeFrame(value: unknown): Uint8Array[] | null {
  if (!hasBytes(value, 3)) return null;
  const arrays: Uint8Array[] = [];
  let at = 0;
  const json = JSON.stringify(value, (_key, v: unknown) => {
    if (!(v instanceof Uint8Array)) return v;
    arrays.push(v);
    const ref = { [BYTES]: [at, v.byteLength] };
    at = align8(at + v.byteLength);
    return ref;
  });
  const text = new TextEncoder().encode(json);
  const head = new Uint8Array(align8(4 + text.length));
  new DataView(head.buffer).setUint32(0, text.length, true);
  head.set(text, 4);
  const parts: Uint8Array[] = [head];
  for (const a of arrays) {
    parts.push(a);
    if (a.byteLength % 8) parts.push(new Uint8Array(8 - (a.byteLength % 8)));
  }
  return parts;
}

/** A frame's value, its byte arrays as views on `frame` (no copies). */
export function decodeFrame(frame: ArrayBuffer): unknown {
  if (frame.byteLength < 4) throw new Error(`a frame of ${frame.byteLength} bytes is too short`);
  const length = new DataView(frame).getUint32(0, true);
  if (4 + length > frame.byteLength) throw new Error(`the frame's JSON (${length} bytes) runs past its end (${frame.byteLength} bytes)`);
  const data = align8(4 + length);
  return JSON.parse(new TextDecoder().decode(new Uint8Array(frame, 4, length)), (_key, v: unknown) => {
    if (v === null || typeof v !== 'object' || Array.isArray(v)) return v;
    const ref = (v as Record<string, unknown>)[BYTES];
    if (!Array.isArray(ref) || Object.keys(v).length !== 1) return v;
    const [offset, size] = ref as unknown[];
    if (!Number.isSafeInteger(offset) || !Number.isSafeInteger(size) || (offset as number) < 0 || (size as number) < 0 ||
        data + (offset as number) + (size as number) > frame.byteLength) {
      throw new Error(`a byte array of the frame (at ${String(offset)}, ${String(size)} bytes) lies outside its ${frame.byteLength} bytes`);
    }
    return new Uint8Array(frame, data + (offset as number), size as number);
  });
}

export function encodeJson(value: unknown): string {
  // A replacer costs a call per value: skip it for the big byte-free answers (a 100,000-entry folder).
  if (!hasBytes(value, 3)) return JSON.stringify(value);
  return JSON.stringify(value, (_key, v: unknown) => (v instanceof Uint8Array ? { [TAG]: toBase64(v) } : v));
}

/** Byte arrays sit near the top of an answer ({ ok, value: { bytes } }); arrays hold none. */
function hasBytes(v: unknown, depth: number): boolean {
  if (v instanceof Uint8Array) return true;
  if (depth === 0 || v === null || typeof v !== 'object' || Array.isArray(v)) return false;
  return Object.values(v).some((x) => hasBytes(x, depth - 1));
}

export function decodeJson(text: string): unknown {
  if (!text.includes(`"${TAG}"`)) return JSON.parse(text);
  return JSON.parse(text, (_key, v: unknown) => {
    if (v !== null && typeof v === 'object' && !Array.isArray(v)) {
      const keys = Object.keys(v);
      const b64 = (v as Record<string, unknown>)[TAG];
      if (keys.length === 1 && typeof b64 === 'string') return fromBase64(b64);
    }
    return v;
  });
}

function toBase64(bytes: Uint8Array): string {
  if (typeof Buffer !== 'undefined') return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('base64');
  let s = '';
  for (let i = 0; i < bytes.length; i += 0x8000) s += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  return btoa(s);
}

/** Uint8Array.fromBase64 (Chromium 140 on, so Electron 38 and the browser host's Chromium): native, one pass. */
const nativeFromBase64 = (Uint8Array as unknown as { fromBase64?: (s: string) => Uint8Array }).fromBase64;

function fromBase64(b64: string): Uint8Array {
  if (typeof Buffer !== 'undefined') return new Uint8Array(Buffer.from(b64, 'base64'));
  // A mesh's LOD is tens of MB: the loop below takes several times as long.
  if (nativeFromBase64) return nativeFromBase64.call(Uint8Array, b64);
  const s = atob(b64);
  const out = new Uint8Array(s.length);
  for (let i = 0; i < s.length; i++) out[i] = s.charCodeAt(i);
  return out;
}

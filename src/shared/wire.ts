/**
 * JSON over HTTP between the browser host and the web client: byte arrays travel as
 * { "$base64": "..." } and come back as Uint8Array. Runs in Node (host) and the browser (client).
 */
const TAG = '$base64';

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

function fromBase64(b64: string): Uint8Array {
  if (typeof Buffer !== 'undefined') return new Uint8Array(Buffer.from(b64, 'base64'));
  const s = atob(b64);
  const out = new Uint8Array(s.length);
  for (let i = 0; i < s.length; i++) out[i] = s.charCodeAt(i);
  return out;
}

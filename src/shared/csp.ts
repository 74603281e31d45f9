/**
 * The Content-Security-Policy of the renderer, shared by the Electron session (response header),
 * the browser host (response header) and index.html (meta tag; test/app checks they agree).
 * Only the app's own files run: no remote origins, no eval, no inline scripts.
 */
const DIRECTIVES: [string, string][] = [
  ['default-src', "'self'"],
  ['script-src', "'self'"],
  // Monaco and Svelte transitions add <style> elements and style attributes at run time.
  ['style-src', "'self' 'unsafe-inline'"],
  // Monaco's editor worker is bundled inline and started from a blob: URL (works from file:// too).
  ['worker-src', "'self' blob:"],
  // Monaco's codicon font ships as a file next to the bundle. The font view's faces are FontFace
  // objects made from the bytes the API sent (an ArrayBuffer, not a URL), which font-src does not govern.
  ['font-src', "'self'"],
  // Package thumbnails: the page turns the image bytes the API sent into blob: URLs (its own
  // memory, never a remote or data: URL).
  ['img-src', "'self' blob:"],
  // The sound view plays the decoded WAV the API sent from a blob: URL of the page's own memory.
  ['media-src', "'self' blob:"],
  // The web client's fetch() and EventSource go to the host that served the page, nowhere else.
  ['connect-src', "'self'"],
  ['object-src', "'none'"],
  ['base-uri', "'none'"],
  ['form-action', "'none'"],
  // Browsers ignore frame-ancestors in a meta tag, so only the header carries it.
  ['frame-ancestors', "'none'"],
];

export type CspTarget = 'header' | 'meta';

export function contentSecurityPolicy(target: CspTarget = 'header'): string {
  return DIRECTIVES.filter(([name]) => target === 'header' || name !== 'frame-ancestors')
    .map(([name, value]) => `${name} ${value}`)
    .join('; ');
}

/** Response headers with our CSP in place of any the server sent. */
export function withCsp(headers: Record<string, string[]> | undefined): Record<string, string[]> {
  const out: Record<string, string[]> = {};
  for (const [k, v] of Object.entries(headers ?? {})) {
    if (k.toLowerCase() !== 'content-security-policy') out[k] = v;
  }
  out['Content-Security-Policy'] = [contentSecurityPolicy('header')];
  return out;
}

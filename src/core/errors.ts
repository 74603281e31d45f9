/**
 * A FormatError as plain data: what a reader that carries on past an error keeps of it (an
 * export's properties that stop early), so an outer reader can still nest it (FormatError.within).
 */
export interface FormatErrorData {
  file: string;
  structure: string;
  offset: number;
  detail: string;
}

/**
 * The one error type for bad input. Every parser throws it with the file, the structure and the
 * byte offset, so the CLI prints one useful line and the app shows it next to the file.
 */
export class FormatError extends Error {
  readonly file: string;
  readonly structure: string;
  readonly offset: number;
  constructor(file: string, structure: string, offset: number, detail: string) {
    super(`${file}: ${structure} at byte ${offset}: ${detail}`);
    this.name = 'FormatError';
    this.file = file;
    this.structure = structure;
    this.offset = offset;
  }

  /** What is wrong, without the "file: structure at byte N: " the message starts with. */
  get detail(): string {
    const prefix = `${this.file}: ${this.structure} at byte ${this.offset}: `;
    return this.message.startsWith(prefix) ? this.message.slice(prefix.length) : this.message;
  }

  /** The error as plain data, for a result that records it instead of throwing it. */
  data(): FormatErrorData {
    return { file: this.file, structure: this.structure, offset: this.offset, detail: this.detail };
  }

  /**
   * `inner` (an error or its recorded data) seen from `outer`, the structure that holds it, so
   * the message reads once: inner's file, the path "outer > inner", inner's byte offset (the one
   * that points at the bad bytes) and its detail. Without `outer`, the recorded error as it was.
   * `consequence` says what the outer reader cannot do because of it.
   */
  static within(outer: string | null, inner: FormatError | FormatErrorData, consequence?: string): FormatError {
    const structure = outer === null ? inner.structure : `${outer} > ${inner.structure}`;
    return new FormatError(inner.file, structure, inner.offset, consequence ? `${inner.detail}; ${consequence}` : inner.detail);
  }
}

/** A codec PakScope cannot decode (Leviathan, an unknown name). Bad input for exit codes. */
export class UnsupportedCodecError extends Error {
  readonly codec: string;
  constructor(codec: string, detail = '') {
    super(`unsupported compression method "${codec}"${detail ? `: ${detail}` : ''}`);
    this.name = 'UnsupportedCodecError';
    this.codec = codec;
  }
}

/**
 * A stored block that does not decode: corrupt compressed data, a size that does not match the
 * declared one, a cipher input of the wrong length. Codecs know neither the file nor the offset,
 * so container readers wrap it in a FormatError; it still counts as bad input on its own.
 */
export class DecodeError extends Error {
  /** The method that failed: "Zlib", "Oodle (Kraken)", "AES-256-ECB", ... */
  readonly method: string;
  constructor(method: string, detail: string) {
    super(`${method}: ${detail}`);
    this.name = 'DecodeError';
    this.method = method;
  }
}

/**
 * A texture pixel format PakScope does not know or cannot decode; names it ("PF_PVRTC2"). Bad
 * input for exit codes. Thrown by the texture decoders (src/core/assets/texture/decode).
 */
export class UnsupportedPixelFormatError extends Error {
  readonly pixelFormat: string;
  constructor(pixelFormat: string, known: boolean) {
    super(known
      ? `pixel format ${pixelFormat} cannot be decoded by PakScope (its mips can still be saved as .dds)`
      : `unknown pixel format ${pixelFormat}`);
    this.name = 'UnsupportedPixelFormatError';
    this.pixelFormat = pixelFormat;
  }
}

/** A container that needs a key we do not have, or a key that does not fit. */
export class KeyError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'KeyError';
  }
}

/**
 * Two installs that cannot be compared as given: the same install twice, a locked or unreadable
 * container on one side, a path that is not an install. Bad input (exit 2).
 */
export class CompareError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'CompareError';
  }
}

/** Errors caused by the input (exit code 2), as opposed to PakScope's own failures (exit code 1). */
export function isInputError(e: unknown): boolean {
  return e instanceof FormatError || e instanceof UnsupportedCodecError || e instanceof DecodeError ||
    e instanceof KeyError || e instanceof UnsupportedPixelFormatError || e instanceof CompareError ||
    (e instanceof Error && ['ENOENT', 'EISDIR', 'ENOTDIR', 'EACCES'].includes((e as NodeJS.ErrnoException).code ?? ''));
}

/** `e` as an Error (a thrown non-Error is wrapped), for results that carry errors instead of throwing them. */
export function asError(e: unknown): Error {
  return e instanceof Error ? e : new Error(String(e));
}

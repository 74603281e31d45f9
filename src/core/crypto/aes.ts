// Placeholder signature; the codecs/crypto work fills this in (AES-256 ECB and CTR via node:crypto).
export type AesParams = { mode: 'ecb'; key: Uint8Array } | { mode: 'ctr'; key: Uint8Array; iv: Uint8Array };
export function aesDecrypt(_data: Uint8Array, _p: AesParams): Uint8Array {
  throw new Error('aesDecrypt: not implemented yet');
}

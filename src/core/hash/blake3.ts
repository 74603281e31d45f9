import { createBLAKE3, type IHasher } from 'hash-wasm';

// hash-wasm compiles its WebAssembly once, asynchronously; the hasher is then reused, so every
// call after the first costs only the hashing. Reuse is safe: init/update/digest run without a
// pause, so two calls never interleave on it.
let hasher: Promise<IHasher> | undefined;

/** BLAKE3-256 (32 bytes): UE5 IoStore chunk hashes keep the first 20. */
export async function blake3(data: Uint8Array): Promise<Uint8Array> {
  hasher ??= createBLAKE3().catch((e: unknown) => {
    hasher = undefined; // let a later call try again
    throw e;
  });
  const h = await hasher;
  return h.init().update(data).digest('binary');
}

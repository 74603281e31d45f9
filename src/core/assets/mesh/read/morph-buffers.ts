/**
 * FMorphTargetVertexInfoBuffers: a skeletal LOD's morph targets as cooked for the GPU (UE5 cooks
 * them so and strips the UMorphTarget's own deltas). Per morph target a run of batches; each batch
 * header (10 u32: DataOffset; IndexBits:5, PositionBits 3x5, bTangents:1, NumElements:11;
 * IndexMin; PositionMin[3]; TangentZBits 3x5; TangentZMin[3]) points at a little-endian bit
 * stream of NumElements entries: the vertex index minus IndexMin minus the entry's number, the
 * position delta and (bTangents) the normal delta, each component quantized as (min + stored) *
 * precision.
 */
import type { BinaryReader } from '../../../io/binary-reader.js';
import type { MorphTargetLod } from '../types.js';
import { skipArray } from './buffers.js';

const HEADER_BYTES = 40;

/** Deltas per morph target (in the mesh's MorphTargets order) of one LOD. */
export function readMorphBuffers(r: BinaryReader, vertices: number): MorphTargetLod[] {
  const wordsAt = r.pos;
  const words = r.count(4, 'compressed morph data');
  const packed = r.sub(words * 4, 'compressed morph data');
  skipArray(r, 16, 'morph minimum values');
  skipArray(r, 16, 'morph maximum values');
  const morphs = r.count(4, 'morph batch offsets');
  const starts = Array.from({ length: morphs }, () => r.u32());
  const countsAt = r.pos;
  if (r.count(4, 'morph batch counts') !== morphs) throw r.error(`batch counts for a different number of morph targets than the ${morphs} batch offsets`, countsAt);
  const batches = Array.from({ length: morphs }, () => r.u32());
  const totalAt = r.pos;
  const total = r.i32();
  const posPrecision = r.f32();
  const tanPrecision = r.f32();
  if (total < 0 || total * HEADER_BYTES > packed.length) throw r.error(`${total} morph batches do not fit the ${packed.length} bytes of morph data`, totalAt);
  const bytes = packed.bytes;
  const bitAt = (bit: number): number => ((bytes[bit >>> 3]! >>> (bit & 7)) & 1);
  return starts.map((start, m) => {
    if (start + batches[m]! > total) throw r.error(`morph target ${m}: batches ${start} to ${start + batches[m]!} of ${total}`, wordsAt);
    const index: number[] = [];
    const pos: number[] = [];
    const nrm: number[] = [];
    for (let b = start; b < start + batches[m]!; b++) {
      packed.seek(b * HEADER_BYTES);
      const dataOffset = packed.u32();
      const bits = packed.u32();
      const indexMin = packed.u32();
      const posMin = [packed.i32(), packed.i32(), packed.i32()];
      const tbits = packed.u32();
      const tanMin = [packed.i32(), packed.i32(), packed.i32()];
      const indexBits = bits & 31;
      const posBits = [(bits >>> 5) & 31, (bits >>> 10) & 31, (bits >>> 15) & 31];
      const tangents = ((bits >>> 20) & 1) === 1;
      const n = bits >>> 21;
      const tanBits = [tbits & 31, (tbits >>> 5) & 31, (tbits >>> 10) & 31];
      const stride = indexBits + posBits[0]! + posBits[1]! + posBits[2]! + (tangents ? tanBits[0]! + tanBits[1]! + tanBits[2]! : 0);
      if (dataOffset + Math.ceil((stride * n) / 8) > bytes.length) throw packed.error(`morph batch ${b}: ${n} entries of ${stride} bits from byte ${dataOffset} run past the morph data`, b * HEADER_BYTES);
      let bit = dataOffset * 8;
      const read = (k: number): number => {
        let v = 0;
        for (let i = 0; i < k; i++) v += bitAt(bit + i) * 2 ** i;
        bit += k;
        return v;
      };
      for (let i = 0; i < n; i++) {
        const v = indexMin + i + read(indexBits);
        if (v >= vertices) throw packed.error(`morph batch ${b}: vertex ${v} is past the LOD's ${vertices} vertices`, b * HEADER_BYTES);
        index.push(v);
        for (let c = 0; c < 3; c++) pos.push((posMin[c]! + read(posBits[c]!)) * posPrecision);
        for (let c = 0; c < 3; c++) nrm.push(tangents ? (tanMin[c]! + read(tanBits[c]!)) * tanPrecision : 0);
      }
    }
    return { vertices: Uint32Array.from(index), positionDeltas: Float32Array.from(pos), normalDeltas: Float32Array.from(nrm) };
  });
}

/**
 * The deltas a UMorphTarget export keeps itself (UE4, and UE5 where the cook kept them for mobile's
 * CPU morphing), after its property stream:
 *
 *   UObject: bHasGuid (bool32) and the FGuid when set; FStripDataFlags (audio-visual data stripped:
 *   nothing follows); [5.8+ bCooked (bool32)]; TArray<FMorphTargetLODModel>:
 *     [5.0+ bVerticesAreStrippedForCookedBuilds (bool32): then only NumVertices (i32)]
 *     Vertices: TArray<FMorphTargetDelta> (PositionDelta FVector3f, TangentZDelta FVector3f, SourceIdx u32)
 *     NumBaseMeshVerts (i32); [4.19+ SectionIndices (TArray<i32>)]; [4.20+ bGeneratedByEngine (bool32)];
 *     [5.6+ SourceFilename (FString)]
 *   [bCooked: bStoreCompressedVertices (bool32), then per LOD TArray<FDeltaBatchHeader> (DataOffset,
 *     NumElements, bTangents (bool32), IndexBits, PositionBits[3], TangentZBits[3] (i8 each), IndexMin,
 *     PositionMin[3], TangentZMin[3]), TArray<u32> of packed bits, PositionPrecision, TangentZPrecision.
 *     The batches' entries follow each other in the bit stream (LSB first): the index (minus IndexMin
 *     and the entry's number), the position delta and, with tangents, the normal delta, each
 *     component stored minus its minimum, times the precision.]
 *
 * Versions as CUE4Parse gives them: FEditorObjectVersion::AddedMorphTargetSectionIndices 4.19,
 * FFortniteMainBranchObjectVersion::SaveGeneratedMorphTargetByEngine 4.20, MorphTargetCustomImport
 * 5.6, MorphTargetCookedCPUDataCompressed 5.8, FUE5SpecialProjectStreamObjectVersion::
 * StripMorphTargetSourceDataForCookedBuilds 5.0.
 */
import { BinaryReader } from '../../../io/binary-reader.js';
import type { SourceExport } from '../../texture/read/package-source.js';
import type { MorphTargetLod } from '../types.js';
import { avStripped, readStripFlags, skipArray } from './buffers.js';

const DELTA_BYTES = 28;
const HEADER_BYTES = 47;
const MAX_LODS = 16;

const empty = (): MorphTargetLod => ({ vertices: new Uint32Array(0), positionDeltas: new Float32Array(0), normalDeltas: new Float32Array(0) });

function readDeltas(r: BinaryReader): MorphTargetLod {
  const n = r.count(DELTA_BYTES, 'morph target deltas');
  const block = r.bytesView(n * DELTA_BYTES);
  const v = new DataView(block.buffer, block.byteOffset, block.byteLength);
  const out = { vertices: new Uint32Array(n), positionDeltas: new Float32Array(n * 3), normalDeltas: new Float32Array(n * 3) };
  for (let i = 0; i < n; i++) {
    const at = i * DELTA_BYTES;
    for (let c = 0; c < 3; c++) {
      out.positionDeltas[i * 3 + c] = v.getFloat32(at + c * 4, true);
      out.normalDeltas[i * 3 + c] = v.getFloat32(at + 12 + c * 4, true);
    }
    out.vertices[i] = v.getUint32(at + 24, true);
  }
  return out;
}

/** One LOD's FDeltaBatchHeader array and packed bits (5.8's cooked CPU form). */
function readCompressedLod(r: BinaryReader): MorphTargetLod {
  const count = r.count(HEADER_BYTES, 'morph delta batch headers');
  const headers = Array.from({ length: count }, () => {
    r.u32(); // DataOffset
    const elements = r.u32();
    const tangents = r.bool32();
    const indexBits = r.i8();
    const posBits = [r.i8(), r.i8(), r.i8()];
    const tanBits = [r.i8(), r.i8(), r.i8()];
    const indexMin = r.u32();
    const posMin = [r.i32(), r.i32(), r.i32()];
    const tanMin = [r.i32(), r.i32(), r.i32()];
    return { elements, tangents, indexBits, posBits, tanBits, indexMin, posMin, tanMin };
  });
  const wordsAt = r.pos;
  const words = r.count(4, 'packed morph deltas');
  const bytes = r.bytesView(words * 4);
  const posPrecision = r.f32();
  const tanPrecision = r.f32();
  const total = headers.reduce((n, h) => n + h.elements, 0);
  let bitsNeeded = 0;
  for (const h of headers) {
    const widths = [h.indexBits, ...h.posBits, ...(h.tangents ? h.tanBits : [])];
    if (widths.some((w) => w < 0 || w > 32)) throw r.error(`a morph delta batch stores a value in ${widths.find((w) => w < 0 || w > 32)} bits`, wordsAt);
    bitsNeeded += h.elements * widths.reduce((a, b) => a + b, 0);
  }
  if (bitsNeeded > bytes.length * 8) throw r.error(`${total} packed morph deltas need ${bitsNeeded} bits, the data holds ${bytes.length * 8}`, wordsAt);
  let bit = 0;
  const read = (k: number): number => {
    let v = 0;
    for (let i = 0; i < k; i++, bit++) v += ((bytes[bit >>> 3]! >>> (bit & 7)) & 1) * 2 ** i;
    return v;
  };
  const out = { vertices: new Uint32Array(total), positionDeltas: new Float32Array(total * 3), normalDeltas: new Float32Array(total * 3) };
  let k = 0;
  for (const h of headers) {
    for (let i = 0; i < h.elements; i++, k++) {
      out.vertices[k] = read(h.indexBits) + h.indexMin + i;
      for (let c = 0; c < 3; c++) out.positionDeltas[k * 3 + c] = (read(h.posBits[c]!) + h.posMin[c]!) * posPrecision;
      if (h.tangents) for (let c = 0; c < 3; c++) out.normalDeltas[k * 3 + c] = (read(h.tanBits[c]!) + h.tanMin[c]!) * tanPrecision;
    }
  }
  return out;
}

/**
 * The deltas per LOD of a MorphTarget export read from `start` (the end of its properties), or no
 * `lods` when the cook kept none there (they are then in the mesh's LODs, morph-buffers.ts);
 * `unread`: bytes of the export after what was read (0 when the layout fitted).
 */
export function readMorphTargetExport(exp: SourceExport, start: number, release: number): { lods?: MorphTargetLod[]; unread: number } {
  const r = new BinaryReader(exp.bytes, exp.file, exp.base).struct(`MorphTarget "${exp.name}"`);
  r.seek(start);
  if (r.bool32()) r.skip(16);
  if (avStripped(readStripFlags(r))) return { unread: r.remaining };
  const cooked = release >= 508 ? r.bool32() : false;
  const countAt = r.pos;
  const count = r.count(8, 'morph target LODs');
  if (count > MAX_LODS) throw r.error(`${count} LODs (at most ${MAX_LODS})`, countAt);
  let kept = false;
  const lods: MorphTargetLod[] = [];
  for (let i = 0; i < count; i++) {
    const stripped = release >= 500 ? r.bool32() : false;
    let lod = empty();
    if (stripped) r.i32(); // NumVertices
    else {
      lod = readDeltas(r);
      kept = true;
    }
    r.i32(); // NumBaseMeshVerts
    if (release >= 419) skipArray(r, 4, 'section indices');
    if (release >= 420) r.bool32(); // bGeneratedByEngine
    if (release >= 506) r.fstring();
    lods.push(lod);
  }
  if (cooked && r.bool32()) {
    const at = r.pos;
    const n = r.count(4 + 8, 'compressed morph target LODs');
    if (n > MAX_LODS) throw r.error(`${n} compressed LODs (at most ${MAX_LODS})`, at);
    for (let i = 0; i < n; i++) lods[i] = readCompressedLod(r);
    kept ||= n > 0;
  }
  return { ...(kept ? { lods } : {}), unread: r.remaining };
}

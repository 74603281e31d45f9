/**
 * The facts `pakscope mesh <anim> --json` prints and the app shows: the sequence's length,
 * frames, rate scale, codecs (and whether they were decoded), tracks with their decoded keys
 * (frames and values, engine axes) and curves.
 */
import type { AnimKeys, AnimSequence } from './types.js';

export interface AnimKeysSummary { format: string; times: number[]; values: number[][] }

export interface AnimSummary {
  class: string;
  name: string;
  skeleton: string;
  sequenceLength: number;
  rateScale: number;
  frames: number;
  additive: string;
  codecs: AnimSequence['codecs'];
  tracks: { bone: number; boneName?: string; translation?: AnimKeysSummary; rotation?: AnimKeysSummary; scale?: AnimKeysSummary }[];
  curves: { name: string; keys: { time: number; value: number; interp: string; arriveTangent: number; leaveTangent: number }[] }[];
  notes: string[];
}

/** Floats as stored, printed short: 7 significant digits (float32's precision). */
const f = (v: number): number => Number(v.toPrecision(7));

function keys(k: AnimKeys | undefined, width: number): AnimKeysSummary | undefined {
  if (!k) return undefined;
  const values: number[][] = [];
  for (let i = 0; i < k.times.length; i++) values.push(Array.from(k.values.subarray(i * width, i * width + width), f));
  return { format: k.format, times: Array.from(k.times), values };
}

/** `boneNames`: the skeleton's bone names where it was read, to name each track's bone. */
export function animSummary(seq: AnimSequence, boneNames?: readonly string[]): AnimSummary {
  const tracks = seq.trackBones.map((bone, i) => {
    const t = seq.tracks[i];
    const name = boneNames?.[bone];
    const tr = keys(t?.translation, 3), rot = keys(t?.rotation, 4), sc = keys(t?.scale, 3);
    return { bone, ...(name !== undefined ? { boneName: name } : {}), ...(tr ? { translation: tr } : {}), ...(rot ? { rotation: rot } : {}), ...(sc ? { scale: sc } : {}) };
  });
  const curves = seq.curveNames.map((name) => {
    const c = seq.curves.find((x) => x.name === name);
    return { name, keys: (c?.keys ?? []).map((k) => ({ ...k, time: f(k.time), value: f(k.value), arriveTangent: f(k.arriveTangent), leaveTangent: f(k.leaveTangent) })) };
  });
  return {
    class: seq.class, name: seq.name, skeleton: seq.skeleton, sequenceLength: seq.sequenceLength, rateScale: seq.rateScale, frames: seq.frames,
    additive: seq.additive, codecs: seq.codecs, tracks, curves, notes: seq.notes,
  };
}

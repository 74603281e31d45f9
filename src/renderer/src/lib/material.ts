/**
 * How the material view writes parameter values: numbers as they are, a linear colour as its
 * four channels and as the sRGB colour a swatch shows (the engine's parameters are linear).
 */
import type { LinearColor, MaterialParameterValue } from '../../../shared/api.js';

/** The sRGB transfer function of one linear channel, 0..1. */
function srgb(c: number): number {
  const x = Math.min(1, Math.max(0, Number.isFinite(c) ? c : 0));
  return x <= 0.0031308 ? 12.92 * x : 1.055 * x ** (1 / 2.4) - 0.055;
}

/** A CSS colour for a linear colour: sRGB channels, alpha as it is (clamped). */
export function colorCss(c: LinearColor): string {
  const b = (v: number): number => Math.round(srgb(v) * 255);
  const a = Math.min(1, Math.max(0, Number.isFinite(c.a) ? c.a : 1));
  return `rgba(${b(c.r)}, ${b(c.g)}, ${b(c.b)}, ${a})`;
}

export function valueText(v: MaterialParameterValue): string {
  if (v === null) return 'None';
  if (typeof v === 'object') return `(${v.r}, ${v.g}, ${v.b}, ${v.a})`;
  return String(v);
}

/**
 * The level's native data on bytes that are not what they should be: a Level whose actor count
 * runs past its bytes, an instanced component whose bytes hold no instance array (noise, or a
 * count that does not fit), and one whose array is found by the search past an unknown prefix.
 * Each gives an error string or the instances, never a throw out of the reader or a hang.
 */
import { describe, expect, it } from 'vitest';
import { levelNativeReader, type NativeLevelObject } from '../../../src/core/assets/level/native.js';
import { BinaryReader } from '../../../src/core/io/binary-reader.js';
import { PropertyReader } from '../../../src/core/properties/reader.js';

const pr = new PropertyReader({
  file: 'Bad.umap', names: ['None'], objectPath: (i) => (i === 0 ? null : i > 0 && i <= 4 ? `/Game/Bad.Bad:PersistentLevel.E${i - 1}` : undefined),
  versions: { ue4: 522, ue5: 1010, custom: null, cooked: true }, unversioned: false,
});

function read(cls: string, words: number[] | Uint8Array): NativeLevelObject {
  const bytes = words instanceof Uint8Array ? words : new Uint8Array(new Int32Array(words).buffer);
  return levelNativeReader(pr, new BinaryReader(bytes, 'Bad.umap'), { index: 0, name: 'X', class: cls, properties: [] }) as NativeLevelObject;
}

/** A row-major FMatrix of doubles: identity at `t`. */
const matrix = (t: [number, number, number]): number[] => [1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, t[0], t[1], t[2], 1];

describe('level native data, bad input', () => {
  it('a Level whose actor count runs past its bytes, or names an object outside the tables', () => {
    expect(read('Level', [0, 1000, 1, 2]).error).toMatch(/Actors count 1000 needs at least 4000 bytes/);
    expect(read('Level', [0, 2, 1, 99]).error).toMatch(/object index 99 is outside/);
    expect(read('Level', [0, 2, 1, 0]).actors).toEqual(['/Game/Bad.Bad:PersistentLevel.E0', null]);
  });

  it('an instanced component with noise, or a count that does not fit, has no instances and says so', () => {
    const noise = new Uint8Array(4096);
    let x = 12345;
    for (let i = 0; i < noise.length; i++) noise[i] = (x = (x * 1103515245 + 12345) >>> 0) >>> 24;
    expect(read('InstancedStaticMeshComponent', noise).error).toMatch(/bool is \d+, not 0 or 1/);
    noise.fill(0, 0, 4); // bHasGuid false: the rest is searched
    expect(read('InstancedStaticMeshComponent', noise).error).toMatch(/no per-instance transforms/);
    expect(read('InstancedStaticMeshComponent', [0, 0, 0, 0, 1, 1, 128, 0x7fffffff]).error).toMatch(/no per-instance transforms/);
  });

  it('an unknown prefix before the instance array: the search finds it, with its custom data', () => {
    const head = new Uint8Array(new Int32Array([0, 7, 7, 7, 128, 2]).buffer);
    const mats = new Uint8Array(new Float64Array([...matrix([1, 2, 3]), ...matrix([4, 5, 6])]).buffer);
    const custom = new Uint8Array([...new Uint8Array(new Int32Array([4, 2]).buffer), ...new Uint8Array(new Float32Array([0.5, 1.5]).buffer)]);
    const n = read('HierarchicalInstancedStaticMeshComponent', new Uint8Array([...head, ...mats, ...custom]));
    expect(n.error).toBeUndefined();
    expect(n.instances!.matrices.map((m) => m.slice(12, 15))).toEqual([[1, 2, 3], [4, 5, 6]]);
    expect(n.instances!.customData).toEqual([0.5, 1.5]);
  });
});

import { describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import {
  cityHash64, cityHash64Words, hex64, hexWords, packageIdFromName, packageIdValue, toLowerAscii,
} from '../../src/core/hash/cityhash64.js';
import { parseContainerHeader } from '../../src/core/iostore/container-header.js';
import { corpus } from '../support/corpus.js';

/**
 * The reference test data of Google's CityHash v1.1 (src/city-test.cc): a pseudorandom buffer,
 * and CityHash64(data + i*i, i) for i = 0..298 in the first column of testdata[i].
 */
function cityTestData(size: number): Uint8Array {
  const K0 = 0xc3a5c85c97cb3127n;
  const M = (1n << 64n) - 1n;
  const data = new Uint8Array(size);
  let a = 9n, b = 777n;
  for (let i = 0; i < size; i++) {
    a = (a + b) & M;
    b = (b + a) & M;
    a = ((a ^ (a >> 41n)) * K0) & M;
    b = (((b ^ (b >> 41n)) * K0) + BigInt(i)) & M;
    data[i] = Number((b >> 37n) & 0xffn);
  }
  return data;
}

// [length i, CityHash64(data + i*i, i)] from city-test.cc, covering every code path:
// 0, 1-3, 4-7, 8-16, 17-32, 33-64 and the 64-byte block loop (65+).
const VECTORS: [number, string][] = [
  [0, '9ae16a3b2f90404f'], [1, '541150e87f415e96'], [2, '0f3786a4b25827c1'], [3, 'ef923a7a1af78eab'],
  [4, '11df592596f41d88'], [5, '831f448bdc5600b3'], [6, '3eca803e70304894'], [7, '1b5a063fb4c7f9f1'],
  [8, 'a0f10149a0e538d6'], [9, 'fb8d9c70660b910b'], [10, '236827beae282a46'], [11, 'c385e435136ecf7c'],
  [12, 'e3f6828b6017086d'], [13, '851fff285561dca0'], [14, '61152a63595a96d9'], [15, '44473e03be306c88'],
  [16, '03ead5f21d344056'], [17, '6abbfde37ee03b5b'], [18, '0943e7ed63b3c080'], [19, 'd72ce05171ef8a1a'],
  [20, '4182832b52d63735'], [24, '36a097aa49519d97'], [31, '55bdb0e71e3edebd'], [32, '0782fa1b08b475e7'],
  [33, 'c5dc19b876d37a80'], [40, '4ec0b54cf1566aff'], [47, 'd8f2f234899bcab3'], [48, '584f28543864844f'],
  [56, '043c6252411ee3be'], [63, '12807833c463737c'], [64, 'e88419922b87176f'], [65, '105191e0ec8f7f60'],
  [66, 'a5b88bf7399a9f07'], [80, '58d943503bb6748f'], [100, '6369163565814de6'], [127, 'cbaa3cb8f64f54e0'],
  [128, 'b2e23e8116c2ba9f'], [129, '8aa77f52d7868eb9'], [150, '1de2119923e8ef3c'], [200, '07fc98006e25cac9'],
  [255, '915263c671b28809'], [256, '2b67cdd38c307a5e'], [298, '74c0b8a6821faafe'],
];

describe('CityHash64', () => {
  const data = cityTestData(298 * 298 + 298);

  it('matches the CityHash v1.1 reference vectors for every length class', () => {
    for (const [len, expected] of VECTORS) {
      const input = data.subarray(len * len, len * len + len);
      expect(hex64(cityHash64(input)), `length ${len}`).toBe(expected);
      const [h, l] = cityHash64Words(input);
      expect(hexWords(h, l)).toBe(expected);
    }
  });

  it('hashes views into larger buffers by their own bytes', () => {
    const copy = Uint8Array.from(data.subarray(100 * 100, 100 * 100 + 100));
    expect(hex64(cityHash64(copy))).toBe('6369163565814de6');
  });
});

describe('packageIdFromName', () => {
  it('gives the ids a UE4.27 container header lists for its packages', () => {
    const header = parseContainerHeader(readFileSync(corpus('headers/retoc427_ContainerHeader.bin')), 'retoc427_ContainerHeader.bin');
    const ids = new Set(header.packageIds);
    // Package names read from the zen427_* chunks; the header was written by the engine.
    for (const name of ['/Game/Blueprints/Attacks/DamageTypes/BP_SpicyChoppingDamage', '/Engine/Engine_MI_Shaders/T_Emissive']) {
      expect(ids.has(packageIdFromName(name)), name).toBe(true);
    }
    expect(packageIdFromName('/Game/Blueprints/Attacks/DamageTypes/BP_SpicyChoppingDamage')).toBe('22fd32646e72d32d');
    expect(packageIdFromName('/Engine/Engine_MI_Shaders/T_Emissive')).toBe('7b688c86ccf36760');
  });

  it('lowercases ASCII letters only and hashes UTF-16LE', () => {
    const id = packageIdFromName('/Game/Meshes/SM_Cube');
    expect(packageIdFromName('/game/meshes/sm_cube')).toBe(id);
    expect(packageIdFromName('/GAME/MESHES/SM_CUBE')).toBe(id);
    expect(id).toBe('516e7b3842b88189');
    expect(packageIdValue('/Game/Meshes/SM_Cube')).toBe(0x516e7b3842b88189n);
    // 'É' is not an ASCII letter: the engine's TChar::ToLower leaves it, so the ids differ.
    expect(packageIdFromName('/Game/É')).not.toBe(packageIdFromName('/Game/é'));
    expect(toLowerAscii('/Game/ÉA')).toBe('/game/Éa');
    // The name is hashed as given: no extension or object name is stripped.
    expect(packageIdFromName('/Game/Meshes/SM_Cube.SM_Cube')).not.toBe(id);
  });
});

import { describe, expect, it } from 'vitest';
import { packageOfObjectPath } from '../../src/core/package/object-path.js';

describe('packageOfObjectPath', () => {
  it('cuts an object path at its package, whatever follows the first dot or colon', () => {
    // Paths as cue58's Streaming.umap and MI_Fixture name them (CUE4Parse's fixture tests).
    expect(packageOfObjectPath('/Game/Fixtures/Materials/M_Fixture.M_Fixture')).toBe('/Game/Fixtures/Materials/M_Fixture');
    expect(packageOfObjectPath('/Game/Fixtures/Maps/Streaming_Sub.Streaming_Sub:PersistentLevel')).toBe('/Game/Fixtures/Maps/Streaming_Sub');
    // An actor under a level: the last dot is the actor's, not the package's.
    expect(packageOfObjectPath('/Game/Fixtures/Maps/Streaming.Streaming:PersistentLevel.Actor_1')).toBe('/Game/Fixtures/Maps/Streaming');
    expect(packageOfObjectPath('/Game/Fixtures/Maps/Streaming')).toBe('/Game/Fixtures/Maps/Streaming');
  });
});

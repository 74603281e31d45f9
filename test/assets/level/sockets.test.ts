/**
 * Socket offsets in a level's world placements. cue58's Streaming.umap attaches AttachmentChild
 * (relative (11, 22, 33), rot (10, 20, 30), scale (0.5, 1.5, 2.5)) to socket FixtureSocket of
 * AttachmentRoot (CUE4Parse's TraditionalLevelStreamingAndSceneAttachmentsDeserialize), a plain
 * scene component: no mesh, so no socket, and the child stays at its relative placement as the
 * engine leaves it. With AttachmentRoot given SM_Fixture, whose FixtureSocket sits at (12.5, -25,
 * 37.5), rot (10, 20, 30), scale (1.25, 0.75, 2) (StaticMeshPreservesLodsSectionsVertexStreamsAndSocket),
 * the child moves to the socket: its location is checked against the engine's matrices
 * (FRotationMatrix of each rotator, scaled, multiplied child * socket * root).
 */
import { describe, expect, it } from 'vitest';
import { placeLevel, readLevel } from '../../../src/core/assets/level/read.js';
import { readAttachSockets, socketKey } from '../../../src/core/assets/level/sockets.js';
import type { LevelAsset, LevelComponent } from '../../../src/core/assets/level/types.js';
import { withInstall } from '../../properties/helpers.js';
import { corpus } from '../../support/corpus.js';

const SM_FIXTURE = '/Game/Fixtures/Meshes/SM_Fixture.SM_Fixture';
const component = (l: LevelAsset, name: string): LevelComponent => l.actors.flatMap((a) => a.components).find((x) => x.name === name)!;

/** The engine's row-vector 4x4 of a location, rotator (degrees) and scale. */
function engineMatrix([x, y, z]: number[], [pitch, yaw, roll]: number[], [sx, sy, sz]: number[]): number[][] {
  const r = Math.PI / 180;
  const [SP, CP, SY, CY, SR, CR] = [Math.sin(pitch! * r), Math.cos(pitch! * r), Math.sin(yaw! * r), Math.cos(yaw! * r), Math.sin(roll! * r), Math.cos(roll! * r)];
  return [
    [CP * CY * sx!, CP * SY * sx!, SP * sx!, 0],
    [(SR * SP * CY - CR * SY) * sy!, (SR * SP * SY + CR * CY) * sy!, -SR * CP * sy!, 0],
    [-(CR * SP * CY + SR * SY) * sz!, (CY * SR - CR * SP * SY) * sz!, CR * CP * sz!, 0],
    [x!, y!, z!, 1],
  ];
}
const mul = (a: number[][], b: number[][]): number[][] => a.map((row) => [0, 1, 2, 3].map((c) => row.reduce((s, v, k) => s + v * b[k]![c]!, 0)));

describe('socket offsets', () => {
  it('Streaming: a socket of a plain scene component is no offset; of SM_Fixture\'s component, the child hangs at FixtureSocket', async () => {
    await withInstall(corpus('cue58/IoStore/Tagged/Zlib'), async (packages) => {
      const level = await readLevel({ packages, ref: '/Game/Fixtures/Maps/Streaming' }, undefined);
      const child = component(level, 'AttachmentChild');
      expect(level.notes).toEqual([]);
      expect(child.world).toEqual(child.relative);

      component(level, 'AttachmentRoot').staticMesh = SM_FIXTURE;
      const { sockets, notes } = await readAttachSockets(packages, level);
      expect(notes).toEqual([]);
      const socket = sockets.get(socketKey(SM_FIXTURE, 'FixtureSocket'))!;
      expect([socket.location, socket.rotation, socket.scale]).toEqual([{ x: 12.5, y: -25, z: 37.5 }, { pitch: 10, yaw: 20, roll: 30 }, { x: 1.25, y: 0.75, z: 2 }]);
      placeLevel(level, (mesh, name) => sockets.get(socketKey(mesh, name)));

      const m = mul(engineMatrix([11, 22, 33], [10, 20, 30], [0.5, 1.5, 2.5]), engineMatrix([12.5, -25, 37.5], [10, 20, 30], [1.25, 0.75, 2]));
      const w = component(level, 'AttachmentChild').world;
      expect(w.location.x).toBeCloseTo(m[3]![0]!, 6);
      expect(w.location.y).toBeCloseTo(m[3]![1]!, 6);
      expect(w.location.z).toBeCloseTo(m[3]![2]!, 6);
      expect(w.scale).toEqual({ x: 0.625, y: 1.125, z: 5 });
      // The root itself does not move.
      expect(component(level, 'AttachmentRoot').world.location).toEqual({ x: 0, y: 0, z: 0 });
    });
  });

  it('a socket the mesh does not have, and a mesh the install lacks, leave the child at its parent\'s origin with a note', async () => {
    await withInstall(corpus('cue58/IoStore/Tagged/Zlib'), async (packages) => {
      const level = await readLevel({ packages, ref: '/Game/Fixtures/Maps/Streaming' }, undefined);
      component(level, 'AttachmentRoot').staticMesh = SM_FIXTURE;
      component(level, 'AttachmentChild').attachSocket = 'NoSuchSocket';
      expect((await readAttachSockets(packages, level)).notes).toEqual([`${SM_FIXTURE} has no socket NoSuchSocket: what is attached to it is placed at its component's origin`]);
      component(level, 'AttachmentRoot').staticMesh = '/Game/Missing/SM_Gone.SM_Gone';
      const missing = await readAttachSockets(packages, level);
      expect([missing.sockets.size, missing.notes]).toEqual([0, ['/Game/Missing/SM_Gone.SM_Gone is not in the install: what is attached to its sockets (NoSuchSocket) is placed at its component\'s origin']]);
    });
  });
});

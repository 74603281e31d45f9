/** Animation sequences: the model (types.ts), the readers (read/), poses and curve values (evaluate.ts). */
export type * from './types.js';
export { ANIM_CLASSES, readAnimSequenceFile, readInstallAnimSequence, sequenceOf, type AnimReadOptions } from './read/read.js';
export { bonePositions, curveValue, frameAt, localPose, sampleKeys } from './evaluate.js';
export { animSummary, type AnimSummary } from './summary.js';
export { findSkeletalMesh, readAnimatedMesh, writeAnimatedGlb, type AnimatedMesh } from './animated-mesh.js';
export { animKind } from './kind.js';
export { COMPOSITION_CLASSES, compositionOf, readComposition } from './read/composition.js';
export { animCompositionKind } from './kind.js';

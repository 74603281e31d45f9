import type { HashCheck } from '../../../shared/api.js';

/** The "Verify hash" button's state for the selected file. */
export type VerifyState =
  | { state: 'idle' }
  | { state: 'running' }
  | { state: 'done'; result: HashCheck | null }
  | { state: 'error'; message: string };

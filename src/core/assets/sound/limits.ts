/** Highest sample rate and channel count a sound can have before it is corrupt data. */
export const MAX_SAMPLE_RATE = 768_000;
export const MAX_CHANNELS = 32;

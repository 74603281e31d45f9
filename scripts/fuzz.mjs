// `npm run fuzz [-- --seconds N --seed S --jobs J --only TEXT --no-save --api-share F]`: the long fuzzer
// (test/fuzz/driver.ts). It runs from the TypeScript sources through tsx.
import { register } from 'tsx/esm/api';
register();
await import('../test/fuzz/driver.ts');

/** Unreal Engine 1 and 2 packages (.u .utx .unr .uax .umx .usx .ukx ...). */
export { parseUe12Package } from './package.js';
export type { Ue12Package, Ue12Header, Ue12Name, Ue12Import, Ue12Export } from './package.js';
export { Ue12Version, ue12Generation } from './versions.js';
export { Ue12PackageFlags, Ue12ObjectFlags } from './flags.js';
export { ue12ToPackageModel } from './model.js';

export { Backend, MAX_READ, type BackendOptions, type OpenInstallFn } from './backend.js';
export { noDialogs, type Dialogs } from './dialogs.js';
export { RecentList, MAX_RECENT } from './recent.js';
export { isTextPath, extensionOf } from './text-types.js';

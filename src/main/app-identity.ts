/**
 * Who the app is to the OS. APP_ID is electron-builder.yml's appId (test/app/packaging.test.ts
 * keeps them equal): the Windows taskbar groups windows by it and macOS knows the bundle by it,
 * so it never changes once released.
 */
export const APP_NAME = 'PakScope';
export const APP_ID = 'io.github.pakscope';

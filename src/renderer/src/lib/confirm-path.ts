/**
 * The backend opens only paths the user gave (backend/path-grants.ts). A path typed in the page
 * is refused with NeedsConfirmation: in browser mode the page asks the user, then asks again with
 * `confirmed`; in Electron the main process has asked natively already, so its refusal stands.
 */
export async function withConfirmation<T>(native: boolean, question: string, call: (confirmed: boolean) => Promise<T>): Promise<T> {
  try {
    return await call(false);
  } catch (e) {
    if (native || !(e instanceof Error) || e.name !== 'NeedsConfirmation' || !window.confirm(question)) throw e;
    return call(true);
  }
}

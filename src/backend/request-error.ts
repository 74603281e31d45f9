/**
 * A request the backend refuses because of what it asks for (a file the install does not hold, a
 * closed install, a destination that cannot be used), not because PakScope failed. The browser
 * host answers it with `status` instead of 500; the app shows the message as it shows any error.
 */
export class RequestError extends Error {
  /** The HTTP status the browser host answers with: 400 bad request, 403 not allowed (path-grants.ts), 404 not found. */
  readonly status: 400 | 403 | 404;
  constructor(message: string, status: 400 | 403 | 404 = 400) {
    super(message);
    this.name = 'RequestError';
    this.status = status;
  }
}

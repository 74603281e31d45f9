/**
 * Paths the OS hands over (the command line, a second launch, macOS open-file) arrive whenever
 * they like: macOS sends open-file before the app is ready, a second launch can come while the
 * page is still loading. The inbox holds them until the page can take them. One install opens at
 * a time, so the newest path wins over one still waiting.
 */
export class OpenInbox {
  private waiting: string | null = null;
  private deliver: ((path: string) => void) | null = null;

  push(path: string | null): void {
    if (!path) return;
    if (this.deliver) this.deliver(path);
    else this.waiting = path;
  }

  /** Takes the waiting path out (it goes into the page URL instead). */
  take(): string | null {
    const path = this.waiting;
    this.waiting = null;
    return path;
  }

  /** The page is listening: a waiting path goes now, later ones as they come. */
  open(deliver: (path: string) => void): void {
    this.deliver = deliver;
    const path = this.take();
    if (path) deliver(path);
  }

  /** The page is gone: paths wait again. */
  close(): void {
    this.deliver = null;
  }
}

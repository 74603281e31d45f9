/**
 * stdout for the commands: text is buffered into large writes, writes wait for the pipe to
 * drain, and a reader that goes away (`pakscope ls x | head`) ends the command quietly through
 * BrokenPipe instead of an EPIPE crash. stderr carries warnings and errors, one line each.
 */
export class BrokenPipe extends Error {
  constructor() {
    super('stdout was closed by its reader');
    this.name = 'BrokenPipe';
  }
}

const FLUSH_AT = 64 * 1024;

export class Output {
  private buffer = '';
  /** Set once stdout fails; every later write rejects with it. */
  private failure: Error | undefined;
  private readonly waiters = new Set<(e?: Error) => void>();

  constructor(private readonly out: NodeJS.WriteStream = process.stdout, private readonly err: NodeJS.WriteStream = process.stderr) {
    out.on('error', (e: NodeJS.ErrnoException) => {
      // EPIPE: the reader is gone, which ends the command quietly. Anything else (a full disk)
      // is a failure of the system: the command fails with it.
      this.failure = e.code === 'EPIPE' ? new BrokenPipe() : Object.assign(new Error(`cannot write to stdout: ${e.message}`), { code: e.code });
      for (const wake of this.waiters) wake(this.failure);
      this.waiters.clear();
    });
  }

  /** Appends text to stdout; written in large pieces. */
  async text(s: string): Promise<void> {
    this.buffer += s;
    if (this.buffer.length >= FLUSH_AT) await this.flush();
  }

  async line(s = ''): Promise<void> {
    await this.text(`${s}\n`);
  }

  async bytes(b: Uint8Array): Promise<void> {
    await this.flush();
    await this.write(b);
  }

  async flush(): Promise<void> {
    if (this.buffer === '') return;
    const s = this.buffer;
    this.buffer = '';
    await this.write(s);
  }

  private write(chunk: string | Uint8Array): Promise<void> {
    if (this.failure) return Promise.reject(this.failure);
    if (this.out.write(chunk) && !this.failure) return Promise.resolve();
    return new Promise<void>((resolve, reject) => {
      if (this.failure) return reject(this.failure);
      const wake = (e?: Error): void => {
        this.out.off('drain', onDrain);
        this.waiters.delete(wake);
        if (e) reject(e);
        else resolve();
      };
      const onDrain = (): void => wake();
      this.out.once('drain', onDrain);
      this.waiters.add(wake);
    });
  }

  warn(message: string): void {
    this.err.write(`warning: ${message}\n`);
  }

  error(message: string): void {
    this.err.write(`error: ${message}\n`);
  }

  note(message: string): void {
    this.err.write(`${message}\n`);
  }
}

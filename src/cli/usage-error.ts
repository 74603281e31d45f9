/** A command line PakScope cannot act on (unknown command or option, wrong arguments): exit 2. */
export class UsageError extends Error {
  constructor(message: string, readonly command?: string) {
    super(message);
    this.name = 'UsageError';
  }
}

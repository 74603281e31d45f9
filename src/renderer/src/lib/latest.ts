/** What a request came to: its value, or its error's message. */
export type Outcome<T> = { value: T; error?: undefined } | { value?: undefined; error: string };

/**
 * Hands a request's outcome to `settle` unless the returned cancel function ran first. Return it
 * from an $effect: when the inputs change, the old request's late answer is dropped and can never
 * replace the newer one's.
 */
export function latest<T>(request: Promise<T>, settle: (outcome: Outcome<T>) => void): () => void {
  let stale = false;
  request.then(
    (value) => { if (!stale) settle({ value }); },
    (e: unknown) => { if (!stale) settle({ error: e instanceof Error ? e.message : String(e) }); },
  );
  return () => { stale = true; };
}

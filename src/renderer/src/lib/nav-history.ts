/**
 * Back and forward through the places the user went, as in a browser: going somewhere new after
 * going back drops the places ahead. Plain data, tested in Node.
 */
export class NavHistory<T> {
  #entries: T[] = [];
  #at = -1;
  readonly #same: (a: T, b: T) => boolean;
  readonly #limit: number;

  constructor(same: (a: T, b: T) => boolean, limit = 200) {
    this.#same = same;
    this.#limit = limit;
  }

  get current(): T | undefined {
    return this.#entries[this.#at];
  }
  get canBack(): boolean {
    return this.#at > 0;
  }
  get canForward(): boolean {
    return this.#at < this.#entries.length - 1;
  }

  /** Records a visit; the same place as the current one is not recorded twice (it replaces it). */
  visit(place: T): void {
    const current = this.current;
    if (current !== undefined && this.#same(current, place)) {
      this.#entries[this.#at] = place;
      return;
    }
    this.#entries = [...this.#entries.slice(0, this.#at + 1), place].slice(-this.#limit);
    this.#at = this.#entries.length - 1;
  }

  back(): T | undefined {
    if (!this.canBack) return undefined;
    return this.#entries[--this.#at];
  }

  forward(): T | undefined {
    if (!this.canForward) return undefined;
    return this.#entries[++this.#at];
  }

  clear(): void {
    this.#entries = [];
    this.#at = -1;
  }
}

/**
 * Node names: strings given, or numbers a name source turns into names when first asked for (a
 * package index's nameAt), so naming 250,000 packages while building makes no string. The first
 * name a node is given stays.
 */
export class NodeNames {
  private readonly given: (string | undefined)[] = [];
  /** Per node: the reference + 1 (0 = none). */
  private refs = new Int32Array(1024);
  private source: ((ref: number) => string) | undefined;

  /** Room for node n. */
  addNode(n: number): void {
    this.given.push(undefined);
    if (n >= this.refs.length) this.grow(n + 1);
  }

  grow(nodes: number): void {
    if (nodes <= this.refs.length) return;
    const refs = new Int32Array(Math.max(this.refs.length * 2, nodes));
    refs.set(this.refs);
    this.refs = refs;
  }

  setSource(source: (ref: number) => string): void { this.source = source; }

  get(n: number): string | undefined {
    const s = this.given[n];
    if (s !== undefined) return s;
    const r = this.refs[n]!;
    if (r === 0 || this.source === undefined) return undefined;
    const name = this.source(r - 1);
    this.given[n] = name;
    return name;
  }

  isNamed(n: number): boolean {
    return this.given[n] !== undefined || (this.refs[n]! !== 0 && this.source !== undefined);
  }

  set(n: number, name: string): void {
    if (!this.isNamed(n)) this.given[n] = name;
  }

  setRef(n: number, ref: number): void {
    if (!this.isNamed(n)) this.refs[n] = ref + 1;
  }
}
